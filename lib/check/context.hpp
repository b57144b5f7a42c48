// State shared by the steps of one check: the model, the options, and the
// statistics of every numerical solve (which solver, iterations, convergence).
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "check/check.hpp"
#include "check/memory_budget.hpp"
#include "common/stopwatch.hpp"
#include "graph/transpose.hpp"
#include "solver/registry.hpp"

namespace pmc {

// The settings list two or more distinct GPUs (or all, where CUDA is up
// and sees several): a check whose solves all stayed on one says why.
bool several_gpus_asked(const SolverSettings& settings);

class CheckContext {
 public:
  CheckContext(const Model& model, const CheckOptions& options) : model_(model), options_(options) {}

  const Model& model() const { return model_; }
  const CheckOptions& options() const { return options_; }
  const graph::TransposedGraph& transposed() const;

  // Solve with the solver the options choose for this kind of problem, and
  // record what happened. x: start vector in, solution out (a sound
  // solver's: the midpoint of its bounds, which go to `lower`/`upper` when
  // given). A solve that certifies nothing makes the check unsound.
  void solve_linear(const LinearSystem& system, std::vector<double>& x, std::vector<double>* lower = nullptr,
                    std::vector<double>* upper = nullptr);
  // P[φ U ψ] of a DTMC/CTMC, or Pmax/Pmin (`maximize`) of an MDP, on a
  // GPU-resident copy of the model, its precomputation included,
  // when the options choose that: "gpu", a solver that solves
  // ProblemKind::reachability, or "auto" where the cost model predicts the
  // GPU faster. False: the caller takes the host path (also when the copy
  // does not fit the GPU under "auto", with a note). True with
  // solution.solved false: only solution.status is decided (an MDP's
  // Pmax with end components among the maybe states).
  bool solve_reachability(const Bitset& left, const Bitset& right, ReachabilitySolution& solution,
                          bool maximize = false);
  // π of one bottom SCC, without error bounds: the caller certifies its
  // use (solve_long_run) or marks the check unsound.
  void solve_stationary(const StationarySystem& system, std::vector<double>& x);
  // Certified bounds on one bottom SCC's long-run average, when the options
  // ask for sound results and the stationary solver they choose certifies
  // them (SolverEntry::long_run); false otherwise (nothing solved: the
  // caller solves for π with solve_stationary).
  bool solve_long_run(const LongRunProblem& problem, LongRunBounds& bounds);
  // A solve made outside the registry's solvers (an exact elimination),
  // recorded like theirs: its name among the check's solvers, its seconds
  // as solve time.
  void record_direct_solve(const char* solver, double seconds);
  void solve_steps(const StepProblem& problem, std::vector<double>& result);
  // MDPs. `bounds` is set when the solver produced sound lower/upper bounds.
  void solve_min_max(const MinMaxProblem& problem, MinMaxSolution& solution);

  // Before a problem over `unknowns` (or of `shape`) is built —
  // the equation system, iteration matrix or restricted MDP of a
  // computation of `kind`, with its vectors and the requested solver's —
  // the check's memory (check/memory_budget.hpp) against the memory limit.
  // `lambda`: q·t of uniformisation (the weights). Throws
  // Error(out_of_memory) naming the need and the limit.
  void require_problem_memory(Computation kind, const Bitset& unknowns, double lambda = 0) const;
  void require_problem_memory(Computation kind, const ProblemShape& shape, double lambda = 0) const;

  void add_note(std::string note) { notes_.push_back(std::move(note)); }
  // False once a solve of this check stopped at the iteration limit.
  bool converged() const { return converged_; }

  // Runs `work` and counts its time towards `phase` (PhaseTimings). Scopes
  // may nest (building the transposed graph inside prob0): only the
  // outermost counts, so no second is counted twice.
  enum class Phase { precompute, build };
  template <typename Work>
  decltype(auto) timed(Phase phase, Work&& work) const {
    PhaseScope scope(*this, phase);
    return work();
  }

