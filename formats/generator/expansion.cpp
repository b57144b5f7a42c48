#include "formats/generator/expansion.hpp"

#include <algorithm>
#include <cmath>

#include "common/error.hpp"

namespace pmc::generator {

uint32_t ActionTable::intern(std::string_view name) {
  if (name.empty()) return 0;
  std::lock_guard<std::mutex> lock(mutex_);
  auto [it, inserted] = index_.try_emplace(std::string(name), static_cast<uint32_t>(names_.size()));
  if (inserted) names_.emplace_back(name);
  return it->second;
}

std::vector<std::string> ActionTable::names() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return names_;
}

Expansion::Expansion(const GeneratorSpec& spec, const StateKey& key, ActionTable& actions)
    : spec_(spec), key_(key), actions_(actions), num_rewards_(spec.rewards.size()) {
  reset();
}

void Expansion::reset() {
  choice_actions_.clear();
  choice_first_.clear();
  values_.clear();
  targets_.clear();
  transition_rewards_.clear();
  choice_rewards_.clear();
  labels_.assign((spec_.labels.size() + 63) / 64, 0);
  state_rewards_.assign(num_rewards_, 0.0);
  first_error_.reset();
  failure_.clear();
}

void Expansion::reject(std::string message) {
  if (!first_error_) first_error_ = message;
  throw Error(ErrorCode::invalid_argument, std::move(message));
}

void Expansion::add_choice(const char* action) {
  uint32_t index = 0;
  if (action != nullptr && *action != '\0') {
    auto cached = action_cache_.find(action);
    if (cached == action_cache_.end()) cached = action_cache_.emplace(action, actions_.intern(action)).first;
    index = cached->second;
  }
  choice_actions_.push_back(index);
  choice_first_.push_back(values_.size());
  choice_rewards_.resize(choice_rewards_.size() + num_rewards_, 0.0);
}

void Expansion::ensure_choice() {
  if (choice_actions_.empty()) add_choice(nullptr);
}

void Expansion::add_transition(double value, const void* target, uint64_t size) {
  const char* what = has_probability_rows(spec_.type) ? "probability" : "rate";
  if (!std::isfinite(value) || value < 0) {
    reject(fmt::format("transition {} of choice {}: the {} {} is not a finite number >= 0", values_.size(),
                       choice_actions_.empty() ? 0 : choice_actions_.size() - 1, what, value));
  }
  if (target == nullptr && size > 0) reject(fmt::format("transition {}: the target is NULL", values_.size()));
  if (size > key_.max_size() || (key_.fixed() && size != key_.max_size())) {
    reject(fmt::format("transition {}: the target has {} bytes, but the generator's states have {} {}",
                       values_.size(), size, key_.fixed() ? "exactly" : "at most", key_.max_size()));
  }
  ensure_choice();
  values_.push_back(value);
  targets_.resize(targets_.size() + key_.words());
  key_.pack({static_cast<const uint8_t*>(target), static_cast<size_t>(size)}, &targets_[targets_.size() - key_.words()]);
  transition_rewards_.resize(transition_rewards_.size() + num_rewards_, 0.0);
}

double Expansion::checked_reward(uint64_t rewards, double value, const char* what) {
  if (rewards >= num_rewards_) {
    reject(fmt::format("{}: reward structure {} was not declared (the generator has {})", what, rewards,
                       num_rewards_));
  }
  if (!std::isfinite(value) || value < 0) {
    reject(fmt::format("{}: the reward {} of structure \"{}\" is not a finite number >= 0", what, value,
                       spec_.rewards[rewards]));
  }
  return value;
}

void Expansion::set_transition_reward(uint64_t rewards, double value) {
  checked_reward(rewards, value, "transition reward");
  if (values_.empty()) reject("transition reward: no transition has been added yet");
  transition_rewards_[(values_.size() - 1) * num_rewards_ + rewards] = value;
}

void Expansion::set_choice_reward(uint64_t rewards, double value) {
  checked_reward(rewards, value, "choice reward");
  if (choice_actions_.empty()) reject("choice reward: no choice (or transition) has been added yet");
  choice_rewards_[(choice_actions_.size() - 1) * num_rewards_ + rewards] = value;
}

void Expansion::set_label(uint64_t label) {
  if (label >= spec_.labels.size()) {
    reject(fmt::format("label {} was not declared (the generator has {})", label, spec_.labels.size()));
  }
  labels_[label / 64] |= uint64_t{1} << (label % 64);
}

void Expansion::set_state_reward(uint64_t rewards, double value) {
  checked_reward(rewards, value, "state reward");
  state_rewards_[rewards] = value;
}

void Expansion::set_failure(const char* message) {
  failure_ = message != nullptr ? message : "";
}

}  // namespace pmc::generator
