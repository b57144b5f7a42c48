// cpu.sound-vi: sound value iteration (Quatmann & Katoen, CAV 2018) for
// MinMaxProblems. Where interval iteration sweeps two vectors that each
// converge at value iteration's pace from opposite sides, sound value
// iteration sweeps the k-step problem once and extrapolates: per unknown s,
//   x_k(s) = what the chosen rows earn in k sweeps (b accumulated),
//   y_k(s) = the mass those rows keep among the unknowns after k sweeps,
// and every unknown's value lies in [x_k + y_k·lower, x_k + y_k·upper] for
// scalars lower ≤ min_s v(s), upper ≥ max_s v(s). The gap y_k·(upper −
// lower) closes as the kept mass drains: on the paper's benchmarks in
// about as many sweeps as value iteration's (unsound) stopping rule takes,
// on consensus in as many as interval iteration (docs/decisions.md).
//
// The two scalars come from two arguments (G is a sweep, Gauss–Seidel or
// Jacobi, with the rows chosen as below; G(v) = v at the fixed point v):
// - Policy side (lower for max, upper for min): the chosen rows are one
//   policy, and v ≥ G_σ(v) (max) or v ≤ G_σ(v) (min) state by state; at
//   the state s* where v is smallest (max) or largest (min),
//   v(s*) ≷ x(s*) + y(s*)·v(s*), so min v ≥ min_s x/(1−y) (max) and
//   max v ≤ max_s x/(1−y) (min), once every y < 1.
// - Decision side (upper for max, lower for min): the rows are chosen
//   optimal for the values x + c·y at the weight c = that scalar, and stay
//   optimal for every c in an interval [d_lo, d_hi] (each alternative row
//   crossing the chosen one at a threshold, (x_r − x_b)/(y_b − y_r)); for c
//   there, G(x + c·y) = x' + c·y' exactly. For max, if U = max v ≥ d_lo
//   then U = v(s*) = G^k(v)(s*) ≤ G^k(U)(s*) = x(s*) + y(s*)·U, so
//   U ≤ max(d_lo, max_s x/(1−y)); min mirrors it with d_hi. Choosing the
//   weight as the scalar itself keeps d_lo ≤ upper ≤ d_hi (max; lower for
//   min), which is what makes x + y·upper (resp. x + y·lower) a bound in
//   every state. Ties between rows (up to rounding: sound_vi_scalars.hpp)
//   go to the smaller y, so that a tied row only bounds the side the
//   scalar moves away from, and cross at the weight itself.
// Before any bound is known the weight is the a-priori one: 0 for the
// lower bound (b ≥ 0), problem.upper_bound (1 for probabilities) for the
// upper. Max rewards have none; a first phase finds one: x̂ and ŷ, each
// maximised on its own (the most any rows earn, the most mass any rows
// keep), bound v ≤ x̂ + ŷ·U state by state, so U ≤ max_s x̂/(1 − ŷ) once
// every ŷ < 1 (in the quotient every policy leaves). The sweeps then start
// over from x = 0, y = 1 with that weight. (Starting with the weight +∞, as
// the paper does, makes every row whose kept mass differs from the most by
// rounding alone a threshold near ±10¹⁶.)
//
// Rows equal up to rounding (x and y within k_sound_vi_tie of each other, as
// symmetric components give) cross at no meaningful weight and are not
// counted as thresholds: their noise would land anywhere.
//
// Runs on the end-component quotient (end_component_quotient.hpp), as the
// other sound solvers do: for max the kept mass of a policy that can stay
// in an end component forever would never drain.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "common/error.hpp"
#include "solver/convergence.hpp"
#include "solver/iteration.hpp"
#include "solver/minmax/bellman.hpp"
#include "solver/minmax/end_component_quotient.hpp"
#include "solver/minmax/mdp_solvers.hpp"
#include "solver/minmax/sound_vi_scalars.hpp"
#include "solver/parallel.hpp"

