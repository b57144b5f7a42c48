#include "synth/engine.hpp"

#include <algorithm>

#include "common/cancellation.hpp"
#include "solver/parallel.hpp"
#include "solver/progress.hpp"

namespace pmc::synth {

BoundsEngine::BoundsEngine(const ParamBoundsProblem& problem, const SynthesisOptions& options)
    : problem_(problem), options_(options), start_(std::chrono::steady_clock::now()), last_report_(start_) {
  // The GPU needs many regions per kernel to fill its cores on small models
  // (seed §4.4: up to 128 regions in parallel); the CPU one per core, a few
  // times over so dynamic scheduling evens out regions of unequal cost.
  const uint64_t cpu_batch = static_cast<uint64_t>(std::max(1, solver_threads(options.settings))) * 4;
  const uint64_t gpu_batch = 256;
  const SolverEntry& guess = choose_solver(ProblemKind::param_bounds, options.solver,
                                           problem.num_entries() * gpu_batch, problem.num_states, options.settings,
                                           reason_);
  solver_ = &guess;
  batch_ = options.batch > 0 ? options.batch : (guess.device == DeviceKind::gpu ? gpu_batch : std::max<uint64_t>(cpu_batch, 8));
}

void BoundsEngine::evaluate(std::vector<Node>& nodes) {
  throw_if_cancelled(options_.settings.cancel);
  if (nodes.empty()) return;
  std::vector<ParamBox> boxes;
  boxes.reserve(nodes.size());
  for (const Node& n : nodes) boxes.push_back(n.box);
  std::vector<ParamBounds> out;
  SolverSettings settings = options_.settings;
  settings.progress = nullptr;  // synthesis reports regions, not steps
  const SolveStats stats = solver_->param_bounds(problem_, boxes, out, settings);
  solver_seconds_ += stats.seconds;
  for (size_t i = 0; i < nodes.size(); ++i) {
    nodes[i].lo = out[i].lower.at(0);
    nodes[i].hi = out[i].upper.at(0);
    iterations_ += out[i].iterations;
  }
  regions_ += nodes.size();
}

void BoundsEngine::report(double undecided_fraction, double gap) {
  if (!options_.progress) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_report_ < k_progress_interval) return;
  last_report_ = now;
  SynthProgress p;
  p.regions = regions_;
  p.undecided_fraction = undecided_fraction;
  p.gap = gap;
  p.seconds = std::chrono::duration<double>(now - start_).count();
  options_.progress(p);
}

void BoundsEngine::fill(SynthesisResult& result) const {
  result.regions_analysed = regions_;
  result.iterations = iterations_;
  result.solver = solver_->name;
  result.solver_reason = reason_;
  result.solver_seconds = solver_seconds_;
}

}  // namespace pmc::synth
