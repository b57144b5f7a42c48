// The outgoing transitions of one state, as PRISM's explicit
// engine computes them (prism.simulator.Updater.calculateTransitions):
//
//  1. each module's unlabelled commands whose guard holds, module by module
//     in source order, each its own alternative ("independent" choices);
//  2. then, for every action a in PrismModel::actions order, if every module
//     whose alphabet holds a has at least one enabled a-command, every
//     combination of one enabled a-command per such module, the first
//     module's command varying fastest (Updater builds the product by
//     copying the list of partial choices once per command of the next
//     module). A combination's branches are the product of the commands'
//     branches: weights multiply, and every assignment reads the old state.
//
// One generator per thread: expand() reuses its buffers, so exploring a
// state allocates nothing once the buffers have grown.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "formats/prism_language/guard_index.hpp"
#include "formats/prism_language/prism_model.hpp"
#include "formats/prism_language/state_packing.hpp"

namespace pmc::prism_language {

// "(x=1,b=true)", PRISM's way of naming a state in messages.
std::string describe_state(const PrismModel& program, std::span<const int32_t> values);

// Whether a command of `program` earns rewards (Command::rewards: only JANI
// models have them).
bool has_command_rewards(const PrismModel& program);
// Indices into program.rewards of the structures with transition rewards:
// transition items, or command rewards naming them.
std::vector<uint32_t> transition_reward_structures(const PrismModel& program);

class SuccessorGenerator {
 public:
  SuccessorGenerator(const PrismModel& program, const StateLayout& layout);

  // Computes the alternatives of the state `values`. Throws pmc::Error (code
  // model) naming the source location and the state when an update leaves
  // a variable's range, a probability is negative or a command's
  // probabilities do not sum to 1 (DTMC/MDP), or a rate is negative (CTMC).
  // Branches of weight 0 are left out (they are no transitions).
  void expand(std::span<const int32_t> values);
  // The same, given the state packed as well (the explorer holds both): the
  // targets start from `packed` instead of packing `values` again.
  void expand(std::span<const int32_t> values, const uint64_t* packed);

  size_t num_alternatives() const { return alternatives_.size(); }
  uint32_t action(size_t alternative) const { return alternatives_[alternative].action; }
  // Branches [first, last) of an alternative; their targets are not merged.
  size_t first_branch(size_t alternative) const { return alternatives_[alternative].first; }
  size_t last_branch(size_t alternative) const { return alternatives_[alternative].last; }
  size_t num_branches() const { return weights_.size(); }
  double weight(size_t branch) const { return weights_[branch]; }
  const uint64_t* target(size_t branch) const { return &targets_[branch * words_]; }

  // With recording on, each branch also keeps the updates it combines (one
  // per synchronising command, in module order): the exact weights
  // (--exact) multiply their expressions' rational values. Off by default.
  void record_updates(bool on) { record_updates_ = on; }
  std::span<const Update* const> updates(size_t branch) const {
    return {branch_updates_.data() + branch_update_first_[branch],
            branch_update_first_[branch + 1] - branch_update_first_[branch]};
  }

  // For a program with command rewards (has_command_rewards) each
  // alternative keeps the commands it combines (one per synchronising
  // module, in module order), whose rewards it earns; for others nothing is
  // kept (the PRISM-language sources' hot path) and commands() is empty.
  bool records_commands() const { return record_commands_; }
  std::span<const Command* const> commands(size_t alternative) const {
    if (!record_commands_) return {};
    return {alternative_commands_.data() + alternative_command_first_[alternative],
            alternative_command_first_[alternative + 1] - alternative_command_first_[alternative]};
  }

 private:
  struct Alternative {
    uint32_t action;
    size_t first, last;
  };
  // An enabled command in the current state and where its branch weights
  // start in weights_of_enabled_.
  struct Enabled {
    const Command* command;
    size_t first_weight;
  };
  struct Participant {
    uint32_t module;
    GuardIndex commands;  // its commands labelled with the action
  };

  bool enable(const GuardIndex::Entry& entry, std::span<const int32_t> values);
  void add_alternative(uint32_t action, std::span<const Enabled> commands, std::span<const int32_t> values);
  void add_branch(double weight, std::span<const Enabled> commands, std::span<const size_t> updates,
                  std::span<const int32_t> values);
  [[noreturn]] void fail_in_state(const SourceLocation& where, const std::string& what,
                                  std::span<const int32_t> values) const;

  const PrismModel& program_;
  const StateLayout& layout_;
  uint32_t words_;
  bool rates_;
  GuardIndex local_commands_;  // every module's unlabelled commands, module by module
  std::vector<std::vector<Participant>> participants_;  // by action; [0] unused
  // Guards shared by several commands (the same code, often one per action
  // a module synchronises on) are evaluated once per state: a GuardIndex
  // entry's tag is its guard's class, k_unshared for a guard of its own.
  static constexpr uint32_t k_unshared = UINT32_MAX;
  std::vector<uint32_t> guard_state_;  // by class: the expand() whose state guard_holds_ answers
  std::vector<uint8_t> guard_holds_;
  uint32_t expansion_ = 0;

  std::vector<Alternative> alternatives_;
  std::vector<double> weights_;
  std::vector<uint64_t> targets_;
  bool record_updates_ = false;
  std::vector<const Update*> branch_updates_;
  std::vector<size_t> branch_update_first_;  // per branch, and one past the last
  bool record_commands_ = false;
  std::vector<const Command*> alternative_commands_;
  std::vector<size_t> alternative_command_first_;  // per alternative, and one past the last
  // Scratch.
  std::vector<double> weights_of_enabled_;
  std::vector<Enabled> enabled_, chosen_;
  std::vector<size_t> module_first_, module_count_, combination_, update_choice_;
  std::vector<uint64_t> source_;  // the expanded state, packed
};

}  // namespace pmc::prism_language
