// gpu.sound-vi: sound value iteration (Quatmann & Katoen, CAV 2018) for MDPs
// on the device, the twin of cpu.sound-vi (solver/minmax/sound_value_iteration.cpp
// gives the argument; solver/minmax/sound_vi_scalars.hpp the shared rule for
// the scalar bounds). One launch per iteration updates {x, y} of every
// unknown in one pass over the matrix and reduces the crossing weights of
// the rows not chosen; every k_check_interval-th also reduces the stopping
// test (with the scalars the launch was given) and the extremes of
// x/(1 − y), read back in one copy, after which the host moves the scalars.
//
// Host code: the kernels are reached through cuda/sound_vi_kernels.hpp.
#include <chrono>
#include <cmath>
#include <limits>

#include "cuda/device_buffer.hpp"
#include "cuda/device_csr.hpp"
#include "cuda/device_runtime.hpp"
#include "cuda/sound_vi_kernels.hpp"
#include "solver/convergence.hpp"
#include "solver/gpu/gpu_solvers.hpp"
#include "solver/gpu/interval_loop.hpp"
#include "solver/gpu/solve_context.hpp"
#include "solver/minmax/bellman.hpp"
#include "solver/minmax/end_component_quotient.hpp"
#include "solver/minmax/sound_vi_scalars.hpp"
#include "solver/progress.hpp"

namespace pmc {

namespace {

using namespace pmc::cuda;
using pmc::gpu::interval_loop::k_check_interval;
using pmc::gpu::interval_loop::warp_layout;

constexpr const char* k_name = "gpu.sound-vi";
constexpr double k_infinity = std::numeric_limits<double>::infinity();

struct Reading {
  uint64_t open = 0;
  double kept = 0, ratio_min = 0, ratio_max = 0, d_lo = 0, d_hi = 0;
};

// The device record: the thresholds are set once per phase, the check part
// before every check iteration.
class Record {
 public:
  explicit Record(StreamHandle stream) : value_(1), stream_(stream) {}
  void reset_all() {
    const SoundViRecord empty{fresh_check(), ordered_bits(-k_infinity), ordered_bits(k_infinity)};
    copy_to_device(value_.data(), &empty, sizeof empty, stream_);
  }
  SoundViRecord* reset_check() {
    const IntervalCheck check = fresh_check();
    copy_to_device(value_.data(), &check, sizeof check, stream_);  // the record's first member
    return value_.data();
  }
  Reading read() const {
    SoundViRecord r{};
    copy_to_host(&r, value_.data(), sizeof r, stream_);
    return {r.check.open,
            from_ordered_bits(r.check.widest),
            from_ordered_bits(r.check.lowest),
            from_ordered_bits(r.check.highest),
            from_ordered_bits(r.d_lo),
            from_ordered_bits(r.d_hi)};
  }
  SoundViRecord* data() { return value_.data(); }

