#include "formats/prism_language/successors.hpp"

#include <cmath>
#include <string>
#include <unordered_map>

#include "common/error.hpp"

namespace pmc::prism_language {
namespace {

// PRISM's default "sum round-off" (PrismSettings.PRISM_SUM_ROUND_OFF): a
// command's probabilities may differ from 1 by this much.
constexpr double k_probability_sum_tolerance = 1e-5;

}  // namespace

std::string describe_state(const PrismModel& program, std::span<const int32_t> values) {
  std::string out = "(";
  for (size_t i = 0; i < program.variables.size() && i < values.size(); ++i) {
    if (i > 0) out += ',';
    out += program.variables[i].name;
    out += '=';
    if (program.variables[i].type == ValueType::boolean) {
      out += values[i] != 0 ? "true" : "false";
    } else {
      out += std::to_string(values[i]);
    }
  }
  return out + ")";
}

bool has_command_rewards(const PrismModel& program) {
  for (const Module& module : program.modules) {
    for (const Command& command : module.commands) {
      if (!command.rewards.empty()) return true;
    }
  }
  return false;
}

std::vector<uint32_t> transition_reward_structures(const PrismModel& program) {
  std::vector<bool> with(program.rewards.size(), false);
  for (size_t r = 0; r < program.rewards.size(); ++r) with[r] = !program.rewards[r].transition_items.empty();
  for (const Module& module : program.modules) {
    for (const Command& command : module.commands) {
      for (const CommandReward& reward : command.rewards) {
        if (reward.structure < with.size()) with[reward.structure] = true;
      }
    }
  }
  std::vector<uint32_t> out;
  for (uint32_t r = 0; r < with.size(); ++r) {
    if (with[r]) out.push_back(r);
  }
  return out;
}

namespace {

// Each command's guard class: commands whose guards have the same code
// share one (found by their text, confirmed by the code); a guard no other
// command has gets `unshared`.
std::unordered_map<const Command*, uint32_t> guard_classes(const PrismModel& program, uint32_t unshared,
                                                           uint32_t& classes) {
  std::unordered_map<std::string, std::vector<const Command*>> by_text;
  for (const Module& module : program.modules) {
    for (const Command& command : module.commands) by_text[command.guard.to_string()].push_back(&command);
  }
  std::unordered_map<const Command*, uint32_t> out;
  classes = 0;
  for (auto& [text, commands] : by_text) {
    std::vector<bool> placed(commands.size(), false);
    for (size_t i = 0; i < commands.size(); ++i) {
      if (placed[i]) continue;
      std::vector<size_t> same{i};
      for (size_t j = i + 1; j < commands.size(); ++j) {
        if (!placed[j] && commands[j]->guard.same_code(commands[i]->guard)) same.push_back(j);
      }
      const uint32_t c = same.size() > 1 ? classes++ : unshared;
      for (size_t k : same) {
        placed[k] = true;
        out[commands[k]] = c;
      }
    }
  }
  return out;
}

}  // namespace

SuccessorGenerator::SuccessorGenerator(const PrismModel& program, const StateLayout& layout)
    : program_(program),
      layout_(layout),
      words_(layout.words()),
      rates_(program.type == ModelType::ctmc),
      participants_(program.actions.size()),
      record_commands_(has_command_rewards(program)) {
  uint32_t classes = 0;
  const std::unordered_map<const Command*, uint32_t> class_of = guard_classes(program, k_unshared, classes);
  guard_state_.assign(classes, 0);
  guard_holds_.assign(classes, 0);
  auto tags = [&](const std::vector<const Command*>& commands) {
    std::vector<uint32_t> out;
    for (const Command* c : commands) out.push_back(class_of.at(c));
    return out;
  };
  std::vector<const Command*> local;
  for (uint32_t m = 0; m < program.modules.size(); ++m) {
    const Module& module = program.modules[m];
    for (const Command& command : module.commands) {
      if (command.action == 0) local.push_back(&command);
    }
    for (uint32_t action : module.alphabet) {
      if (action == 0 || action >= participants_.size()) {
        fail(ErrorCode::internal, "module {}: action index {} in its alphabet is not one of the program's {} actions",
             module.name, action, program.actions.size());
      }
      std::vector<const Command*> labelled;
      for (const Command& command : module.commands) {
        if (command.action == action) labelled.push_back(&command);
      }
      participants_[action].push_back({m, GuardIndex(labelled, program.variables, tags(labelled))});
    }
  }
  local_commands_ = GuardIndex(local, program.variables, tags(local));
  source_.resize(words_);
}

void SuccessorGenerator::fail_in_state(const SourceLocation& where, const std::string& what,
                                       std::span<const int32_t> values) const {
  fail(ErrorCode::model, "{}: in state {}, {}", where.to_string(), describe_state(program_, values), what);
}

bool SuccessorGenerator::enable(const GuardIndex::Entry& entry, std::span<const int32_t> values) {
  const Command& command = *entry.command;
  if (entry.tag == k_unshared) {
    if (!command.guard.evaluate_bool(values)) return false;
  } else {
    if (guard_state_[entry.tag] != expansion_) {
      guard_holds_[entry.tag] = command.guard.evaluate_bool(values) ? 1 : 0;
      guard_state_[entry.tag] = expansion_;
    }
    if (guard_holds_[entry.tag] == 0) return false;
  }
  double sum = 0;
  for (const Update& update : command.updates) {
    const double w = update.weight.evaluate_real(values);
    if (!std::isfinite(w)) {
      fail_in_state(update.location, fmt::format("the {} {} is not a finite number", rates_ ? "rate" : "probability", w),
                    values);
    }
    if (w < 0) fail_in_state(update.location, fmt::format("negative {} {}", rates_ ? "rate" : "probability", w), values);
    sum += w;
    weights_of_enabled_.push_back(w);
  }
  if (!rates_ && std::fabs(sum - 1) > k_probability_sum_tolerance) {
    fail_in_state(command.location, fmt::format("the command's probabilities sum to {}, not 1", sum), values);
  }
  return true;
}

void SuccessorGenerator::expand(std::span<const int32_t> values) {
  layout_.pack(values, source_.data());
  expand(values, source_.data());
}

void SuccessorGenerator::expand(std::span<const int32_t> values, const uint64_t* packed) {
  if (packed != source_.data()) std::copy(packed, packed + words_, source_.begin());
  if (++expansion_ == 0) {  // wrapped: no class may look answered for this state
    std::fill(guard_state_.begin(), guard_state_.end(), 0);
    expansion_ = 1;
  }
  alternatives_.clear();
  weights_.clear();
  targets_.clear();
  if (record_updates_) {
    branch_updates_.clear();
    branch_update_first_.assign(1, 0);
  }
  if (record_commands_) {
    alternative_commands_.clear();
    alternative_command_first_.assign(1, 0);
  }
  weights_of_enabled_.clear();
  for (const GuardIndex::Entry& entry : local_commands_.candidates(values)) {
    const Enabled enabled{entry.command, weights_of_enabled_.size()};
    if (enable(entry, values)) add_alternative(0, {&enabled, 1}, values);
  }
  std::vector<Enabled>& chosen = chosen_;
  for (uint32_t action = 1; action < participants_.size(); ++action) {
    const std::vector<Participant>& participants = participants_[action];
    if (participants.empty()) continue;
    enabled_.clear();
    module_first_.clear();
    module_count_.clear();
    bool blocked = false;
    for (const Participant& participant : participants) {
      const size_t first = enabled_.size();
      for (const GuardIndex::Entry& entry : participant.commands.candidates(values)) {
        const Enabled enabled{entry.command, weights_of_enabled_.size()};
        if (enable(entry, values)) enabled_.push_back(enabled);
      }
      if (enabled_.size() == first) {
        blocked = true;  // a module that knows the action cannot take part now
        break;
      }
      module_first_.push_back(first);
      module_count_.push_back(enabled_.size() - first);
    }
    if (blocked) continue;
    // The first module's command varies fastest (see the header).
    const size_t k = participants.size();
    combination_.assign(k, 0);
    chosen.resize(k);
    while (true) {
      for (size_t j = 0; j < k; ++j) chosen[j] = enabled_[module_first_[j] + combination_[j]];
      add_alternative(action, chosen, values);
      size_t j = 0;
      while (j < k && ++combination_[j] == module_count_[j]) combination_[j++] = 0;
      if (j == k) break;
    }
  }
}

void SuccessorGenerator::add_alternative(uint32_t action, std::span<const Enabled> commands,
                                         std::span<const int32_t> values) {
  const size_t first = weights_.size();
  const size_t k = commands.size();
  update_choice_.assign(k, 0);
  while (true) {
    double weight = 1;
    for (size_t j = 0; j < k; ++j) weight *= weights_of_enabled_[commands[j].first_weight + update_choice_[j]];
    if (weight != 0) add_branch(weight, commands, update_choice_, values);
    size_t j = 0;
    while (j < k && ++update_choice_[j] == commands[j].command->updates.size()) update_choice_[j++] = 0;
    if (j == k) break;
  }
  // A command whose branches all have weight 0 (a rate-0 command) gives no
  // transition, hence no alternative.
  if (weights_.size() == first) return;
  alternatives_.push_back({action, first, weights_.size()});
  if (record_commands_) {
    for (const Enabled& enabled : commands) alternative_commands_.push_back(enabled.command);
    alternative_command_first_.push_back(alternative_commands_.size());
  }
}

void SuccessorGenerator::add_branch(double weight, std::span<const Enabled> commands, std::span<const size_t> updates,
                                    std::span<const int32_t> values) {
  // The target starts as the packed source; each assignment overwrites its
  // variable's bits (cheaper than packing every variable per branch).
  targets_.resize(targets_.size() + words_);
  uint64_t* target = &targets_[targets_.size() - words_];
  std::copy(source_.begin(), source_.end(), target);
  for (size_t j = 0; j < commands.size(); ++j) {
    const Update& update = commands[j].command->updates[updates[j]];
    for (const Assignment& assignment : update.assignments) {
      // Every right-hand side reads the old state (`values`), as PRISM's
      // updates do; only the target is written.
      const int64_t value = assignment.value.evaluate_int(values);
      const Variable& variable = program_.variables[assignment.variable];
      if (value < variable.lower || value > variable.upper) {
        fail_in_state(assignment.location,
                      fmt::format("the update sets {} to {}, outside its range [{}..{}]", variable.name, value,
                                  variable.lower, variable.upper),
                      values);
      }
      layout_.set(target, assignment.variable, static_cast<int32_t>(value));
    }
  }
  weights_.push_back(weight);
  if (record_updates_) {
    for (size_t j = 0; j < commands.size(); ++j) branch_updates_.push_back(&commands[j].command->updates[updates[j]]);
    branch_update_first_.push_back(branch_updates_.size());
  }
}

}  // namespace pmc::prism_language
