// Long-run (steady-state) values of DTMCs and CTMCs via bottom SCCs: the
// stationary distribution π_B of each BSCC B gives its long-run value
// Σ_{s∈B} π_B(s)·f(s); a transient state's value is the average of the
// BSCC values weighted by the probability of reaching each BSCC — one linear
// system over the transient states, g = P·g, with g fixed on the BSCCs.
// A BSCC's value is exact where its stationary distribution can be found
// in rationals (solver/linear/exact_stationary.hpp); otherwise, under sound
// settings, the stationary solver bounds it (LongRunProblem: the bias
// sweeps and their bracket), else it solves for π without error bounds.
// When every BSCC's value is bounded and the transient solve certifies its
// bounds, the result is certified.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "check/chain_matrices.hpp"
#include "check/computations.hpp"
#include "common/error.hpp"
#include "common/stopwatch.hpp"
#include "graph/bitset_ops.hpp"
#include "graph/bscc.hpp"
#include "solver/convergence.hpp"
#include "solver/parallel.hpp"
#include "solver/registry.hpp"
#include "solver/linear/exact_stationary.hpp"

namespace pmc {

namespace {

namespace bits = graph::bits;

// The name results give the exact BSCC solves (not a registry solver: it
// runs wherever a BSCC is small enough, whichever solver is chosen).
constexpr const char* k_exact_stationary_solver = "exact-bscc";

// local[s] = the position of s in `states`: a BSCC's local indices.
void number_locally(std::span<const uint32_t> states, std::vector<uint32_t>& local, int threads) {
  const auto size = static_cast<int64_t>(states.size());
#pragma omp parallel for if (size > k_parallel_rows) num_threads(threads) schedule(static, 4096)
  for (int64_t i = 0; i < size; ++i) local[states[i]] = static_cast<uint32_t>(i);
}

// The stationary system of one BSCC, in local indices (position in `states`;
// `local` must hold them).
// DTMC: π_j·(1 − P_jj) = Σ_{i≠j} π_i·P_ij; CTMC: π_j·E_j = Σ_{i≠j} π_i·R_ij.
// The transposition runs on `threads`: the entries i → j are counted and
// placed by atomic cursors per j, so a row's order depends on the threads'
// timing; each row is then sorted by i, the order a serial pass gives, so
// the system (and every solve on it) is the same bits on any thread count.
StationarySystem bscc_system(const Model& model, std::span<const uint32_t> states, const std::vector<uint32_t>& local,
                             int threads) {
  const auto size = static_cast<int64_t>(states.size());
  const bool parallel = size > k_parallel_rows;
  const bool ctmc = model.type() == ModelType::ctmc;
  const CsrView p = ctmc ? CsrView{model.row_offsets().data(), model.columns().data(), model.values().data(),
                                   model.num_states()}
                         : probability_matrix(model);
  StationarySystem system;
  system.outflow.assign(size, 0.0);
  std::vector<uint64_t> count(size + 1, 0);
#pragma omp parallel for if (parallel) num_threads(threads) schedule(static, 1024)
  for (int64_t i = 0; i < size; ++i) {
    const uint32_t s = states[i];
    for (uint64_t k = p.offsets[s]; k < p.offsets[s + 1]; ++k) {
      if (p.columns[k] != s) std::atomic_ref<uint64_t>(count[local[p.columns[k]] + 1]).fetch_add(1, std::memory_order_relaxed);
    }
  }
  std::partial_sum(count.begin(), count.end(), count.begin());
  system.incoming.row_offsets = count;
  system.incoming.columns.resize(count.back());
  system.incoming.values.resize(count.back());
  uint32_t* columns = system.incoming.columns.data();
  double* values = system.incoming.values.data();
#pragma omp parallel for if (parallel) num_threads(threads) schedule(static, 1024)
  for (int64_t i = 0; i < size; ++i) {
    const uint32_t s = states[i];
    double outflow = 0.0;
    for (uint64_t k = p.offsets[s]; k < p.offsets[s + 1]; ++k) {
      const uint32_t t = p.columns[k];
      if (t == s) continue;
      const uint64_t slot = std::atomic_ref<uint64_t>(count[local[t]]).fetch_add(1, std::memory_order_relaxed);
      columns[slot] = static_cast<uint32_t>(i);
      values[slot] = p.values[k];
      outflow += p.values[k];
    }
    system.outflow[i] = outflow;
  }
  if (parallel) {
    // Rows are short (a state's predecessors): an insertion sort each.
    const std::vector<uint64_t>& offsets = system.incoming.row_offsets;
#pragma omp parallel for num_threads(threads) schedule(static, 1024)
    for (int64_t j = 0; j < size; ++j) {
      for (uint64_t a = offsets[j] + 1; a < offsets[j + 1]; ++a) {
        const uint32_t column = columns[a];
        const double value = values[a];
        uint64_t b = a;
        for (; b > offsets[j] && columns[b - 1] > column; --b) {
          columns[b] = columns[b - 1];
          values[b] = values[b - 1];
        }
        columns[b] = column;
        values[b] = value;
      }
    }
  }
  return system;
}

// One BSCC's rates in local indices (the position in `states`, as
// bscc_system): each state's entries to the others of the BSCC, in the
// model's order (a BSCC is closed, so that is every entry but the self
// loop), and f in the same order. `local` must hold the local indices;
// `distribution` is the stationary solve's π, in the same order.
LongRunProblem bscc_long_run_problem(const Model& model, std::span<const uint32_t> states,
                                     const std::vector<uint32_t>& local, const std::vector<double>& state_values,
                                     std::vector<double> distribution, int threads) {
  const auto size = static_cast<int64_t>(states.size());
  const bool parallel = size > k_parallel_rows;
  const CsrView p = model.type() == ModelType::ctmc ? CsrView{model.row_offsets().data(), model.columns().data(),
                                                              model.values().data(), model.num_states()}
                                                    : probability_matrix(model);
  LongRunProblem problem;
  problem.distribution = std::move(distribution);
  SparseMatrix& rates = problem.rates;
  rates.row_offsets.assign(size + 1, 0);
  problem.reward.resize(size);
#pragma omp parallel for if (parallel) num_threads(threads) schedule(static, 4096)
  for (int64_t i = 0; i < size; ++i) {
    const uint32_t s = states[i];
    uint64_t count = 0;
    for (uint64_t k = p.offsets[s]; k < p.offsets[s + 1]; ++k) count += p.columns[k] != s ? 1 : 0;
    rates.row_offsets[i + 1] = count;
    problem.reward[i] = state_values[s];
  }
  std::partial_sum(rates.row_offsets.begin(), rates.row_offsets.end(), rates.row_offsets.begin());
  rates.columns.resize(rates.row_offsets.back());
  rates.values.resize(rates.row_offsets.back());
#pragma omp parallel for if (parallel) num_threads(threads) schedule(static, 4096)
  for (int64_t i = 0; i < size; ++i) {
    const uint32_t s = states[i];
    uint64_t slot = rates.row_offsets[i];
    for (uint64_t k = p.offsets[s]; k < p.offsets[s + 1]; ++k) {
      if (p.columns[k] == s) continue;
      rates.columns[slot] = local[p.columns[k]];
      rates.values[slot] = p.values[k];
      ++slot;
    }
  }
  return problem;
}

// A BSCC's stationary system: its states and their entries, for the
// memory estimate.
ProblemShape bscc_shape(const Model& model, std::span<const uint32_t> states) {
  ProblemShape shape{states.size(), states.size(), 0};
  for (uint32_t s : states) shape.entries += model.row_offsets()[s + 1] - model.row_offsets()[s];
  return shape;
}

// long_run_values with the BSCCs found, under ctx's options.
std::vector<double> long_run_values_of(CheckContext& ctx, const graph::Bsccs& bsccs,
                                       const std::vector<double>& state_values, ResultExtras& extras) {
  const Model& model = ctx.model();
  const uint64_t n = model.num_states();
  std::vector<double> values(n, 0.0), lower(n, 0.0), upper(n, 0.0);
  std::vector<uint32_t> local(n, 0);
  std::vector<double> local_values;
  const int threads = solver_threads(ctx.options().settings);
  uint64_t exact = 0, bounded = 0, unbounded = 0, spent = 0;
  // The widest half-gap of a BSCC's value: a transient state's value is a
  // convex combination of BSCC values (it reaches the BSCCs with
  // probability 1), so it widens the transient states' bounds by as much.
  double widest = 0.0;
  for (uint64_t b = 0; b < bsccs.count(); ++b) {
    auto states = bsccs.bscc(b);
    ValueBounds bounds{state_values[states[0]], state_values[states[0]]};
    if (states.size() > 1) {
      ctx.require_problem_memory(Computation::long_run, bscc_shape(model, states));
      number_locally(states, local, threads);
      StationarySystem system;
      std::optional<ValueBounds> solved;
      const uint64_t left = spent < k_exact_stationary_total_work ? k_exact_stationary_total_work - spent : 0;
      if (states.size() <= k_exact_stationary_max_states && left > 0) {
        system = ctx.timed(CheckContext::Phase::build, [&] { return bscc_system(model, states, local, threads); });
        local_values.resize(states.size());
        for (uint64_t i = 0; i < states.size(); ++i) local_values[i] = state_values[states[i]];
        const Stopwatch clock;
        solved = exact_long_run_value(system, local_values, std::min(left, k_exact_stationary_work), spent);
        if (solved) {
          ctx.record_direct_solve(k_exact_stationary_solver, clock.seconds());
          ++exact;
        }
      }
      if (!solved) {
        if (system.incoming.num_rows() == 0) {
          system = ctx.timed(CheckContext::Phase::build, [&] { return bscc_system(model, states, local, threads); });
        }
        std::vector<double> pi(states.size(), 1.0 / static_cast<double>(states.size()));
        ctx.solve_stationary(system, pi);
        system = StationarySystem{};  // its memory, before the long-run problem's
        double value = 0.0;
        for (uint64_t i = 0; i < states.size(); ++i) value += pi[i] * state_values[states[i]];
        solved = ValueBounds{value, value};
        // Under sound settings, π as the weights of the bias sweeps' bounds.
        LongRunBounds long_run;
        bool certified_here = false;
        if (ctx.options().settings.sound) {
          const LongRunProblem problem = ctx.timed(CheckContext::Phase::build, [&] {
            return bscc_long_run_problem(model, states, local, state_values, std::move(pi), threads);
          });
          certified_here = ctx.solve_long_run(problem, long_run);
        }
        if (certified_here) {
          solved = ValueBounds{long_run.lower, long_run.upper};
          ++bounded;
        } else {
          ++unbounded;
        }
      }
      bounds = *solved;
    }
    const double value = bounds.lower == bounds.upper ? bounds.lower : 0.5 * (bounds.lower + bounds.upper);
    widest = std::max(widest, 0.5 * (bounds.upper - bounds.lower));
    for (uint32_t s : states) {
      values[s] = value;
      lower[s] = bounds.lower;
      upper[s] = bounds.upper;
    }
  }
  if (exact + bounded + unbounded > 0) {
    std::vector<std::string> parts;
    if (exact > 0) parts.push_back(fmt::format("{} solved exactly (state elimination in rationals)", exact));
    if (bounded > 0) parts.push_back(fmt::format("{} bounded by the bias sweeps", bounded));
    if (unbounded > 0) parts.push_back(fmt::format("{} without error bounds", unbounded));
    ctx.add_note(fmt::format("long-run: of the {} bottom SCCs of more than one state, {}", exact + bounded + unbounded,
                             fmt::join(parts, ", ")));
  }
  const bool certified = unbounded == 0;
  if (!certified) ctx.mark_unsound("stationary distributions are solved without error bounds");
  const Bitset transient = bits::complement(bsccs.recurrent_states());
  if (transient.count() > 0) {
    ctx.require_problem_memory(Computation::long_run, transient);
    std::vector<uint32_t> index;
    LinearSystem system = ctx.timed(CheckContext::Phase::build, [&] {
      return restrict_linear(probability_matrix(model), transient, values, {}, index);
    });
    std::vector<double> x(system.b.size(), 0.0), x_lower, x_upper;
    ctx.solve_linear(system, x, &x_lower, &x_upper);
    const bool transient_bounded = !x_upper.empty();
    bits::for_each_set(transient, [&](uint64_t s) {
      values[s] = x[index[s]];
      lower[s] = transient_bounded ? x_lower[index[s]] - widest : values[s];
      upper[s] = transient_bounded ? x_upper[index[s]] + widest : values[s];
    });
    if (!transient_bounded) return values;
  }
  if (certified) {
    extras.lower = std::move(lower);
    extras.upper = std::move(upper);
  }
  return values;
}

}  // namespace

// A transient state's bounds add its own solve's gap to the widest BSCC's
// half-gap, so with transient states every solve runs at a quarter of ε:
// the sum then stays within 2ε of the value while the BSCC values are
// within a few times of it (a note says when the bounds came out wider).
std::vector<double> long_run_values(CheckContext& ctx, const std::vector<double>& state_values, ResultExtras& extras) {
  const Model& model = ctx.model();
  const graph::Bsccs& bsccs = ctx.timed(CheckContext::Phase::precompute, [&]() -> const graph::Bsccs& {
    return model.derived<graph::Bsccs>(
        "bsccs", [&] { return graph::bottom_sccs(model, solver_threads(ctx.options().settings)); });
  });
  if (bsccs.states.size() == model.num_states()) return long_run_values_of(ctx, bsccs, state_values, extras);
  CheckOptions tighter = ctx.options();
  const SolverSettings& asked = ctx.options().settings;
  tighter.settings.epsilon = std::max(k_min_epsilon, asked.epsilon / 4);
  CheckContext inner(model, tighter);
  std::vector<double> values = long_run_values_of(inner, bsccs, state_values, extras);
  ctx.absorb(inner);
  const Bitset* initial = model.initial_states();
  if (!extras.upper.empty() && initial != nullptr) {
    double excess = 0;
    bits::for_each_set(*initial, [&](uint64_t s) {
      const double scale = asked.relative ? std::max(std::fabs(extras.lower[s]), k_relative_floor) : 1.0;
      excess = std::max(excess, (extras.upper[s] - extras.lower[s]) / (2.0 * asked.epsilon * scale));
    });
    if (excess > 1.0) {
      ctx.add_note(fmt::format("the long-run bounds in the initial states are {:.3g} times wider than epsilon asks "
                               "(their bottom SCCs' values differ widely)",
                               excess));
    }
  }
  return values;
}

}  // namespace pmc
