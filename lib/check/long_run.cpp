// Long-run (steady-state) values of DTMCs and CTMCs via bottom SCCs: the
// stationary distribution π_B of each BSCC B gives its long-run value
// Σ_{s∈B} π_B(s)·f(s); a transient state's value is the average of the
// BSCC values weighted by the probability of reaching each BSCC — one linear
// system over the transient states, g = P·g, with g fixed on the BSCCs.
// A BSCC's value is exact where its stationary distribution can be found
// in rationals (solver/linear/exact_stationary.hpp); when every BSCC's is,
// and the transient solve certifies its bounds, the result is certified.
#include <algorithm>
#include <atomic>
#include <numeric>
#include <optional>

#include <fmt/format.h>

#include "check/chain_matrices.hpp"
#include "check/computations.hpp"
#include "common/error.hpp"
#include "common/stopwatch.hpp"
#include "graph/bitset_ops.hpp"
#include "graph/bscc.hpp"
#include "solver/parallel.hpp"
#include "solver/linear/exact_stationary.hpp"

namespace pmc {

namespace {

namespace bits = graph::bits;

// The name results give the exact BSCC solves (not a registry solver: it
// runs wherever a BSCC is small enough, whichever solver is chosen).
constexpr const char* k_exact_stationary_solver = "exact-bscc";

// The stationary system of one BSCC, in local indices (position in `states`).
// DTMC: π_j·(1 − P_jj) = Σ_{i≠j} π_i·P_ij; CTMC: π_j·E_j = Σ_{i≠j} π_i·R_ij.
// The transposition runs on `threads`: the entries i → j are counted and
// placed by atomic cursors per j, so a row's order depends on the threads'
// timing; each row is then sorted by i, the order a serial pass gives, so
// the system (and every solve on it) is the same bits on any thread count.
StationarySystem bscc_system(const Model& model, std::span<const uint32_t> states, std::vector<uint32_t>& local,
                             int threads) {
  const auto size = static_cast<int64_t>(states.size());
  const bool parallel = size > k_parallel_rows;
#pragma omp parallel for if (parallel) num_threads(threads) schedule(static, 4096)
  for (int64_t i = 0; i < size; ++i) local[states[i]] = static_cast<uint32_t>(i);
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

// A BSCC's stationary system: its states and their entries, for the
// memory estimate.
ProblemShape bscc_shape(const Model& model, std::span<const uint32_t> states) {
  ProblemShape shape{states.size(), states.size(), 0};
  for (uint32_t s : states) shape.entries += model.row_offsets()[s + 1] - model.row_offsets()[s];
  return shape;
}

}  // namespace

std::vector<double> long_run_values(CheckContext& ctx, const std::vector<double>& state_values, ResultExtras& extras) {
  const Model& model = ctx.model();
  const uint64_t n = model.num_states();
  const graph::Bsccs& bsccs = ctx.timed(CheckContext::Phase::precompute, [&]() -> const graph::Bsccs& {
    return model.derived<graph::Bsccs>("bsccs", [&] { return graph::bottom_sccs(model); });
  });
  std::vector<double> values(n, 0.0), lower(n, 0.0), upper(n, 0.0);
  std::vector<uint32_t> local(n, 0);
  std::vector<double> local_values;
  uint64_t exact = 0, iterated = 0, spent = 0;
  // The widest half-gap of a BSCC's value: a transient state's value is a
  // convex combination of BSCC values (it reaches the BSCCs with
  // probability 1), so it widens the transient states' bounds by as much.
  double widest = 0.0;
  for (uint64_t b = 0; b < bsccs.count(); ++b) {
    auto states = bsccs.bscc(b);
    ValueBounds bounds{state_values[states[0]], state_values[states[0]]};
    if (states.size() > 1) {
      ctx.require_problem_memory(Computation::long_run, bscc_shape(model, states));
      StationarySystem system = ctx.timed(CheckContext::Phase::build, [&] {
        return bscc_system(model, states, local, solver_threads(ctx.options().settings));
      });
      local_values.resize(states.size());
      for (uint64_t i = 0; i < states.size(); ++i) local_values[i] = state_values[states[i]];
      const Stopwatch clock;
      const uint64_t left = spent < k_exact_stationary_total_work ? k_exact_stationary_total_work - spent : 0;
      const std::optional<ValueBounds> solved =
          exact_long_run_value(system, local_values, std::min(left, k_exact_stationary_work), spent);
      if (solved) {
        ctx.record_direct_solve(k_exact_stationary_solver, clock.seconds());
        bounds = *solved;
        ++exact;
      } else {
        std::vector<double> pi(states.size(), 1.0 / static_cast<double>(states.size()));
        ctx.solve_stationary(system, pi);
        double value = 0.0;
        for (uint64_t i = 0; i < states.size(); ++i) value += pi[i] * state_values[states[i]];
        bounds = {value, value};
        ++iterated;
      }
    }
    const double value = bounds.lower == bounds.upper ? bounds.lower : 0.5 * (bounds.lower + bounds.upper);
    widest = std::max(widest, 0.5 * (bounds.upper - bounds.lower));
    for (uint32_t s : states) {
      values[s] = value;
      lower[s] = bounds.lower;
      upper[s] = bounds.upper;
    }
  }
  if (exact > 0) {
    ctx.add_note(fmt::format("long-run: {} of the {} bottom SCCs of more than one state solved exactly (state "
                             "elimination in rationals){}",
                             exact, exact + iterated, iterated > 0 ? "; the others carry no error bounds" : ""));
  }
  const bool certified = iterated == 0;
  if (!certified) ctx.mark_unsound("long-run and steady-state values carry no error bounds");
  const Bitset transient = bits::complement(bsccs.recurrent_states());
  if (transient.count() > 0) {
    ctx.require_problem_memory(Computation::long_run, transient);
    std::vector<uint32_t> index;
    LinearSystem system = ctx.timed(CheckContext::Phase::build, [&] {
      return restrict_linear(probability_matrix(model), transient, values, {}, index);
    });
    std::vector<double> x(system.b.size(), 0.0), x_lower, x_upper;
    ctx.solve_linear(system, x, &x_lower, &x_upper);
    const bool bounded = !x_upper.empty();
    bits::for_each_set(transient, [&](uint64_t s) {
      values[s] = x[index[s]];
      lower[s] = bounded ? x_lower[index[s]] - widest : values[s];
      upper[s] = bounded ? x_upper[index[s]] + widest : values[s];
    });
    if (!bounded) return values;
  }
  if (certified) {
    extras.lower = std::move(lower);
    extras.upper = std::move(upper);
  }
  return values;
}

}  // namespace pmc
