// The iteration driver every solver loop shares. A solver keeps only its
// update rule (one sweep, one launch, one step) as a callable; the driver
// owns what every loop repeats around it: the iteration limit, the stopping
// test's bookkeeping, counting, progress reports and the cancellation poll
// (solver/progress.hpp), the loop's clock and the statistics record.
//
// The callables are template parameters, so the update rule is inlined into
// the loop: the driver adds no call through a pointer, per row or per
// iteration. Free of fmt: cuda/*.cu may include it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

#include "common/stopwatch.hpp"
#include "solver/problem.hpp"
#include "solver/progress.hpp"

namespace pmc {

// When the driver polls cancellation and reports progress, relative to the
// update. The CPU loops report after an iteration (the sound ones after
// every iteration, the others only after one that did not end the loop);
// the GPU loops poll before each launch, with the last check's residual, so
// that a cancel never waits for a launch that would be discarded.
enum class ProgressPoll { after_unfinished_iteration, after_every_iteration, before_every_iteration };

// The GPU loops' check_every: reading one double back costs a few
// microseconds, about as much as an iteration on mid-size models, so
// checking every 8th keeps the overhead small while overshooting the
// stopping point by at most 7 iterations.
inline constexpr uint64_t k_device_check_every = 8;

// How one loop runs: at most `limit` iterations (counted in the counter the
// loop is given, which may carry on from an earlier phase); the stopping
// test is evaluated on every `check_every`-th iteration and on the last one
// the limit allows (a GPU loop reads its device-side test back only then).
struct IterationSchedule {
  uint64_t limit = 0;
  uint64_t check_every = 1;
  ProgressPoll poll = ProgressPoll::after_unfinished_iteration;

  // Whether iteration number `next` (1-based within the counter) checks.
  bool checks(uint64_t next) const { return check_every <= 1 || next % check_every == 0 || next == limit; }
};

class IterationDriver {
 public:
  // Names the solve in `stats` and in progress reports (`solver` must
  // outlive the driver: a string literal, usually). `progress_limit`: the
  // limit progress reports show (the iteration limit or the number of
  // steps; 0 when none applies to the whole solve, as per-SCC limits).
  // The loop's clock starts here.
  IterationDriver(const SolverSettings& settings, SolveStats& stats, const char* solver, uint64_t progress_limit = 0)
      : settings_(settings), stats_(stats), solver_(solver), progress_(settings, solver, progress_limit) {
    stats_.solver = solver;
  }

  // The loop itself. `step(check)` applies the update rule once and returns
  // true when the stopping test held (it is evaluated only when `check`);
  // `residual()` gives the quantity a progress report shows and is called
  // only when a report is due. Each iteration counts in `count` and in the
  // solve's total. True when the test held, false at the limit.
  template <typename Step, typename Residual>
  bool run(uint64_t& count, const IterationSchedule& schedule, Step step, Residual residual) {
    while (count < schedule.limit) {
      if (schedule.poll == ProgressPoll::before_every_iteration) progress_.tick_with(total_, residual);
      const bool done = step(schedule.checks(count + 1));
      ++count;
      ++total_;
      if (schedule.poll == ProgressPoll::after_every_iteration ||
          (schedule.poll == ProgressPoll::after_unfinished_iteration && !done)) {
        progress_.tick_with(total_, residual);
      }
      if (done) return true;
    }
    return false;
  }

  // PRISM's stopping rule (solver/convergence.hpp): `update()` returns the
  // iteration's largest change (convergence_difference, relative or
  // absolute as the settings say), and the loop stops once it is below ε.
  // At most settings.max_iterations, counted in `count`.
  template <typename Update>
  bool until_converged(uint64_t& count, Update update) {
    double change = std::numeric_limits<double>::quiet_NaN();
    return run(
        count, schedule(settings_.max_iterations, ProgressPoll::after_unfinished_iteration),
        [&](bool) {
          change = update();
          return change < settings_.epsilon;
        },
        [&] { return change; });
  }
  // Counted in stats.iterations.
  template <typename Update>
  bool until_converged(Update update) {
    return until_converged(stats_.iterations, update);
  }

  // Sound solvers' stopping rule: `update()` returns true once every
  // unknown's bounds are close (bounds_close); `gap()` is the widest gap,
  // computed only for a due report. Counted in `count`.
  template <typename Update, typename Gap>
  bool until_bounds_close(uint64_t& count, Update update, Gap gap) {
    return run(count, schedule(settings_.max_iterations, ProgressPoll::after_every_iteration),
               [&](bool) { return update(); }, gap);
  }
  template <typename Update, typename Gap>
  bool until_bounds_close(Update update, Gap gap) {
    return until_bounds_close(stats_.iterations, update, gap);
  }

  // The phases that look for an upper bound before the bounds can be
  // compared: `update()` returns true once the phase has what it needs.
  // Reports show k_no_upper_bound_yet. Counted in `count`.
  template <typename Update>
  bool until_upper_bound(uint64_t& count, Update update) {
    return run(count, schedule(settings_.max_iterations, ProgressPoll::after_every_iteration),
               [&](bool) { return update(); }, [] { return k_no_upper_bound_yet; });
  }
  template <typename Update>
  bool until_upper_bound(Update update) {
    return until_upper_bound(stats_.iterations, update);
  }

  // A step-bounded problem (StepProblem, bounded MDP properties): `update(k)`
  // computes v_k from v_{k−1} for k = 1, 2, … and returns whether v_k
  // differs from v_{k−1} bit for bit. The loop runs min(steps,
  // settings.max_iterations) steps and stops early once an iterate is
  // stationary before the last step (every later step would compute it
  // again). Counted in stats.iterations; sets stats.converged (stationary,
  // or all steps done) and adds the note that says which. Returns whether
  // it stopped at a stationary iterate, v_{stats.iterations}.
  template <typename Update>
  bool bounded_steps(uint64_t steps, Update update) {
    const uint64_t limit = std::min(steps, settings_.max_iterations);
    const bool stationary = run(
        stats_.iterations, schedule(limit, ProgressPoll::after_unfinished_iteration),
        [&](bool) {
          const uint64_t k = stats_.iterations + 1;
          return !update(k) && k < steps;
        },
        [] { return std::numeric_limits<double>::quiet_NaN(); });
    if (stationary) stats_.notes.push_back(stationary_note(stats_.iterations, steps));
    stats_.converged = stationary || limit == steps;
    if (!stats_.converged) stats_.notes.push_back(step_limit_note(solver_, limit, steps));
    return stationary;
  }

  // Between pieces of work that are not iterations of a loop (an SCC of one
  // unknown solved directly): polls cancellation and reports the total so
  // far, with no residual.
  void poll() { progress_.tick(total_); }

  // Iterations of every loop run by this driver so far.
  uint64_t total_iterations() const { return total_; }

  // Records the time since the driver was made as stats.loop_seconds.
  void record_loop_seconds() { stats_.loop_seconds = loop_clock_.seconds(); }

 private:
  static IterationSchedule schedule(uint64_t limit, ProgressPoll poll) { return {limit, 1, poll}; }

  const SolverSettings& settings_;
  SolveStats& stats_;
  const char* solver_;
  ProgressReporter progress_;
  Stopwatch loop_clock_;
  uint64_t total_ = 0;
};

}  // namespace pmc
