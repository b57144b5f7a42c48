// Reads a PRISM .tra file into the CSR arrays of a ModelParts, streaming:
// rows are built as lines arrive, so memory follows the data, not the header.
#include <algorithm>
#include <filesystem>
#include <numeric>
#include <unordered_map>

#include "common/huge_pages.hpp"
#include "formats/prism_explicit.hpp"
#include "formats/prism_readers.hpp"
#include "formats/text_fields.hpp"
#include "common/memory_limit.hpp"
#include "model/model_memory.hpp"
#include "model/validation.hpp"

namespace pmc {
namespace {

std::optional<ModelType> type_from_comment(std::string_view line) {
  // PRISM writes "# Transitions (DTMC)" etc.
  if (line.find("Transitions") == std::string_view::npos) return std::nullopt;
  auto open = line.find('('), close = line.find(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return std::nullopt;
  return model_type_from_string(line.substr(open + 1, close - open - 1));
}

class TransitionsReader {
 public:
  TransitionsReader(const std::string& path, std::optional<ModelType> forced, const ModelOptions& options)
      : in_(path), forced_(forced), options_(options) {}

  ModelParts read() {
    read_header();
    std::string_view line;
    while (in_.next_content(line)) read_entry(line);
    finish();
    return std::move(parts_);
  }

 private:
  void read_header() {
    std::string_view line;
    std::optional<ModelType> commented;
    while (in_.next(line)) {
      size_t i = line.find_first_not_of(" \t");
      if (i == std::string_view::npos) continue;
      if (line[i] == '#') {
        if (auto t = type_from_comment(line)) commented = t;
        continue;
      }
      break;
    }
    if (in_.line_number() == 0 || line.find_first_not_of(" \t") == std::string_view::npos || line.front() == '#') {
      in_.fail_at("empty transitions file: expected a header 'states transitions' or 'states choices transitions'");
    }
    TextFields f(in_, line);
    const uint64_t first = f.integer("the number of states");
    const uint64_t second = f.integer("the number of transitions");
    std::optional<uint64_t> third;
    if (!f.at_end()) third = f.integer("the number of transitions");
    f.expect_end();

    const ModelType shape = third ? ModelType::mdp : ModelType::dtmc;
    ModelType type = forced_.value_or(commented.value_or(shape));
    if (commented && forced_ && *commented != *forced_) {
      in_.fail_at("the file says it holds a {} but it is loaded as a {}", to_string(*commented), to_string(*forced_));
    }
    if (third && type != ModelType::mdp) {
      in_.fail_at("a header with three numbers (states choices transitions) belongs to an MDP, not a {}", to_string(type));
    }
    if (!third && type == ModelType::mdp) {
      in_.fail_at("an MDP header needs three numbers (states choices transitions); this one has two");
    }
    if (type == ModelType::pctmc) in_.fail_at("PRISM's explicit format has no parametric models; use DRN");
    parts_.type = type;
    states_ = first;
    if (states_ == 0) in_.fail_at("the header declares 0 states");
    if (states_ > k_max_states) {
      in_.fail_at("the header declares {} states; pmc's limit is {} (32-bit column indices)", states_, k_max_states);
    }
    declared_choices_ = third ? second : 0;
    declared_transitions_ = third ? *third : second;
    parts_.num_states = states_;

    // Reserve what the file on disk can hold at most, never what the header claims.
    std::error_code ec;
    const uint64_t disk = std::filesystem::file_size(in_.file_path(), ec);
    const uint64_t room = ec ? 0 : (in_.compressed() ? disk : disk / 6);
    // Before anything is reserved, the header's model must fit
    // the memory limit — its state count as claimed (states without lines
    // get rows all the same), once plausible for the file's size, and its
    // rows and transitions as far as an uncompressed file can hold them (a
    // line takes 6 bytes at least): a lie about those is reported by
    // finish() with the counts found.
    const std::string where = fmt::format("{}:{}", in_.path(), in_.line_number());
    const bool plain = !ec && !in_.compressed();
    const uint64_t lines_room = plain ? disk / 6 : UINT64_MAX;
    if (plain) check_declared_count(states_, disk, "states", where);
    require_model_memory(type, states_, std::min(third ? declared_choices_ : states_, lines_room),
                         std::min(declared_transitions_, lines_room), 0, options_.memory_limit,
                         where + ": the header's model");
    const uint64_t reserve = std::min(declared_transitions_, room);
    reserve_with_huge_pages(parts_.columns, reserve);
    reserve_with_huge_pages(parts_.values, reserve);
    reserve_with_huge_pages(parts_.row_offsets, std::min(third ? declared_choices_ : states_, room) + 1);
    parts_.row_offsets.push_back(0);
  }

  void read_entry(std::string_view line) {
    TextFields f(in_, line);
    const bool mdp = parts_.type == ModelType::mdp;
    const uint64_t source = f.integer("a source state");
    if (source >= states_) in_.fail_at("source state {} out of range (the header declares {} states)", source, states_);
    const uint64_t choice = mdp ? f.integer("a choice index") : 0;
    const size_t target_column = f.column();
    const uint64_t target = f.integer("a target state");
    if (target >= states_) {
      f.fail_here(target_column - 1, "target state {} out of range (the header declares {} states)", target, states_);
    }
    const size_t value_column = f.column();
    const double value = f.real(mdp || parts_.type == ModelType::dtmc ? "a probability" : "a rate");
    if (auto problem = entry_value_problem(parts_.type, value); !problem.empty()) {
      f.fail_here(value_column - 1, "{}", problem);
    }
    std::string_view action = f.word();
    f.expect_end();
    ++lines_;

    move_to_row(source, choice);
    row_last_line_ = in_.line_number();
    // A transition written with value 0 stays until Model::create drops it
    // with its rewards: a .trew may name it.
    const uint64_t row_begin = parts_.row_offsets.back();
    if (parts_.columns.size() > row_begin) {
      const uint32_t last = parts_.columns.back();
      if (target == last) in_.fail_at("{}: duplicate transition to state {}", describe_current(), target);
      if (target < last) row_sorted_ = false;
    }
    parts_.columns.push_back(static_cast<uint32_t>(target));
    parts_.values.push_back(value);
    row_sum_ += value;
    record_action(action);
  }

  std::string describe_current() const {
    if (parts_.type == ModelType::mdp) return fmt::format("state {}, choice {}", state_, choice_);
    return fmt::format("state {}", state_);
  }

  uint64_t rows() const { return parts_.row_offsets.size() - 1; }

  // States from the next expected one up to `state` (exclusive) have no
  // transitions: deadlocks, which Model::create fixes or rejects.
  void begin_states_until(uint64_t state) {
    const uint64_t next = started_ ? state_ + 1 : 0;
    if (state > next) {
      check_declared_count(state, in_.bytes_read(), "states", fmt::format("{}:{}", in_.path(), in_.line_number()));
    }
    for (uint64_t s = next; s < state; ++s) {
      parts_.row_groups.push_back(rows());
      if (parts_.type != ModelType::mdp) parts_.row_offsets.push_back(parts_.columns.size());  // empty row
    }
  }

  // Closes the open row and opens (state, choice). Rows must come in order.
  void move_to_row(uint64_t state, uint64_t choice) {
    if (started_ && state == state_ && choice == choice_) return;
    const bool mdp = parts_.type == ModelType::mdp;
    if (started_) {
      if (state < state_ || (state == state_ && choice < choice_)) {
        in_.fail_at("transitions must be sorted by source state{}: {} after {}", mdp ? " and choice" : "",
                    mdp ? fmt::format("state {} choice {}", state, choice) : fmt::format("state {}", state),
                    describe_current());
      }
      close_row();
    }
    const bool new_state = !started_ || state != state_;
    if (mdp) {
      const uint64_t expected = new_state ? 0 : choice_ + 1;
      if (choice != expected) {
        in_.fail_at("state {}: choice {} where choice {} was expected (choices are numbered 0, 1, ... in order)",
                    state, choice, expected);
      }
    }
    if (new_state) {
      begin_states_until(state);
      parts_.row_groups.push_back(rows());
    }
    state_ = state;
    choice_ = choice;
    started_ = true;
  }

  void close_row() {
    const uint64_t begin = parts_.row_offsets.back();
    if (!row_sorted_) sort_current_row(begin);
    if (has_probability_rows(parts_.type)) {
      if (auto problem = row_sum_problem(row_sum_, options_.row_sum_tolerance); !problem.empty()) {
        throw Error(ErrorCode::parse, fmt::format("{}: {} (ending at line {}): {}", in_.path(), describe_current(),
                                                  row_last_line_, problem));
      }
    }
    parts_.row_offsets.push_back(parts_.columns.size());
    row_sum_ = 0.0;
    row_sorted_ = true;
  }

  void sort_current_row(uint64_t begin) {
    const uint64_t end = parts_.columns.size();
    std::vector<uint64_t> order(end - begin);
    std::iota(order.begin(), order.end(), begin);
    std::sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) { return parts_.columns[a] < parts_.columns[b]; });
    auto permute = [&](auto& v) {
      using T = typename std::decay_t<decltype(v)>::value_type;
      std::vector<T> tmp(order.size());
      for (size_t i = 0; i < order.size(); ++i) tmp[i] = v[order[i]];
      std::copy(tmp.begin(), tmp.end(), v.begin() + static_cast<int64_t>(begin));
    };
    permute(parts_.columns);
    permute(parts_.values);
    if (!parts_.entry_actions.empty()) permute(parts_.entry_actions);
    for (uint64_t e = begin + 1; e < end; ++e) {
      if (parts_.columns[e] == parts_.columns[e - 1]) {
        in_.fail_at("{}: duplicate transition to state {}", describe_current(), parts_.columns[e]);
      }
    }
  }

