// Progress of a long solve: SolverSettings::progress is called with the
// iteration and the current residual, rate-limited so that solvers may
// report every iteration. Like cancellation.hpp, free of fmt: cuda/*.cu may
// include it.
#pragma once

#include <chrono>
#include <cstdint>
#include <limits>

#include "common/cancellation.hpp"
#include "solver/problem.hpp"

namespace pmc {

// At most one report per interval (and none for a solve shorter than it):
// a terminal line redrawn five times a second reads as live without
// costing anything measurable.
inline constexpr std::chrono::milliseconds k_progress_interval{200};

// What a sound (interval) solver reports before it has an upper bound: the
// gap between its bounds is not yet finite.
inline constexpr double k_no_upper_bound_yet = std::numeric_limits<double>::infinity();

// One per solve loop. tick() once per iteration (outside OpenMP regions):
// it throws Error(cancelled) when settings.cancel is set, and calls
// settings.progress when the interval has passed. Reading the clock every
// iteration would cost more than a sweep of a tiny SCC, so the clock is
// read every `stride_` ticks, the stride doubling while ticks come faster
// than one per millisecond and halving while they come slower than one per
// 10 ms (a loop whose iterations suddenly slow down only delays the next
// report; the cancel flag is polled on every tick regardless).
class ProgressReporter {
 public:
  // `solver` must outlive the reporter (a string literal, usually).
  // `limit`: the iteration limit or the number of steps, 0 if none.
  ProgressReporter(const SolverSettings& settings, const char* solver, uint64_t limit = 0)
      : settings_(settings), solver_(solver), limit_(limit), start_(std::chrono::steady_clock::now()),
        last_clock_(start_), last_report_(start_) {}

  // `residual`: the convergence test's quantity of this iteration (NaN
  // when the solver has none, as bounded steps).
  void tick(uint64_t iteration, double residual = std::numeric_limits<double>::quiet_NaN()) {
    if (due()) report(iteration, residual);
  }

  // As tick, for a residual that costs a pass over the vectors:
  // `residual()` is called only when a report is due.
  template <typename Residual>
  void tick_with(uint64_t iteration, Residual residual) {
    if (due()) report(iteration, residual());
  }

 private:
  // Throws when cancelled; true when a report is due now.
  bool due() {
    throw_if_cancelled(settings_.cancel);
    if (!settings_.progress || ++since_clock_ < stride_) return false;
    since_clock_ = 0;
    const auto now = std::chrono::steady_clock::now();
    const auto gap = now - last_clock_;
    last_clock_ = now;
    if (gap < std::chrono::milliseconds(1) && stride_ < k_max_stride) stride_ *= 2;
    if (gap > std::chrono::milliseconds(10) && stride_ > 1) stride_ /= 2;
    if (now - last_report_ < k_progress_interval) return false;
    last_report_ = now;
    return true;
  }

  void report(uint64_t iteration, double residual) {
    SolveProgress p;
    p.solver = solver_;
    p.iteration = iteration;
    p.residual = residual;
    p.limit = limit_;
    p.seconds = std::chrono::duration<double>(last_report_ - start_).count();
    settings_.progress(p);
  }

  static constexpr uint64_t k_max_stride = 4096;
  const SolverSettings& settings_;
  const char* solver_;
  uint64_t limit_;
  uint64_t stride_ = 1, since_clock_ = 0;
  std::chrono::steady_clock::time_point start_, last_clock_, last_report_;
};

}  // namespace pmc
