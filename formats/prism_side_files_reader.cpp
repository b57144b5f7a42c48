// PRISM .lab, .srew, .trew and .sta files, read against a matrix already
// loaded (their state counts must match it).
#include <algorithm>
#include <cctype>
#include <cmath>

#include "common/huge_pages.hpp"
#include "formats/prism_readers.hpp"
#include "formats/text_fields.hpp"
#include "model/validation.hpp"

namespace pmc {
namespace {

// Leading comments of a reward file: `# Reward structure "name"` gives the
// name; the first other line is the header, returned in `header`.
struct RewardFileStart {
  std::optional<std::string> name;
  std::string_view header;
};

RewardFileStart read_reward_file_start(FileLineReader& in) {
  RewardFileStart start;
  std::string_view line;
  while (in.next(line)) {
    size_t i = line.find_first_not_of(" \t");
    if (i == std::string_view::npos) continue;
    if (line[i] != '#') {
      start.header = line;
      return start;
    }
    auto pos = line.find("Reward structure");
    if (pos != std::string_view::npos) {
      auto open = line.find('"', pos), close = line.rfind('"');
      start.name = (open != std::string_view::npos && close > open) ? std::string(line.substr(open + 1, close - open - 1))
                                                                    : std::string();
    }
  }
  in.fail_at("empty reward file: expected a header line");
}

void expect_state_count(TextFields& f, FileLineReader& in, const ModelParts& parts) {
  const uint64_t states = f.integer("the number of states");
  if (states != parts.num_states) {
    in.fail_at("the header declares {} states but the transitions file has {}", states, parts.num_states);
  }
}

void read_state_rewards(const std::string& path, const ModelParts& parts, RewardStructure& out,
                        std::optional<std::string>& name) {
  FileLineReader in(path);
  RewardFileStart start = read_reward_file_start(in);
  name = start.name;
  TextFields header(in, start.header);
  expect_state_count(header, in, parts);
  const uint64_t declared = header.integer("the number of state rewards");
  header.expect_end();
  std::vector<double> rewards(parts.num_states, 0.0);
  Bitset seen(parts.num_states);
  uint64_t count = 0;
  std::string_view line;
  while (in.next_content(line)) {
    TextFields f(in, line);
    const uint64_t state = f.integer("a state");
    if (state >= parts.num_states) in.fail_at("state {} out of range (the model has {} states)", state, parts.num_states);
    const size_t value_column = f.column();
    const double reward = f.real("a reward");
    f.expect_end();
    if (!std::isfinite(reward)) f.fail_here(value_column - 1, "reward {} is not a finite number", reward);
    if (seen.test(state)) in.fail_at("state {} is given a reward twice", state);
    seen.set(state);
    rewards[state] = reward;
    ++count;
  }
  if (count != declared) fail(ErrorCode::parse, "{}: the header declares {} rewards but the file has {}", path, declared, count);
  out.state_rewards = std::move(rewards);
}

// The "STATE:" that starts a line of a .lab or .sta file. `listed` has a
// bit per state of the model, set for those read so far: a state is listed
// at most once.
uint64_t read_listed_state(TextFields& f, const FileLineReader& in, Bitset& listed) {
  const uint64_t state = f.integer("a state index", ':');
  f.expect_char(':', "':' after the state index");
  if (state >= listed.size()) in.fail_at("state {} out of range (the model has {} states)", state, listed.size());
  if (listed.test(state)) in.fail_at("state {} is listed twice", state);
  listed.set(state);
  return state;
}

// The entry index of transition row → target, or -1.
int64_t find_entry(const ModelParts& parts, uint64_t row, uint64_t target) {
  auto first = parts.columns.begin() + static_cast<int64_t>(parts.row_offsets[row]);
  auto last = parts.columns.begin() + static_cast<int64_t>(parts.row_offsets[row + 1]);
  auto it = std::lower_bound(first, last, target);
  if (it == last || *it != target) return -1;
  return it - parts.columns.begin();
}

void read_transition_rewards(const std::string& path, const ModelParts& parts, RewardStructure& out,
                             std::optional<std::string>& name) {
  const bool mdp = parts.type == ModelType::mdp;
  FileLineReader in(path);
  RewardFileStart start = read_reward_file_start(in);
  name = start.name;
  TextFields header(in, start.header);
  expect_state_count(header, in, parts);
  if (mdp) {
    const uint64_t choices = header.integer("the number of choices");
    if (choices != parts.num_rows()) {
      in.fail_at("the header declares {} choices but the transitions file has {}", choices, parts.num_rows());
    }
  }
  const uint64_t declared = header.integer("the number of transition rewards");
  header.expect_end();
  std::vector<double> rewards;
  Bitset seen;
  uint64_t count = 0;
  std::string_view line;
  while (in.next_content(line)) {
    if (rewards.empty()) {
      reserve_with_huge_pages(rewards, parts.num_entries());
      rewards.assign(parts.num_entries(), 0.0);
      seen = Bitset(parts.num_entries());
    }
    TextFields f(in, line);
    const uint64_t state = f.integer("a source state");
    if (state >= parts.num_states) in.fail_at("state {} out of range (the model has {} states)", state, parts.num_states);
    uint64_t row = state;
    if (mdp) {
      const uint64_t choice = f.integer("a choice index");
      const uint64_t choices = parts.row_groups[state + 1] - parts.row_groups[state];
      if (choice >= choices) in.fail_at("state {} has {} choice(s), not choice {}", state, choices, choice);
      row = parts.row_groups[state] + choice;
    }
    const uint64_t target = f.integer("a target state");
    const size_t value_column = f.column();
    const double reward = f.real("a reward");
    f.expect_end();
    if (!std::isfinite(reward)) f.fail_here(value_column - 1, "reward {} is not a finite number", reward);
    const int64_t entry = find_entry(parts, row, target);
    if (entry < 0) {
      in.fail_at("{} has no transition to state {}", mdp ? fmt::format("state {}, choice {}", state, row - parts.row_groups[state])
                                                      : fmt::format("state {}", state), target);
    }
    if (seen.test(static_cast<uint64_t>(entry))) in.fail_at("this transition is given a reward twice");
    seen.set(static_cast<uint64_t>(entry));
    rewards[static_cast<uint64_t>(entry)] = reward;
    ++count;
  }
  if (count != declared) fail(ErrorCode::parse, "{}: the header declares {} rewards but the file has {}", path, declared, count);
  out.transition_rewards = std::move(rewards);
}

}  // namespace

void read_prism_labels(const std::string& path, ModelParts& parts) {
  FileLineReader in(path);
  std::string_view line;
  if (!in.next_content(line)) in.fail_at("empty labels file: expected a header like 0=\"init\" 1=\"deadlock\"");
  TextFields header(in, line);
  std::vector<std::pair<uint64_t, std::string>> declared;
  while (!header.at_end()) {
    const uint64_t index = header.integer("a label index", '=');
    header.expect_char('=', "'=' after the label index");
    std::string_view name = header.quoted("a label name in double quotes");
    if (auto problem = name_problem(name, "label", false); !problem.empty()) in.fail_at("{}", problem);
    declared.emplace_back(index, std::string(name));
  }
  // PRISM numbers its labels 0, 1, ...; map indices to positions.
  std::sort(declared.begin(), declared.end());
  for (size_t i = 0; i < declared.size(); ++i) {
    if (declared[i].first != i) in.fail_at("label indices must be 0, 1, ..., {} (found {})", declared.size() - 1, declared[i].first);
  }
  const size_t first_label = parts.labels.size();
  for (auto& [index, name] : declared) parts.labels.push_back(Label{std::move(name), Bitset(parts.num_states)});

  Bitset seen(parts.num_states);
  while (in.next_content(line)) {
    TextFields f(in, line);
    const uint64_t state = read_listed_state(f, in, seen);
    while (!f.at_end()) {
      const size_t column = f.column();
      const uint64_t label = f.integer("a label index");
      if (label >= declared.size()) {
        f.fail_here(column - 1, "unknown label index {} (the header declares {} labels)", label, declared.size());
      }
      parts.labels[first_label + label].states.set(state);
    }
  }
}

RewardStructure read_prism_rewards(const PrismRewardFiles& files, const ModelParts& parts) {
  RewardStructure rewards;
  std::optional<std::string> state_name, transition_name;
  if (!files.state_file.empty()) read_state_rewards(files.state_file, parts, rewards, state_name);
  if (!files.transition_file.empty()) read_transition_rewards(files.transition_file, parts, rewards, transition_name);
  if (state_name && transition_name && !state_name->empty() && !transition_name->empty() && *state_name != *transition_name) {
    fail(ErrorCode::parse, "{} names reward structure \"{}\" but {} names \"{}\"", files.state_file, *state_name,
         files.transition_file, *transition_name);
  }
  rewards.name = (state_name && !state_name->empty()) ? *state_name : transition_name.value_or("");
  return rewards;
}

void read_prism_valuations(const std::string& path, ModelParts& parts) {
  FileLineReader in(path);
  std::string_view line;
  if (!in.next_content(line)) in.fail_at("empty states file: expected a header like (x,y,z)");
  StateValuations v;
  {
    TextFields f(in, line);
    f.expect_char('(', "'(' starting the variable list");
    do {
      std::string_view name = f.identifier("a variable name");
      if (std::find(v.variables.begin(), v.variables.end(), name) != v.variables.end()) {
        in.fail_at("variable {} appears twice", name);
      }
      v.variables.emplace_back(name);
    } while (f.accept_char(','));
    f.expect_char(')', "')' closing the variable list");
    f.expect_end();
  }
  const size_t width = v.variables.size();
  v.is_bool.assign(width, 0);
  // Values grow with the lines read, in file order, and are put in state
  // order at the end: sizing them as states x variables up front let a
  // header of many variables beside a .tra of many states allocate
  // gigabytes before the missing lines were noticed (found by fuzzing).
  std::vector<int32_t> values;  // row-major, in the file's order
  std::vector<uint32_t> line_states;
  Bitset seen(parts.num_states);
  uint64_t count = 0;
  while (in.next_content(line)) {
    TextFields f(in, line);
    const uint64_t state = read_listed_state(f, in, seen);
    line_states.push_back(static_cast<uint32_t>(state));
    f.expect_char('(', "'(' starting the values");
    for (size_t k = 0; k < width; ++k) {
      if (k > 0) f.expect_char(',', "',' between values");
      const size_t column = f.column();
      std::string_view rest = f.rest();
      const bool is_bool = !rest.empty() && std::isalpha(static_cast<unsigned char>(rest.front()));
      int32_t value = 0;
      if (is_bool) {
        std::string_view word = f.identifier("true or false");
        if (word != "true" && word != "false") f.fail_here(column - 1, "expected an integer, true or false, found {}", quote_for_message(word));
        value = word == "true" ? 1 : 0;
      } else {
        value = f.signed_integer("an integer or boolean value", k + 1 == width ? ')' : ',');
      }
      if (count == 0) {
        v.is_bool[k] = is_bool ? 1 : 0;
      } else if (v.is_bool[k] != (is_bool ? 1 : 0)) {
        f.fail_here(column - 1, "variable {} is {} in earlier states", v.variables[k], v.is_bool[k] ? "boolean" : "an integer");
      }
      values.push_back(value);
    }
    f.expect_char(')', "')' closing the values");
    f.expect_end();
    ++count;
  }
  if (count != parts.num_states) {
    fail(ErrorCode::parse, "{}: valuations for {} of {} states (state {} is missing)", path, count, parts.num_states,
         [&] { uint64_t s = 0; while (s < parts.num_states && seen.test(s)) ++s; return s; }());
  }
  // PRISM writes states in order; any other order is permuted here.
  if (!std::is_sorted(line_states.begin(), line_states.end())) {
    std::vector<int32_t> ordered(values.size());
    for (size_t i = 0; i < line_states.size(); ++i) {
      std::copy_n(values.begin() + static_cast<int64_t>(i * width), width,
                  ordered.begin() + static_cast<int64_t>(uint64_t{line_states[i]} * width));
    }
    values = std::move(ordered);
  }
  parts.valuations = StateValuations(std::move(v.variables), std::move(v.is_bool), values);
}

}  // namespace pmc
