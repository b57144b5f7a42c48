// Reads Storm's explicit dialect (storm_explicit.hpp). Storm's own parsers
// (storm-parsers: DeterministicSparseTransitionParser,
// NondeterministicSparseTransitionParser, AtomicPropositionLabelingParser,
// SparseStateRewardParser) fix the rules: the type comes from the first
// line, the number of states is the highest index + 1, rows come in order,
// a transition given twice, a label line for a state already read and an
// undeclared label are errors.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <numeric>
#include <set>

#include "common/error.hpp"
#include "common/text.hpp"
#include "formats/input_stream.hpp"
#include "formats/storm_explicit.hpp"
#include "formats/text_fields.hpp"
#include "model/model_memory.hpp"
#include "model/validation.hpp"

namespace pmc {
namespace {

namespace fs = std::filesystem;

bool blank(std::string_view line) { return line.find_first_not_of(" \t\r") == std::string_view::npos; }

std::string_view trim_cr(std::string_view line) {
  while (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

// The next line that is not blank, without its trailing '\r's; false at the
// end of the file.
bool next_nonblank(FileLineReader& in, std::string_view& line) {
  while (in.next(line)) {
    line = trim_cr(line);
    if (!blank(line)) return true;
  }
  return false;
}

// The state index that starts a line of a .lab or .state.rew file: Storm
// wants them increasing (each state once) and within the model's states.
class IncreasingStates {
 public:
  IncreasingStates(const FileLineReader& in, uint64_t num_states) : in_(in), num_states_(num_states) {}

  uint64_t read(TextFields& f) {
    const uint64_t state = f.integer("a state index");
    if (any_ && state <= last_) {
      in_.fail_at("state {} was found but has already been read or skipped previously (doubled or unsorted lines)", state);
    }
    if (state >= num_states_) in_.fail_at("state {} out of range (the model has {} states)", state, num_states_);
    any_ = true;
    last_ = state;
    return state;
  }

 private:
  const FileLineReader& in_;
  uint64_t num_states_;
  bool any_ = false;
  uint64_t last_ = 0;
};

class StormTransitionsReader {
 public:
  StormTransitionsReader(const std::string& path, const ModelOptions& options) : in_(path), options_(options) {}

  ModelParts read() {
    read_type();
    std::string_view line;
    while (next_nonblank(in_, line)) read_entry(line);
    finish();
    return std::move(parts_);
  }

 private:
  void read_type() {
    std::string_view line;
    if (!next_nonblank(in_, line)) {
      in_.fail_at("empty transitions file: expected the model type (dtmc, ctmc or mdp) on the first line");
    }
    TextFields f(in_, line);
    const std::string_view word = f.word();
    const std::string type = lower(word);  // Storm reads the hint case-insensitively
    if (type == "dtmc") parts_.type = ModelType::dtmc;
    else if (type == "ctmc") parts_.type = ModelType::ctmc;
    else if (type == "mdp") parts_.type = ModelType::mdp;
    else if (type == "ma") in_.fail_at("Markov automata (ma) are not supported by pmc");
    else f.fail_here(0, "expected the model type dtmc, ctmc or mdp, found {}", quote_for_message(word));
    f.expect_end();
    parts_.row_offsets.push_back(0);
  }

  void read_entry(std::string_view line) {
    TextFields f(in_, line);
    const bool mdp = parts_.type == ModelType::mdp;
    const uint64_t source = f.integer("a source state");
    const uint64_t choice = mdp ? f.integer("a choice index") : 0;
    f.at_end();  // skips the blanks, so that column() is the field's
    const size_t target_column = f.column();
    const uint64_t target = f.integer("a target state");
    if (source >= k_max_states || target >= k_max_states) {
      f.fail_here(target_column - 1, "state index {} is beyond pmc's limit of {} states (32-bit column indices)",
                  std::max(source, target), k_max_states);
    }
    f.at_end();
    const size_t value_column = f.column();
    const double value = f.real(parts_.type == ModelType::ctmc ? "a rate" : "a probability");
    if (auto problem = entry_value_problem(parts_.type, value); !problem.empty()) f.fail_here(value_column - 1, "{}", problem);
    f.expect_end();
    highest_ = std::max({highest_, source, target});
    any_ = true;
    move_to_row(source, choice);
    // A transition written with value 0 stays until Model::create drops it
    // with its rewards: Storm keeps it, and its .trans.rew may name it.
    parts_.columns.push_back(static_cast<uint32_t>(target));
    parts_.values.push_back(value);
  }

  std::string describe_current() const {
    return parts_.type == ModelType::mdp ? fmt::format("state {}, choice {}", state_, choice_) : fmt::format("state {}", state_);
  }

  uint64_t rows() const { return parts_.row_offsets.size() - 1; }

  // States before `state` that have no line have no transitions (Storm adds a
  // self-loop, as Model::create does).
  void begin_states_until(uint64_t state) {
    const uint64_t next = started_ ? state_ + 1 : 0;
    if (state > next) {
      const std::string where = fmt::format("{}:{}", in_.path(), in_.line_number());
      check_declared_count(state, in_.bytes_read(), "states", where);
      // The states up to this index (each gets a row) must fit
      // the memory limit before their rows are added.
      require_model_memory(parts_.type, state, rows() + (state - next), parts_.columns.size(), 0,
                           options_.memory_limit, where + ": state index " + std::to_string(state));
    }
    for (uint64_t s = next; s < state; ++s) {
      parts_.row_groups.push_back(rows());
      if (parts_.type != ModelType::mdp) parts_.row_offsets.push_back(parts_.columns.size());
    }
  }

  void move_to_row(uint64_t state, uint64_t choice) {
    if (started_ && state == state_ && choice == choice_) return;
    if (started_) {
      if (state < state_ || (state == state_ && choice < choice_)) {
        in_.fail_at("transitions must be sorted by source state{} (Storm's rule): {} after {}",
                    parts_.type == ModelType::mdp ? " and choice" : "",
                    parts_.type == ModelType::mdp ? fmt::format("state {} choice {}", state, choice) : fmt::format("state {}", state),
                    describe_current());
      }
      close_row();
    }
    // Storm numbers an MDP's choices by their order in the file: a new choice
    // index (larger than the last) starts the next row, gaps do not matter.
    if (!started_ || state != state_) {
      begin_states_until(state);
      parts_.row_groups.push_back(rows());
    }
    state_ = state;
    choice_ = choice;
    started_ = true;
    row_first_line_ = in_.line_number();
  }

  void close_row() {
    const uint64_t begin = parts_.row_offsets.back();
    const uint64_t end = parts_.columns.size();
    std::vector<uint64_t> order(end - begin);
    std::iota(order.begin(), order.end(), begin);
    std::stable_sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) { return parts_.columns[a] < parts_.columns[b]; });
    std::vector<uint32_t> columns(order.size());
    std::vector<double> values(order.size());
    for (size_t i = 0; i < order.size(); ++i) {
      columns[i] = parts_.columns[order[i]];
      values[i] = parts_.values[order[i]];
      if (i > 0 && columns[i] == columns[i - 1]) {
        fail(ErrorCode::parse, "{}: {} (from line {}): the same transition ({}, {}) is given twice", in_.path(),
             describe_current(), row_first_line_, state_, columns[i]);
      }
    }
    std::copy(columns.begin(), columns.end(), parts_.columns.begin() + static_cast<int64_t>(begin));
    std::copy(values.begin(), values.end(), parts_.values.begin() + static_cast<int64_t>(begin));
    if (has_probability_rows(parts_.type)) {
      double sum = 0;
      for (double v : values) sum += v;
      if (auto problem = row_sum_problem(sum, options_.row_sum_tolerance); !problem.empty()) {
        fail(ErrorCode::parse, "{}: {} (from line {}): {}", in_.path(), describe_current(), row_first_line_, problem);
      }
    }
    parts_.row_offsets.push_back(parts_.columns.size());
  }

  void finish() {
    if (!any_) in_.fail_at("no transitions after the model type (Storm's .tra lists `source target value` lines)");
    close_row();
    const uint64_t states = highest_ + 1;
    begin_states_until(states);
    parts_.row_groups.push_back(rows());
    parts_.num_states = states;
    if (parts_.type != ModelType::mdp) parts_.row_groups.clear();
  }

  FileLineReader in_;
  ModelOptions options_;
  ModelParts parts_;
  uint64_t highest_ = 0, state_ = 0, choice_ = 0, row_first_line_ = 0;
  bool any_ = false, started_ = false;
};

void read_storm_labels(const std::string& path, ModelParts& parts) {
  FileLineReader in(path);
  std::string_view line;
  std::map<std::string, size_t, std::less<>> index;  // label → position in parts.labels
  const size_t first_label = parts.labels.size();
  bool declaration = false, end = false;
  // #DECLARATION, the names (any number per line), #END.
  while (!end && in.next(line)) {
    line = trim_cr(line);
    TextFields f(in, line);
    while (!f.at_end()) {
      const size_t column = f.column() - 1;
      const std::string_view word = f.word();
      if (!declaration) {
        if (word != "#DECLARATION") {
          f.fail_here(column, "expected #DECLARATION (Storm's .lab starts with #DECLARATION, the label names, #END), found {}",
                      quote_for_message(word));
        }
        declaration = true;
        continue;
      }
      if (word == "#DECLARATION") f.fail_here(column, "#DECLARATION given twice");
      if (std::isdigit(static_cast<unsigned char>(word.front()))) {
        // A state line before #END: the declaration was never closed.
        f.fail_here(column, "missing #END after the label declarations (Storm's .lab: #DECLARATION, the names, #END, "
                            "then `state label ...` lines)");
      }
      if (word == "#END") {
        end = true;
        f.expect_end();
        break;
      }
      if (auto problem = name_problem(word, "label", false); !problem.empty()) f.fail_here(column, "{}", problem);
      if (index.count(word) != 0) f.fail_here(column, "label \"{}\" is declared twice", word);
      index.emplace(std::string(word), parts.labels.size());
      parts.labels.push_back({std::string(word), Bitset(parts.num_states)});
    }
  }
  if (!declaration) in.fail_at("empty label file: expected #DECLARATION, the label names, #END");
  if (!end) in.fail_at("missing #END after the label declarations (Storm's .lab: #DECLARATION, the names, #END, then `state label ...` lines)");
  IncreasingStates states(in, parts.num_states);
  while (next_nonblank(in, line)) {
    TextFields f(in, line);
    const uint64_t state = states.read(f);
    while (!f.at_end()) {
      const size_t column = f.column() - 1;
      const std::string_view word = f.word();
      auto it = index.find(word);
      if (it == index.end()) f.fail_here(column, "label {} was not declared between #DECLARATION and #END", quote_for_message(word));
      parts.labels[it->second].states.set(state);
    }
  }
  (void)first_label;
}

std::vector<double> read_storm_state_rewards(const std::string& path, uint64_t num_states) {
  FileLineReader in(path);
  std::vector<double> rewards(num_states, 0.0);
  std::string_view line;
  IncreasingStates states(in, num_states);
  while (next_nonblank(in, line)) {
    TextFields f(in, line);
    const uint64_t state = states.read(f);
    f.at_end();
    const size_t column = f.column() - 1;
    const double value = f.real("a reward");
    if (!std::isfinite(value)) f.fail_here(column, "reward {} is not a finite number", value);
    if (value < 0) f.fail_here(column, "state reward {} is negative (Storm's state rewards are >= 0)", value);
    f.expect_end();
    rewards[state] = value;
  }
  return rewards;
}

std::vector<double> read_storm_transition_rewards(const std::string& path, const ModelParts& parts) {
  FileLineReader in(path);
  const bool mdp = parts.type == ModelType::mdp;
  std::vector<double> rewards(parts.num_entries(), 0.0);
  std::vector<uint8_t> seen(parts.num_entries(), 0);
  const std::vector<uint64_t>* groups = mdp ? &parts.row_groups : nullptr;
  std::string_view line;
  bool first = true;
  while (next_nonblank(in, line)) {
    const size_t start = line.find_first_not_of(" \t");
    if (first && !std::isdigit(static_cast<unsigned char>(line[start]))) {
      first = false;  // Storm skips a type hint on the first line of a transition-reward file
      continue;
    }
    first = false;
    TextFields f(in, line);
    const uint64_t source = f.integer("a source state");
    const uint64_t choice = mdp ? f.integer("a choice index") : 0;
    const uint64_t target = f.integer("a target state");
    f.at_end();
    const size_t column = f.column() - 1;
    const double value = f.real("a reward");
    if (!std::isfinite(value)) f.fail_here(column, "reward {} is not a finite number", value);
    f.expect_end();
    if (source >= parts.num_states) in.fail_at("state {} out of range (the model has {} states)", source, parts.num_states);
    uint64_t row = source;
    if (mdp) {
      const uint64_t choices = (*groups)[source + 1] - (*groups)[source];
      if (choice >= choices) in.fail_at("state {} has no choice {} (it has {})", source, choice, choices);
      row = (*groups)[source] + choice;
    }
    const auto begin = parts.columns.begin() + static_cast<int64_t>(parts.row_offsets[row]);
    const auto end = parts.columns.begin() + static_cast<int64_t>(parts.row_offsets[row + 1]);
    const auto it = std::lower_bound(begin, end, static_cast<uint32_t>(std::min<uint64_t>(target, UINT32_MAX)));
    if (it == end || *it != target) {
      in.fail_at("a reward for a transition the model does not have: {}{} to state {}", mdp ? "" : "state ",
                 mdp ? fmt::format("state {} choice {}", source, choice) : fmt::format("{}", source), target);
    }
    const uint64_t e = static_cast<uint64_t>(it - parts.columns.begin());
    if (seen[e]) in.fail_at("the reward of transition ({}, {}) is given twice", source, target);
    seen[e] = 1;
    rewards[e] = value;
  }
  return rewards;
}

// "dir/foo.NAME.state.rew(.gz|.xz)" with suffix ".state.rew" → "dir/foo.NAME"; "" when it does not end so.
std::string reward_prefix(const std::string& path, std::string_view suffix) {
  const std::string p(strip_compression_suffix(path));
  return p.ends_with(suffix) ? p.substr(0, p.size() - suffix.size()) : std::string();
}

}  // namespace

bool is_storm_explicit_transitions(const std::string& tra_path) {
  FileLineReader in(tra_path);
  std::string_view line;
  while (in.next(line)) {
    const size_t i = line.find_first_not_of(" \t\r");
    if (i == std::string_view::npos) continue;
    // Storm's AutoParser reads the hint case-insensitively; "ma" is Storm's
    // too (refused later with its own message).
    size_t end = line.find_first_of(" \t\r", i);
    const std::string word = lower(line.substr(i, end == std::string_view::npos ? line.npos : end - i));
    return word == "dtmc" || word == "ctmc" || word == "mdp" || word == "ma";
  }
  return false;
}

StormFiles find_storm_siblings(const std::string& tra_path) {
  StormFiles files;
  files.transitions = tra_path;
  const std::string stem = strip_suffix(std::string(strip_compression_suffix(tra_path)), ".tra");
  files.labels = find_plain_or_compressed(stem + ".lab");
  StormRewardFiles unnamed{"", find_plain_or_compressed(stem + ".state.rew"), find_plain_or_compressed(stem + ".trans.rew")};
  if (!unnamed.state_file.empty() || !unnamed.transition_file.empty()) files.rewards.push_back(unnamed);
  // pmc's extension for several structures: stem.NAME.state.rew / .trans.rew.
  std::map<std::string, StormRewardFiles> named;
  const fs::path dir = fs::path(stem).parent_path();
  const std::string base = fs::path(stem).filename().string() + ".";
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir.empty() ? fs::path(".") : dir, ec)) {
    const std::string file = entry.path().filename().string();
    if (!file.starts_with(base)) continue;
    for (const char* suffix : {".state.rew", ".trans.rew"}) {
      const std::string prefix = reward_prefix(file, suffix);
      if (prefix.size() <= base.size()) continue;
      const std::string name = prefix.substr(base.size());
      const std::string path = (dir / file).string();
      StormRewardFiles& r = named[name];
      r.name = name;
      std::string& slot = std::string_view(suffix) == ".state.rew" ? r.state_file : r.transition_file;
      // Plain wins over compressed, and .gz over .xz, as find_plain_or_compressed.
      if (slot.empty() || !has_compression_suffix(path) || (slot.ends_with(".xz") && path.ends_with(".gz"))) slot = path;
    }
  }
  for (auto& [name, r] : named) files.rewards.push_back(r);
  return files;
}

