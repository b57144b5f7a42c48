#include <algorithm>
#include <charconv>
#include <cmath>
#include <unordered_map>

#include "common/text.hpp"
#include "formats/affine_expression.hpp"
#include "formats/drn.hpp"
#include "formats/file_line_reader.hpp"
#include "model/model_memory.hpp"
#include "model/validation.hpp"

namespace pmc {
namespace {

// DRN separates tokens by spaces and tabs only; any other byte is content.
std::string_view trim_blanks(std::string_view s) { return trim(s, " \t"); }

// Splits off the first blank-separated token of `line`.
std::string_view take_token(std::string_view& line) {
  line = trim_blanks(line);
  size_t end = line.find_first_of(" \t");
  std::string_view token = line.substr(0, end);
  line = end == std::string_view::npos ? std::string_view{} : trim_blanks(line.substr(end));
  return token;
}

class DrnReader {
 public:
  DrnReader(const std::string& path, const ModelOptions& options) : in_(path), options_(options) {}

  ModelParts read() {
    read_header();
    parts_.row_offsets.push_back(0);
    std::string_view line;
    while (in_.next(line)) {
      line = trim_blanks(line);
      if (line.empty() || line.starts_with("//")) continue;
      if (line.starts_with("state ") || line == "state") read_state(line.substr(5));
      else if (line.starts_with("action ") || line == "action") read_action(line.substr(6));
      else read_transition(line);
    }
    finish();
    return std::move(parts_);
  }

 private:
  template <typename... Args>
  [[noreturn]] void error(fmt::format_string<Args...> format, Args&&... args) const {
    in_.fail_at(format, std::forward<Args>(args)...);
  }

  std::string_view next_header_line() {
    std::string_view line;
    if (!in_.next(line)) error("the file ends inside the header");
    return trim_blanks(line);
  }

  void read_header() {
    std::string_view line;
    bool saw_type = false, saw_states = false, saw_parameters = false, saw_placeholders = false;
    std::string held;  // keeps a read-ahead line alive for this iteration
    while (true) {
      if (!pending_.empty()) {
        held = std::move(pending_);
        pending_.clear();
        line = held;
      } else if (!in_.next(line)) {
        fail(ErrorCode::parse, "{}: no @model section (is this a DRN file?)", in_.path());
      }
      line = trim_blanks(line);
      if (line.empty() || line.starts_with("//")) continue;
      if (line.starts_with("@type:")) {
        std::string type(trim_blanks(line.substr(6)));
        if (type == "DTMC") parts_.type = ModelType::dtmc;
        else if (type == "CTMC") parts_.type = ModelType::ctmc;
        else if (type == "MDP") parts_.type = ModelType::mdp;
        else error("model type {} is not supported (pmc reads DTMC, CTMC and MDP)", quote_for_message(type));
        saw_type = true;
      } else if (line.starts_with("@value_type:")) {
        std::string_view vt = trim_blanks(line.substr(12));
        if (vt == "double" || vt == "rational") parametric_ = false;
        else if (vt == "parametric") parametric_ = true;
        else error("value type {} is not supported (double, rational or parametric)", quote_for_message(vt));
      } else if (line == "@parameters") {
        // Placeholders are parsed against the parameters declared before
        // them: declared again or later, the placeholders' coefficients
        // would not match them (found by fuzzing: an access out of bounds).
        if (saw_placeholders) error("@parameters after @placeholders (placeholders are written in the parameters)");
        if (saw_parameters) error("@parameters is given twice");
        saw_parameters = true;
        parameters_ = split_words(next_header_line());
        for (const auto& p : parameters_) {
          if (auto problem = name_problem(p, "parameter", false); !problem.empty()) error("{}", problem);
          if (std::count(parameters_.begin(), parameters_.end(), p) > 1) error("parameter {} is declared twice", p);
        }
      } else if (line == "@placeholders") {
        saw_placeholders = true;
        read_placeholders();
      } else if (line == "@reward_models") {
        reward_names_ = split_words(next_header_line());
      } else if (line == "@nr_states") {
        declared_states_ = header_number(next_header_line(), "the number of states");
        saw_states = true;
      } else if (line == "@nr_choices") {
        declared_choices_ = header_number(next_header_line(), "the number of choices");
      } else if (line == "@model") {
        break;
      } else {
        error("unknown header line {}", quote_for_message(line));
      }
    }
    if (!saw_type) error("@model before @type");
    if (!saw_states) error("@model before @nr_states");
    if (declared_states_ == 0) error("@nr_states is 0");
    if (declared_states_ > k_max_states) error("{} states exceed pmc's limit of {}", declared_states_, k_max_states);
    if (!parametric_ && !parameters_.empty()) parametric_ = true;  // as Storm: parameters imply parametric values
    if (parametric_ && !parameters_.empty()) {
      if (parts_.type != ModelType::ctmc) {
        error("parametric {}s are not supported: pmc handles parametric CTMCs", to_string(parts_.type));
      }
      parts_.type = ModelType::pctmc;
      for (const auto& name : parameters_) parts_.parameters.push_back(Parameter{name});
    }
    rewards_.resize(reward_names_.size());
    // The declared model must fit the memory limit (reading
    // follows the data, but would fail only once memory is full).
    require_model_memory(parts_.type, declared_states_, declared_choices_, 0, parts_.parameters.size(),
                         options_.memory_limit, fmt::format("{}:{}: the header's model", in_.path(), in_.line_number()));
  }

