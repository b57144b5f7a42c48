// The exact numbers of a model built from a PRISM-language program
// (model/exact_source.hpp): its states are expanded again, one by one, and
// each branch's weight is the product of its updates' weights evaluated in
// rationals; the branches are merged into rows exactly as the explorer
// merges them (rows.hpp), and each row is matched against the model's.
#pragma once

#include <memory>

#include "formats/prism_language/prism_model.hpp"
#include "model/exact_source.hpp"

namespace pmc::prism_language {

// The source for models explored from `program`; null in builds without GMP.
std::shared_ptr<const ExactValueSource> exact_value_source(std::shared_ptr<const PrismModel> program);

}  // namespace pmc::prism_language