StormFiles classify_storm_files(const std::vector<std::string>& paths) {
  StormFiles files;
  for (const std::string& path : paths) {
    const std::string p(strip_compression_suffix(path));
    if (p.ends_with(".tra")) {
      if (!files.transitions.empty()) fail(ErrorCode::invalid_argument, "two .tra files given: {} and {}", files.transitions, path);
      files.transitions = path;
    }
  }
  if (files.transitions.empty()) fail(ErrorCode::invalid_argument, "no .tra file among the Storm explicit files given");
  const std::string tra_stem = fs::path(strip_suffix(std::string(strip_compression_suffix(files.transitions)), ".tra")).filename().string();
  std::map<std::string, StormRewardFiles> rewards;
  for (const std::string& path : paths) {
    if (path == files.transitions) continue;
    const std::string p(strip_compression_suffix(path));
    if (p.ends_with(".lab")) {
      if (!files.labels.empty()) fail(ErrorCode::invalid_argument, "two .lab files given: {} and {}", files.labels, path);
      files.labels = path;
      continue;
    }
    bool matched = false;
    for (const char* suffix : {".state.rew", ".trans.rew"}) {
      const std::string prefix = reward_prefix(path, suffix);
      if (prefix.empty()) continue;
      const std::string base = fs::path(prefix).filename().string();
      const std::string name = base.starts_with(tra_stem + ".") ? base.substr(tra_stem.size() + 1) : "";
      StormRewardFiles& r = rewards[name];
      r.name = name;
      std::string& slot = std::string_view(suffix) == ".state.rew" ? r.state_file : r.transition_file;
      if (!slot.empty()) fail(ErrorCode::invalid_argument, "two {} files given for one reward structure: {} and {}", suffix, slot, path);
      slot = path;
      matched = true;
    }
    if (!matched) {
      fail(ErrorCode::invalid_argument, "{}: not a Storm explicit file (expected .tra, .lab, .state.rew or .trans.rew)", path);
    }
  }
  for (auto& [name, r] : rewards) files.rewards.push_back(r);
  return files;
}

ModelParts read_storm_explicit(const StormFiles& files, const ModelOptions& options) {
  ModelParts parts = StormTransitionsReader(files.transitions, options).read();
  if (!files.labels.empty()) read_storm_labels(files.labels, parts);
  for (const StormRewardFiles& r : files.rewards) {
    RewardStructure structure{r.name, {}, {}};
    if (!r.state_file.empty()) structure.state_rewards = read_storm_state_rewards(r.state_file, parts.num_states);
    if (!r.transition_file.empty()) structure.transition_rewards = read_storm_transition_rewards(r.transition_file, parts);
    parts.rewards.push_back(std::move(structure));
  }
  return parts;
}

}  // namespace pmc
