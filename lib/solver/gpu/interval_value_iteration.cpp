// gpu.interval-vi: sound interval iteration on the device (Haddad & Monmege
// 2018; Baier et al., CAV 2017), the GPU twin of cpu.interval-vi
// (solver/linear/interval_linear.cpp, solver/minmax/interval_value_iteration.cpp) with
// the same upper starts and the same stopping test (bounds_close). Plain
// VI stops when an iterate changes little, which says nothing about the
// distance to the fixed point; a lower and an upper bound that meet do.
// gpu.optimistic-vi (MDPs), the twin of cpu.optimistic-vi: the same solve
// with the upper start always a verified optimistic guess, also where an
// a-priori bound exists (probabilities), capped by that bound.
//
// Why on the GPU it costs little more than gpu.jacobi / gpu.vi: the lower
// and the upper iterate are one 16-byte pair per unknown (cuda/interval_kernels.hpp),
// so one pass over the matrix, which dominates the traffic, updates both,
// and the stopping test is reduced inside that kernel every
// k_check_interval iterations, so one 32-byte record crosses per check.
//
// Linear systems use the Jacobi splitting (as gpu.jacobi), MDPs the Bellman
// operator (as gpu.vi) on the end-component quotient: with end components
// the upper iteration can stay above the value forever.
//
// Host code: the kernels are reached through cuda/interval_kernels.hpp and
// cuda/linear_kernels.hpp, every launch and copy on the solve's stream.
#include <chrono>
#include <cmath>
#include <limits>
#include <string>

#include "cuda/device_buffer.hpp"
#include "cuda/device_csr.hpp"
#include "cuda/device_runtime.hpp"
#include "cuda/interval_kernels.hpp"
#include "cuda/launch.hpp"
#include "cuda/linear_kernels.hpp"
#include "solver/convergence.hpp"
#include "solver/gpu/gpu_solvers.hpp"
#include "solver/gpu/interval_loop.hpp"
#include "solver/gpu/solve_context.hpp"
#include "solver/minmax/bellman.hpp"
#include "solver/minmax/end_component_quotient.hpp"
#include "solver/progress.hpp"

namespace pmc {

namespace {

using namespace pmc::cuda;
using namespace pmc::gpu::interval_loop;

constexpr const char* k_name = "gpu.interval-vi";
constexpr const char* k_optimistic_name = "gpu.optimistic-vi";

// Optimistic VI's attempts, ε' from ε down to ε·10⁻⁹ (as
// solver/minmax/interval_value_iteration.cpp).
constexpr int k_ovi_attempts = 10;

// ---- MDPs -----------------------------------------------------------------

struct MdpDevice {
  DeviceCsr a;
  DeviceBuffer<uint64_t> groups;
  DeviceBuffer<double> b;
  DeviceBuffer<BoundPair> v, w;
  bool warp;
  StreamHandle stream;

