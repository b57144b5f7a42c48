// cpu.topo-interval-vi: interval iteration SCC by SCC, the sound
// counterpart of cpu.topo-vi. Whole-problem interval iteration sweeps every
// state until the slowest SCC has met the test (measured: 4886 sweeps on
// consensus N4_K4 Pmax, 12× cpu.topo-vi); in dependency order each SCC is
// iterated only as long as it needs, and a single-unknown SCC is solved
// exactly in one step.
//
// Soundness across SCCs. An SCC's lower bounds are iterated with the lower
// bounds of its (solved) successors folded into b, its upper bounds with
// their upper bounds: the Bellman operator is monotone, so both stay sound.
//
// Precision across SCCs. The gap a successor leaves is passed on: with
// successors' gaps ≤ θ·2ε·lower (relative), an SCC's gaps converge to at
// most θ·2ε·lower as well (for the policy attaining the upper values, the
// gap vector g solves g = c + A·g with c ≤ θ·2ε·(Σ_out a·l), and θ·2ε·l is a
// super-solution of that). It converges to that limit only asymptotically,
// so an SCC must stop at a strictly larger θ than its successors: an SCC
// whose longest chain of non-trivial SCCs below it (itself included) has
// length k stops at θ = k/K, K the longest chain in the problem. The last
// SCCs meet the user's 2ε, the first ones 2ε/K (a few more sweeps: log K
// over the contraction rate). Single-unknown SCCs add no gap of their own.
//
// Upper start per SCC: the problem's upper_bound (1 for probabilities), or,
// for expected rewards, optimistic value iteration on the SCC (Hartmanns &
// Kaminski, CAV 2020), as cpu.interval-vi does on the whole problem.
//
// A problem whose solve proves expensive is solved through its quotient by
// bisimulation (lumping.hpp): the solve runs under a work budget and, when
// it runs out, leaves sound partial bounds to continue from.
#include <cmath>
#include <span>
#include <exception>
#include <limits>
#include <memory>

#include <fmt/format.h>

#include "common/cancellation.hpp"
#include "common/first_failure.hpp"
#include "common/stopwatch.hpp"
#include "graph/scc.hpp"
#include "solver/convergence.hpp"
#include "solver/iteration.hpp"
#include "solver/minmax/bellman.hpp"
#include "solver/minmax/mdp_solvers.hpp"
#include "solver/minmax/end_component_quotient.hpp"
#include "solver/minmax/lumping.hpp"
#include "solver/minmax/optimistic_upper.hpp"
#include "solver/minmax/problem_row_graph.hpp"
#include "solver/parallel.hpp"
#include "solver/progress.hpp"
#include "solver/minmax/scc_subproblem.hpp"