  uint64_t header_number(std::string_view text, std::string_view what) {
    uint64_t value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || ptr != text.data() + text.size()) error("expected {}, found {}", what, quote_for_message(text));
    return value;
  }

  // Placeholder lines run until the next '@' section, which is kept in
  // pending_ for read_header.
  void read_placeholders() {
    std::string_view line;
    while (true) {
      line = next_header_line();
      if (line.empty()) continue;
      if (line.front() == '@') {
        pending_ = std::string(line);
        return;
      }
      if (line.front() != '$') error("expected a placeholder '$name : value', found {}", quote_for_message(line));
      const size_t colon = line.find(':');
      if (colon == std::string_view::npos) error("placeholder without ':'");
      std::string name(trim_blanks(line.substr(1, colon - 1)));
      auto value = parse_value(trim_blanks(line.substr(colon + 1)));
      if (!placeholders_.emplace(name, value).second) error("placeholder ${} is defined twice", name);
    }
  }

  AffineExpression parse_value(std::string_view text) {
    if (text.empty()) error("expected a value, found nothing");
    if (text.front() == '$') {
      auto it = placeholders_.find(std::string(text.substr(1)));
      if (it == placeholders_.end()) error("unknown placeholder {}", quote_for_message(text));
      return it->second;
    }
    AffineExpression value;
    if (!parametric_) {
      // Fast path: a plain number.
      double x = 0.0;
      auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
      if (ec == std::errc{} && ptr == text.data() + text.size()) {
        value.constant = x;
        return value;
      }
    }
    try {
      return parse_affine_expression(text, parameters_);
    } catch (const Error& e) {
      error("{}", e.what());
    }
  }

  std::string describe(const AffineExpression& v) const {
    return format_affine_expression(v.constant, v.coefficients.data(), parameters_);
  }

