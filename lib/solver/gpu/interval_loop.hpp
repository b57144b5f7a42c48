// The iteration loop gpu.interval-vi's solvers share
// (lib/solver/gpu/interval_value_iteration.cpp, resident_chain_reachability.cpp,
// resident_mdp_reachability.cpp): one launch per iteration, the stopping test's device
// record read back every k_check_interval-th. Host code: the kernels are
// reached through cuda/interval_kernels.hpp.
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "common/stopwatch.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/device_runtime.hpp"
#include "cuda/interval_kernels.hpp"
#include "cuda/launch.hpp"
#include "solver/problem.hpp"
#include "solver/progress.hpp"

namespace pmc::gpu::interval_loop {

using cuda::BoundPair;
using cuda::DeviceBuffer;
using cuda::IntervalCheck;
using cuda::StreamHandle;

// As gpu.jacobi: one read-back every 8th iteration keeps its cost small
// while overshooting the stopping point by at most 7 iterations.
inline constexpr uint64_t k_check_interval = 8;

inline constexpr double k_infinity = std::numeric_limits<double>::infinity();

struct CheckReading {
  uint64_t open = 0;
  double widest = 0, lowest = 0, highest = 0;
};

// The device record a check reduces into: reset before the launch, one copy
// back after it, both on the solve's stream (null: the legacy default
// stream, for the solves that have none of their own yet).
class CheckRecord {
 public:
  explicit CheckRecord(StreamHandle stream = nullptr) : value_(1), stream_(stream) {}
  IntervalCheck* reset() {
    const IntervalCheck empty{0, cuda::ordered_bits(-k_infinity), cuda::ordered_bits(k_infinity),
                              cuda::ordered_bits(-k_infinity)};
    cuda::copy_to_device(value_.data(), &empty, sizeof empty, stream_);
    return value_.data();
  }
  CheckReading read() const {
    IntervalCheck c{};
    cuda::copy_to_host(&c, value_.data(), sizeof c, stream_);
    return {c.open, cuda::from_ordered_bits(c.widest), cuda::from_ordered_bits(c.lowest),
            cuda::from_ordered_bits(c.highest)};
  }
  StreamHandle stream() const { return stream_; }

 private:
  DeviceBuffer<IntervalCheck> value_;
  StreamHandle stream_;
};

// The loop every phase shares: `step(check)` launches one iteration (check:
// the record on check iterations, else null), until `done(reading)` holds at
// a check (true) or the iteration limit comes first (false). The residual
// reported to progress is the last check's `widest` (the widest gap) once
// `bounds_known`; before (the phases that look for an upper bound) it is
// k_no_upper_bound_yet.
template <typename Step, typename Done>
inline bool iterate(Step step, Done done, CheckRecord& record, const SolverSettings& settings, SolveStats& stats,
                    ProgressReporter& progress, double& residual, bool bounds_known = true) {
  while (stats.iterations < settings.max_iterations) {
    // Cancellation: between launches, nothing half written.
    progress.tick(stats.iterations, bounds_known ? residual : k_no_upper_bound_yet);
    const bool check =
        (stats.iterations + 1) % k_check_interval == 0 || stats.iterations + 1 == settings.max_iterations;
    step(check ? record.reset() : nullptr);
    ++stats.iterations;
    if (check) {
      const CheckReading reading = record.read();
      residual = reading.widest;
      if (done(reading)) return true;
    }
  }
  return false;
}

// bounds_close in every unknown, for the bounds a loop starts from.
// On the record's stream.
inline bool all_close(uint64_t n, const DeviceBuffer<BoundPair>& v, const SolverSettings& settings,
                      CheckRecord& record, double& residual) {
  if (n == 0) return true;
  cuda::launch_interval_gaps(n, v.data(), settings.epsilon, settings.relative ? 1 : 0, record.reset(), record.stream());
  const CheckReading reading = record.read();
  residual = reading.widest;
  return reading.open == 0;
}

inline bool warp_layout(const SolverSettings& settings, uint64_t rows, uint64_t entries) {
  if (settings.gpu_layout == GpuLayout::warp_per_row) return true;
  if (settings.gpu_layout == GpuLayout::thread_per_row) return false;
  return cuda::use_warp_per_row(rows, entries);
}

inline void split(const std::vector<BoundPair>& pairs, bool bounded, std::vector<double>& lower,
                  std::vector<double>& upper) {
  lower.resize(pairs.size());
  upper.resize(pairs.size());
  for (size_t i = 0; i < pairs.size(); ++i) {
    lower[i] = pairs[i].lower;
    upper[i] = bounded ? pairs[i].upper : k_infinity;
  }
}

}  // namespace pmc::gpu::interval_loop
