// cpu.topo-interval-vi on linear systems x = A·x + b (DTMC and CTMC
// reachability and expected rewards): interval iteration SCC by SCC, in
// dependency order. cpu.interval-vi sweeps every unknown until the slowest
// part of the system has closed its bounds; a layered chain (QVBS's nand)
// is acyclic or nearly so, and solved here in one pass: an SCC of one
// unknown is solved exactly from its successors' bounds in one update,
// x_s = (b_s + Σ_{j≠s} a_sj·x_j)/(1 − a_ss), self-loop or not; only the
// unknowns of non-trivial SCCs are iterated, each SCC as long as it needs.
//
// Small SCCs (scc_direct_solve.hpp) that 64 sweeps leave open, or that
// would need a first phase (rewards), are solved by state elimination with
// a certificate, where that closes them at their share of ε; an
// ill-conditioned one (Haddad–Monmege: ~2^N sweeps) in exact rationals.
// The rest of this header is about the sweeps.
//
// Soundness. The SCCs come in Tarjan's order (every SCC after all it
// reaches). An SCC's rows are swept with interval_sweeps.hpp's clamped
// Gauss–Seidel update over the global bound pairs, so its lower bounds are
// computed from its successors' lower bounds and its upper bounds from
// their upper bounds. With the successors fixed, the SCC is the system
// x = A_in·x + (b + A_out·x_out); its solution is monotone in x_out
// ((I − A_in)⁻¹ ≥ 0), so the solution for the successors' lower (upper)
// bounds is below (above) the true values, and the clamped sweeps keep
// certified bounds of those (interval_linear.cpp).
//
// Precision. The result must meet the user's stopping rule in every
// unknown: bounds_close at ε. A successor's gap is passed on: in the limit
// of its sweeps an SCC's gap g solves g = A_in·g + A_out·g_out, so with
// successors' gaps ≤ θ'·2ε·l_out (relative; values ≥ 0 and b ≥ 0) the SCC's
// limit gap is at most θ'·2ε·(I − A_in)⁻¹·A_out·l_out ≤ θ'·2ε·l; absolutely,
// (I − A_in)⁻¹·A_out·1 ≤ 1 gives θ'·2ε. The SCC approaches that limit only
// asymptotically, so it must stop at a strictly larger θ: an SCC whose
// longest chain of non-trivial SCCs downwards (itself included) has k of
// them stops at θ = k/K, K the longest such chain (graph/scc_chains.hpp),
// as cpu.topo-interval-vi does on MDPs. The last SCCs then stop at the
// user's ε; an SCC of one unknown adds no gap of its own (its update is
// exact), so it needs no share.
//
// The argument needs values ≥ 0 (probabilities, non-negative rewards) and
// values above the relative floor (1e-9) times K; where it fails (rewards of
// both signs, tiny values), or rounding keeps an SCC's gap from reaching
// its share, the SCC's sweeps stop once a sweep changes no bound at all
// (every further sweep would compute the same numbers), and the final
// check below finds the unknowns still open. Then Gauss–Seidel interval
// sweeps over the whole system, in the same topological order, continue
// from the bounds reached until every unknown meets ε (or, again, nothing
// changes: not converged, the bounds still certified). Either way the
// stopping rule on the result is the user's ε, checked on every unknown.
//
// Upper start. Probabilities: system.upper_bound (1). Expected rewards: per
// non-trivial SCC, the bound of sound value iteration's first phase
// (interval_linear.cpp, Quatmann & Katoen, CAV 2018), run on the SCC with
// its successors' lower bounds folded into the lower iterate's constants
// and their upper bounds into the upper one's: x_k^low, x_k^high from 0
// and y_k (the mass the SCC keeps) from 1; once every y_k < 1,
//   x_k^low + y_k·min_t x_k^low/(1 − y_k) ≤ x ≤ x_k^high + y_k·max_t x_k^high/(1 − y_k).
// Single-unknown SCCs need no start: their update is exact.
//
// Order and threads. SCCs are solved depth by depth in the condensation
// (depth 0 reaches no other SCC); SCCs of one depth share no edge, so each
// is solved from final successors whatever the others do, and the result
// is bit for bit the one-at-a-time result on any number of threads. Within
// a depth: single-unknown SCCs are updated on the solving thread; SCCs of
// more unknowns than the direct solver
// takes and fewer than k_parallel_scc_states are solved side by side, one
// per thread; smaller ones one at a time on the solving thread (cheap, and
// the direct solver is the solve's); all of these in Tarjan's order, in
// which Gauss–Seidel tends to need fewer sweeps (successors mostly first);
// larger SCCs one at a time, swept in ascending order
// (graph::order_members_by_state: Tarjan's order would jump through the
// matrix and the bounds, ~3× slower on a 2M-unknown SCC) as block
// Gauss–Seidel on all threads (parallel_sweep).
//
// Counting. stats.iterations is the most sweeps any SCC took (1 for an
// acyclic system), plus the final sweeps over the whole system if any ran;
// the iteration limit applies to each SCC and to that total. The kernel
// string reports the work in whole-system sweeps (row updates / unknowns).
#include <cmath>
#include <exception>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/first_failure.hpp"
#include "common/stopwatch.hpp"
#include "graph/scc.hpp"
#include "graph/scc_chains.hpp"
#include "solver/convergence.hpp"
#include "solver/iteration.hpp"
#include "solver/linear/cpu_solvers.hpp"
#include "solver/linear/interval_sweeps.hpp"
#include "solver/linear/scc_direct_solve.hpp"
#include "solver/parallel.hpp"