namespace pmc {

namespace {

constexpr double k_infinity = std::numeric_limits<double>::infinity();
// Rows whose pairs update_state keeps rather than computes twice.
constexpr uint64_t k_cached_rows = 16;

// One unknown's x and y side by side: a gathered column brings both in one
// cache line (the gathers are what is random).
struct Pair {
  double x, y;  // no initialisers: update_state's cache stays uninitialised until written
};

// What one sweep gathers besides the new pairs: the interval of weights
// for which every chosen row stayed optimal, and the extreme ratios
// x/(1 − y) once every unknown keeps at most k_max_kept_mass.
struct SweepSummary {
  double d_lo = -k_infinity, d_hi = k_infinity;
  double ratio_min = k_infinity, ratio_max = -k_infinity;
  bool all_drained = true;  // every y ≤ k_max_kept_mass
};

// The new pair with its state's thresholds: the chosen row stays optimal
// for weights in [lo, hi].
struct StateResult {
  Pair next;
  double lo, hi;
};

// Row r's (b + Σ a·x, Σ a·y) on the current pairs.
inline Pair row_pair(const MinMaxProblem& p, uint64_t r, const Pair* v) {
  Pair sum{p.b[r], 0.0};
  for (uint64_t e = p.a.row_offsets[r]; e < p.a.row_offsets[r + 1]; ++e) {
    const double a = p.a.values[e];
    const Pair& column = v[p.a.columns[e]];
    sum.x += a * column.x;
    sum.y += a * column.y;
  }
  return sum;
}

// One unknown's update: the row chosen at `weight` (finite; ties to the
// smaller y) and the weights at which an alternative would overtake it.
inline StateResult update_state(const MinMaxProblem& p, uint64_t s, const Pair* v, double weight) {
  const uint64_t first = p.row_groups[s], last = p.row_groups[s + 1];
  if (first == last) return {{v[s].x, 0.0}, -k_infinity, k_infinity};  // no choices: the value is fixed (as B keeps it)
  const bool maximize = p.maximize;
  Pair best = row_pair(p, first, v);
  if (last - first == 1) return {best, -k_infinity, k_infinity};
  auto beats = [&](const Pair& c, const Pair& b) {
    const double cv = c.x + weight * c.y, bv = b.x + weight * b.y;
    if (sound_vi_tied(cv, bv)) return c.y < b.y;
    return maximize ? cv > bv : cv < bv;
  };
  // The rows' pairs are kept for the thresholds (the first k_cached_rows;
  // a state with more reads the rest again).
  std::array<Pair, k_cached_rows> cache;
  cache[0] = best;
  for (uint64_t r = first + 1; r < last; ++r) {
    const Pair candidate = row_pair(p, r, v);
    if (r - first < k_cached_rows) cache[r - first] = candidate;
    if (beats(candidate, best)) best = candidate;
  }
  double lo = -k_infinity, hi = k_infinity;
  for (uint64_t r = first; r < last; ++r) {
    const Pair alt = r - first < k_cached_rows ? cache[r - first] : row_pair(p, r, v);
    const double dy = best.y - alt.y;
    if (dy == 0.0) continue;  // parallel: no crossing (the chosen is at least as good everywhere)
    if (sound_vi_tied(alt.y, best.y) && sound_vi_tied(alt.x, best.x)) continue;
    const bool tied = sound_vi_tied(alt.x + weight * alt.y, best.x + weight * best.y);
    const double t = tied ? weight : (alt.x - best.x) / dy;
    if ((dy > 0.0) == maximize) {
      lo = std::max(lo, t);
    } else {
      hi = std::min(hi, t);
    }
  }
  return {best, lo, hi};
}

// The first phase of max rewards: x̂ ← max_r (b_r + a_r·x̂) and ŷ ← max_r a_r·ŷ,
// each maximised on its own.
inline Pair decoupled_state(const MinMaxProblem& p, uint64_t s, const Pair* v) {
  const uint64_t first = p.row_groups[s], last = p.row_groups[s + 1];
  if (first == last) return {v[s].x, 0.0};
  Pair best{-k_infinity, -k_infinity};
  for (uint64_t r = first; r < last; ++r) {
    const Pair row = row_pair(p, r, v);
    best.x = std::max(best.x, row.x);
    best.y = std::max(best.y, row.y);
  }
  return best;
}

// One sweep over all unknowns: in place (Gauss–Seidel) when `jacobi` is
// false, else from `v` into `next` on `threads` cores (then swapped).
SweepSummary sweep(const MinMaxProblem& p, std::vector<Pair>& v, std::vector<Pair>& next, double weight,
                   bool decoupled, bool jacobi, int threads) {
  const auto n = static_cast<int64_t>(p.num_unknowns());
  const Pair* in = v.data();
  Pair* out = jacobi ? next.data() : v.data();
  double d_lo = -k_infinity, d_hi = k_infinity, ratio_min = k_infinity, ratio_max = -k_infinity;
  int64_t undrained = 0;
#pragma omp parallel for if (jacobi) num_threads(threads) schedule(static, 1024) \
    reduction(max : d_lo, ratio_max) reduction(min : d_hi, ratio_min) reduction(+ : undrained)
  for (int64_t s = 0; s < n; ++s) {
    Pair u;
    if (decoupled) {
      u = decoupled_state(p, static_cast<uint64_t>(s), in);
    } else {
      const StateResult r = update_state(p, static_cast<uint64_t>(s), in, weight);
      u = r.next;
      d_lo = std::max(d_lo, r.lo);
      d_hi = std::min(d_hi, r.hi);
    }
    out[s] = u;
    if (u.y > k_max_kept_mass) {
      ++undrained;
    } else {
      const double ratio = u.x / (1.0 - u.y);
      ratio_min = std::min(ratio_min, ratio);
      ratio_max = std::max(ratio_max, ratio);
    }
  }
  if (jacobi) v.swap(next);
  return {d_lo, d_hi, ratio_min, ratio_max, undrained == 0};
}

// The bounds x + y·lower and x + y·upper close (bounds_close) in every
// unknown. On all cores only where the sweeps run there too (a parallel
// region after a sequential sweep costs more than it saves).
bool extrapolation_close(const std::vector<Pair>& v, double lower, double upper, const SolverSettings& settings,
                         bool parallel, int threads) {
  if (!std::isfinite(upper) || !std::isfinite(lower)) return false;
  const auto n = static_cast<int64_t>(v.size());
  int64_t open = 0;
#pragma omp parallel for if (parallel) num_threads(threads) schedule(static, 4096) reduction(+ : open)
  for (int64_t s = 0; s < n; ++s) {
    if (!bounds_close(v[s].x + v[s].y * lower, v[s].x + v[s].y * upper, settings.epsilon, settings.relative)) ++open;
  }
  return open == 0;
}

SolveStats sound_core(const MinMaxProblem& p, MinMaxSolution& solution, const SolverSettings& settings) {
  const uint64_t n = p.num_unknowns();
  const int threads = solver_threads(settings);
  const bool jacobi = jacobi_sweeps_pay_off(n, threads);
  SolveStats stats;
  stats.kernel = jacobi ? "jacobi" : "gauss-seidel";
  // Two products per row (x and y) over the same entries: the matrix once, the pairs (16 bytes) twice.
  stats.bytes_per_iteration = bellman_bytes(p) + n * 16.0;
  IterationDriver loop(settings, stats, "cpu.sound-vi", settings.max_iterations);

  // {x, y} = {0, 1}; a state without choices keeps its start value (none:
  // 0), as B keeps it, and keeps no mass.
  const std::vector<double> start = start_vector(solution.x, n, "cpu.sound-vi");
  std::vector<Pair> fresh(n), v, next(jacobi ? n : 0);
  for (uint64_t s = 0; s < n; ++s) {
    fresh[s] = p.row_groups[s] == p.row_groups[s + 1] ? Pair{start[s], 0.0} : Pair{0.0, 1.0};
  }
  v = fresh;
  if (n == 0) {
    stats.converged = stats.sound = true;
    store_bounds(p, {}, {}, settings.epsilon, solution);
    return stats;
  }
  // b ≥ 0 (probabilities, non-negative rewards: the checker rejects
  // others), so 0 is an a-priori lower bound.
  SoundViScalars bounds{.maximize = p.maximize, .upper = p.upper_bound};
  if (p.maximize && !std::isfinite(bounds.upper)) {
    stats.kernel += "+first-phase";
    const bool found = loop.until_upper_bound(stats.iterations, [&] {
      const SweepSummary sw = sweep(p, v, next, 0.0, true, jacobi, threads);
      if (sw.all_drained) bounds.upper = widened_ratio(sw.ratio_max, 1.0);
      return sw.all_drained;
    });
    if (!found) {
      // The iteration limit came first: x̂ is plain VI's estimate, not sound.
      loop.record_loop_seconds();
      std::vector<double> estimate(n);
      for (uint64_t s = 0; s < n; ++s) estimate[s] = v[s].x;
      store_bounds(p, std::move(estimate), std::vector<double>(n, k_infinity), settings.epsilon, solution);
      return stats;
    }
    v = fresh;
  }

  stats.converged = loop.until_bounds_close(
      [&] {
        const SweepSummary sw = sweep(p, v, next, bounds.weight(), false, jacobi, threads);
        if (!bounds.after_sweep(sw.d_lo, sw.d_hi, sw.all_drained, sw.ratio_min, sw.ratio_max)) return true;
        return extrapolation_close(v, bounds.lower, bounds.upper, settings, jacobi, threads);
      },
      [&] {
        double kept = 0.0;
        for (const Pair& pair : v) kept = std::max(kept, pair.y);
        return kept * (bounds.upper - bounds.lower);
      });
  loop.record_loop_seconds();
  if (!bounds.certified) {
    stats.converged = false;
    stats.notes.push_back("cpu.sound-vi lost its decision interval to rounding; the bounds are not certified");
  }
  stats.sound = bounds.certified && std::isfinite(bounds.upper);
  std::vector<double> lo(n), hi(n);
  for (uint64_t s = 0; s < n; ++s) {
    lo[s] = v[s].x + v[s].y * bounds.lower;
    hi[s] = v[s].y == 0.0 ? lo[s] : (std::isfinite(bounds.upper) ? v[s].x + v[s].y * bounds.upper : k_infinity);
  }
  store_bounds(p, std::move(lo), std::move(hi), settings.epsilon, solution);
  return stats;
}

}  // namespace

SolveStats sound_value_iteration(const MinMaxProblem& p, MinMaxSolution& solution, const SolverSettings& settings) {
  for (double b : p.b) {
    if (b < 0.0) fail(ErrorCode::invalid_argument, "cpu.sound-vi needs non-negative b (rewards), got {}", b);
  }
  return solve_with_end_components_collapsed(p, solution, settings, sound_core);
}

}  // namespace pmc
