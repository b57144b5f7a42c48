// cpu.topo-vi: topological value iteration (Berger 2014 §2.7, §3.3). The
// values of an SCC depend only on the SCC itself and on SCCs it can reach,
// so solving SCCs successors-first lets each one converge once, on its own,
// instead of re-propagating every change through the whole problem.
//
// Precision per SCC: each SCC is iterated until the same test as cpu.vi
// (max convergence_difference < ε, relative or absolute) holds on its own
// unknowns. The Bellman operator is non-expansive in the max norm, so an
// error in already solved successors is passed on at most unamplified; an
// SCC adds its own stopping error on top. Like plain VI's test this is a
// heuristic, not a bound (for guaranteed bounds use cpu.interval-vi).
#include <chrono>
#include <cmath>
#include <limits>

#include "schedule/scc_schedule.hpp"
#include "solver/bellman.hpp"
#include "solver/mdp_solvers.hpp"
#include "solver/problem_end_components.hpp"
#include "solver/problem_graph.hpp"

namespace pmc {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A single unknown s with successors solved: each row is c_r + a_rs·x_s with
// c_r = b_r + Σ_{j≠s} a_rj·x_j, so its fixed point is c_r / (1 − a_rs), and
// the optimum over rows of those is the least fixed point of
// x_s = opt_r (c_r + a_rs·x_s) (for max, the row attaining it is a fixed
// point and every other row stays below; min likewise). Without a self-loop
// this is one Bellman update. A row that is a pure self-loop (a_rs = 1)
// has no finite fixed point unless c_r = 0, and then it adds nothing to the
// least one: it is skipped, and a state with only such rows keeps its
// value, as plain VI would (precomputation leaves no such state).
double solve_single(const MinMaxProblem& p, uint32_t s, const std::vector<double>& x) {
  const double none = p.maximize ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  double best = none;
  for (uint64_t r = p.row_groups[s]; r < p.row_groups[s + 1]; ++r) {
    double c = p.b[r], self = 0.0;
    for (uint64_t e = p.a.row_offsets[r]; e < p.a.row_offsets[r + 1]; ++e) {
      if (p.a.columns[e] == s) {
        self += p.a.values[e];
      } else {
        c += p.a.values[e] * x[p.a.columns[e]];
      }
    }
    if (1.0 - self <= 0.0) {
      if (c != 0.0 && p.maximize) return std::numeric_limits<double>::infinity();
      continue;
    }
    const double v = self == 0.0 ? c : c / (1.0 - self);
    best = p.maximize ? std::max(best, v) : std::min(best, v);
  }
  return best == none ? x[s] : best;
}

// SCC c as a problem of its own (Berger 2014 §2.7: "a possibly much smaller
// instance"): its rows, with the entries into already solved SCCs folded
// into b (those values are final), and its unknowns renumbered in Tarjan's
// order. The copy makes the sweeps stream the matrix instead of jumping
// through it (measured on a 10^6-state MDP with one giant SCC: sweeping the
// original rows in Tarjan's order cost 0.5 s per sweep, 25× a sweep in index
// order), and Tarjan's order, which lists a state's DFS successors before it,
// lets Gauss–Seidel use this sweep's successor values: half the sweeps of
// index order there. It is also what a device solver transfers per block.
void extract_scc(const MinMaxProblem& p, const ProblemSccs& sccs, uint64_t c, const std::vector<double>& x,
                 std::vector<uint32_t>& local_of, MinMaxProblem& sub) {
  const std::span<const uint32_t> states = sccs.component(c);
  for (uint64_t i = 0; i < states.size(); ++i) local_of[states[i]] = static_cast<uint32_t>(i);
  sub.maximize = p.maximize;
  sub.row_groups.assign(1, 0);
  sub.a.row_offsets.assign(1, 0);
  sub.a.columns.clear();
  sub.a.values.clear();
  sub.b.clear();
  for (uint32_t s : states) {
    for (uint64_t r = p.row_groups[s]; r < p.row_groups[s + 1]; ++r) {
      double b = p.b[r];
      for (uint64_t e = p.a.row_offsets[r]; e < p.a.row_offsets[r + 1]; ++e) {
        const uint32_t j = p.a.columns[e];
        if (sccs.component_of[j] == c) {
          sub.a.columns.push_back(local_of[j]);
          sub.a.values.push_back(p.a.values[e]);
        } else {
          b += p.a.values[e] * x[j];
        }
      }
      sub.b.push_back(b);
      sub.a.row_offsets.push_back(sub.a.columns.size());
    }
    sub.row_groups.push_back(sub.b.size());
  }
}

SolveStats topo_core(const MinMaxProblem& p, MinMaxSolution& solution, const SolverSettings& settings) {
  const auto start = std::chrono::steady_clock::now();
  const uint64_t n = p.num_unknowns();
  std::vector<double> x = start_vector(solution.x, n, "cpu.topo-vi");
  const int threads = solver_threads(settings);
  const ProblemSccs sccs = problem_sccs(p);
  // Unlimited budget: one block. The loop is kept block-shaped because the
  // block is what a device solver transfers (Berger 2014 §3.3).
  const std::vector<uint64_t> bytes = all_scc_bytes(p, sccs);
  const std::vector<SccBlock> blocks = group_sccs(bytes, 0);

  SolveStats stats;
  stats.solver = "cpu.topo-vi";
  stats.kernel = "gauss-seidel";
  stats.bytes_per_iteration = bellman_bytes(p);
  stats.converged = true;
  std::vector<uint32_t> local_of(n);
  MinMaxProblem sub;
  std::vector<double> local, next;
  const auto loop_start = std::chrono::steady_clock::now();
  for (const SccBlock& block : blocks) {
    for (uint64_t c = block.first_scc; c <= block.last_scc; ++c) {
      const std::span<const uint32_t> states = sccs.component(c);
      if (states.size() == 1) {
        x[states[0]] = solve_single(p, states[0], x);
        stats.iterations = std::max<uint64_t>(stats.iterations, 1);
        continue;
      }
      extract_scc(p, sccs, c, x, local_of, sub);
      local.resize(states.size());
      for (uint64_t i = 0; i < states.size(); ++i) local[i] = x[states[i]];
      // As in cpu.vi: Gauss–Seidel unless the SCC is large and cores are many.
      const bool jacobi = static_cast<int64_t>(states.size()) > k_parallel_rows && threads >= k_min_threads_for_jacobi_vi;
      if (jacobi) {
        next.resize(states.size());
        stats.kernel = "gauss-seidel+jacobi";
      }
      uint64_t sweeps = 0;
      bool converged = false;
      while (sweeps < settings.max_iterations) {
        const double diff =
            bellman_sweep(sub, local.data(), jacobi ? next.data() : local.data(), settings.relative, threads);
        if (jacobi) local.swap(next);
        ++sweeps;
        if (diff < settings.epsilon) {
          converged = true;
          break;
        }
      }
      for (uint64_t i = 0; i < states.size(); ++i) x[states[i]] = local[i];
      stats.iterations = std::max(stats.iterations, sweeps);
      stats.converged = stats.converged && converged;
    }
  }
  stats.loop_seconds = seconds_since(loop_start);
  solution.choice = optimal_choices(p, x, settings.epsilon);
  solution.x = std::move(x);
  stats.seconds = seconds_since(start);
  return stats;
}

}  // namespace

// stats.iterations: the most sweeps any one SCC needed (settings.max_iterations
// limits each SCC); converged: every SCC met the test.
SolveStats topological_value_iteration(const MinMaxProblem& p, MinMaxSolution& solution,
                                       const SolverSettings& settings) {
  if (p.maximize) return topo_core(p, solution, settings);
  return solve_with_end_components_collapsed(p, solution, settings, topo_core);
}

}  // namespace pmc