namespace pmc {

namespace {

constexpr double k_infinity = std::numeric_limits<double>::infinity();
// Sweeps an optimistic upper candidate may take to become inductive.
constexpr uint64_t k_guess_sweeps = 64;

struct Pair {
  double lower, upper;
};

// One SCC as two problems that differ only in b: successors' lower bounds
// folded into `low.b`, their upper bounds into `high_b`.
struct SccProblem {
  MinMaxProblem low;
  std::vector<double> high_b;
};

// opt over the rows of local state i, for the lower and upper vector at once
// (one pass over the rows: each gathered column brings both bounds).
inline Pair state_pair(const SccProblem& s, uint64_t i, const Pair* v) {
  const MinMaxProblem& p = s.low;
  const uint64_t first = p.row_groups[i], last = p.row_groups[i + 1];
  if (first == last) return v[i];
  const double none = p.maximize ? -k_infinity : k_infinity;
  Pair best{none, none};
  for (uint64_t r = first; r < last; ++r) {
    double l = p.b[r], u = s.high_b[r];
    for (uint64_t e = p.a.row_offsets[r]; e < p.a.row_offsets[r + 1]; ++e) {
      const double a = p.a.values[e];
      const Pair& x = v[p.a.columns[e]];
      l += a * x.lower;
      u += a * x.upper;
    }
    best.lower = p.maximize ? std::max(best.lower, l) : std::min(best.lower, l);
    best.upper = p.maximize ? std::max(best.upper, u) : std::min(best.upper, u);
  }
  return best;
}

// What one sweep over an SCC found.
// max (upper − lower) over an SCC's pairs: the progress report's quantity
// (computed only when a report is due).
double widest_gap(const std::vector<Pair>& v) {
  double gap = 0.0;
  for (const Pair& p : v) gap = std::max(gap, p.upper - p.lower);
  return gap;
}

struct SweepReport {
  int64_t open = 0;           // states whose bounds are not yet close
  int64_t not_inductive = 0;  // (guessing) states where the candidate rose
  int64_t crossed = 0;        // (guessing) states where the candidate fell below the lower bound
  double lower_change = 0;    // the lower bounds' largest change (relative or absolute)
};

// One sweep over the SCC; in == out: Gauss–Seidel in place, sequential;
// else Jacobi on `threads` cores. Lower bounds are clamped (they only
// rise). Upper bounds are clamped too, except while `guessing`: then the
// upper member holds an optimistic candidate g, swept unclamped, and the
// report says whether the sweep's image stayed below it (see solve_scc).
SweepReport interval_sweep(const SccProblem& s, const Pair* in, Pair* out, double epsilon, bool relative,
                           int threads, bool guessing) {
  const auto n = static_cast<int64_t>(s.low.num_unknowns());
  int64_t open = 0, not_inductive = 0, crossed = 0;
  double lower_change = 0.0;
  const bool parallel = in != out && n > k_parallel_rows && threads > 1;
#pragma omp parallel for if (parallel) num_threads(threads) schedule(static, 1024) \
    reduction(+ : open, not_inductive, crossed) reduction(max : lower_change)
  for (int64_t i = 0; i < n; ++i) {
    const Pair old = in[i];
    const Pair b = state_pair(s, static_cast<uint64_t>(i), in);
    const Pair next{std::max(old.lower, b.lower), guessing ? b.upper : std::min(old.upper, b.upper)};
    out[i] = next;
    open += bounds_close(next.lower, next.upper, epsilon, relative) ? 0 : 1;
    lower_change = std::max(lower_change, convergence_difference(old.lower, next.lower, relative));
    if (guessing) {
      not_inductive += maps_below(next.upper, old.upper) ? 0 : 1;
      crossed += next.upper < next.lower ? 1 : 0;
    }
  }
  return {open, not_inductive, crossed, lower_change};
}

// Longest chain of non-trivial SCCs from each SCC downwards (itself
// included): the precision schedule of the header.
std::vector<uint32_t> chain_lengths(const MinMaxProblem& p, const graph::SccDecomposition& sccs) {
  std::vector<uint32_t> length(sccs.num_components(), 0);
  for (uint64_t c = 0; c < sccs.num_components(); ++c) {
    uint32_t below = 0;
    for (const uint32_t s : sccs.component(c)) {
      for (uint64_t e = p.a.row_offsets[p.row_groups[s]]; e < p.a.row_offsets[p.row_groups[s + 1]]; ++e) {
        const uint32_t d = sccs.component_of[p.a.columns[e]];
        if (d != c) below = std::max(below, length[d]);  // d < c: solved first
      }
    }
    length[c] = below + (sccs.component(c).size() > 1 ? 1 : 0);
  }
  return length;
}

// Each SCC's depth in the condensation: 0 for one whose rows lead only into
// itself (or nowhere), else one more than its deepest successor. SCCs of
// one depth share no edge (an edge from c to d makes c deeper than d), so
// they can be solved at the same time.
std::vector<uint32_t> scc_depths(const MinMaxProblem& p, const graph::SccDecomposition& sccs) {
  std::vector<uint32_t> depth(sccs.num_components(), 0);
  for (uint64_t c = 0; c < sccs.num_components(); ++c) {
    for (const uint32_t s : sccs.component(c)) {
      for (uint64_t e = p.a.row_offsets[p.row_groups[s]]; e < p.a.row_offsets[p.row_groups[s + 1]]; ++e) {
        const uint32_t d = sccs.component_of[p.a.columns[e]];
        if (d != c) depth[c] = std::max(depth[c], depth[d] + 1);  // d < c: solved first
      }
    }
  }
  return depth;
}

// What solving one SCC found, folded into the statistics afterwards.
struct SccOutcome {
  uint64_t sweeps = 0;
  uint64_t verified_guesses = 0;
  bool done = false;
  bool optimistic = false;  // its upper start came from optimistic VI
  bool jacobi = false;
  bool out_of_budget = false;  // stopped for the work budget (bounds sound, not close)
};

// Thrown by a sweep that would pass the work budget during optimistic VI's
// search for an upper bound (the SCC keeps its bounds from before it).
struct OutOfBudget {};

// One SCC's working data; one per thread when SCCs are solved side by side.
struct SccWork {
  SccProblem scc;
  MinMaxProblem upper_problem;
  std::vector<Pair> v, next;
  std::vector<double> saved_upper;
};

class TopologicalInterval {
 public:
  // Reports count sweeps over all SCCs (the limit applies per SCC).
  // `budget`: unknown updates (sweeps × SCC size, summed) after which the
  // solve stops (0: none); checked per SCC against the work done before
  // its depth, so where it stops does not depend on the threads.
  TopologicalInterval(const MinMaxProblem& p, const SolverSettings& settings, SolveStats& stats, uint64_t budget)
      : p_(p), settings_(settings), stats_(stats), threads_(solver_threads(settings)),
        loop_(settings, stats, "cpu.topo-interval-vi"), budget_(budget) {
    quiet_settings_ = settings;
    quiet_settings_.progress = nullptr;  // reports come from the solving thread only
  }

