// What a generator's callback writes one state's expansion into (the C
// ABI's pmc_expansion): its choices with their actions, the transitions of
// each (value and packed target), transition and choice rewards, labels
// and state rewards. One per exploring thread, reset before each state.
//
// Each setter validates its arguments and throws Error(invalid_argument)
// for a bad one, and remembers the first such error: the explorer fails
// with it after the callback returns, even when the callback ignored the
// status the C ABI gave it.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "formats/generator/generator.hpp"
#include "formats/generator/state_key.hpp"

namespace pmc::generator {

// Action names shared by every thread of one exploration: index 0 is ""
// (no action). Each Expansion keeps a cache of the names it has seen, so
// the lock is taken once per name and thread.
class ActionTable {
 public:
  ActionTable() : names_{""} {}
  uint32_t intern(std::string_view name);
  std::vector<std::string> names() const;

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, uint32_t> index_;
  std::vector<std::string> names_;
};

class Expansion {
 public:
  Expansion(const GeneratorSpec& spec, const StateKey& key, ActionTable& actions);

  // Clears everything for the next state.
  void reset();

  // The C ABI's pmc_expansion_* calls.
  void add_choice(const char* action);
  void add_transition(double value, const void* target, uint64_t size);
  void set_transition_reward(uint64_t rewards, double value);
  void set_choice_reward(uint64_t rewards, double value);
  void set_label(uint64_t label);
  void set_state_reward(uint64_t rewards, double value);
  void set_failure(const char* message);

  // Read by the explorer after the callback.
  const std::optional<std::string>& first_error() const { return first_error_; }
  const std::string& failure() const { return failure_; }
  size_t num_choices() const { return choice_actions_.size(); }
  uint32_t choice_action(size_t c) const { return choice_actions_[c]; }
  size_t first_branch(size_t c) const { return choice_first_[c]; }
  size_t last_branch(size_t c) const { return c + 1 < choice_first_.size() ? choice_first_[c + 1] : values_.size(); }
  size_t num_branches() const { return values_.size(); }
  double value(size_t b) const { return values_[b]; }
  const uint64_t* target(size_t b) const { return &targets_[b * key_.words()]; }
  // The reward of taking branch b (of choice c) in structure r: its
  // transition reward plus its choice's reward.
  double branch_reward(size_t b, size_t c, size_t r) const {
    return transition_rewards_[b * num_rewards_ + r] + choice_rewards_[c * num_rewards_ + r];
  }
  std::span<const uint64_t> label_words() const { return labels_; }
  std::span<const double> state_rewards() const { return state_rewards_; }

 private:
  [[noreturn]] void reject(std::string message);
  double checked_reward(uint64_t rewards, double value, const char* what);
  void ensure_choice();

  const GeneratorSpec& spec_;
  const StateKey& key_;
  ActionTable& actions_;
  std::unordered_map<std::string, uint32_t> action_cache_;
  const size_t num_rewards_;
  std::vector<uint32_t> choice_actions_;
  std::vector<size_t> choice_first_;
  std::vector<double> values_;
  std::vector<uint64_t> targets_;
  std::vector<double> transition_rewards_;  // branches × reward structures
  std::vector<double> choice_rewards_;      // choices × reward structures
  std::vector<uint64_t> labels_;            // a bit per declared label
  std::vector<double> state_rewards_;       // per reward structure
  std::optional<std::string> first_error_;
  std::string failure_;
};

}  // namespace pmc::generator
