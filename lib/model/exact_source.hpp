// What --exact reads a model's numbers from: for a model built from a
// PRISM-language source, the source's expressions evaluated in rationals
// (0.7 is 7/10), since the doubles in the matrix are only their nearest
// neighbours. The explorer attaches one to the model it builds
// (ModelParts::exact_source); models read from files have none, and the
// exact checker takes their doubles as the decimals they print as
// (check/exact_model.cpp). Only in builds with GMP.
#pragma once

#ifdef PMC_HAVE_GMP
#include <cstddef>
#include <optional>
#include <vector>

#include <gmpxx.h>

namespace pmc {

class Model;

// One reward structure's exact values; an empty vector where the
// structure has none of that kind (as RewardStructure).
struct ExactRewards {
  std::vector<mpq_class> state_rewards;
  std::vector<mpq_class> transition_rewards;  // per matrix entry
};

class ExactValueSource {
 public:
  virtual ~ExactValueSource() = default;
  // The model's matrix entries (probabilities; CTMC: rates) in its CSR
  // order. `model` is the one this source was attached to. Throws
  // Error(model) naming the state and expression where a value is no
  // rational or disagrees with the model's structure.
  virtual std::vector<mpq_class> transition_values(const Model& model) const = 0;
  // Reward structure `index` (of model.rewards()); nullopt for one the
  // source does not define (added to the model later: its doubles are all
  // there is).
  virtual std::optional<ExactRewards> rewards(const Model& model, size_t index) const = 0;
};

}  // namespace pmc
#endif
