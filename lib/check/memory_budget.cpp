#include "check/memory_budget.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "check/chain_matrices.hpp"
#include "common/memory_limit.hpp"
#include "model/model_memory.hpp"
#include "solver/fox_glynn.hpp"

namespace pmc {
namespace {

using property::Operator;
using property::OperatorKind;
using property::PathKind;
using property::RewardKind;

uint64_t doubles(uint64_t count) { return saturating_mul(8, count); }

// What a solver allocates: `vectors` doubles per unknown and `copies`
// copies of its problem's matrix (SCC subproblems, end-component
// quotients, reordered or re-laid-out systems). Read off the solvers'
// sources (lib/solver/*/, cuda/*.cu: the host side).
struct Working {
  double vectors;
  double copies;
};

Working working_of(std::string_view name, ProblemKind kind, const SolverSettings& settings) {
  // A named solver that does not solve `kind` leaves it to "auto".
  if (!is_automatic_choice(name) && !solver_solves(name, kind)) name = "auto";
  if (name == "cpu.jacobi" || name == "cpu.gauss-seidel" || name == "cpu.power") return {2, 0};  // diagonal, next
  if (name == "cpu.bicgstab") return {9, 0};                            // r, r̂, p, v, s, t, y, z, diagonal
  if (name == "cpu.steps") return {3, 0};                               // v, next, the weighted sum
  if (name == "cpu.vi") return {2.5, 0};                                // next, best, choices
  if (name == "cpu.interval-vi") return {4, 0};                         // scale, images of both bounds, choices
  // Chains: bound pairs, scale, the SCCs (one entry per unknown and up to
  // one per SCC) and Tarjan's work space (40 B per unknown) at its peak.
  if (name == "cpu.topo-interval-vi" && kind == ProblemKind::linear_system) return {11, 0};
  if (name == "cpu.topo-vi" || name == "cpu.topo-interval-vi") return {6, 1};  // + SCC subproblems
  if (name == "gpu.topo-vi") return {4, 1};                             // + SCC blocks staged on the host
  if (name.starts_with("gpu.")) {
    // Host side: the result downloaded, the interval solvers' bound pairs;
    // a warp-segmented layout or BFS renumbering copies the system first.
    const bool relaid = settings.bfs_reorder || settings.gpu_layout == GpuLayout::warp_segments ||
                        settings.gpu_layout == GpuLayout::half_warp_segments;
    return {4, relaid && kind == ProblemKind::linear_system ? 1.0 : 0.0};
  }
  // "auto", "cpu", "gpu" and anything else: the largest of the usual choices.
  switch (kind) {
    case ProblemKind::linear_system: return {11, 0};
    case ProblemKind::min_max: return {6, 1};
    default: return {3, 0};
  }
}

uint64_t weighted(Working w, uint64_t unknowns, uint64_t matrix_bytes) {
  const double bytes = w.vectors * 8.0 * static_cast<double>(unknowns) + w.copies * static_cast<double>(matrix_bytes);
  return bytes >= 1.8e19 ? UINT64_MAX : static_cast<uint64_t>(bytes);
}

// The transposed graph: 8 B per state, 4 per entry, 4 per MDP row.
uint64_t transposed_bytes(const Model& model) {
  uint64_t bytes = saturating_add(doubles(model.num_states() + 1), saturating_mul(4, model.num_entries()));
  if (model.type() == ModelType::mdp) bytes = saturating_add(bytes, saturating_mul(4, model.num_rows()));
  return bytes;
}

// A CTMC's embedded DTMC (a self-loop added per absorbing state).
uint64_t embedded_bytes(const Model& model) {
  if (model.type() != ModelType::ctmc) return 0;
  return csr_bytes(model.num_states(), model.num_entries() + model.num_states());
}

// Values and certified bounds per state (and the known states' values), a
// few state sets, and an MDP's scheduler.
uint64_t result_bytes(const Model& model) {
  const uint64_t n = model.num_states();
  uint64_t bytes = saturating_add(doubles(4 * n), 8 * (n / 8 + 8));
  if (model.type() == ModelType::mdp) bytes = saturating_add(bytes, doubles(n));
  return bytes;
}

// Fox–Glynn's window holds at most about 110·sqrt(λ) weights
// (solver/fox_glynn.hpp); beyond k_fox_glynn_max_lambda none are stored.
uint64_t weight_bytes(double lambda) {
  if (!(lambda > 0) || lambda > k_fox_glynn_max_lambda) return 64;
  return static_cast<uint64_t>(8.0 * (110.0 * std::sqrt(lambda) + 64.0));
}

double largest_time(const property::TimeBound& bound) {
  double t = 0;
  if (bound.lower) t = std::max(t, bound.lower->value);
  if (bound.upper) t = std::max(t, bound.upper->value);
  return t;
}

ProblemKind problem_kind(Computation kind) {
  switch (kind) {
    case Computation::reachability:
    case Computation::long_run: return ProblemKind::linear_system;
    case Computation::bounded_steps:
    case Computation::uniformisation: return ProblemKind::bounded_steps;
    case Computation::mdp_reachability: return ProblemKind::min_max;
    case Computation::mdp_bounded_steps: return ProblemKind::min_max_steps;
  }
  return ProblemKind::linear_system;
}

}  // namespace

uint64_t MemoryEstimate::total() const {
  return saturating_add(saturating_add(saturating_add(model, derived), saturating_add(problem, solver)), results);
}

std::string MemoryEstimate::describe() const {
  std::string out;
  const std::pair<const char*, uint64_t> parts[] = {
      {"model", model}, {"derived data", derived}, {"problem", problem}, {"solver", solver}, {"results", results}};
  for (const auto& [name, bytes] : parts) {
    if (bytes == 0) continue;
    out += fmt::format("{}{} {}", out.empty() ? "" : " + ", name, format_bytes(bytes));
  }
  return out;
}

std::string_view problem_name(Computation kind) {
  switch (kind) {
    case Computation::reachability: return "the linear system";
    case Computation::bounded_steps: return "the step-bounded iteration";
    case Computation::uniformisation: return "the uniformised chain";
    case Computation::long_run: return "the long-run system";
    case Computation::mdp_reachability: return "the MDP's min/max problem";
    case Computation::mdp_bounded_steps: return "the MDP's step-bounded iteration";
  }
  return "the problem";
}

Computation computation_of(const Model& model, const Operator& op) {
  const bool mdp = model.type() == ModelType::mdp;
  const bool ctmc = model.type() == ModelType::ctmc;
  switch (op.kind) {
    case OperatorKind::probability: {
      const property::PathFormula& path = *op.path;
      const bool bounded = path.kind == PathKind::next || !path.bound.unbounded();
      if (mdp) return bounded ? Computation::mdp_bounded_steps : Computation::mdp_reachability;
      if (path.kind == PathKind::next) return Computation::bounded_steps;
      if (path.bound.unbounded()) return Computation::reachability;
      return ctmc ? Computation::uniformisation : Computation::bounded_steps;
    }
    case OperatorKind::reward:
      switch (op.reward.kind) {
        case RewardKind::reachability: return mdp ? Computation::mdp_reachability : Computation::reachability;
        case RewardKind::long_run: return Computation::long_run;
        case RewardKind::cumulative:
        case RewardKind::instantaneous:
          if (mdp) return Computation::mdp_bounded_steps;
          return ctmc ? Computation::uniformisation : Computation::bounded_steps;
      }
      break;
    case OperatorKind::steady_state: return Computation::long_run;
    case OperatorKind::time: return mdp ? Computation::mdp_reachability : Computation::reachability;  // R[F ψ]
  }
  return Computation::reachability;
}

ProblemShape shape_of(const Model& model, const Bitset& unknowns) {
  ProblemShape shape;
  const uint64_t n = std::min<uint64_t>(model.num_states(), unknowns.size());
  const auto& offsets = model.row_offsets();
  const bool mdp = model.type() == ModelType::mdp;
  for (uint64_t s = unknowns.find_next(0); s < n; s = unknowns.find_next(s + 1)) {
    ++shape.unknowns;
    const uint64_t first = mdp ? model.row_groups()[s] : s, last = mdp ? model.row_groups()[s + 1] : s + 1;
    shape.rows += last - first;
    shape.entries += offsets[last] - offsets[first];
  }
  if (model.type() == ModelType::ctmc) shape.entries += shape.unknowns;
  return shape;
}

ProblemShape whole_model(const Model& model) {
  return {model.num_states(), model.num_rows(),
          model.num_entries() + (model.type() == ModelType::ctmc ? model.num_states() : 0)};
}

MemoryEstimate estimate_computation(Computation kind, const Model& model, const ProblemShape& shape,
                                    std::string_view solver, const SolverSettings& settings, double lambda) {
  const uint64_t n = model.num_states();
  const uint64_t u = shape.unknowns, r = shape.rows, e = shape.entries;
  const Working working = working_of(solver, problem_kind(kind), settings);
  MemoryEstimate est;
  est.model = model_bytes(model);
  est.results = result_bytes(model);
  switch (kind) {
    case Computation::reachability: {
      // A, b and the index map; x, lower and upper.
      const uint64_t matrix = csr_bytes(u, e);
      est.derived = saturating_add(transposed_bytes(model), embedded_bytes(model));
      est.problem = u == 0 ? 0 : saturating_add(matrix, doubles(4 * u) + 4 * n);
      est.solver = weighted(working, u, matrix);
      break;
    }
    case Computation::bounded_steps:
    case Computation::uniformisation: {
      // Every row (inactive ones empty), b, x0 and the result.
      const uint64_t matrix = u == 0 ? 0 : csr_bytes(n, e);
      est.derived = transposed_bytes(model);
      if (kind == Computation::uniformisation) est.derived = saturating_add(est.derived, doubles(n));  // exit rates
      est.problem = u == 0 ? 0 : saturating_add(matrix, doubles(3 * n));
      est.solver = saturating_add(weighted(working, u == 0 ? 0 : n, matrix),
                                  kind == Computation::uniformisation ? weight_bytes(lambda) : 0);
      break;
    }
    case Computation::long_run: {
      // The BSCCs (index per state, states, offsets) and Tarjan's arrays;
      // then one BSCC's stationary system (its rows transposed, outflow,
      // π, local indices) or the transient states' linear system (on a
      // CTMC's embedded DTMC): they do not overlap.
      est.derived = doubles(4 * n + 1);
      const uint64_t stationary = saturating_add(csr_bytes(u, e), doubles(3 * u) + 4 * n);
      const uint64_t linear =
          u == 0 ? 0 : saturating_add(saturating_add(csr_bytes(u, e), doubles(2 * u) + 4 * n), embedded_bytes(model));
      est.problem = u == 0 ? 0 : std::max(stationary, linear);
      est.solver = weighted(working, u, csr_bytes(u, e));
      break;
    }
    case Computation::mdp_reachability:
    case Computation::mdp_bounded_steps: {
      // The restricted MDP: row groups and their prefix sums, A, b and each
      // choice's model row, index maps; x and upper, choices; per-choice
      // rewards of the whole model.
      const uint64_t matrix = saturating_add(csr_bytes(r, e), doubles(2 * r) + doubles(u + 1));
      est.derived = transposed_bytes(model);
      est.problem = u == 0 ? 0
                           : saturating_add(matrix, doubles(2 * u) + 4 * n + 4 * u + doubles(2 * u) + 4 * u +
                                                        doubles(model.num_rows()) + model.num_rows() / 8);
      // Unbounded: an end-component quotient may copy the problem once more.
      if (kind == Computation::mdp_reachability && u > 0) est.problem = saturating_add(est.problem, matrix);
      est.solver = weighted(working, u, matrix);
      break;
    }
  }
  return est;
}

MemoryEstimate estimate_operator(const Model& model, const Operator& op, std::string_view solver,
                                 const SolverSettings& settings) {
  const Computation kind = computation_of(model, op);
  double lambda = 0;
  if (kind == Computation::uniformisation) {
    const double t = op.kind == OperatorKind::reward ? op.reward.bound.value : largest_time(op.path->bound);
    lambda = uniformisation_rate(model) * t;
  }
  MemoryEstimate e = estimate_computation(kind, model, {}, solver, settings, lambda);
  // A lower time bound without an upper one (F>=t) solves the unbounded
  // part first, then steps: the larger of the two, one after the other.
  if (op.kind == OperatorKind::probability && op.path->bound.lower && !op.path->bound.upper &&
      model.type() != ModelType::mdp) {
    const MemoryEstimate first = estimate_computation(Computation::reachability, model, {}, solver, settings);
    if (first.total() > e.total()) e = first;
  }
  return e;
}

uint64_t solver_working_bytes(const SolverEntry& solver, ProblemKind kind, uint64_t unknowns, uint64_t rows,
                              uint64_t entries, const SolverSettings& settings) {
  Working w = working_of(solver.name, kind, settings);
  // Unbounded min/max problems: the end components' quotient (a copy).
  if (kind == ProblemKind::min_max) w.copies = std::max(w.copies, 1.0);
  return weighted(w, unknowns, csr_bytes(rows, entries));
}

MemoryEstimate estimate_solve(const Model& model, const SolverEntry& solver, ProblemKind kind, uint64_t unknowns,
                              uint64_t rows, uint64_t entries, uint64_t problem_bytes, const SolverSettings& settings) {
  MemoryEstimate e;
  e.model = model_bytes(model);
  e.derived = kind == ProblemKind::stationary ? doubles(4 * model.num_states() + 1)
                                              : saturating_add(transposed_bytes(model), embedded_bytes(model));
  e.problem = saturating_add(problem_bytes, doubles(3 * unknowns));  // + the caller's x, lower, upper
  e.solver = solver_working_bytes(solver, kind, unknowns, rows, entries, settings);
  e.results = result_bytes(model);
  return e;
}

namespace {

template <typename T>
uint64_t capacity_bytes(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

uint64_t matrix_bytes(const SparseMatrix& a) {
  return capacity_bytes(a.row_offsets) + capacity_bytes(a.columns) + capacity_bytes(a.values);
}

}  // namespace

uint64_t problem_bytes(const LinearSystem& system) { return matrix_bytes(system.a) + capacity_bytes(system.b); }
uint64_t problem_bytes(const StationarySystem& system) {
  return matrix_bytes(system.incoming) + capacity_bytes(system.outflow);
}
uint64_t problem_bytes(const LongRunProblem& problem) {
  return matrix_bytes(problem.rates) + capacity_bytes(problem.reward);
}
uint64_t problem_bytes(const StepProblem& problem) {
  return matrix_bytes(problem.a) + capacity_bytes(problem.b) + capacity_bytes(problem.x0) +
         capacity_bytes(problem.coefficients);
}
uint64_t problem_bytes(const MinMaxProblem& problem) {
  return matrix_bytes(problem.a) + capacity_bytes(problem.b) + capacity_bytes(problem.row_groups);
}

void require_estimate(const MemoryEstimate& estimate, const SolverSettings& settings, std::string_view what) {
  require_memory(estimate.total(), settings.memory_limit, what, estimate.describe());
}

}  // namespace pmc
