// The bounds engine of a synthesis run: hands batches of regions to the
// chosen parametric-bounds solver and keeps the statistics, the progress
// reports and the cancel checks in one place; and the two refinement loops
// (threshold.cpp, optimum.cpp) that drive it.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "check/parametric.hpp"
#include "solver/registry.hpp"
#include "synth/region.hpp"
#include "synth/synthesis.hpp"

namespace pmc::synth {

class BoundsEngine {
 public:
  // `problem.keep_states` must hold exactly the state whose value is synthesised.
  BoundsEngine(const ParamBoundsProblem& problem, const SynthesisOptions& options);

  // Fills lo/hi of every node from one solver call. Throws Error(cancelled).
  void evaluate(std::vector<Node>& nodes);
  // Regions per solver call: enough to keep every core (or the GPU) busy.
  uint64_t batch() const { return batch_; }
  // Rate-limited progress report.
  void report(double undecided_fraction, double gap);
  void fill(SynthesisResult& result) const;

 private:
  const ParamBoundsProblem& problem_;
  const SynthesisOptions& options_;
  const SolverEntry* solver_ = nullptr;
  std::string reason_;
  uint64_t batch_ = 1;
  uint64_t regions_ = 0, iterations_ = 0;
  double solver_seconds_ = 0;
  std::chrono::steady_clock::time_point start_, last_report_;
};

// Threshold synthesis (seed §2.2): refine the undecided regions, largest
// first, until their volume is at most ε of the whole.
void threshold_synthesis(BoundsEngine& engine, const ParamBox& space, property::Comparison comparison,
                         double threshold, double epsilon, uint64_t max_regions, SynthesisResult& result);

// Max synthesis (min by symmetry; seed §2.2 and improvement (3)).
void optimum_synthesis(BoundsEngine& engine, const ParamBox& space, bool maximize, double epsilon,
                       uint64_t max_regions, SynthesisResult& result);

}  // namespace pmc::synth
