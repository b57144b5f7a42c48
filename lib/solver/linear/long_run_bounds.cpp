// cpu.gauss-seidel and cpu.jacobi on a long-run problem (LongRunProblem):
// certified bounds on one bottom SCC's long-run average g = π·f, found
// from the chain's bias rather than from π.
//
// Why a bracket: for every vector v, Δ_v(s) = f(s) + Σ_t r_st·(v_t − v_s)
// is f plus Q·v (Q the generator of the rates), and π·Q = 0, so π·Δ_v = g:
// g is an average of the Δ_v(s), hence min Δ_v ≤ g ≤ max Δ_v (the bounds of
// relative value iteration, Odoni 1969). The bracket is exact for the
// stored rates; each Δ is widened by its rounding (long_run_margin). The
// bracket is flat at the bias h, the solution (up to a constant) of
// f(s) − g + Σ_t r_st·(h_t − h_s) = 0, which the sweeps approach:
//
//   v_s ← (1 − ω)·v_s + ω·(f(s) − ĝ + Σ_t r_st·v_t) / E_s,   E_s = Σ_t r_st.
//
// The system is singular (the constants solve its homogeneous part) and
// consistent only for ĝ = g. Otherwise the iterates settle into a drift
// v_k = w + k·α·1 with Δ_w(s) = ĝ + (g − ĝ)·E_s/(π·E): flat only where the
// exit rates are. So ĝ is re-estimated at every check as π̃·Δ_v, π̃ the
// problem's estimate of π (a stationary solve's), whose error then enters
// only through π̃ − π times the spread of Δ_v, a product of two small
// terms. (The bracket's midpoint as ĝ weighs every state alike and made
// the sweeps diverge on PRISM's cluster model; a fixed ĝ leaves the
// bracket open wherever E is not flat, and under Gauss–Seidel even where
// it is.) Each check
// also shifts v so that v_0 = 0, against the drift. The damping ω < 1 is
// the stationary sweeps' (gauss_seidel.cpp, stationary_damping.hpp):
// without it Jacobi never settles on a periodic chain. The bracket is valid
// whether or not the sweeps converge: at the iteration limit the bounds
// are reported as they are (stats.converged false), still certified.
//
// cpu.gauss-seidel sweeps blocks of k_gauss_seidel_block states in place,
// forwards and backwards in turn, the blocks on all cores, each reading the
// others' previous values: the iterates are the same on any number of
// threads. cpu.jacobi is the same loop with blocks of one state.
#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/stopwatch.hpp"
#include "solver/convergence.hpp"
#include "solver/iteration.hpp"
#include "solver/linear/cpu_solvers.hpp"
#include "solver/linear/long_run_setup.hpp"
#include "solver/linear/stationary_damping.hpp"
#include "solver/parallel.hpp"