namespace pmc {

namespace {

constexpr double k_infinity = std::numeric_limits<double>::infinity();
constexpr const char* k_name = "cpu.topo-interval-vi";
// Single-unknown SCCs solved between two polls of cancellation and progress.
constexpr uint64_t k_poll_every = 4096;
// Sweeps of a small SCC before it is solved directly instead (see
// solve_component).
constexpr uint64_t k_sweeps_first = 64;
// SCCs of at least this many unknowns are swept on all threads (smaller
// ones cost more in fork and join than a sweep).
constexpr uint64_t k_parallel_scc_states = 65536;
// SCCs from this size up (to k_parallel_scc_states) are solved side by side.
// Smaller ones are cheap (crowds' ~7600 SCCs of ~45 unknowns ran 1.8×
// slower side by side on 2 cores: their v entries share cache lines) and
// may be solved directly, by the solve's one direct solver.
constexpr uint64_t k_side_by_side_min_unknowns = k_direct_max_unknowns + 1;
// Bytes a sweep streams per row and per entry (as cpu.interval-vi counts:
// the offsets, b, scale and the pair read and written; column and value).
constexpr double k_bytes_per_row = 8.0 * 3 + 32.0;
constexpr double k_bytes_per_entry = 12.0;

// Sound value iteration's first phase on one SCC: both constant parts and
// the kept mass, interleaved as the pairs are.
struct FirstPhase {
  double x_low, x_high, kept;
};

class TopologicalIntervalLinear {
 public:
  // The SCC decomposition counts as the solver's precomputation; the
  // loop's clock starts after it.
  TopologicalIntervalLinear(const LinearSystem& s, const SolverSettings& settings, SolveStats& stats)
      : s_(s), settings_(settings), stats_(stats), scale_(diagonal_scale(s.a)), row_groups_(s.a.num_rows() + 1),
        graph_{row_groups_, s.a.row_offsets, s.a.columns}, sccs_(decompose(graph_, row_groups_, stats)),
        threads_(solver_threads(settings)), loop_(settings, stats, k_name), direct_(s, sccs_.component_of) {
    quiet_settings_ = settings;
    quiet_settings_.progress = nullptr;  // reports come from the solving thread only
  }