 private:
  static IntervalCheck fresh_check() {
    return {0, ordered_bits(-k_infinity), ordered_bits(k_infinity), ordered_bits(-k_infinity)};
  }
  DeviceBuffer<SoundViRecord> value_;
  StreamHandle stream_;
};

SolveStats sound_core(const MinMaxProblem& p, MinMaxSolution& solution, const SolverSettings& settings) {
  const auto start = std::chrono::steady_clock::now();
  const gpu::SolveContext context(settings);
  const StreamHandle stream = context.stream();
  const uint64_t n = p.num_unknowns();
  const std::vector<double> given = start_vector(solution.x, n, k_name);
  // {x, y} = {0, 1}; a state without choices keeps its start value and keeps no mass.
  std::vector<BoundPair> fresh(n);
  for (uint64_t s = 0; s < n; ++s) {
    fresh[s] = p.row_groups[s] == p.row_groups[s + 1] ? BoundPair{given[s], 0.0} : BoundPair{0.0, 1.0};
  }
  SolveStats stats;
  stats.solver = k_name;
  if (n == 0) {
    stats.converged = stats.sound = true;
    store_bounds(p, {}, {}, settings.epsilon, solution);
    stats.seconds = seconds_since(start);
    return stats;
  }
  const DeviceCsr a(p.a, stream);
  const DeviceBuffer<uint64_t> groups(p.row_groups, stream);
  const DeviceBuffer<double> b(p.b, stream);
  DeviceBuffer<BoundPair> v(fresh, stream), w(n);
  const bool warp = warp_layout(settings, n, p.a.num_entries());
  stats.kernel = warp ? "warp-per-state" : "thread-per-state";
  // Matrix once, b per choice, row groups, the pairs gathered (at least once) and written.
  stats.bytes_per_iteration = a.bytes() + p.b.size() * 8.0 + (n + 1) * 8.0 + n * 32.0;
  Record record(stream);
  record.reset_all();
  StreamTimer timer(stream);
  timer.start();
  ProgressReporter progress(settings, k_name, settings.max_iterations);
  double residual = k_no_upper_bound_yet;

  SoundViScalars bounds{.maximize = p.maximize, .upper = p.upper_bound};
  // One phase: launches until `done(reading)` holds at a check; false at the iteration limit.
  auto run = [&](int mode, auto done) {
    while (stats.iterations < settings.max_iterations) {
      progress.tick(stats.iterations, residual);  // cancellation between launches
      const bool check = (stats.iterations + 1) % k_check_interval == 0 || stats.iterations + 1 == settings.max_iterations;
      const SoundVi u{n, groups.data(), a.view(), b.data(), v.data(), w.data(),
                      check ? record.reset_check() : record.data(), check ? 1 : 0, bounds.weight(),
                      bounds.lower, bounds.upper, settings.epsilon, settings.relative ? 1 : 0, p.maximize ? 1 : 0,
                      mode};
      launch_sound_vi(u, warp, stream);
      std::swap(v, w);
      ++stats.iterations;
      if (check && done(record.read())) return true;
    }
    return false;
  };

  bool ready = std::isfinite(bounds.weight());
  if (!ready) {
    // Max rewards: the first phase finds an upper bound (cpu.sound-vi's).
    stats.kernel += "+first-phase";
    ready = run(k_svi_decoupled, [&](const Reading& r) {
      if (r.kept > k_max_kept_mass) return false;
      bounds.upper = widened_ratio(r.ratio_max, 1.0);
      return true;
    });
    if (ready) {
      v.upload(fresh, stream);
      record.reset_all();
    }
  }
  if (ready) {
    stats.converged = run(k_svi_sweep, [&](const Reading& r) {
      // `open` was counted with the scalars the launch had, which bound
      // this iterate too; the scalars move for the next launches.
      const bool drained = r.kept <= k_max_kept_mass;
      if (!bounds.after_sweep(r.d_lo, r.d_hi, drained, r.ratio_min, r.ratio_max)) return true;
      residual = std::isfinite(bounds.upper) ? r.kept * (bounds.upper - bounds.lower) : k_no_upper_bound_yet;
      return r.open == 0;
    });
    if (!bounds.certified) {
      stats.converged = false;
      stats.notes.push_back("gpu.sound-vi lost its decision interval to rounding; the bounds are not certified");
    }
  }
  stats.sound = ready && bounds.certified && std::isfinite(bounds.upper);
  stats.loop_seconds = timer.stop_seconds();
  std::vector<BoundPair> pairs(n);
  v.download(pairs, stream);
  std::vector<double> lower(n), upper(n);
  for (uint64_t s = 0; s < n; ++s) {
    const double x = pairs[s].lower, y = pairs[s].upper;  // the pair holds {x, y}
    if (!ready) {  // the first phase's x̂: plain VI's estimate, no bound
      lower[s] = x;
      upper[s] = k_infinity;
      continue;
    }
    lower[s] = x + y * bounds.lower;
    upper[s] = y == 0.0 ? lower[s] : (std::isfinite(bounds.upper) ? x + y * bounds.upper : k_infinity);
  }
  // On the host, as cpu.sound-vi does, so both pick the same scheduler.
  store_bounds(p, std::move(lower), std::move(upper), settings.epsilon, solution);
  stats.seconds = seconds_since(start);
  return stats;
}

}  // namespace

SolveStats gpu_sound_value_iteration(const MinMaxProblem& problem, MinMaxSolution& solution,
                                     const SolverSettings& settings) {
  for (double b : problem.b) {
    if (b < 0.0) throw Error(ErrorCode::invalid_argument, "gpu.sound-vi needs non-negative b (rewards)");
  }
  return solve_with_end_components_collapsed(problem, solution, settings, sound_core);
}

}  // namespace pmc