namespace pmc {

namespace {

// States per in-place block of cpu.gauss-seidel: large enough that most of
// a state's neighbours in a locally numbered chain are swept before it, small
// enough to give every core many blocks.
constexpr int64_t k_gauss_seidel_block = 2048;
// Gauss–Seidel's relaxation on the stationary system (gauss_seidel.cpp's
// k_relaxation, measured there).
constexpr double k_gauss_seidel_relaxation = 0.95;
}  // namespace

void require_valid_long_run(const LongRunProblem& p, const char* solver) {
  const SparseMatrix& r = p.rates;
  const uint64_t n = r.num_rows();
  if (p.reward.size() != n) {
    fail(ErrorCode::invalid_argument, "{}: the long-run problem has {} states but {} rewards", solver, n,
         p.reward.size());
  }
  if (p.distribution.size() != n) {
    fail(ErrorCode::invalid_argument, "{}: the long-run problem has {} states but a distribution of {}", solver, n,
         p.distribution.size());
  }
  double mass = 0;
  for (uint64_t s = 0; s < n; ++s) {
    if (!std::isfinite(p.reward[s])) fail(ErrorCode::invalid_argument, "{}: the reward of state {} is not finite", solver, s);
    if (!(p.distribution[s] >= 0) || !std::isfinite(p.distribution[s])) {
      fail(ErrorCode::invalid_argument, "{}: the distribution's value at state {} is {} (wanted finite, >= 0)",
           solver, s, p.distribution[s]);
    }
    mass += p.distribution[s];
    for (uint64_t k = r.row_offsets[s]; k < r.row_offsets[s + 1]; ++k) {
      if (r.columns[k] >= n || r.columns[k] == s || !(r.values[k] >= 0) || !std::isfinite(r.values[k])) {
        fail(ErrorCode::invalid_argument,
             "{}: entry ({}, {}) of the long-run problem is {} (wanted a finite rate >= 0 to another of its {} states)",
             solver, s, r.columns[k], r.values[k], n);
      }
    }
  }
  if (n > 0 && !(mass > 0 && std::isfinite(mass))) {
    fail(ErrorCode::invalid_argument, "{}: the distribution's total is {} (wanted > 0)", solver, mass);
  }
}

std::string long_run_rounding_note(const char* solver, const LongRunBounds& bounds) {
  return fmt::format("{}: the long-run bounds [{}, {}] are as close as double rounding lets them get, short of the "
                     "precision asked for (an average far below the largest reward: try an absolute precision)",
                     solver, bounds.lower, bounds.upper);
}

double long_run_mass(const LongRunProblem& problem) {
  double mass = 0;
  for (double weight : problem.distribution) mass += weight;
  return mass;
}

std::vector<double> long_run_scales(const LongRunProblem& problem, double relaxation, int threads) {
  const SparseMatrix& r = problem.rates;
  const auto n = static_cast<int64_t>(r.num_rows());
  std::vector<double> scale(n, 0.0);
#pragma omp parallel for if (n > k_parallel_rows) num_threads(threads) schedule(static, 4096)
  for (int64_t s = 0; s < n; ++s) {
    double exit = 0.0;
    for (uint64_t k = r.row_offsets[s]; k < r.row_offsets[s + 1]; ++k) exit += r.values[k];
    scale[s] = exit > 0 ? relaxation / exit : 0.0;
  }
  return scale;
}

namespace {

// The bracket [min Δ_v, max Δ_v] of the current v, each Δ widened by its
// rounding, the widest such margin, and Σ π̃·Δ_v (π̃ the problem's
// distribution). The sum is taken over fixed chunks of states, then the
// chunks in order, so that ĝ and every iterate after it are the same bits
// on any number of threads.
struct Bracket {
  LongRunBounds bounds;
  double margin = 0, weighted = 0;
};

constexpr int64_t k_sum_chunk = 4096;

Bracket bracket(const LongRunProblem& p, const std::vector<double>& v, int threads) {
  const SparseMatrix& r = p.rates;
  const auto n = static_cast<int64_t>(r.num_rows());
  const int64_t chunks = (n + k_sum_chunk - 1) / k_sum_chunk;
  std::vector<double> partial(chunks, 0.0);
  double lowest = INFINITY, highest = -INFINITY, widest = 0;
#pragma omp parallel for if (n > k_parallel_rows) num_threads(threads) schedule(static, 1) \
    reduction(min : lowest) reduction(max : highest, widest)
  for (int64_t c = 0; c < chunks; ++c) {
    double weighted = 0;
    for (int64_t s = c * k_sum_chunk; s < std::min(n, (c + 1) * k_sum_chunk); ++s) {
      double delta = p.reward[s], magnitude = std::fabs(p.reward[s]);
      const double own = v[s];
      for (uint64_t k = r.row_offsets[s]; k < r.row_offsets[s + 1]; ++k) {
        const double term = r.values[k] * (v[r.columns[k]] - own);
        delta += term;
        magnitude += std::fabs(term);
      }
      const double margin = long_run_margin(r.row_offsets[s + 1] - r.row_offsets[s], magnitude + std::fabs(delta));
      lowest = std::min(lowest, delta - margin);
      highest = std::max(highest, delta + margin);
      widest = std::max(widest, margin);
      weighted += p.distribution[s] * delta;
    }
    partial[c] = weighted;
  }
  double weighted = 0;
  for (double part : partial) weighted += part;
  return {{lowest, highest}, widest, weighted};
}

SolveStats long_run_sweeps(const LongRunProblem& p, LongRunBounds& out, const SolverSettings& settings,
                           const char* solver, int64_t block, double relaxation) {
  const Stopwatch clock;
  require_valid_long_run(p, solver);
  const SparseMatrix& r = p.rates;
  const auto n = static_cast<int64_t>(r.num_rows());
  SolveStats stats;
  stats.solver = solver;
  stats.sound = true;
  // Rates, columns and offsets; reward, scale, the iterate read and written.
  stats.bytes_per_iteration = r.num_entries() * 12.0 + n * 8.0 * 5;
  if (n == 0) {
    out = {0, 0};
    stats.converged = true;
    return stats;
  }
  const int threads = solver_threads(settings);
  const std::vector<double> scale = long_run_scales(p, relaxation, threads);
  std::vector<double> v(n, 0.0), next(n, 0.0);
  Bracket last = bracket(p, v, threads);
  out = last.bounds;
  // ĝ: π̃·f at first (Δ_0 = f), re-estimated at each check.
  const double mass = long_run_mass(p);
  double estimate = last.weighted / mass;
  stats.converged = bounds_close(out.lower, out.upper, settings.epsilon, settings.relative);
  bool at_rounding = false;
  if (!stats.converged) {
    const int64_t blocks = (n + block - 1) / block;
    IterationDriver loop(settings, stats, solver, settings.max_iterations);
    const IterationSchedule schedule{settings.max_iterations, k_long_run_check_every,
                                     ProgressPoll::after_every_iteration};
    stats.converged = loop.run(
        stats.iterations, schedule,
        [&](bool check) {
          // Odd sweeps run each block backwards (symmetric Gauss–Seidel):
          // the bias flows against the transitions, so a chain numbered
          // along them (a ring 0 → 1 → … → 0) gets its values from one
          // backward sweep, where forward sweeps move them one state each.
          const bool backwards = stats.iterations % 2 == 1;
#pragma omp parallel for if (n > k_parallel_rows) num_threads(threads) schedule(static, 1)
          for (int64_t b = 0; b < blocks; ++b) {
            const int64_t first = b * block, end = std::min(n, first + block);
            for (int64_t i = 0; i < end - first; ++i) {
              const int64_t s = backwards ? end - 1 - i : first + i;
              double sum = p.reward[s] - estimate;
              for (uint64_t k = r.row_offsets[s]; k < r.row_offsets[s + 1]; ++k) {
                const int64_t t = r.columns[k];
                const bool swept = backwards ? t > s && t < end : t >= first && t < s;
                sum += r.values[k] * (swept ? next[t] : v[t]);
              }
              next[s] = (1.0 - relaxation) * v[s] + scale[s] * sum;
            }
          }
          v.swap(next);
          if (!check) return false;
          last = bracket(p, v, threads);
          out = last.bounds;
          estimate = last.weighted / mass;
          const double origin = v[0];
#pragma omp parallel for if (n > k_parallel_rows) num_threads(threads) schedule(static, 4096)
          for (int64_t s = 0; s < n; ++s) v[s] -= origin;
          at_rounding = long_run_at_rounding(out, last.margin);
          return at_rounding || bounds_close(out.lower, out.upper, settings.epsilon, settings.relative);
        },
        [&] { return out.upper - out.lower; });
    loop.record_loop_seconds();
    if (at_rounding) {
      stats.converged = bounds_close(out.lower, out.upper, settings.epsilon, settings.relative);
      if (!stats.converged) stats.notes.push_back(long_run_rounding_note(solver, out));
    }
  }
  stats.seconds = clock.seconds();
  return stats;
}

}  // namespace

SolveStats gauss_seidel_long_run(const LongRunProblem& problem, LongRunBounds& bounds, const SolverSettings& settings) {
  return long_run_sweeps(problem, bounds, settings, "cpu.gauss-seidel", k_gauss_seidel_block,
                         k_gauss_seidel_relaxation);
}

SolveStats jacobi_long_run(const LongRunProblem& problem, LongRunBounds& bounds, const SolverSettings& settings) {
  return long_run_sweeps(problem, bounds, settings, "cpu.jacobi", 1, k_stationary_damping);
}

}  // namespace pmc