  // v holds the start bounds on entry and the bounds on exit. False when
  // some unknown has no upper bound (a reward SCC's first phase reached
  // the iteration limit; that SCC and every one reaching it keep +∞).
  bool solve(std::vector<BoundPair>& v) {
    const std::vector<uint32_t> length = graph::nontrivial_chain_lengths(graph_, sccs_);
    uint32_t longest = 1;
    for (const uint32_t k : length) longest = std::max(longest, k);
    auto epsilon_of = [&](uint64_t c) { return settings_.epsilon * length[c] / longest; };
    // Depth by depth (see the header's Order and threads): the SCCs of one
    // depth share no edge, so each is solved from final successors whatever
    // the others do — the same bits as one at a time.
    for (const std::vector<uint32_t>& level : components_by_depth()) {
      std::vector<uint32_t> singles, small;
      for (const uint32_t c : level) {
        const uint64_t size = sccs_.component(c).size();
        if (size == 1) {
          singles.push_back(sccs_.component(c)[0]);
        } else if (size >= k_side_by_side_min_unknowns && size < k_parallel_scc_states) {
          small.push_back(c);
        } else if (size < k_parallel_scc_states) {
          solve_component(c, sccs_.component(c), epsilon_of(c), v, main_);
        } else {
          solve_component(c, sccs_.component(c), epsilon_of(c), v, main_);
        }
      }
      solve_singles(singles, v);
      if (threads_ > 1 && small.size() > 1) {
        solve_side_by_side(small, epsilon_of, v);
      } else {
        for (const uint32_t c : small) solve_component(c, sccs_.component(c), epsilon_of(c), v, main_);
      }
    }
    main_.most_sweeps = std::max<uint64_t>(main_.most_sweeps, sccs_.num_components() > 0 ? 1 : 0);
    bool bounded = true;
    for (const BoundPair& p : v) bounded = bounded && std::isfinite(p.second);
    uint64_t iterations = main_.most_sweeps;
    converged_ = bounded && open_unknowns(v, settings_.epsilon) == 0;
    if (bounded && !converged_) converged_ = final_sweeps(v, iterations);
    stats_.iterations = iterations;
    return bounded;
  }

  bool converged() const { return converged_; }
  void record_loop_seconds() { loop_.record_loop_seconds(); }

  // The kernel string and bytes per iteration (see the header's Counting).
  void describe(uint64_t unknowns) {
    uint64_t iterated = 0;
    for (uint64_t c = 0; c < sccs_.num_components(); ++c) iterated += sccs_.component(c).size() > 1 ? 1 : 0;
    const DirectSolveCounts& direct = direct_.counts();
    iterated -= direct.by_doubles + direct.by_rationals;
    std::string solved;
    if (direct.by_doubles + direct.by_rationals > 0) {
      solved = fmt::format(", {} solved directly", direct.by_doubles + direct.by_rationals);
      if (direct.by_rationals > 0) solved += fmt::format(" ({} in rationals)", direct.by_rationals);
    }
    const double sweeps = unknowns > 0 ? static_cast<double>(main_.row_updates) / static_cast<double>(unknowns) : 0.0;
    std::string threads;
    if (main_.parallel_components > 0) threads += fmt::format(" ({} on {} threads)", main_.parallel_components, threads_);
    if (side_by_side_ > 0) threads += fmt::format(" ({} side by side)", side_by_side_);
    stats_.kernel = fmt::format("topological gauss-seidel{}{}: {} SCCs{}, {} iterated{}, work of {:.3g} sweeps",
                                main_.first_phases > 0 ? "+sound-vi-bound" : "", final_ran_ ? "+final sweeps" : "",
                                sccs_.num_components(), solved, iterated, threads, sweeps);
    if (stats_.iterations > 0) {
      stats_.bytes_per_iteration =
          (static_cast<double>(main_.row_updates) * k_bytes_per_row +
           static_cast<double>(main_.entry_updates) * k_bytes_per_entry) /
          static_cast<double>(stats_.iterations);
    }
  }

 private:
  static graph::SccDecomposition decompose(const graph::RowGraph& graph, std::vector<uint64_t>& row_groups,
                                           SolveStats& stats) {
    const Stopwatch clock;
    std::iota(row_groups.begin(), row_groups.end(), uint64_t{0});
    graph::SccDecomposition sccs = graph::strongly_connected_components(graph);
    // Within an SCC any sweep order is sound. Tarjan's order tends to
    // converge in fewer Gauss–Seidel sweeps; on the SCCs swept in blocks,
    // state order streams memory and gives each block a range of states.
    graph::order_members_by_state(sccs, k_parallel_scc_states);
    stats.precompute_seconds += clock.seconds();
    return sccs;
  }