  // One launch of `mode`; the iterations that write swap the vectors.
  void step(const MinMaxProblem& p, const SolverSettings& settings, int mode, IntervalCheck* check) {
    const IntervalBellman u{p.num_unknowns(), groups.data(), a.view(), b.data(), v.data(), w.data(), check,
                            settings.epsilon, settings.relative ? 1 : 0, p.maximize ? 1 : 0, mode};
    launch_interval_bellman(u, warp, stream);
    if (mode != k_test_upper) std::swap(v, w);
  }
};

// Optimistic value iteration (Hartmanns & Kaminski, CAV 2020), as
// optimistic_upper() in solver/minmax/interval_value_iteration.cpp: lower VI until
// its change is below ε', guess u = l·(1+ε)+ε, accept it when B(u) ≤ u (then
// it is an upper bound of the quotient's least fixed point, Knaster–Tarski),
// else ε' /= 10 and go on. False when no guess was inductive.
bool optimistic_upper(const MinMaxProblem& p, MdpDevice& d, const SolverSettings& settings, CheckRecord& record,
                      SolveStats& stats, ProgressReporter& progress, double& residual) {
  const uint64_t n = p.num_unknowns();
  const double eps = settings.epsilon;
  double vi_eps = eps;
  for (int attempt = 0; attempt < k_ovi_attempts; ++attempt, vi_eps /= 10) {
    const bool settled = iterate([&](IntervalCheck* c) { d.step(p, settings, k_lower_only, c); },
                                 [&](const CheckReading& r) { return r.widest < vi_eps; }, record, settings, stats,
                                 progress, residual, /*bounds_known=*/false);
    if (!settled) return false;
    if (n > 0) launch_optimistic_guess(n, d.v.data(), eps, p.upper_bound, d.stream);
    d.step(p, settings, k_test_upper, record.reset());
    if (record.read().open == 0) return true;
  }
  return false;
}

// `always_optimistic`: start the upper bounds from a verified guess even
// where the problem has an a-priori bound (gpu.optimistic-vi); otherwise
// only where it has none.
SolveStats interval_core(const MinMaxProblem& p, MinMaxSolution& solution, const SolverSettings& settings,
                         bool always_optimistic) {
  const auto start = std::chrono::steady_clock::now();
  const char* name = always_optimistic ? k_optimistic_name : k_name;
  const gpu::SolveContext context(settings);
  const StreamHandle stream = context.stream();
  const uint64_t n = p.num_unknowns();
  const std::vector<double> l = start_vector(solution.x, n, name);
  const bool given_upper = !solution.upper.empty();
  const std::vector<double> u = given_upper ? start_vector(solution.upper, n, (std::string(name) + " (upper)").c_str())
                                            : std::vector<double>(n, p.upper_bound);
  const bool optimistic = !given_upper && (always_optimistic || !std::isfinite(p.upper_bound));
  std::vector<BoundPair> pairs(n);
  // During optimistic VI the upper member is unused until the guess.
  for (uint64_t s = 0; s < n; ++s) pairs[s] = BoundPair{l[s], optimistic ? 0.0 : u[s]};

  MdpDevice d{DeviceCsr(p.a, stream),
              DeviceBuffer<uint64_t>(p.row_groups, stream),
              DeviceBuffer<double>(p.b, stream),
              DeviceBuffer<BoundPair>(pairs, stream),
              DeviceBuffer<BoundPair>(n),
              warp_layout(settings, n, p.a.num_entries()),
              stream};
  SolveStats stats;
  stats.solver = name;
  stats.kernel = d.warp ? "warp-per-state" : "thread-per-state";
  // Matrix once, b per choice, row groups, the pairs gathered (at least
  // once) and written: gpu.vi's traffic plus 16 bytes per unknown.
  stats.bytes_per_iteration = d.a.bytes() + p.b.size() * 8.0 + (n + 1) * 8.0 + n * 32.0;
  CheckRecord record(stream);
  StreamTimer timer(stream);
  timer.start();
  ProgressReporter progress(settings, name, settings.max_iterations);
  double residual = std::numeric_limits<double>::quiet_NaN();

  bool have_upper = true;
  if (optimistic) {
    have_upper = optimistic_upper(p, d, settings, record, stats, progress, residual);
    if (have_upper) stats.kernel += "+optimistic";
    if (!have_upper && std::isfinite(p.upper_bound)) {
      // No guess held within the attempts: interval iteration from the
      // a-priori bound, from where the lower iteration has got to.
      d.v.download(pairs, stream);
      for (BoundPair& pair : pairs) pair.upper = p.upper_bound;
      d.v.upload(pairs, stream);
      have_upper = true;
    }
  }
  if (have_upper) {
    stats.converged = all_close(n, d.v, settings, record, residual) ||
                      iterate([&](IntervalCheck* c) { d.step(p, settings, k_both, c); },
                              [](const CheckReading& r) { return r.open == 0; }, record, settings, stats, progress,
                              residual);
  }
  stats.sound = have_upper;
  stats.loop_seconds = timer.stop_seconds();
  d.v.download(pairs, stream);
  split(pairs, have_upper, solution.x, solution.upper);
  // On the host, as cpu.interval-vi does, so both pick the same scheduler.
  solution.choice = optimal_choices(p, solution.x, settings.epsilon);
  stats.seconds = seconds_since(start);
  return stats;
}

}  // namespace

// ---- Linear systems ---------------------------------------------------------

SolveStats gpu_interval_linear(const LinearSystem& system, std::vector<double>& lower, std::vector<double>& upper,
                               const SolverSettings& settings) {
  const auto start = std::chrono::steady_clock::now();
  const gpu::SolveContext context(settings);
  const StreamHandle stream = context.stream();
  const uint64_t n = system.a.num_rows();
  if (!lower.empty() && lower.size() != n) {
    throw Error(ErrorCode::invalid_argument, "gpu.interval-vi: start vector has " + std::to_string(lower.size()) +
                                                 " values, the system has " + std::to_string(n) + " unknowns");
  }
  bool bounded = std::isfinite(system.upper_bound);
  // Without an a-priori bound the first phase starts from {x, y} = {0, 1}
  // and the given lower start is not used (as cpu.interval-vi).
  std::vector<BoundPair> pairs(n);
  for (uint64_t i = 0; i < n; ++i) {
    pairs[i] = bounded ? BoundPair{lower.empty() ? 0.0 : lower[i], system.upper_bound} : BoundPair{0.0, 1.0};
  }
  DeviceCsr a(system.a, stream);
  DeviceBuffer<double> b(system.b, stream), scale(n);
  DeviceBuffer<BoundPair> v(pairs, stream), w(n);
  if (n > 0) launch_jacobi_scale(n, a.view(), scale.data(), stream);
  const bool warp = warp_layout(settings, n, a.entries);
  SolveStats stats;
  stats.solver = k_name;
  stats.kernel = warp ? "warp-per-row" : "thread-per-row";
  if (!bounded) stats.kernel += "+sound-vi-bound";
  // Matrix once, b, scale, the pairs gathered (at least once) and written:
  // gpu.jacobi's traffic plus 16 bytes per row, against a second pass over
  // the matrix for two separate iterations.
  stats.bytes_per_iteration = a.bytes() + n * (8.0 + 8.0 + 16.0 + 16.0);
  CheckRecord record(stream);
  StreamTimer timer(stream);
  timer.start();
  ProgressReporter progress(settings, k_name, settings.max_iterations);
  double residual = std::numeric_limits<double>::quiet_NaN();
  auto step = [&](int phase, IntervalCheck* check) {
    const IntervalRows u{n, a.view(), b.data(), scale.data(), v.data(), w.data(), check, settings.epsilon,
                         settings.relative ? 1 : 0, phase};
    launch_interval_rows(u, warp, stream);
    std::swap(v, w);
  };

  if (!bounded) {
    // Sound value iteration's first phase (Quatmann & Katoen, CAV 2018): its
    // check's `widest` is the most mass any unknown keeps, not a gap.
    CheckReading last;
    bounded = iterate([&](IntervalCheck* c) { step(k_sound_vi_phase, c); },
                      [&](const CheckReading& r) {
                        last = r;
                        return r.widest <= k_max_kept_mass;
                      },
                      record, settings, stats, progress, residual, /*bounds_known=*/false);
    if (bounded && n > 0) {
      // k_max_kept_mass and the widened ratios: solver/convergence.hpp.
      launch_sound_vi_bounds(n, v.data(), widened_ratio(last.lowest, -1.0), widened_ratio(last.highest, 1.0),
                             stream);
    }
  }
  if (bounded) {
    stats.converged = all_close(n, v, settings, record, residual) ||
                      iterate([&](IntervalCheck* c) { step(k_interval_phase, c); },
                              [](const CheckReading& r) { return r.open == 0; }, record, settings, stats, progress,
                              residual);
  }
  // Out of iterations in the first phase: `lower` is plain VI's estimate
  // x_k, upper is +inf and the result is not sound.
  stats.sound = bounded;
  stats.loop_seconds = timer.stop_seconds();
  v.download(pairs, stream);
  split(pairs, bounded, lower, upper);
  stats.seconds = seconds_since(start);
  return stats;
}

SolveStats gpu_interval_value_iteration(const MinMaxProblem& problem, MinMaxSolution& solution,
                                        const SolverSettings& settings) {
  return solve_with_end_components_collapsed(
      problem, solution, settings,
      [](const MinMaxProblem& q, MinMaxSolution& x, const SolverSettings& s) { return interval_core(q, x, s, false); });
}

SolveStats gpu_optimistic_value_iteration(const MinMaxProblem& problem, MinMaxSolution& solution,
                                          const SolverSettings& settings) {
  return solve_with_end_components_collapsed(
      problem, solution, settings,
      [](const MinMaxProblem& q, MinMaxSolution& x, const SolverSettings& s) { return interval_core(q, x, s, true); });
}

}  // namespace pmc