  // l and u over all unknowns in, bounds out; false when some SCC found no
  // upper bound (u stays +∞ from there on) or hit the iteration limit.
  //
  // SCCs go depth by depth. Within a depth, those too small for parallel
  // sweeps (jacobi_sweeps_pay_off) are solved side by side, one per core,
  // each exactly as it would be alone (same sweeps, same bits); the larger
  // ones one at a time on every core. Measured on consensus N=4 K=4: 65
  // SCCs of 246–4206 states, each needing 1300–1950 sweeps — alone on one
  // core each, 16 cores idled while the whole-system solver used them all.
  void solve(std::vector<double>& l, std::vector<double>& u) {
    const graph::SccDecomposition sccs = graph::strongly_connected_components(row_graph(p_));
    const std::vector<uint32_t> length = chain_lengths(p_, sccs);
    const std::vector<uint32_t> depth = scc_depths(p_, sccs);
    uint32_t longest = 1, deepest = 0;
    for (const uint32_t k : length) longest = std::max(longest, k);
    for (const uint32_t d : depth) deepest = std::max(deepest, d);
    std::vector<std::vector<uint32_t>> by_depth(deepest + 1);
    for (uint64_t c = 0; c < sccs.num_components(); ++c) by_depth[depth[c]].push_back(static_cast<uint32_t>(c));
    std::vector<uint32_t> local_of(p_.num_unknowns());
    work_.resize(std::max(threads_, 1));
    for (const std::vector<uint32_t>& level : by_depth) {
      if (out_of_budget_) break;
      std::vector<uint32_t> side_by_side;
      for (const uint32_t c : level) {
        const uint64_t size = sccs.component(c).size();
        if (size == 1) {
          loop_.poll();
          const uint32_t s = sccs.component(c)[0];
          l[s] = std::max(l[s], solve_single_unknown(p_, s, l));
          u[s] = std::min(u[s], solve_single_unknown(p_, s, u));
          stats_.iterations = std::max<uint64_t>(stats_.iterations, 1);
          ++work_done_;
        } else if (threads_ > 1 && !jacobi_sweeps_pay_off(size, threads_)) {
          side_by_side.push_back(c);
        } else {
          record(solve_component(sccs, c, epsilon_of(length[c], longest), l, u, local_of, work_[0], loop_, threads_,
                                 work_done_),
                 size);
        }
      }
      if (side_by_side.size() == 1) {
        const uint32_t c = side_by_side[0];
        record(solve_component(sccs, c, epsilon_of(length[c], longest), l, u, local_of, work_[0], loop_, threads_,
                               work_done_),
               sccs.component(c).size());
      } else if (!side_by_side.empty()) {
        solve_side_by_side(sccs, side_by_side, length, longest, l, u, local_of);
      }
    }
  }