  // One thread's share of the solve: its driver (the solve's own, or a
  // quiet one per thread side by side), its first-phase buffer and counts.
  struct Worker {
    explicit Worker(IterationDriver& driver) : loop(&driver) {}
    IterationDriver* loop;
    std::vector<FirstPhase> phase;
    uint64_t row_updates = 0, entry_updates = 0, most_sweeps = 0, first_phases = 0, parallel_components = 0;
    void add(const Worker& other) {
      row_updates += other.row_updates;
      entry_updates += other.entry_updates;
      most_sweeps = std::max(most_sweeps, other.most_sweeps);
      first_phases += other.first_phases;
    }
  };

  uint64_t row_length(uint32_t i) const { return s_.a.row_offsets[i + 1] - s_.a.row_offsets[i]; }
  static void count_work(Worker& w, uint64_t rows, uint64_t entries) {
    w.row_updates += rows;
    w.entry_updates += entries;
  }

  uint64_t open_unknowns(const std::vector<BoundPair>& v, double epsilon) const {
    uint64_t open = 0;
    for (const BoundPair& p : v) open += bounds_close(p.first, p.second, epsilon, settings_.relative) ? 0 : 1;
    return open;
  }

  // The SCCs by depth in the condensation, each depth in Tarjan's order:
  // depth 0 leads to no other SCC, else one more than its deepest
  // successor. SCCs come in Tarjan's order (successors first), so one pass
  // finds every depth.
  std::vector<std::vector<uint32_t>> components_by_depth() const {
    std::vector<uint32_t> depth(sccs_.num_components(), 0);
    uint32_t deepest = 0;
    for (uint64_t c = 0; c < sccs_.num_components(); ++c) {
      for (const uint32_t i : sccs_.component(c)) {
        for (uint64_t e = s_.a.row_offsets[i]; e < s_.a.row_offsets[i + 1]; ++e) {
          const uint32_t d = sccs_.component_of[s_.a.columns[e]];
          if (d != c) depth[c] = std::max(depth[c], depth[d] + 1);
        }
      }
      deepest = std::max(deepest, depth[c]);
    }
    std::vector<std::vector<uint32_t>> levels(sccs_.num_components() > 0 ? deepest + 1 : 0);
    for (uint64_t c = 0; c < sccs_.num_components(); ++c) levels[depth[c]].push_back(static_cast<uint32_t>(c));
    return levels;
  }

  // SCCs of one unknown: one exact update each. (On every core they were
  // slower on the 2-core VM — crowds 0.20 → 0.22–0.31 s, nand no gain:
  // the updates wait on memory, not on the core.)
  void solve_singles(const std::vector<uint32_t>& singles, std::vector<BoundPair>& v) {
    uint64_t entries = 0;
    for (const uint32_t i : singles) {
      update_bounds(s_, scale_, i, v.data());
      entries += row_length(i);
      if (++singles_done_ % k_poll_every == 0) loop_.poll();
    }
    count_work(main_, singles.size(), entries);
  }

  // SCCs of one depth, one per core, each with its own driver
  // (cancellation polled, no progress reports: those come from the solving
  // thread between depths); the first error is rethrown. They are larger
  // than the direct solver takes, so it is not used here.
  template <typename EpsilonOf>
  void solve_side_by_side(const std::vector<uint32_t>& components, EpsilonOf epsilon_of, std::vector<BoundPair>& v) {
    loop_.poll();
    if (local_of_.empty()) local_of_.resize(s_.a.num_rows());  // shared: SCCs write disjoint entries
    std::vector<Worker> totals;
    FirstFailure failure;
    const auto count = static_cast<int64_t>(components.size());
#pragma omp parallel num_threads(threads_)
    {
      SolveStats quiet_stats;
      IterationDriver driver(quiet_settings_, quiet_stats, k_name);
      Worker w(driver);
#pragma omp for schedule(dynamic, 1)
      for (int64_t k = 0; k < count; ++k) {
        failure.run([&] {
          const uint32_t c = components[k];
          solve_component(c, sccs_.component(c), epsilon_of(c), v, w);
        });
      }
#pragma omp critical(topo_linear_totals)
      totals.push_back(std::move(w));
    }
    failure.rethrow_if_failed();
    for (const Worker& w : totals) main_.add(w);
    side_by_side_ += components.size();
  }