  void record_action(std::string_view action) {
    if (action.empty()) {
      if (!parts_.entry_actions.empty()) parts_.entry_actions.push_back(0);
      return;
    }
    if (parts_.entry_actions.empty()) {
      // First labelled line: earlier entries had no action.
      parts_.action_names.assign(1, "");
      parts_.entry_actions.assign(parts_.columns.size() - 1, 0);
    }
    if (action != last_action_name_) {
      auto [it, inserted] = action_index_.try_emplace(std::string(action), static_cast<uint32_t>(parts_.action_names.size()));
      if (inserted) {
        if (auto problem = name_problem(action, "action", false); !problem.empty()) in_.fail_at("{}", problem);
        parts_.action_names.emplace_back(action);
      }
      last_action_name_ = it->first;
      last_action_ = it->second;
    }
    parts_.entry_actions.push_back(last_action_);
  }

  void finish() {
    const bool mdp = parts_.type == ModelType::mdp;
    if (started_) close_row();
    begin_states_until(states_);
    parts_.row_groups.push_back(rows());
    if (!mdp) parts_.row_groups.clear();  // one row per state; Model::create fills it
    if (lines_ != declared_transitions_) {
      fail(ErrorCode::parse, "{}: the header declares {} transitions but the file has {}", in_.path(),
           declared_transitions_, lines_);
    }
    if (mdp && parts_.num_rows() != declared_choices_) {
      fail(ErrorCode::parse, "{}: the header declares {} choices but the file has {}", in_.path(), declared_choices_,
           parts_.num_rows());
    }
  }

  FileLineReader in_;
  std::optional<ModelType> forced_;
  ModelOptions options_;
  ModelParts parts_;
  uint64_t states_ = 0, declared_choices_ = 0, declared_transitions_ = 0;
  uint64_t lines_ = 0;
  bool started_ = false, row_sorted_ = true;
  uint64_t state_ = 0, choice_ = 0;
  double row_sum_ = 0.0;
  uint64_t row_last_line_ = 0;
  std::unordered_map<std::string, uint32_t> action_index_;
  std::string_view last_action_name_;
  uint32_t last_action_ = 0;
};

}  // namespace

ModelParts read_prism_transitions(const std::string& path, std::optional<ModelType> type,
                                  const ModelOptions& options) {
  return TransitionsReader(path, type, options).read();
}

}  // namespace pmc
