// Model::create's two passes over a ModelParts: normalisation (row order,
// zero entries, deadlocks) and validation (everything docs/design.md §1 lists).
#pragma once

#include <string>

#include "model/model.hpp"

namespace pmc {

// Sorts rows by column, rejects duplicate entries, drops entries whose value
// is zero and gives deadlock states a self-loop (or rejects them if strict).
// normalize_model_parts returns whether it rewrote the rows.
// An all-zero reward vector is stored empty, so "no rewards" has one form.
void clear_zero_rewards(RewardStructure& rewards);
bool normalize_model_parts(ModelParts& parts, const ModelOptions& options);
// Throws pmc::Error(model) on the first problem found.
void validate_model_parts(const ModelParts& parts, const ModelOptions& options);
void validate_labels(const ModelParts& parts);
void validate_rewards(const ModelParts& parts);

std::string describe_row_of(const ModelParts& parts, uint64_t row);

}  // namespace pmc
