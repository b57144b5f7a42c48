#include "check/context.hpp"

#include <algorithm>
#include <chrono>

#include "check/chain_matrices.hpp"
#include "common/error.hpp"
#include "common/stopwatch.hpp"
#include "model/model.hpp"
#include "solver/device/devices.hpp"
#include "solver/device/device_selection.hpp"
#include "solver/device/handover.hpp"
#include "solver/convergence.hpp"
#include "common/cancellation.hpp"

namespace pmc {

namespace {

// The time a solver choice spent starting CUDA or waiting for a background
// start: the whole choice when discovery finished during it, else nothing
// (a choice that never touched CUDA, or one made once CUDA was up).
class GpuStartupClock {
 public:
  double seconds() const {
    if (up_before_ || !device_discovery_finished()) return 0;
    return seconds_since(start_);
  }

 private:
  bool up_before_ = device_discovery_finished();
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace

const graph::TransposedGraph& CheckContext::transposed() const {
  return timed(Phase::precompute, [&]() -> const graph::TransposedGraph& {
    return model_.derived<graph::TransposedGraph>(graph::k_transposed_key, [&] { return graph::transpose(model_); });
  });
}

const SolverEntry& CheckContext::pick(ProblemKind kind, uint64_t entries, uint64_t rows, const ChoiceHint& hint,
                                      Handover* handover) {
  // Between solves (a steady-state property solves one system per BSCC):
  // nothing of the model is half built here, its derived-data cache only
  // ever holds complete entries.
  throw_if_cancelled(options_.settings.cancel);
  std::string reason;
  // Choosing may discover the GPUs, which starts CUDA (or waits for a
  // background start): GPU start-up, counted only when that happened.
  const GpuStartupClock clock;
  const SolverEntry& solver =
      choose_solver(kind, options_.solver, entries, rows, options_.settings, reason, hint, handover);
  timings_.gpu_startup += clock.seconds();
  add_reason(solver.name, reason);
  if (!is_automatic_choice(options_.solver)) {
    if (solver.name == options_.solver) {
      named_used_ = true;
    } else {
      const std::string what(to_string(kind));
      if (std::find(named_unsolved_.begin(), named_unsolved_.end(), what) == named_unsolved_.end()) {
        named_unsolved_.push_back(what);
      }
    }
  }
  return solver;
}

void CheckContext::require_problem_memory(Computation kind, const Bitset& unknowns, double lambda) const {
  require_problem_memory(kind, shape_of(model_, unknowns), lambda);
}

void CheckContext::require_problem_memory(Computation kind, const ProblemShape& shape, double lambda) const {
  const SolverSettings& settings = options_.settings;
  require_estimate(estimate_computation(kind, model_, shape, options_.solver, settings, lambda), settings,
                   fmt::format("building {} over {} unknowns ({} non-zeros)", problem_name(kind), shape.unknowns,
                               shape.entries));
}

void CheckContext::require_solve_memory(const SolverEntry& solver, ProblemKind kind, uint64_t unknowns, uint64_t rows,
                                        uint64_t entries, uint64_t problem_bytes) const {
  const SolverSettings& settings = options_.settings;
  require_estimate(estimate_solve(model_, solver, kind, unknowns, rows, entries, problem_bytes, settings), settings,
                   fmt::format("{} on a {} ({} unknowns, {} non-zeros)", solver.name, to_string(kind), unknowns,
                               entries));
  if (solver.device == DeviceKind::gpu) require_device_memory(solver.name, entries, rows, settings);
}

void CheckContext::mark_uncertified_solve(const SolverEntry& solver) {
  mark_unsound(solver.sound ? fmt::format("{} found no upper bound within the iteration limit", solver.name)
                            : fmt::format("{} stops when successive iterates are close, which bounds no error",
                                          solver.name));
}

void CheckContext::mark_unsound(std::string why) {
  if (sound_) notes_.push_back("not certified: " + why);
  sound_ = false;
}

void CheckContext::record_direct_solve(const char* solver, double seconds) {
  SolveStats stats;
  stats.solver = solver;
  stats.seconds = seconds;
  stats.loop_seconds = seconds;
  stats.converged = true;
  stats.sound = true;
  record(stats);
}

void CheckContext::record(const SolveStats& stats) {
  if (std::find(solvers_.begin(), solvers_.end(), stats.solver) == solvers_.end()) solvers_.push_back(stats.solver);
  iterations_ += stats.iterations;
  // A solver's time by phase: its loop, its own precomputation, start-up
  // and copies; the rest is building its data (scaling, layouts, blocks).
  const double loop = stats.loop_seconds > 0 ? stats.loop_seconds : stats.seconds;
  timings_.solve += loop;
  timings_.gpu_startup += stats.startup_seconds;
  timings_.transfer += stats.transfer_seconds;
  timings_.precompute += stats.precompute_seconds;
  timings_.build +=
      std::max(0.0, stats.seconds - loop - stats.startup_seconds - stats.transfer_seconds - stats.precompute_seconds);
  most_gpus_ = std::max(most_gpus_, stats.gpus);
  if (stats.bytes_per_iteration > bytes_per_iteration_) {
    bytes_per_iteration_ = stats.bytes_per_iteration;
    kernel_ = stats.kernel;
  }
  notes_.insert(notes_.end(), stats.notes.begin(), stats.notes.end());
  if (!stats.converged) {
    converged_ = false;
    notes_.push_back(fmt::format("{} did not converge within {} iterations (epsilon {})", stats.solver,
                                 stats.iterations, options_.settings.epsilon));
  }
}

void CheckContext::solve_linear(const LinearSystem& system, std::vector<double>& x, std::vector<double>* lower,
                                std::vector<double>* upper) {
  if (system.a.num_rows() == 0) return;
  Handover handover;
  const SolverEntry& solver = pick(ProblemKind::linear_system, system.a.num_entries(), system.a.num_rows(), {}, &handover);
  require_solve_memory(solver, ProblemKind::linear_system, system.a.num_rows(), system.a.num_rows(),
                       system.a.num_entries(), problem_bytes(system));
  // x is the initial guess too: a hand-over starts the GPU from the same one.
  const std::vector<double> initial = handover.gpu != nullptr ? x : std::vector<double>{};
  const SolveStats stats =
      solve_handing_over(solver, handover, options_.settings, [&](const SolverEntry& s, const SolverSettings& settings) {
        if (&s != &solver) x = initial;
        return run_linear(s, system, x, settings, lower, upper);
      });
  record(stats);
  if (!stats.sound) mark_uncertified_solve(solver);
}

bool CheckContext::solve_reachability(const Bitset& left, const Bitset& right, ReachabilitySolution& solution,
                                      bool maximize) {
  const std::string& requested = options_.solver;
  const SolverSettings& settings = options_.settings;
  if (is_automatic_choice(requested) ? requested == "cpu" || !settings.sound
                                     : !find_solver(requested).solves(ProblemKind::reachability)) {
    return false;
  }
  const bool mdp = model_.type() == ModelType::mdp;
  const CsrView p = mdp ? CsrView{model_.row_offsets().data(), model_.columns().data(), model_.values().data(),
                                  model_.num_rows()}
                        : timed(Phase::build, [&] { return probability_matrix(model_); });
  const uint64_t n = model_.num_states();
  const uint64_t rows = mdp ? model_.num_rows() : n;
  const ChoiceHint hint{.resident = model_.has_derived(device_chain_key(primary_device(settings))), .min_max = mdp};
  throw_if_cancelled(settings.cancel);
  std::string reason;
  const GpuStartupClock clock;
  const SolverEntry& solver =
      choose_solver(ProblemKind::reachability, requested, p.offsets[rows], rows, settings, reason, hint);
  timings_.gpu_startup += clock.seconds();
  if (solver.reachability == nullptr) return false;  // the host path chooses (and explains) again
  const ReachabilityProblem problem{.model = &model_,
                                    .states = n,
                                    .groups = mdp ? model_.row_groups().data() : nullptr,
                                    .rows = rows,
                                    .offsets = p.offsets,
                                    .columns = p.columns,
                                    .values = p.values,
                                    .left = &left.words(),
                                    .right = &right.words(),
                                    .maximize = maximize};
  // Host side: the solution's values, bounds, status and choices (the
  // device copy has its own budget, checked by the solver).
  require_estimate(estimate_solve(model_, solver, ProblemKind::reachability, n, rows, p.offsets[rows], 0, settings),
                   settings, fmt::format("{} on the whole model ({} states, {} non-zeros)", solver.name, n, p.offsets[rows]));
  SolveStats stats;
  try {
    stats = solver.reachability(problem, solution, settings);
  } catch (const Error& e) {
    if (e.code() != ErrorCode::out_of_memory || !is_automatic_choice(requested)) throw;
    add_note(fmt::format("{}: {}; solved on the host's system instead", solver.name, e.what()));
    return false;
  }
  add_reason(solver.name, reason);
  if (solver.name == requested) named_used_ = true;
  record(stats);
  if (!stats.sound) mark_uncertified_solve(solver);
  return true;
}

void CheckContext::solve_stationary(const StationarySystem& system, std::vector<double>& x) {
  if (system.incoming.num_rows() == 0) return;
  const SolverEntry& solver = pick(ProblemKind::stationary, system.incoming.num_entries(), system.incoming.num_rows());
  require_solve_memory(solver, ProblemKind::stationary, system.incoming.num_rows(), system.incoming.num_rows(),
                       system.incoming.num_entries(), problem_bytes(system));
  record(solver.stationary(system, x, options_.settings));
}

bool CheckContext::solve_long_run(const LongRunProblem& problem, LongRunBounds& bounds) {
  if (!options_.settings.sound) return false;
  const uint64_t n = problem.rates.num_rows(), entries = problem.rates.num_entries();
  const SolverEntry& solver = pick(ProblemKind::stationary, entries, n);
  if (solver.long_run == nullptr) return false;
  require_solve_memory(solver, ProblemKind::stationary, n, n, entries, problem_bytes(problem));
  // At the iteration limit the bounds are still certified, only wider than
  // asked (record() notes that the solve did not converge).
  record(solver.long_run(problem, bounds, options_.settings));
  return true;
}

void CheckContext::solve_steps(const StepProblem& problem, std::vector<double>& result) {
  Handover handover;
  const SolverEntry& solver = pick(ProblemKind::bounded_steps, problem.a.num_entries(), problem.a.num_rows(),
                                   {.iterations = std::min(problem.steps, options_.settings.max_iterations)}, &handover);
  require_solve_memory(solver, ProblemKind::bounded_steps, problem.a.num_rows(), problem.a.num_rows(),
                       problem.a.num_entries(), problem_bytes(problem));
  const SolveStats stats = solve_handing_over(
      solver, handover, options_.settings,
      [&](const SolverEntry& s, const SolverSettings& settings) { return s.steps(problem, result, settings); });
  record(stats);
  // Exact unless the iteration limit cut the steps short.
  if (!stats.converged) mark_unsound("the iteration limit cut a step-bounded iteration short");
}

void CheckContext::solve_min_max(const MinMaxProblem& problem, MinMaxSolution& solution) {
  if (problem.num_unknowns() == 0) return;
  const ProblemKind kind = problem.steps > 0 ? ProblemKind::min_max_steps : ProblemKind::min_max;
  Handover handover;
  const SolverEntry& solver = pick(kind, problem.a.num_entries(), problem.a.num_rows(),
                                   {.iterations = std::min(problem.steps, options_.settings.max_iterations)}, &handover);
  require_solve_memory(solver, kind, problem.num_unknowns(), problem.a.num_rows(), problem.a.num_entries(),
                       problem_bytes(problem));
  // The solution may carry a start (MinMaxSolution's x): a hand-over starts
  // the GPU from the same one.
  const MinMaxSolution initial = handover.gpu != nullptr ? solution : MinMaxSolution{};
  const SolveStats stats =
      solve_handing_over(solver, handover, options_.settings, [&](const SolverEntry& s, const SolverSettings& settings) {
        if (&s != &solver) solution = initial;
        return (kind == ProblemKind::min_max_steps ? s.min_max_steps : s.min_max)(problem, solution, settings);
      });
  record(stats);
  // Bounded steps are exact (unless the iteration limit cut them
  // short); an unbounded solve is certified only by bounds.
  if (kind == ProblemKind::min_max && !stats.sound) mark_uncertified_solve(solver);
  if (kind == ProblemKind::min_max_steps && !stats.converged) {
    mark_unsound("the iteration limit cut a step-bounded iteration short");
  }
}

void CheckContext::absorb(const CheckContext& inner) {
  auto add_new = [](std::vector<std::string>& to, const std::vector<std::string>& from) {
    for (const std::string& s : from) {
      if (std::find(to.begin(), to.end(), s) == to.end()) to.push_back(s);
    }
  };
  add_new(solvers_, inner.solvers_);
  for (const auto& [solver, reason] : inner.reasons_) add_reason(solver, reason);
  add_new(named_unsolved_, inner.named_unsolved_);
  named_used_ = named_used_ || inner.named_used_;
  add_new(notes_, inner.notes_);
  iterations_ += inner.iterations_;
  timings_.gpu_startup += inner.timings_.gpu_startup;
  timings_.precompute += inner.timings_.precompute;
  timings_.build += inner.timings_.build;
  timings_.transfer += inner.timings_.transfer;
  timings_.solve += inner.timings_.solve;
  if (inner.bytes_per_iteration_ > bytes_per_iteration_) {
    bytes_per_iteration_ = inner.bytes_per_iteration_;
    kernel_ = inner.kernel_;
  }
  converged_ = converged_ && inner.converged_;
  sound_ = sound_ && inner.sound_;  // inner's notes say why
  absolute_error_ += inner.absolute_error_;
}

void CheckContext::add_reason(const std::string& solver, const std::string& reason) {
  const auto same_solver = [&](const auto& entry) { return entry.first == solver; };
  if (std::find_if(reasons_.begin(), reasons_.end(), same_solver) == reasons_.end()) reasons_.emplace_back(solver, reason);
}

void CheckContext::forget_notes(std::string_view prefix) {
  std::erase_if(notes_, [&](const std::string& note) { return note.starts_with(prefix); });
}

void CheckContext::fill(CheckResult& result) const {
  if (!named_used_ && !named_unsolved_.empty()) {
    std::string kinds;
    for (const std::string& k : named_unsolved_) kinds += (kinds.empty() ? "" : ", ") + k;
    fail(ErrorCode::invalid_argument, "solver {} does not solve this property's problems ({}); see `pmc solvers`",
         options_.solver, kinds);
  }
  result.solvers = solvers_;
  for (const auto& [solver, reason] : reasons_) {
    result.solver_reason += (result.solver_reason.empty() ? "" : "; ") + reason;
  }
  result.iterations = iterations_;
  result.solve_seconds = timings_.solve;
  result.timings = timings_;
  result.bytes_per_iteration = bytes_per_iteration_;
  result.kernel = kernel_;
  result.converged = converged_;
  result.notes.insert(result.notes.end(), notes_.begin(), notes_.end());
  if (!solvers_.empty() && most_gpus_ < 2 && several_gpus_asked(options_.settings)) {
    result.notes.push_back(
        "several GPUs were asked for, but every solve ran on one device: only gpu.jacobi and gpu.vi split rows "
        "over GPUs, and they are unsound (--unsound lets auto choose them, or name them with --solver)");
  }
}

bool several_gpus_asked(const SolverSettings& settings) {
  if (settings.devices.size() > 1) {
    return std::any_of(settings.devices.begin(), settings.devices.end(),
                       [&](int d) { return d != settings.devices.front(); });
  }
  // "all" counts only where CUDA is up already: a note is no reason to start it.
  return settings.all_devices && device_discovery_finished() && discover_devices().devices.size() > 1;
}

}  // namespace pmc