  std::vector<double> parse_reward_list(std::string_view& line, std::string_view owner) {
    // "[r1, r2, ...]" at the start of `line`
    const size_t close = line.find(']');
    if (close == std::string_view::npos) error("reward list of {} has no closing ']'", owner);
    std::string_view inner = line.substr(1, close - 1);
    line = trim_blanks(line.substr(close + 1));
    std::vector<double> values;
    size_t start = 0;
    while (start <= inner.size()) {
      size_t comma = inner.find(',', start);
      std::string_view item = trim_blanks(inner.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
      AffineExpression v = parse_value(item);
      if (std::any_of(v.coefficients.begin(), v.coefficients.end(), [](double a) { return a != 0.0; })) {
        error("parametric rewards are not supported ({})", quote_for_message(item));
      }
      if (!std::isfinite(v.constant)) error("reward {} is not a finite number", v.constant);
      values.push_back(v.constant);
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    if (values.size() > rewards_.size()) {
      if (!reward_names_.empty()) {
        error("{} lists {} rewards but @reward_models declares {}", owner, values.size(), reward_names_.size());
      }
      // Storm names undeclared reward models rew0, rew1, ...
      while (rewards_.size() < values.size()) {
        reward_names_.push_back(fmt::format("rew{}", rewards_.size()));
        rewards_.emplace_back();
      }
    }
    return values;
  }

  void read_state(std::string_view line) {
    close_state();
    std::string_view id_text = take_token(line);
    const uint64_t id = header_number(id_text, "a state index");
    if (id != states_) error("state {} where state {} was expected (states must be listed in order)", id, states_);
    if (states_ >= declared_states_) error("more states than @nr_states declares ({})", declared_states_);
    ++states_;
    parts_.row_groups.push_back(parts_.num_rows());
    actions_in_state_ = 0;
    if (is_continuous_time(parts_.type)) {
      if (!line.starts_with("!")) error("state {}: the exit rate '!rate' is missing", id);
      line.remove_prefix(1);
      exit_rate_ = parse_value(take_token(line));
    }
    if (line.starts_with("{")) error("state {}: observations belong to POMDPs, which pmc does not read", id);
    if (line.starts_with("[")) {
      std::vector<double> values = parse_reward_list(line, fmt::format("state {}", id));
      for (size_t k = 0; k < values.size(); ++k) {
        if (values[k] == 0.0) continue;
        if (rewards_[k].state.size() < states_) rewards_[k].state.resize(states_, 0.0);
        rewards_[k].state[states_ - 1] = values[k];
      }
    }
    // Labels: blank-separated, optionally in double quotes.
    while (!line.empty()) {
      std::string name;
      if (line.front() == '"') {
        const size_t close = line.find('"', 1);
        if (close == std::string_view::npos) error("label without closing double quote");
        name = std::string(line.substr(1, close - 1));
        line = trim_blanks(line.substr(close + 1));
      } else {
        name = std::string(take_token(line));
      }
      if (auto problem = name_problem(name, "label", false); !problem.empty()) error("{}", problem);
      auto [it, inserted] = label_index_.try_emplace(name, label_states_.size());
      if (inserted) {
        label_names_.push_back(name);
        label_states_.emplace_back();
      }
      auto& states = label_states_[it->second];
      if (!states.empty() && states.back() == states_ - 1) error("label {} given twice", quote_for_message(name));
      states.push_back(states_ - 1);
    }
  }

  void read_action(std::string_view line) {
    if (states_ == 0) error("action before the first state");
    if (actions_in_state_ > 0) {
      if (parts_.type != ModelType::mdp) error("state {}: a {} has one action per state", states_ - 1, to_string(parts_.type));
      close_row();
    }
    std::string_view name = take_token(line);
    if (name.empty()) error("action without a name");
    // Storm writes the local index (or __NOLABEL__) for unlabelled choices.
    const bool unlabelled = name == "__NOLABEL__" || name == std::to_string(actions_in_state_);
    ++actions_in_state_;
    row_open_ = true;
    row_sum_ = 0.0;
    row_action_ = 0;
    if (!unlabelled) {
      if (auto problem = name_problem(name, "action", false); !problem.empty()) error("{}", problem);
      auto [it, inserted] = action_index_.try_emplace(std::string(name), static_cast<uint32_t>(parts_.action_names.size() + (parts_.action_names.empty() ? 1 : 0)));
      if (inserted) {
        if (parts_.action_names.empty()) parts_.action_names.emplace_back();
        parts_.action_names.emplace_back(name);
      }
      row_action_ = it->second;
    }
    row_rewards_.assign(rewards_.size(), 0.0);
    if (line.starts_with("[")) {
      std::vector<double> values = parse_reward_list(line, fmt::format("state {}, action {}", states_ - 1, name));
      row_rewards_.resize(rewards_.size(), 0.0);
      std::copy(values.begin(), values.end(), row_rewards_.begin());
    }
    if (!line.empty()) error("unexpected text {} after the action", quote_for_message(line));
  }

  void read_transition(std::string_view line) {
    if (!row_open_) error("a transition needs a 'state' and an 'action' line before it, found {}", quote_for_message(line));
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) error("expected 'target : value', found {}", quote_for_message(line));
    const uint64_t target = header_number(trim_blanks(line.substr(0, colon)), "a target state");
    if (target >= declared_states_) error("target state {} out of range (@nr_states is {})", target, declared_states_);
    const AffineExpression value = parse_value(trim_blanks(line.substr(colon + 1)));
    if (parts_.type != ModelType::pctmc) {
      if (auto problem = entry_value_problem(parts_.type, value.constant); !problem.empty()) error("{}", problem);
    }
    const uint64_t row_begin = parts_.row_offsets.back();
    for (uint64_t e = row_begin; e < parts_.columns.size(); ++e) {
      if (parts_.columns[e] == target) error("duplicate transition to state {}", target);
    }
    parts_.columns.push_back(static_cast<uint32_t>(target));
    parts_.values.push_back(value.constant);
    parts_.coefficients.insert(parts_.coefficients.end(), value.coefficients.begin(), value.coefficients.end());
    row_sum_ += value.constant;
    row_coefficient_sums_.resize(parameters_.size(), 0.0);
    for (size_t k = 0; k < value.coefficients.size(); ++k) row_coefficient_sums_[k] += value.coefficients[k];
    if (row_action_ != 0 && parts_.entry_actions.empty()) parts_.entry_actions.assign(parts_.columns.size() - 1, 0);
    if (!parts_.entry_actions.empty()) parts_.entry_actions.push_back(row_action_);
    for (size_t k = 0; k < rewards_.size(); ++k) {
      if (row_rewards_[k] == 0.0) continue;
      auto& t = rewards_[k].transition;
      if (t.size() < parts_.columns.size()) t.resize(parts_.columns.size(), 0.0);
      t[parts_.columns.size() - 1] = row_rewards_[k];
    }
  }

  void close_row() {
    if (!row_open_) return;
    if (has_probability_rows(parts_.type) && parts_.columns.size() > parts_.row_offsets.back()) {
      if (auto problem = row_sum_problem(row_sum_, options_.row_sum_tolerance); !problem.empty()) {
        error("state {}: {}", states_ - 1, problem);
      }
    }
    parts_.row_offsets.push_back(parts_.columns.size());
    row_open_ = false;
  }

  void close_state() {
    if (states_ == 0) return;
    if (actions_in_state_ == 0 && parts_.type != ModelType::mdp) {
      row_open_ = true;  // no action line: an empty row (absorbing / deadlock)
      row_sum_ = 0.0;
    }
    if (is_continuous_time(parts_.type)) check_exit_rate();
    close_row();
  }

  // Storm writes each state's exit rate; pmc derives it from the rates, so a
  // disagreement only earns a warning.
  void check_exit_rate() {
    bool differs = !same_up_to_storm_rounding(exit_rate_.constant, row_sum_);
    for (size_t k = 0; k < parameters_.size(); ++k) {
      const double a = k < row_coefficient_sums_.size() ? row_coefficient_sums_[k] : 0.0;
      const double b = k < exit_rate_.coefficients.size() ? exit_rate_.coefficients[k] : 0.0;
      differs = differs || !same_up_to_storm_rounding(b, a);
    }
    if (differs && exit_rate_mismatches_++ == 0) {
      parts_.warnings.push_back(fmt::format("{}: state {}: exit rate {} differs from the sum of its rates ({}); pmc uses the rates",
                                            in_.path(), states_ - 1, describe(exit_rate_), row_sum_));
    }
    row_coefficient_sums_.assign(parameters_.size(), 0.0);
  }

  // Storm writes exit rates with its stream's default 6 significant digits
  // (in one Storm CTMC 36 of 276 states were off by more than 1e-6),
  // i.e. off by up to half a unit in the 6th digit: 5e-6 of the value. The
  // 1e-9 on top absorbs the sum's own rounding.
  static bool same_up_to_storm_rounding(double written, double sum) {
    const double scale = std::max(std::fabs(written), std::fabs(sum));
    return std::fabs(written - sum) <= 5e-6 * (1 + 1e-9) * scale;
  }

  void finish() {
    close_state();
    if (states_ != declared_states_) {
      fail(ErrorCode::parse, "{}: @nr_states declares {} states but the file has {}", in_.path(), declared_states_, states_);
    }
    parts_.num_states = states_;
    parts_.row_groups.push_back(parts_.num_rows());
    if (parts_.type != ModelType::mdp) {
      if (declared_choices_ != 0 && declared_choices_ != states_) {
        fail(ErrorCode::parse, "{}: @nr_choices is {} but a {} has one choice per state ({})", in_.path(),
             declared_choices_, to_string(parts_.type), states_);
      }
      parts_.row_groups.clear();
    } else if (declared_choices_ != 0 && declared_choices_ != parts_.num_rows()) {
      fail(ErrorCode::parse, "{}: @nr_choices declares {} choices but the file has {}", in_.path(), declared_choices_,
           parts_.num_rows());
    }
    for (size_t i = 0; i < label_names_.size(); ++i) {
      Label label{label_names_[i], Bitset(states_)};
      for (uint64_t s : label_states_[i]) label.states.set(s);
      parts_.labels.push_back(std::move(label));
    }
    for (size_t k = 0; k < rewards_.size(); ++k) {
      RewardStructure r{reward_names_[k], std::move(rewards_[k].state), std::move(rewards_[k].transition)};
      if (!r.state_rewards.empty()) r.state_rewards.resize(states_, 0.0);
      if (!r.transition_rewards.empty()) r.transition_rewards.resize(parts_.num_entries(), 0.0);
      parts_.rewards.push_back(std::move(r));
    }
    if (parts_.type != ModelType::pctmc) parts_.coefficients.clear();
    if (exit_rate_mismatches_ > 1) {
      parts_.warnings.push_back(fmt::format("{}: {} states in all have an exit rate that differs from their rates", in_.path(), exit_rate_mismatches_));
    }
  }

  struct RewardColumns {
    std::vector<double> state, transition;
  };

  FileLineReader in_;
  ModelOptions options_;
  ModelParts parts_;
  std::string pending_;  // a header line read ahead
  bool parametric_ = false;
  std::vector<std::string> parameters_;
  std::unordered_map<std::string, AffineExpression> placeholders_;
  std::vector<std::string> reward_names_;
  std::vector<RewardColumns> rewards_;
  uint64_t declared_states_ = 0, declared_choices_ = 0;
  uint64_t states_ = 0;
  uint64_t actions_in_state_ = 0;
  bool row_open_ = false;
  double row_sum_ = 0.0;
  std::vector<double> row_coefficient_sums_;
  uint32_t row_action_ = 0;
  std::vector<double> row_rewards_;
  AffineExpression exit_rate_;
  uint64_t exit_rate_mismatches_ = 0;
  std::unordered_map<std::string, uint32_t> action_index_;
  std::unordered_map<std::string, size_t> label_index_;
  std::vector<std::string> label_names_;
  std::vector<std::vector<uint64_t>> label_states_;
};

}  // namespace

ModelParts read_drn(const std::string& path, const ModelOptions& options) {
  return DrnReader(path, options).read();
}

}  // namespace pmc