  // One Gauss–Seidel sweep of the clamped update over `states`, in their
  // order. True when every unknown swept meets `epsilon` or no bound
  // changed (see the header: further sweeps would repeat the same numbers).
  bool sweep(std::span<const uint32_t> states, uint64_t entries, double epsilon, std::vector<BoundPair>& v, Worker& w) {
    uint64_t open = 0;
    bool changed = false;
    for (const uint32_t i : states) {
      const BoundPair old = v[i];
      const BoundPair next = update_bounds(s_, scale_, i, v.data());
      changed = changed || next.first != old.first || next.second != old.second;
      open += bounds_close(next.first, next.second, epsilon, settings_.relative) ? 0 : 1;
    }
    count_work(w, states.size(), entries);
    return open == 0 || !changed;
  }

  // Block Gauss–Seidel over a large SCC on all threads: block b of the
  // SCC's states (ascending) is swept in place by one thread, which reads
  // its own block's states as updated and the SCC's other states as they
  // stood before the sweep (previous_), so no value is read while another
  // thread writes it; states of other SCCs are final and read in place.
  // Old and new bounds are both bounds, so the clamped update stays sound
  // (interval_linear.cpp), and with few blocks the sweeps converge about as
  // Gauss–Seidel's do. Same stopping rule as sweep().
  // `crossed` counts the entries read from previous_ (another block's state).
  bool parallel_sweep(uint64_t c, std::span<const uint32_t> states, uint64_t entries, double epsilon,
                      std::vector<BoundPair>& v, uint64_t& crossed) {
    const auto count = static_cast<int64_t>(states.size());
    if (previous_.size() != v.size()) previous_.resize(v.size());
#pragma omp parallel for num_threads(threads_) schedule(static, 4096)
    for (int64_t k = 0; k < count; ++k) previous_[states[k]] = v[states[k]];
    const int64_t blocks = threads_;
    uint64_t open = 0, across = 0;
    int changed = 0;
#pragma omp parallel for num_threads(threads_) schedule(static, 1) reduction(+ : open, across) reduction(| : changed)
    for (int64_t block = 0; block < blocks; ++block) {
      const auto first = static_cast<uint64_t>(count * block / blocks);
      const auto end = static_cast<uint64_t>(count * (block + 1) / blocks);
      if (first == end) continue;
      const uint32_t lowest = states[first], highest = states[end - 1];
      auto read = [&](uint32_t j) -> const BoundPair& {
        const bool own = (j >= lowest && j <= highest) || sccs_.component_of[j] != c;
        across += own ? 0 : 1;
        return own ? v[j] : previous_[j];
      };
      for (uint64_t k = first; k < end; ++k) {
        const uint32_t i = states[k];
        const BoundPair old = v[i];
        const BoundPair next = update_bounds_reading(s_, scale_, i, v.data(), read);
        changed |= (next.first != old.first || next.second != old.second) ? 1 : 0;
        open += bounds_close(next.first, next.second, epsilon, settings_.relative) ? 0 : 1;
      }
    }
    count_work(main_, states.size(), entries);
    crossed = across;
    return open == 0 || changed == 0;
  }