  bool converged() const { return converged_; }
  bool out_of_budget() const { return out_of_budget_; }
  void record_loop_seconds() { loop_.record_loop_seconds(); }
  uint64_t verified_guesses() const { return verified_guesses_; }
  uint64_t optimistic_sccs() const { return optimistic_sccs_; }

 private:
  double epsilon_of(uint32_t length, uint32_t longest) const { return settings_.epsilon * length / longest; }

  void record(const SccOutcome& o, uint64_t size) {
    work_done_ += o.sweeps * size;
    out_of_budget_ = out_of_budget_ || o.out_of_budget;
    stats_.iterations = std::max(stats_.iterations, o.sweeps);
    converged_ = converged_ && o.done;
    verified_guesses_ += o.verified_guesses;
    optimistic_sccs_ += o.optimistic ? 1 : 0;
    if (o.jacobi) stats_.kernel = "gauss-seidel+jacobi";
  }

  // SCCs of one depth, one per core: each thread its own working data and
  // its own driver (cancellation polled, no progress reports: those come
  // from the solving thread between depths); the first error is rethrown.
  void solve_side_by_side(const graph::SccDecomposition& sccs, const std::vector<uint32_t>& components,
                          const std::vector<uint32_t>& length, uint32_t longest, std::vector<double>& l,
                          std::vector<double>& u, std::vector<uint32_t>& local_of) {
    loop_.poll();
    std::vector<SccOutcome> outcomes(components.size());
    FirstFailure failure;
    const auto count = static_cast<int64_t>(components.size());
    const uint64_t work_before = work_done_;
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 1)
    for (int64_t i = 0; i < count; ++i) {
      failure.run([&] {
        SolveStats local;
        IterationDriver driver(quiet_settings_, local, "cpu.topo-interval-vi");
        const uint32_t c = components[i];
        outcomes[i] = solve_component(sccs, c, epsilon_of(length[c], longest), l, u, local_of,
                                      work_[thread_index()], driver, 1, work_before);
      });
    }
    failure.rethrow_if_failed();
    for (size_t i = 0; i < outcomes.size(); ++i) record(outcomes[i], sccs.component(components[i]).size());
  }

  static int thread_index() {
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
  }

  // Extracts SCC c (the successors' bounds folded into b), iterates it to
  // `epsilon` and writes its bounds back into l and u.
  SccOutcome solve_component(const graph::SccDecomposition& sccs, uint32_t c, double epsilon, std::vector<double>& l,
                             std::vector<double>& u, std::vector<uint32_t>& local_of, SccWork& w,
                             IterationDriver& loop, int threads, uint64_t work_before) const {
    const std::span<const uint32_t> states = sccs.component(c);
    extract_components(p_, sccs, c, c, u, local_of, w.scc.low);
    w.scc.high_b = w.scc.low.b;
    extract_components(p_, sccs, c, c, l, local_of, w.scc.low);
    w.v.resize(states.size());
    for (uint64_t i = 0; i < states.size(); ++i) w.v[i] = {l[states[i]], u[states[i]]};
    const SccOutcome outcome = solve_scc(w, epsilon, loop, threads, work_before);
    for (uint64_t i = 0; i < states.size(); ++i) {
      l[states[i]] = w.v[i].lower;
      u[states[i]] = w.v[i].upper;
    }
    return outcome;
  }

