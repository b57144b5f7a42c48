#include "model/model.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "common/text.hpp"
#include "model/normalize.hpp"

namespace pmc {

std::string_view to_string(ModelType type) {
  switch (type) {
    case ModelType::dtmc: return "dtmc";
    case ModelType::ctmc: return "ctmc";
    case ModelType::mdp: return "mdp";
    case ModelType::pctmc: return "pctmc";
  }
  return "?";
}

std::optional<ModelType> model_type_from_string(std::string_view text) {
  const std::string name = lower(text);
  if (name == "dtmc") return ModelType::dtmc;
  if (name == "ctmc") return ModelType::ctmc;
  if (name == "mdp") return ModelType::mdp;
  if (name == "pctmc") return ModelType::pctmc;
  return std::nullopt;
}

std::shared_ptr<const Model> Model::create(ModelParts parts, const ModelOptions& options) {
  std::shared_ptr<void> device_rows = std::move(parts.device_rows);
  const std::string device_rows_key = std::move(parts.device_rows_key);
  parts.device_rows.reset();
  parts.device_rows_key.clear();
  const bool rewritten = normalize_model_parts(parts, options);
  validate_model_parts(parts, options);
  std::shared_ptr<const Model> model(new Model(std::move(parts)));
  if (device_rows != nullptr && !rewritten) model->derived_.emplace(device_rows_key, std::move(device_rows));
  return model;
}

const Label* Model::find_label(std::string_view name) const {
  for (const Label& label : parts_.labels) {
    if (label.name == name) return &label;
  }
  return nullptr;
}

const RewardStructure* Model::find_rewards(std::string_view name) const {
  if (name.empty()) return parts_.rewards.empty() ? nullptr : &parts_.rewards.front();
  for (const RewardStructure& r : parts_.rewards) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

const Bitset* Model::initial_states() const {
  const Label* init = find_label("init");
  return init ? &init->states : nullptr;
}

std::shared_ptr<const Model> Model::with_label(Label label) const {
  ModelParts parts = parts_;
  parts.labels.push_back(std::move(label));
  validate_labels(parts);
  return std::shared_ptr<const Model>(new Model(std::move(parts)));
}

std::shared_ptr<const Model> Model::with_rewards(RewardStructure rewards) const {
  ModelParts parts = parts_;
  clear_zero_rewards(rewards);
  parts.rewards.push_back(std::move(rewards));
  validate_rewards(parts);
  return std::shared_ptr<const Model>(new Model(std::move(parts)));
}

std::string device_chain_key(int index) { return std::string(k_device_key_prefix) + "chain:" + std::to_string(index); }

std::string Model::describe_row(uint64_t row) const {
  return describe_row_of(parts_, row);
}

bool Model::same_as(const Model& other) const {
  const ModelParts& a = parts_;
  const ModelParts& b = other.parts_;
  return a.type == b.type && a.num_states == b.num_states && a.row_groups == b.row_groups &&
         a.row_offsets == b.row_offsets && a.columns == b.columns && a.values == b.values &&
         a.parameters == b.parameters && a.coefficients == b.coefficients &&
         a.action_names == b.action_names && a.entry_actions == b.entry_actions &&
         a.labels == b.labels && a.rewards == b.rewards && a.valuations == b.valuations && a.state_bytes == b.state_bytes &&
         a.definitions == b.definitions;
}

size_t Model::release_derived(std::string_view prefix) const {
  std::lock_guard<std::recursive_mutex> lock(derived_mutex_);
  size_t released = 0;
  for (auto it = derived_.begin(); it != derived_.end();) {
    if (std::string_view(it->first).starts_with(prefix)) {
      it = derived_.erase(it);
      ++released;
    } else {
      ++it;
    }
  }
  return released;
}

}  // namespace pmc
