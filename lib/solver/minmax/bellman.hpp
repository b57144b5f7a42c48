// The Bellman operator of a MinMaxProblem, shared by cpu.vi, cpu.topo-vi and
// cpu.interval-vi (Berger 2014 §2.6, §3.3 Algorithm 2):
//   B(x)_s = opt_{r ∈ rows(s)} ( b_r + Σ_j a_rj·x_j ).
// A state without choices keeps its value, as gpu.vi does.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "solver/convergence.hpp"
#include "solver/parallel.hpp"
#include "solver/problem.hpp"

namespace pmc {

inline double choice_value(const MinMaxProblem& p, uint64_t r, const double* x) {
  double v = p.b[r];
  for (uint64_t e = p.a.row_offsets[r]; e < p.a.row_offsets[r + 1]; ++e) v += p.a.values[e] * x[p.a.columns[e]];
  return v;
}

// B(x)_s; `best` receives the optimal row, 0-based within the group (the
// first one on ties).
inline double state_value(const MinMaxProblem& p, uint64_t s, const double* x, uint32_t* best = nullptr) {
  const uint64_t first = p.row_groups[s], last = p.row_groups[s + 1];
  if (first == last) return x[s];
  double value = choice_value(p, first, x);
  uint32_t arg = 0;
  for (uint64_t r = first + 1; r < last; ++r) {
    const double v = choice_value(p, r, x);
    if (p.maximize ? v > value : v < value) {
      value = v;
      arg = static_cast<uint32_t>(r - first);
    }
  }
  if (best) *best = arg;
  return value;
}

// How a sweep may move a value. Interval iteration keeps its bounds
// monotone (lower: max(l, B(l)), upper: min(u, B(u))); both stay sound
// because B maps lower bounds to lower bounds and upper to upper.
enum class Clamp { none, up, down };

// One sweep y_s ← B(x)_s over `count` states, the i-th being state_at(i).
// x == y: Gauss–Seidel, in place, sequential (each update already sees the
// new values of earlier states: fewer sweeps). x != y: Jacobi, every state
// reads only x, so the sweep runs on `threads` cores once count exceeds
// k_parallel_rows. Returns max_s convergence_difference(x_s, y_s).
template <typename StateAt>
double bellman_sweep(const MinMaxProblem& p, int64_t count, StateAt state_at, const double* x, double* y,
                     bool relative, int threads, Clamp clamp = Clamp::none) {
  double max_diff = 0.0;
  const bool parallel = x != y && count > k_parallel_rows && threads > 1;
#pragma omp parallel for if (parallel) num_threads(threads) schedule(static, 1024) reduction(max : max_diff)
  for (int64_t i = 0; i < count; ++i) {
    const uint64_t s = state_at(i);
    const double old = x[s];
    double v = state_value(p, s, x);
    if (clamp == Clamp::up) v = std::max(v, old);
    if (clamp == Clamp::down) v = std::min(v, old);
    y[s] = v;
    max_diff = std::max(max_diff, convergence_difference(old, v, relative));
  }
  return max_diff;
}

// All states in index order.
inline double bellman_sweep(const MinMaxProblem& p, const double* x, double* y, bool relative, int threads,
                            Clamp clamp = Clamp::none) {
  return bellman_sweep(
      p, static_cast<int64_t>(p.num_unknowns()), [](int64_t i) { return static_cast<uint64_t>(i); }, x, y, relative,
      threads, clamp);
}

// Whether cpu.vi and its relatives sweep a problem of `unknowns` unknowns
// Jacobi-style: Gauss–Seidel needs fewer sweeps but is inherently
// sequential, so Jacobi's parallel sweep wins only on a large problem with
// enough cores.
inline bool jacobi_sweeps_pay_off(uint64_t unknowns, int threads) {
  return unknowns > static_cast<uint64_t>(k_parallel_rows) && threads >= k_min_threads_for_jacobi_vi;
}

// Repeated sweeps v ← B(v) over all of a problem's unknowns: in place
// (Gauss–Seidel), or Jacobi-style through a second vector that is kept from
// one sweep to the next.
class BellmanSweeper {
 public:
  BellmanSweeper(bool jacobi, bool relative, int threads) : jacobi_(jacobi), relative_(relative), threads_(threads) {}

  // One sweep; returns its largest change (convergence_difference).
  double sweep(const MinMaxProblem& p, std::vector<double>& v, Clamp clamp = Clamp::none) {
    if (!jacobi_) return bellman_sweep(p, v.data(), v.data(), relative_, threads_, clamp);
    next_.resize(v.size());
    const double diff = bellman_sweep(p, v.data(), next_.data(), relative_, threads_, clamp);
    v.swap(next_);
    return diff;
  }

  bool jacobi() const { return jacobi_; }

 private:
  bool jacobi_;
  bool relative_;
  int threads_;
  std::vector<double> next_;
};

// Cost model for stats.bytes_per_iteration: matrix, b, row groups, x twice.
inline double bellman_bytes(const MinMaxProblem& p) {
  return p.a.num_entries() * 12.0 + p.a.num_rows() * 16.0 + p.num_unknowns() * 24.0;
}

// Optimal choices for values x (a fixed point up to the solver's precision).
// Plain arg-opt can pick a choice that never leaves: with x_0 = ½ both "stay
// in 0" and "½ to the target" attain max(x_0, ½), and the first keeps the run
// in 0 forever (value 0). Berger 2014 §2.5 picks, among the optimal choices,
// one that moves closer to the target. Here: keep arg-opt wherever the
// induced chain can reach a non-silent row (row_is_silent); switch every
// other state to a near-optimal choice (within tolerance·max(1, |B(x)_s|))
// one step closer to such a row (backward BFS). Then I − A_σ is non-singular
// and the induced chain's values are the fixed point x.
std::vector<uint32_t> optimal_choices(const MinMaxProblem& p, const std::vector<double>& x, double tolerance);

// How every solve ends: the final values x (lower bounds, for the sound
// solvers) into solution.x and the choices optimal for them
// (optimal_choices at the solver's precision) into solution.choice.
inline void store_values(const MinMaxProblem& p, std::vector<double> x, double tolerance, MinMaxSolution& solution) {
  solution.choice = optimal_choices(p, x, tolerance);
  solution.x = std::move(x);
}

// The sound solvers' end: the lower bounds as values (store_values) and the
// upper bounds into solution.upper.
inline void store_bounds(const MinMaxProblem& p, std::vector<double> lower, std::vector<double> upper,
                         double tolerance, MinMaxSolution& solution) {
  store_values(p, std::move(lower), tolerance, solution);
  solution.upper = std::move(upper);
}

// The caller's start vector, checked: empty means zeros.
std::vector<double> start_vector(const std::vector<double>& given, uint64_t n, const char* what);

}  // namespace pmc