  // Iterates the SCC in w.v until its bounds are close at `epsilon`.
  //
  // The upper bounds from 1 often converge several times slower than the
  // lower ones (consensus N4_K4 Pmax: lower bounds within 2e-7 after ~1800
  // sweeps, interval iteration closes after ~6000). So, once the lower
  // bounds change by less than `epsilon` per sweep, the upper member is
  // replaced by an optimistic candidate g = l + ε·max(|l|, floor), and swept
  // unclamped (Hartmanns & Kaminski's verification phase, CAV 2020): when a
  // sweep's image G(g) stays below g in every state, g lies above the fixed
  // point (the sweep map is monotone and its iterates from g decrease to its
  // only fixed point), so G(g) is a sound upper bound and replaces the
  // saved one where smaller. When the candidate falls below the lower bound
  // somewhere, or k_guess_sweeps pass, the guess failed: the saved upper
  // bounds come back and the next guess waits for a 10× smaller change.
  SccOutcome solve_scc(SccWork& w, double epsilon, IterationDriver& loop, int threads, uint64_t work_before) const {
    SccOutcome outcome;
    std::vector<Pair>& v = w.v;
    const uint64_t n = v.size();
    // Whether one more sweep would pass the budget.
    const auto over_budget = [&](uint64_t sweeps_done) {
      return budget_ > 0 && work_before + (sweeps_done + 1) * n > budget_;
    };
    const bool jacobi = jacobi_sweeps_pay_off(n, threads);
    if (jacobi) {
      w.next.resize(n);
      outcome.jacobi = true;
    }
    bool have_upper = true;
    for (const Pair& x : v) have_upper = have_upper && std::isfinite(x.upper);
    uint64_t& sweeps = outcome.sweeps;
    if (!have_upper) {
      try {
        have_upper = outcome.optimistic = optimistic_upper(w, sweeps, loop, threads, over_budget);
      } catch (const OutOfBudget&) {
        outcome.out_of_budget = true;
      }
    }
    bool done = false, guessing = false;
    double guess_below = epsilon;  // lower bounds' change that triggers a guess
    uint64_t guess_sweeps = 0;
    // The gap a report shows is measured after the sweep's guess
    // bookkeeping (a failed guess's candidate is already replaced by the
    // saved upper bounds).
    if (have_upper) {
      done = loop.until_bounds_close(
          sweeps,
          [&] {
            if (over_budget(sweeps)) {
              outcome.out_of_budget = true;
              return true;
            }
            const SweepReport r = interval_sweep(w.scc, v.data(), jacobi ? w.next.data() : v.data(), epsilon,
                                                 settings_.relative, threads, guessing);
            if (jacobi) v.swap(w.next);
            if (guessing) {
              ++guess_sweeps;
              if (r.crossed > 0 || (r.not_inductive > 0 && guess_sweeps >= k_guess_sweeps)) {
                for (uint64_t i = 0; i < n; ++i) v[i].upper = w.saved_upper[i];  // the guess failed
                guessing = false;
                guess_below /= 10;
                return false;
              }
              if (r.not_inductive > 0) return false;
              for (uint64_t i = 0; i < n; ++i) v[i].upper = std::min(v[i].upper, w.saved_upper[i]);
              guessing = false;
              ++outcome.verified_guesses;
              return r.open == 0;
            }
            if (r.open == 0) return true;
            if (r.lower_change < guess_below) {
              w.saved_upper.resize(n);
              for (uint64_t i = 0; i < n; ++i) {
                w.saved_upper[i] = v[i].upper;
                const double l = v[i].lower;
                v[i].upper = std::min(v[i].upper, l + epsilon * std::max(std::fabs(l), k_relative_floor));
              }
              guessing = true;
              guess_sweeps = 0;
            }
            return false;
          },
          [&] { return widest_gap(v); });
    }
    if (guessing) {
      for (uint64_t i = 0; i < n; ++i) v[i].upper = w.saved_upper[i];
    }
    outcome.done = done && !outcome.out_of_budget;
    if (!have_upper) {
      for (Pair& x : v) x.upper = k_infinity;
    }
    return outcome;
  }