  // SCC c from its successors' final bounds to `epsilon` (or until no bound
  // changes), on w's thread (or on all, a large SCC).
  void solve_component(uint64_t c, std::span<const uint32_t> states, double epsilon, std::vector<BoundPair>& v,
                       Worker& w) {
    uint64_t entries = 0;
    for (const uint32_t i : states) entries += row_length(i);
    uint64_t sweeps = 0;
    bool have_upper = true;
    for (const uint32_t i : states) have_upper = have_upper && std::isfinite(v[i].second);
    // Small SCCs by state elimination (scc_direct_solve.hpp): at once where
    // the sweeps would need a first phase (rewards), else once k_sweeps_first
    // sweeps have not closed the SCC: most SCCs close in fewer sweeps than
    // an elimination costs (crowds: 1632 SCCs of ~45 states, 1.5× the solve
    // time eliminated), while an ill-conditioned one never would. Where the
    // direct solve leaves a member open, its bounds (sound, possibly
    // tighter) are swept on.
    bool may_solve_directly = settings_.direct_small_sccs && states.size() <= k_direct_max_unknowns;
    auto solved_directly = [&] {
      may_solve_directly = false;
      if (!direct_.solve(static_cast<uint32_t>(c), states, epsilon, settings_.relative, v)) return false;
      count_work(w, states.size(), entries);
      w.most_sweeps = std::max<uint64_t>(w.most_sweeps, std::max<uint64_t>(sweeps, 1));
      if (++direct_solved_ % k_poll_every == 0) loop_.poll();
      return true;
    };
    // Blocks cost sweeps where many entries read another block (random
    // structure: block Gauss–Seidel tends to Jacobi, up to ~1.5× the
    // sweeps); with few threads that eats the gain, so after the first
    // sweep such an SCC goes on on one thread.
    bool parallel = threads_ > 1 && states.size() >= k_parallel_scc_states;
    bool hand_over = false;  // k_sweeps_first sweeps left the SCC open: solve it directly
    auto step = [&] {
      bool done = false;
      if (!parallel) {
        done = sweep(states, entries, epsilon, v, w);
      } else {
        uint64_t crossed = 0;
        done = parallel_sweep(c, states, entries, epsilon, v, crossed);
        if (threads_ < k_min_threads_for_jacobi_vi && crossed * 4 > entries) parallel = false;
      }
      hand_over = !done && may_solve_directly && sweeps + 1 >= k_sweeps_first;
      return done || hand_over;
    };
    auto widest = [&] {
      double gap = 0.0;
      for (const uint32_t i : states) gap = std::max(gap, v[i].second - v[i].first);
      return gap;
    };
    if (!have_upper && may_solve_directly && solved_directly()) return;
    if (!have_upper) have_upper = first_phase_bounds(c, states, entries, sweeps, v, w);
    if (have_upper) {
      w.loop->until_bounds_close(sweeps, step, widest);
      if (hand_over) {
        if (solved_directly()) return;
        w.loop->until_bounds_close(sweeps, step, widest);
      }
    }
    w.most_sweeps = std::max(w.most_sweeps, sweeps);
    if (parallel && have_upper) ++w.parallel_components;
  }

  // The reward start of the header, on SCC c. False when the iteration
  // limit came first (v then holds plain value iteration's estimate as the
  // lower member and +∞ as the upper) or a successor has no upper bound.
  bool first_phase_bounds(uint64_t c, std::span<const uint32_t> states, uint64_t entries, uint64_t& sweeps,
                          std::vector<BoundPair>& v, Worker& w) {
    ++w.first_phases;
    if (local_of_.empty()) local_of_.resize(s_.a.num_rows());
    for (uint64_t k = 0; k < states.size(); ++k) local_of_[states[k]] = static_cast<uint32_t>(k);
    std::vector<FirstPhase>& phase_ = w.phase;
    phase_.assign(states.size(), FirstPhase{0.0, 0.0, 1.0});
    const SparseMatrix& a = s_.a;
    const bool kept_little = w.loop->until_upper_bound(sweeps, [&] {
      double most_kept = 0.0;
      for (uint64_t k = 0; k < states.size(); ++k) {
        const uint32_t i = states[k];
        FirstPhase sum{s_.b[i], s_.b[i], 0.0};
        for (uint64_t e = a.row_offsets[i]; e < a.row_offsets[i + 1]; ++e) {
          const uint32_t j = a.columns[e];
          if (j == i) continue;
          const double weight = a.values[e];
          if (sccs_.component_of[j] == c) {
            const FirstPhase& inside = phase_[local_of_[j]];
            sum.x_low += weight * inside.x_low;
            sum.x_high += weight * inside.x_high;
            sum.kept += weight * inside.kept;
          } else {
            sum.x_low += weight * v[j].first;
            sum.x_high += weight * v[j].second;
          }
        }
        phase_[k] = {sum.x_low * scale_[i], sum.x_high * scale_[i], sum.kept * scale_[i]};
        most_kept = std::max(most_kept, phase_[k].kept);
      }
      count_work(w, states.size(), entries);
      return most_kept <= k_max_kept_mass;
    });
    if (!kept_little) {
      for (uint64_t k = 0; k < states.size(); ++k) v[states[k]] = {phase_[k].x_low, k_infinity};
      return false;
    }
    double lowest = k_infinity, highest = -k_infinity;
    for (const FirstPhase& p : phase_) {
      lowest = std::min(lowest, p.x_low / (1.0 - p.kept));
      highest = std::max(highest, p.x_high / (1.0 - p.kept));
    }
    lowest = widened_ratio(lowest, -1.0);
    highest = widened_ratio(highest, 1.0);
    const bool finite = std::isfinite(highest);
    for (uint64_t k = 0; k < states.size(); ++k) {
      const FirstPhase& p = phase_[k];
      v[states[k]] = {p.x_low + p.kept * lowest, finite ? p.x_high + p.kept * highest : k_infinity};
    }
    return finite;
  }

