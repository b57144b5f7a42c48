// The per-file readers behind read_prism_explicit (internal to formats/).
#pragma once

#include <optional>
#include <string>

#include "formats/prism_explicit.hpp"

namespace pmc {

ModelParts read_prism_transitions(const std::string& path, std::optional<ModelType> type, const ModelOptions& options);
// These need the matrix read first (rows sorted by column).
void read_prism_labels(const std::string& path, ModelParts& parts);
RewardStructure read_prism_rewards(const PrismRewardFiles& files, const ModelParts& parts);
void read_prism_valuations(const std::string& path, ModelParts& parts);

}  // namespace pmc
