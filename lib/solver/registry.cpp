#include "solver/registry.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "cuda/gpu_solvers.hpp"
#include "solver/cpu_solvers.hpp"
#include "solver/mdp_solvers.hpp"

namespace pmc {

std::string_view to_string(ProblemKind kind) {
  switch (kind) {
    case ProblemKind::linear_system: return "linear system";
    case ProblemKind::stationary: return "stationary distribution";
    case ProblemKind::bounded_steps: return "bounded steps";
    case ProblemKind::min_max: return "min/max fixed point (MDP)";
    case ProblemKind::min_max_steps: return "bounded min/max steps (MDP)";
  }
  return "?";
}

bool SolverEntry::solves(ProblemKind kind) const {
  switch (kind) {
    case ProblemKind::linear_system: return linear != nullptr;
    case ProblemKind::stationary: return stationary != nullptr;
    case ProblemKind::bounded_steps: return steps != nullptr;
    case ProblemKind::min_max: return min_max != nullptr;
    case ProblemKind::min_max_steps: return min_max_steps != nullptr;
  }
  return false;
}

const std::vector<SolverEntry>& solver_registry() {
  static const std::vector<SolverEntry> entries = {
      {"cpu.jacobi", DeviceKind::cpu, "Jacobi iteration (multi-threaded)", jacobi_linear, jacobi_stationary, nullptr},
      {"cpu.gauss-seidel", DeviceKind::cpu, "Gauss-Seidel iteration (sequential, fewest iterations)",
       gauss_seidel_linear, gauss_seidel_stationary, nullptr},
      {"cpu.power", DeviceKind::cpu, "power method (multi-threaded)", power_linear, power_stationary, nullptr},
      {"cpu.bicgstab", DeviceKind::cpu, "BiCGStab Krylov solver, Gauss-Seidel preconditioned (products multi-threaded)",
       bicgstab_linear, nullptr, nullptr},
      {"cpu.steps", DeviceKind::cpu, "step-bounded iteration and uniformisation (multi-threaded)", nullptr, nullptr,
       steps_cpu},
      {"cpu.vi", DeviceKind::cpu, "value iteration for MDPs (Gauss-Seidel; Jacobi on all cores when large)", nullptr,
       nullptr, nullptr, value_iteration, value_iteration_steps},
      {"cpu.topo-vi", DeviceKind::cpu, "topological value iteration: SCCs in dependency order (Berger 2014 3.3)",
       nullptr, nullptr, nullptr, topological_value_iteration},
      {"cpu.interval-vi", DeviceKind::cpu, "sound interval iteration: lower and upper bounds (end components collapsed)",
       nullptr, nullptr, nullptr, interval_value_iteration},
      {"gpu.jacobi", DeviceKind::gpu, "Jacobi on the GPU (thread- or warp-per-row by row length)", gpu_jacobi_linear,
       nullptr, nullptr},
      {"gpu.segscan-jacobi", DeviceKind::gpu, "Jacobi on the GPU with a segmented-scan SpMV (GPU-PRISM)",
       gpu_segscan_jacobi_linear, nullptr, nullptr},
      {"gpu.bicgstab", DeviceKind::gpu, "BiCGStab on the GPU", gpu_bicgstab_linear, nullptr, nullptr},
      {"gpu.steps", DeviceKind::gpu, "step-bounded iteration and uniformisation on the GPU", nullptr, nullptr,
       gpu_steps},
      {"gpu.vi", DeviceKind::gpu, "value iteration on the GPU (thread- or warp-per-state)", nullptr, nullptr, nullptr,
       gpu_value_iteration, gpu_value_iteration_steps},
      {"gpu.topo-vi", DeviceKind::gpu,
       "value iteration on the GPU over SCC blocks that fit its memory, CPU fallback (Berger 2014 3.3)", nullptr,
       nullptr, nullptr, gpu_topological_value_iteration},
  };
  return entries;
}

const SolverEntry& find_solver(std::string_view name) {
  const auto& all = solver_registry();
  auto it = std::find_if(all.begin(), all.end(), [&](const SolverEntry& s) { return s.name == name; });
  if (it != all.end()) return *it;
  std::string names;
  for (const SolverEntry& s : all) names += (names.empty() ? "" : ", ") + s.name;
  fail(ErrorCode::invalid_argument, "unknown solver {} (known: auto, {})", quote_for_message(name), names);
}

const SolverEntry& choose_solver(ProblemKind kind, std::string_view requested, uint64_t problem_size,
                                 std::string& reason) {
  (void)problem_size;
  if (!requested.empty() && requested != "auto") {
    const SolverEntry& named = find_solver(requested);
    if (named.solves(kind)) {
      reason = "requested";
      return named;
    }
    reason = fmt::format("{} does not solve a {}; ", named.name, to_string(kind));
  } else {
    reason.clear();
  }
  // Gauss-Seidel needs the fewest iterations on the reference models and
  // streams the matrix once per sweep; uniformisation and bounded steps have
  // one method.
  // Topological VI solves each SCC once, in dependency order (Berger 2014
  // §3.4): never more work than plain VI and often far less.
  const char* pick = "cpu.gauss-seidel";
  if (kind == ProblemKind::bounded_steps) pick = "cpu.steps";
  if (kind == ProblemKind::min_max) pick = "cpu.topo-vi";
  if (kind == ProblemKind::min_max_steps) pick = "cpu.vi";
  reason += fmt::format("auto: {}", pick);
  return find_solver(pick);
}

}  // namespace pmc