  // The whole system in topological order, from the bounds reached, until
  // every unknown meets the user's ε (see the header). Counted on from the
  // SCCs' most sweeps.
  bool final_sweeps(std::vector<BoundPair>& v, uint64_t& iterations) {
    final_ran_ = true;
    const std::span<const uint32_t> all(sccs_.states);
    return loop_.until_bounds_close(
               iterations, [&] { return sweep(all, s_.a.num_entries(), settings_.epsilon, v, main_); },
               [&] { return widest_gap(v); }) &&
           open_unknowns(v, settings_.epsilon) == 0;
  }

  const LinearSystem& s_;
  const SolverSettings& settings_;
  SolveStats& stats_;
  std::vector<double> scale_;
  std::vector<uint64_t> row_groups_;  // one row per unknown
  graph::RowGraph graph_;
  graph::SccDecomposition sccs_;
  int threads_;
  IterationDriver loop_;
  SolverSettings quiet_settings_;  // side by side: no progress reports from the workers
  Worker main_{loop_};             // the solving thread's share (and, after each depth, the totals)
  std::vector<BoundPair> previous_;  // parallel sweeps: the SCC's bounds before the sweep
  std::vector<uint32_t> local_of_;  // first phase: an unknown's index within its SCC
  uint64_t side_by_side_ = 0;       // SCCs solved side by side
  uint64_t singles_done_ = 0;
  SccDirectSolver direct_;
  uint64_t direct_solved_ = 0;
  bool final_ran_ = false;
  bool converged_ = false;
};

}  // namespace

SolveStats topological_interval_linear(const LinearSystem& s, std::vector<double>& lower, std::vector<double>& upper,
                                       const SolverSettings& settings) {
  const Stopwatch solve_clock;
  const uint64_t n = s.a.num_rows();
  require_start_size(k_name, lower, n);
  SolveStats stats;
  // Probabilities: the given start (a lower bound) or 0, and the a-priori
  // upper bound. Rewards: no start; single unknowns are solved exactly,
  // SCCs start from their first phase.
  const bool bounded_above = std::isfinite(s.upper_bound);
  std::vector<BoundPair> v(n);
  for (uint64_t i = 0; i < n; ++i) {
    v[i] = bounded_above ? BoundPair{lower.empty() ? 0.0 : lower[i], s.upper_bound} : BoundPair{-k_infinity, k_infinity};
  }
  TopologicalIntervalLinear solver(s, settings, stats);
  const bool bounded = solver.solve(v);
  solver.record_loop_seconds();
  solver.describe(n);
  store_bound_pairs(v, bounded, lower, upper);
  stats.sound = bounded;
  stats.converged = solver.converged();
  stats.seconds = solve_clock.seconds();
  return stats;
}

}  // namespace pmc