  // Optimistic value iteration on the SCC (optimistic_upper.hpp): plain VI
  // on the lower bounds, guesses verified with the successors' upper bounds
  // in b. The VI sweeps are Jacobi on all cores where the interval sweeps
  // are (in place they ran on one core of a large SCC's 16).
  template <typename OverBudget>
  bool optimistic_upper(SccWork& w, uint64_t& sweeps, IterationDriver& loop, int threads,
                        OverBudget over_budget) const {
    w.upper_problem = w.scc.low;
    w.upper_problem.b = w.scc.high_b;
    std::vector<double> l(w.v.size()), guess;
    for (uint64_t i = 0; i < w.v.size(); ++i) l[i] = w.v[i].lower;
    BellmanSweeper lower(jacobi_sweeps_pay_off(l.size(), threads), settings_.relative, threads);
    bool found = false, out_of_budget = false;
    try {
      found = optimistic_upper_bound(loop, sweeps, w.upper_problem, l, guess, settings_.epsilon, threads, [&] {
        if (over_budget(sweeps)) throw OutOfBudget{};
        return lower.sweep(w.scc.low, l, Clamp::up);
      });
    } catch (const OutOfBudget&) {
      out_of_budget = true;  // l is still a lower bound: kept for the next solve to start from
    }
    for (uint64_t i = 0; i < l.size(); ++i) {
      w.v[i].lower = l[i];
      if (found) w.v[i].upper = std::min(w.v[i].upper, guess[i]);
    }
    if (out_of_budget) throw OutOfBudget{};
    return found;
  }

  const MinMaxProblem& p_;
  const SolverSettings& settings_;
  SolverSettings quiet_settings_;  // settings_ without the progress callback
  SolveStats& stats_;
  int threads_;
  IterationDriver loop_;
  uint64_t budget_;
  uint64_t work_done_ = 0;
  bool out_of_budget_ = false;
  std::vector<SccWork> work_;
  uint64_t verified_guesses_ = 0;
  uint64_t optimistic_sccs_ = 0;  // SCCs whose upper start optimistic VI found
  bool converged_ = true;
};

SolveStats topo_interval_core(const MinMaxProblem& p, MinMaxSolution& solution, const SolverSettings& settings,
                              uint64_t budget, bool& finished) {
  const uint64_t n = p.num_unknowns();
  std::vector<double> l = start_vector(solution.x, n, "cpu.topo-interval-vi");
  std::vector<double> u = solution.upper.empty() ? std::vector<double>(n, p.upper_bound)
                                                 : start_vector(solution.upper, n, "cpu.topo-interval-vi (upper)");
  SolveStats stats;
  stats.kernel = "gauss-seidel";
  stats.bytes_per_iteration = bellman_bytes(p) + n * 16.0;
  TopologicalInterval solver(p, settings, stats, budget);
  solver.solve(l, u);
  finished = !solver.out_of_budget();
  solver.record_loop_seconds();
  if (solver.optimistic_sccs() > 0) stats.kernel += fmt::format("+optimistic ({} SCCs)", solver.optimistic_sccs());
  if (solver.verified_guesses() > 0) stats.kernel += fmt::format("+{} verified guesses", solver.verified_guesses());
  bool bounded = true;
  for (const double x : u) bounded = bounded && std::isfinite(x);
  stats.sound = bounded;
  stats.converged = bounded && solver.converged();
  store_bounds(p, std::move(l), std::move(u), settings.epsilon, solution);
  return stats;
}

}  // namespace

SolveStats topological_interval_iteration(const MinMaxProblem& p, MinMaxSolution& solution,
                                          const SolverSettings& settings) {
  // Lumping's budgeted attempts solve p several times, then its quotient
  // once: each problem's end components are found and collapsed once.
  std::unique_ptr<EndComponentsCollapsed> collapsed;
  return solve_lumped(p, solution, settings,
                      [&](const MinMaxProblem& q, MinMaxSolution& s, const SolverSettings& st, uint64_t budget,
                          bool& finished) {
                        const Stopwatch clock;
                        if (!collapsed || &collapsed->problem() != &q) {
                          collapsed.reset();
                          collapsed = std::make_unique<EndComponentsCollapsed>(q);
                          throw_if_cancelled(st.cancel);  // the search can take a while on a large problem
                        }
                        SolveStats stats = collapsed->solve(
                            s, st, [&](const MinMaxProblem& e, MinMaxSolution& es, const SolverSettings& est) {
                              return topo_interval_core(e, es, est, budget, finished);
                            });
                        stats.seconds = clock.seconds();
                        return stats;
                      });
}

}  // namespace pmc