  // Soundness of the check. Unsound once any step certifies
  // nothing: an unsound solver, a stationary distribution, bounds lost in
  // a composition, a nested bound decided by values whose bounds straddle it.
  void mark_unsound(std::string why);
  bool sound() const { return sound_; }
  // Uniformisation adds an absolute error bound (Fox–Glynn's truncation) to
  // the values of the property; they add up over the steps of a check.
  void add_absolute_error(double bound) { absolute_error_ += bound; }
  double absolute_error() const { return absolute_error_; }

  void fill(CheckResult& result) const;

  // Adds what `inner` recorded (solvers, reasons, iterations, phases,
  // notes — each text once —, convergence, soundness) to this context: a computation that
  // solves under options of its own — a conditional probability tightens ε
  // for the two values it divides (conditional.cpp) — reports its solves
  // in the check's result. Both must check the same model.
  void absorb(const CheckContext& inner);
  // Forgets the notes that start with `prefix`: a computation made of many
  // small solves (the epochs of a reward bound) says once what each solve's
  // note would repeat ("stationary after ...").
  void forget_notes(std::string_view prefix);

 private:
  class PhaseScope {
   public:
    PhaseScope(const CheckContext& ctx, Phase phase)
        : ctx_(ctx), phase_(phase), outermost_(ctx.phase_depth_++ == 0), start_(std::chrono::steady_clock::now()) {}
    ~PhaseScope() {
      --ctx_.phase_depth_;
      if (!outermost_) return;
      const double s = seconds_since(start_);
      (phase_ == Phase::precompute ? ctx_.timings_.precompute : ctx_.timings_.build) += s;
    }
    PhaseScope(const PhaseScope&) = delete;
    PhaseScope& operator=(const PhaseScope&) = delete;

   private:
    const CheckContext& ctx_;
    Phase phase_;
    bool outermost_;
    std::chrono::steady_clock::time_point start_;
  };

  // `handover` (may be null): where auto starts the problem on the CPU
  // while CUDA starts, the GPU solver to hand it over to (choose_solver).
  const SolverEntry& pick(ProblemKind kind, uint64_t entries, uint64_t rows, const ChoiceHint& hint = {},
                          Handover* handover = nullptr);
  // Before `solver` allocates anything: the host memory of the
  // solve (check/memory_budget.hpp) against the memory limit, and a GPU
  // solver's device memory against its budget. `problem_bytes`: what the
  // built problem holds.
  void require_solve_memory(const SolverEntry& solver, ProblemKind kind, uint64_t unknowns, uint64_t rows,
                            uint64_t entries, uint64_t problem_bytes) const;
  void record(const SolveStats& stats);
  // An unbounded solve that certified nothing: why, in the notes.
  void mark_uncertified_solve(const SolverEntry& solver);

  const Model& model_;
  const CheckOptions& options_;
  std::vector<std::string> solvers_;
  // Why each solver was chosen: its first reason only. A check of many
  // solves (a reward bound's epochs, a steady state's BSCCs) would repeat
  // one choice with start-up estimates that differ only as time passes.
  std::vector<std::pair<std::string, std::string>> reasons_;  // solver, reason
  void add_reason(const std::string& solver, const std::string& reason);
  std::vector<std::string> notes_;
  uint64_t iterations_ = 0;
  // Phases (timings_.load and .other are filled by check()); mutable because
  // derived data built inside a const accessor (transposed()) is timed too.
  mutable PhaseTimings timings_;
  mutable int phase_depth_ = 0;
  double bytes_per_iteration_ = 0;
  uint32_t most_gpus_ = 0;  // the most GPUs one solve split its rows over
  std::string kernel_;
  bool converged_ = true;
  bool sound_ = true;
  double absolute_error_ = 0.0;
  // A named solver (not auto/cpu/gpu): whether it ran, and the problems it
  // could not solve (others solved them).
  bool named_used_ = false;
  std::vector<std::string> named_unsolved_;
};

}  // namespace pmc
