#include "solver/registry.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "solver/convergence.hpp"
#include "solver/device/devices.hpp"
#include "solver/gpu/gpu_solvers.hpp"
#include "solver/linear/cpu_solvers.hpp"
#include "solver/device/cost_model.hpp"
#include "solver/device/device_selection.hpp"
#include "solver/minmax/mdp_solvers.hpp"
#include "solver/param/param_solvers.hpp"

namespace pmc {

std::string_view to_string(ProblemKind kind) {
  switch (kind) {
    case ProblemKind::linear_system: return "linear system";
    case ProblemKind::stationary: return "stationary distribution";
    case ProblemKind::bounded_steps: return "bounded steps";
    case ProblemKind::min_max: return "min/max fixed point (MDP)";
    case ProblemKind::min_max_steps: return "bounded min/max steps (MDP)";
    case ProblemKind::param_bounds: return "parametric bounds (pCTMC regions)";
    case ProblemKind::reachability: return "reachability on the whole model (DTMC/CTMC/MDP, precomputation included)";
  }
  return "?";
}

bool SolverEntry::solves(ProblemKind kind) const {
  switch (kind) {
    case ProblemKind::linear_system: return linear != nullptr || linear_bounds != nullptr;
    case ProblemKind::stationary: return stationary != nullptr;
    case ProblemKind::bounded_steps: return steps != nullptr;
    case ProblemKind::min_max: return min_max != nullptr;
    case ProblemKind::min_max_steps: return min_max_steps != nullptr;
    case ProblemKind::param_bounds: return param_bounds != nullptr;
    case ProblemKind::reachability: return reachability != nullptr;
  }
  return false;
}

const std::vector<SolverEntry>& solver_registry() {
  static const std::vector<SolverEntry> entries = {
      {.name = "cpu.jacobi", .device = DeviceKind::cpu, .summary = "Jacobi iteration (multi-threaded)",
       .linear = jacobi_linear, .stationary = jacobi_stationary, .long_run = jacobi_long_run},
      {.name = "cpu.gauss-seidel", .device = DeviceKind::cpu,
       .summary = "Gauss-Seidel iteration (fewest iterations; sequential on linear systems, in place by blocks on all "
                  "cores for stationary distributions and long-run bounds)",
       .linear = gauss_seidel_linear,
       .stationary = gauss_seidel_stationary, .long_run = gauss_seidel_long_run},
      {.name = "cpu.power", .device = DeviceKind::cpu, .summary = "power method (multi-threaded)",
       .linear = power_linear, .stationary = power_stationary},
      {.name = "cpu.bicgstab", .device = DeviceKind::cpu,
       .summary = "BiCGStab Krylov solver, Gauss-Seidel preconditioned (products multi-threaded)",
       .linear = bicgstab_linear},
      {.name = "cpu.steps", .device = DeviceKind::cpu,
       .summary = "step-bounded iteration and uniformisation (multi-threaded)", .steps = steps_cpu},
      {.name = "cpu.vi", .device = DeviceKind::cpu,
       .summary = "value iteration for MDPs (Gauss-Seidel; Jacobi on all cores when large)",
       .min_max = value_iteration, .min_max_steps = value_iteration_steps},
      {.name = "cpu.topo-vi", .device = DeviceKind::cpu,
       .summary = "topological value iteration: SCCs in dependency order (Berger 2014 3.3)",
       .min_max = topological_value_iteration},
      {.name = "cpu.interval-vi", .device = DeviceKind::cpu,
       .summary = "sound interval iteration: certified lower and upper bounds (linear systems and MDPs)",
       .min_max = interval_value_iteration, .linear_bounds = interval_linear, .sound = true},
      {.name = "cpu.optimistic-vi", .device = DeviceKind::cpu,
       .summary = "sound optimistic value iteration for MDPs: VI, then a guessed upper bound verified inductive "
                  "(Hartmanns & Kaminski 2020)",
       .min_max = optimistic_value_iteration, .sound = true},
      {.name = "cpu.sound-vi", .device = DeviceKind::cpu,
       .summary = "sound value iteration for MDPs: k-step values and kept mass, bounds extrapolated from them "
                  "(Quatmann & Katoen 2018)",
       .min_max = sound_value_iteration, .sound = true},
      {.name = "cpu.topo-interval-vi", .device = DeviceKind::cpu,
       .summary = "sound interval iteration SCC by SCC in dependency order (linear systems and MDPs; the CPU's sound "
                  "default)",
       .min_max = topological_interval_iteration, .linear_bounds = topological_interval_linear, .sound = true},
      {.name = "gpu.jacobi", .device = DeviceKind::gpu,
       .summary = "Jacobi on the GPU (thread- or warp-per-row by row length; damped for stationary distributions)",
       .linear = gpu_jacobi_linear, .stationary = gpu_jacobi_stationary, .long_run = gpu_jacobi_long_run},
      {.name = "gpu.segscan-jacobi", .device = DeviceKind::gpu,
       .summary = "Jacobi on the GPU with a segmented-scan SpMV (GPU-PRISM)", .linear = gpu_segscan_jacobi_linear},
      {.name = "gpu.bicgstab", .device = DeviceKind::gpu, .summary = "BiCGStab on the GPU",
       .linear = gpu_bicgstab_linear},
      {.name = "gpu.steps", .device = DeviceKind::gpu,
       .summary = "step-bounded iteration and uniformisation on the GPU", .steps = gpu_steps},
      {.name = "gpu.vi", .device = DeviceKind::gpu, .summary = "value iteration on the GPU (thread- or warp-per-state)",
       .min_max = gpu_value_iteration, .min_max_steps = gpu_value_iteration_steps},
      {.name = "gpu.topo-vi", .device = DeviceKind::gpu,
       .summary = "value iteration on the GPU over SCC blocks that fit its memory, CPU fallback (Berger 2014 3.3)",
       .min_max = gpu_topological_value_iteration},
      {.name = "gpu.interval-vi", .device = DeviceKind::gpu,
       .summary = "sound interval iteration on the GPU: lower and upper bounds in one pass over the matrix",
       .min_max = gpu_interval_value_iteration, .linear_bounds = gpu_interval_linear,
       .reachability = gpu_resident_reachability, .sound = true},
      {.name = "gpu.optimistic-vi", .device = DeviceKind::gpu,
       .summary = "sound optimistic value iteration for MDPs on the GPU: VI, then a guessed upper bound verified "
                  "inductive (Hartmanns & Kaminski 2020)",
       .min_max = gpu_optimistic_value_iteration, .sound = true},
      {.name = "gpu.sound-vi", .device = DeviceKind::gpu,
       .summary = "sound value iteration for MDPs on the GPU: k-step values and kept mass in one pass "
                  "(Quatmann & Katoen 2018)",
       .min_max = gpu_sound_value_iteration, .sound = true},
      {.name = "cpu.param-bounds", .device = DeviceKind::cpu,
       .summary = "parametric bounds over pCTMC regions, one region per core (Ceska 2017 3.2)",
       .param_bounds = param_bounds_cpu},
      {.name = "gpu.param-bounds", .device = DeviceKind::gpu,
       .summary = "parametric bounds on the GPU, many regions per kernel, CSR or ELL (Ceska 2017 3.3-3.4)",
       .param_bounds = param_bounds_gpu},
  };
  return entries;
}

const SolverEntry& find_solver(std::string_view name) {
  const auto& all = solver_registry();
  auto it = std::find_if(all.begin(), all.end(), [&](const SolverEntry& s) { return s.name == name; });
  if (it != all.end()) return *it;
  std::string names;
  for (const SolverEntry& s : all) names += (names.empty() ? "" : ", ") + s.name;
  fail(ErrorCode::invalid_argument, "unknown solver {} (known: auto, cpu, gpu, {}, {})", quote_for_message(name), names,
       k_exact_solver);
}

SolveStats run_linear(const SolverEntry& solver, const LinearSystem& system, std::vector<double>& x,
                      const SolverSettings& settings, std::vector<double>* lower, std::vector<double>* upper) {
  if (solver.linear_bounds == nullptr) return solver.linear(system, x, settings);
  std::vector<double> low = x, high;
  const SolveStats stats = solver.linear_bounds(system, low, high, settings);
  x.resize(low.size());
  for (size_t i = 0; i < x.size(); ++i) x[i] = bounds_midpoint(low[i], high[i]);
  if (lower) *lower = std::move(low);
  if (upper) *upper = std::move(high);
  return stats;
}

bool solver_solves(std::string_view name, ProblemKind kind) { return find_solver(name).solves(kind); }

bool is_automatic_choice(std::string_view requested) {
  return requested.empty() || requested == "auto" || requested == "cpu" || requested == "gpu";
}

void validate_solver_choice(std::string_view requested) {
  if (requested.empty()) {
    fail(ErrorCode::invalid_argument, "the solver name is empty (give auto, cpu, gpu or a solver's name; see the "
                                      "list of solvers)");
  }
  if (!is_automatic_choice(requested) && requested != k_exact_solver) find_solver(requested);
}

void validate_epsilon(double epsilon) {
  if (!(epsilon < 1.0) || !(epsilon >= k_min_epsilon)) {
    fail(ErrorCode::invalid_argument,
         "epsilon {} is outside [{:g}, 1): {}", epsilon, k_min_epsilon,
         epsilon > 0 && epsilon < k_min_epsilon
             ? "double precision cannot bring results that close, the solve would only reach its iteration limit"
             : "it is the convergence threshold, a small positive number such as 1e-6");
  }
}

namespace {

const char* cpu_choice(ProblemKind kind, bool sound) {
  // Unsound: Gauss-Seidel needs the fewest iterations on the reference
  // models and streams the matrix once per sweep; topological VI solves
  // each SCC once, in dependency order (Berger 2014 §3.4). Sound (the
  // default): interval iteration, which certifies its answer, SCC by SCC
  // (an acyclic chain in one pass).
  // Uniformisation and bounded steps have one method, exact by construction.
  switch (kind) {
    case ProblemKind::bounded_steps: return "cpu.steps";
    case ProblemKind::min_max: return sound ? "cpu.topo-interval-vi" : "cpu.topo-vi";
    case ProblemKind::min_max_steps: return "cpu.vi";
    case ProblemKind::param_bounds: return "cpu.param-bounds";
    case ProblemKind::linear_system:
    case ProblemKind::reachability:  // no CPU solver: the checker's host path, through a linear system
      return sound ? "cpu.topo-interval-vi" : "cpu.gauss-seidel";
    case ProblemKind::stationary: break;
  }
  return "cpu.gauss-seidel";
}

// nullptr where no GPU solver solves the kind.
const char* gpu_choice(ProblemKind kind, bool sound) {
  switch (kind) {
    case ProblemKind::linear_system: return sound ? "gpu.interval-vi" : "gpu.jacobi";
    case ProblemKind::bounded_steps: return "gpu.steps";
    case ProblemKind::min_max: return sound ? "gpu.interval-vi" : "gpu.topo-vi";
    case ProblemKind::min_max_steps: return "gpu.vi";
    case ProblemKind::param_bounds: return "gpu.param-bounds";
    case ProblemKind::reachability: return sound ? "gpu.interval-vi" : nullptr;
    // Stationary distributions carry no error bounds on either device
    // (the exact BSCC solves, which do, run before any solver is chosen).
    case ProblemKind::stationary: return "gpu.jacobi";
  }
  return nullptr;
}

// Whether the CPU's choice for `kind` (cpu_choice) runs on every core, for
// the cost model: steps and Bellman steps do; Gauss–Seidel and
// topological interval iteration (linear systems) are sequential.
bool cpu_choice_parallel(ProblemKind kind) {
  return kind == ProblemKind::bounded_steps || kind == ProblemKind::min_max_steps;
}

// Problems whose CPU solve can be cancelled and redone on the GPU from the
// same inputs (the checker's host-built systems).
bool can_hand_over(ProblemKind kind) {
  return kind == ProblemKind::linear_system || kind == ProblemKind::min_max || kind == ProblemKind::bounded_steps ||
         kind == ProblemKind::min_max_steps;
}

}  // namespace

const SolverEntry& choose_solver(ProblemKind kind, std::string_view requested, uint64_t entries, uint64_t rows,
                                 const SolverSettings& settings, std::string& reason, const ChoiceHint& hint,
                                 Handover* handover) {
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
  const char* cpu = cpu_choice(kind, settings.sound);
  const char* gpu = gpu_choice(kind, settings.sound);
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
  // auto. No GPU for certain (no CUDA in this build, no driver): said so,
  // without a cost model that would speak of a start-up never paid here.
  if (const std::string& absent = known_gpu_absence(); !absent.empty()) {
    reason += fmt::format("auto: {} (no GPU: {})", cpu, absent);
    return find_solver(cpu);
  }
  // Parametric bounds: the GPU whenever there is one (many regions
  // per launch over one pattern: 3× over 16 cores on am_10_4's 120 states,
  // bench/RESULTS.md). Otherwise the cost model, first without CUDA, with
  // the start-up still to be paid (less what a background start has run).
  std::string prediction;
  if (kind != ProblemKind::param_bounds) {
    WorkEstimate work{.entries = entries,
                      .rows = rows,
                      .iterations = hint.iterations > 0 ? hint.iterations
                                      : kind == ProblemKind::min_max || hint.min_max ? k_expected_iterations_min_max
                                                                     : k_expected_iterations,
                      .iterations_known = hint.iterations > 0,
                      .multithreaded_cpu = cpu_choice_parallel(kind),
                      .resident = hint.resident};
    const bool gpu_up = device_discovery_finished();
    const double startup_remaining = gpu_startup_remaining();
    const CostPrediction cheap = predict_without_gpu(work, startup_remaining);
    const CostPrediction full = cheap.gpu_considered ? predict(work, startup_remaining) : cheap;
    // While CUDA is not up, a problem the GPU would iterate much faster
    // starts on the CPU and is handed over once the GPU is up (where the
    // program allows background starts): nothing waits for CUDA, and a CPU
    // solve shorter than the prior thought (bounded steps stopping early,
    // an unbounded solve converging fast) keeps its result.
    // An unbounded problem the GPU is predicted to win even with the
    // start-up still to be paid waits for CUDA instead (below): a CPU start
    // would only delay it (consensus N4_K4's R{"steps"}: 0.58-0.61 s handed
    // over after 0.31-0.33 s, against 0.35-0.37 s waiting, H200).
    const double speedup = gpu_speedup_per_iteration(work);
    const bool bounded = work.iterations_known;  // bounded steps: the count is an upper bound
    const bool gpu_predicted = cheap.gpu_considered && full.gpu_seconds < full.cpu_seconds;
    const bool worth_starting = cheap.cpu_seconds > k_background_start_fraction * k_gpu_startup_seconds;
    if (handover != nullptr && !gpu_up && can_hand_over(kind) && background_device_discovery_allowed() &&
        speedup > k_handover_min_speedup && (bounded || !gpu_predicted) && (cheap.gpu_considered || worth_starting)) {
      const bool start_now = !bounded && cheap.cpu_seconds > k_handover_start_now_seconds;
      if (start_now) start_device_discovery();
      *handover = {&find_solver(gpu), speedup, gpu_upload_seconds(work), start_now ? 0.0 : k_handover_start_delay_seconds};
      reason += fmt::format("auto: {} ({}, then {} if still running once the GPU is up, {:.0f}x faster per iteration)",
                            cpu, full.summary, gpu, speedup);
      return find_solver(cpu);
    }
    // Not worth waiting for CUDA now, but close enough that a later problem
    // of this check or session may be: start it in the background.
    if (!gpu_up && worth_starting) start_device_discovery();
    if (!cheap.gpu_considered || full.cpu_seconds <= full.gpu_seconds) {
      reason += fmt::format("auto: {} ({})", cpu, full.summary);
      return find_solver(cpu);
    }
    prediction = ", " + full.summary;
  }
  const DeviceList& devices = discover_devices();
  if (devices.devices.empty()) {
    reason += fmt::format("auto: {} (no usable GPU: {})", cpu, devices.problem);
    return find_solver(cpu);
  }
  const int device = primary_device(settings);
  if (device < 0 || static_cast<size_t>(device) >= devices.devices.size()) {
    reason += fmt::format("auto: {} (GPU {} does not exist)", cpu, device);
    return find_solver(cpu);
  }
  const uint64_t budget = gpu_memory_budget(settings, device);
  const uint64_t needed = gpu_bytes_needed(entries, rows);
  const std::string where = fmt::format("{}, {} non-zeros, needs ~{} of {}{}", devices.devices[device].name, entries,
                                        megabytes(needed), megabytes(budget), prediction);
  // Several GPUs (listed, all, or needed because one is too small): the
  // row-partitioned gpu.jacobi / gpu.vi (gpu/partitioned_solve.cpp), which
  // are unsound: only when the options allow that.
  const bool splittable = kind == ProblemKind::linear_system || kind == ProblemKind::min_max;
  if (splittable && !settings.sound) {
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
  // Only gpu.topo-vi solves in blocks (unsound); sound problems that do not
  // fit stay on the CPU.
  if (needed > budget && (kind != ProblemKind::min_max || settings.sound)) {
    reason += fmt::format("auto: {} (does not fit the GPU: {})", cpu, where);
    return find_solver(cpu);
  }
  reason += fmt::format("auto: {} ({}{})", gpu, where, needed > budget ? ", in SCC blocks" : "");
  return find_solver(gpu);
}

}  // namespace pmc
