#include "solver/registry.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "cuda/devices.hpp"
#include "cuda/gpu_solvers.hpp"
#include "solver/cpu_solvers.hpp"
#include "solver/device_selection.hpp"
#include "solver/mdp_solvers.hpp"
#include "solver/param_solvers.hpp"

namespace pmc {

std::string_view to_string(ProblemKind kind) {
  switch (kind) {
    case ProblemKind::linear_system: return "linear system";
    case ProblemKind::stationary: return "stationary distribution";
    case ProblemKind::bounded_steps: return "bounded steps";
    case ProblemKind::min_max: return "min/max fixed point (MDP)";
    case ProblemKind::min_max_steps: return "bounded min/max steps (MDP)";
    case ProblemKind::param_bounds: return "parametric bounds (pCTMC regions)";
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
    case ProblemKind::param_bounds: return param_bounds != nullptr;
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
      {"cpu.param-bounds", DeviceKind::cpu,
       "parametric bounds over pCTMC regions, one region per core (Ceska 2017 3.2)", nullptr, nullptr, nullptr,
       nullptr, nullptr, param_bounds_cpu},
      {"gpu.param-bounds", DeviceKind::gpu,
       "parametric bounds on the GPU, many regions per kernel, CSR or ELL (Ceska 2017 3.3-3.4)", nullptr, nullptr,
       nullptr, nullptr, nullptr, param_bounds_gpu},
  };
  return entries;
}

const SolverEntry& find_solver(std::string_view name) {
  const auto& all = solver_registry();
  auto it = std::find_if(all.begin(), all.end(), [&](const SolverEntry& s) { return s.name == name; });
  if (it != all.end()) return *it;
  std::string names;
  for (const SolverEntry& s : all) names += (names.empty() ? "" : ", ") + s.name;
  fail(ErrorCode::invalid_argument, "unknown solver {} (known: auto, cpu, gpu, {})", quote_for_message(name), names);
}

bool is_automatic_choice(std::string_view requested) {
  return requested.empty() || requested == "auto" || requested == "cpu" || requested == "gpu";
}

void validate_solver_choice(std::string_view requested) {
  if (!is_automatic_choice(requested)) find_solver(requested);
}

namespace {

const char* cpu_choice(ProblemKind kind) {
  // Gauss-Seidel needs the fewest iterations on the reference models and
  // streams the matrix once per sweep; uniformisation and bounded steps
  // have one method. Topological VI solves each SCC once, in dependency
  // order (Berger 2014 §3.4): never more work than plain VI, often far less.
  switch (kind) {
    case ProblemKind::bounded_steps: return "cpu.steps";
    case ProblemKind::min_max: return "cpu.topo-vi";
    case ProblemKind::min_max_steps: return "cpu.vi";
    case ProblemKind::param_bounds: return "cpu.param-bounds";
    case ProblemKind::linear_system:
    case ProblemKind::stationary: break;
  }
  return "cpu.gauss-seidel";
}

// nullptr where no GPU solver solves the kind.
const char* gpu_choice(ProblemKind kind) {
  switch (kind) {
    case ProblemKind::linear_system: return "gpu.jacobi";
    case ProblemKind::bounded_steps: return "gpu.steps";
    case ProblemKind::min_max: return "gpu.topo-vi";
    case ProblemKind::min_max_steps: return "gpu.vi";
    case ProblemKind::param_bounds: return "gpu.param-bounds";
    case ProblemKind::stationary: break;
  }
  return nullptr;
}

// Non-zeros from which "auto" prefers the GPU. Parametric bounds solve many
// regions per launch over the same pattern, so even am_10_4's 120 states
// pay off (3× over 16 cores end to end, bench/RESULTS.md).
uint64_t gpu_auto_min_entries(ProblemKind kind) {
  return kind == ProblemKind::param_bounds ? 0 : k_gpu_auto_min_entries;
}

}  // namespace

const SolverEntry& choose_solver(ProblemKind kind, std::string_view requested, uint64_t entries, uint64_t rows,
                                 const SolverSettings& settings, std::string& reason) {
  std::string mode = "auto";
  reason.clear();
  if (!is_automatic_choice(requested)) {
    const SolverEntry& named = find_solver(requested);
    if (named.solves(kind)) {
      reason = "requested";
      return named;
    }
    reason = fmt::format("{} does not solve a {}; ", named.name, to_string(kind));
  } else if (!requested.empty()) {
    mode = std::string(requested);
  }
  const char* cpu = cpu_choice(kind);
  const char* gpu = gpu_choice(kind);
  if (mode == "cpu") {
    reason += fmt::format("cpu: {}", cpu);
    return find_solver(cpu);
  }
  if (gpu == nullptr) {
    reason += fmt::format("{}: {} (no GPU solver for a {})", mode, cpu, to_string(kind));
    return find_solver(cpu);
  }
  if (mode == "gpu") {
    reason += fmt::format("gpu: {}", gpu);
    return find_solver(gpu);
  }
  // auto: the GPU when there is one, the problem is large enough and fits.
  const DeviceList& devices = discover_devices();
  if (devices.devices.empty()) {
    reason += fmt::format("auto: {} (no usable GPU: {})", cpu, devices.problem);
    return find_solver(cpu);
  }
  if (entries < gpu_auto_min_entries(kind)) {
    reason += fmt::format("auto: {} ({} non-zeros, below the {} where the GPU pays off)", cpu, entries,
                          gpu_auto_min_entries(kind));
    return find_solver(cpu);
  }
  const int device = primary_device(settings);
  if (device < 0 || static_cast<size_t>(device) >= devices.devices.size()) {
    reason += fmt::format("auto: {} (GPU {} does not exist)", cpu, device);
    return find_solver(cpu);
  }
  const uint64_t budget = gpu_memory_budget(settings, device);
  const uint64_t needed = gpu_bytes_needed(entries, rows);
  const std::string where = fmt::format("{}, {} non-zeros, needs ~{} of {}", devices.devices[device].name, entries,
                                        megabytes(needed), megabytes(budget));
  // Several GPUs (listed, all, or needed because one is too small): the
  // row-partitioned gpu.jacobi / gpu.vi (cuda/partitioned_solve.cu).
  if (kind == ProblemKind::linear_system || kind == ProblemKind::min_max) {
    const bool asked = settings.devices.size() > 1 || settings.all_devices;
    if ((asked || needed > budget) && devices.devices.size() > 1) {
      const DevicePlan plan = plan_devices(settings, entries, rows);
      if (plan.devices.size() > 1) {
        const char* split = kind == ProblemKind::linear_system ? "gpu.jacobi" : "gpu.vi";
        reason += fmt::format("auto: {} on {} GPUs ({}; {})", split, plan.devices.size(), where, plan.reason);
        return find_solver(split);
      }
    }
  }
  if (needed > budget && kind != ProblemKind::min_max) {
    reason += fmt::format("auto: {} (does not fit the GPU: {})", cpu, where);
    return find_solver(cpu);
  }
  reason += fmt::format("auto: {} ({}{})", gpu, where, needed > budget ? ", in SCC blocks" : "");
  return find_solver(gpu);
}

}  // namespace pmc
