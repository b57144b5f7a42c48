// The host side of gpu.param-bounds' kernels (cuda/param_kernels.hpp): the
// data a launch sequence needs, laid out from a ParamBoundsProblem for the
// kernels' plain views, and the sequence itself, shared by the device
// driver (param_bounds.cpp) and tests/unit/test_param_kernels.cpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "solver/param/param_problem.hpp"
#include "solver/param/param_setup.hpp"

namespace pmc::param_kernels {

// The ELL form of the problem's rate data (PatternView's ELL layout).
struct EllPattern {
  uint32_t width = 0;
  std::vector<uint32_t> columns;
  std::vector<double> constants, coefficients;
};
inline uint64_t longest_row(const ParamBoundsProblem& p) {
  uint64_t width = 0;
  for (uint64_t s = 0; s < p.num_states; ++s) width = std::max(width, p.row_offsets[s + 1] - p.row_offsets[s]);
  return width;
}
inline EllPattern ell_pattern(const ParamBoundsProblem& p) {
  const uint64_t n = p.num_states, width = longest_row(p);
  const uint32_t K = p.num_parameters;
  EllPattern e;
  e.width = static_cast<uint32_t>(width);
  e.columns.resize(width * n);
  e.constants.assign(width * n, 0.0);
  e.coefficients.assign(width * n * K, 0.0);
  for (uint64_t s = 0; s < n; ++s) {
    const uint64_t begin = p.row_offsets[s], length = p.row_offsets[s + 1] - begin;
    for (uint64_t j = 0; j < width; ++j) {
      const uint64_t at = j * n + s;
      if (j >= length) {
        e.columns[at] = static_cast<uint32_t>(s);
        continue;
      }
      e.columns[at] = p.columns[begin + j];
      e.constants[at] = p.constants[begin + j];
      for (uint32_t k = 0; k < K; ++k) e.coefficients[(j * K + k) * n + s] = p.coefficients[(begin + j) * K + k];
    }
  }
  return e;
}

struct RegionPlan {
  double q = 1;
  std::vector<PhasePlan> phases;
};

// Per-region data of the regions [first, first + count), laid out for
// RegionsView and one PhaseView per phase.
struct ChunkPlan {
  uint32_t count = 0;
  std::vector<double> lower, upper, inv_q;
  struct Phase {
    std::vector<uint32_t> steps;
    std::vector<uint64_t> offset;
    std::vector<double> coefficients, coefficient_sum, widen;
    uint32_t max_steps = 0;
  };
  std::vector<Phase> phases;
};

// Returns false when a region needs 2^32 or more steps in one phase.
inline bool plan_chunk(const ParamBoundsProblem& p, const std::vector<ParamBox>& boxes,
                       const std::vector<RegionPlan>& plans, size_t first, uint32_t count, ChunkPlan& c) {
  const uint32_t K = p.num_parameters;
  c.count = count;
  c.lower.assign(uint64_t{K} * count, 0.0);
  c.upper.assign(uint64_t{K} * count, 0.0);
  c.inv_q.assign(count, 0.0);
  for (uint32_t r = 0; r < count; ++r) {
    for (uint32_t k = 0; k < K; ++k) {
      c.lower[uint64_t{k} * count + r] = boxes[first + r].lower[k];
      c.upper[uint64_t{k} * count + r] = boxes[first + r].upper[k];
    }
    c.inv_q[r] = 1.0 / plans[first + r].q;
  }
  c.phases.assign(p.phases.size(), ChunkPlan::Phase{});
  for (size_t ph = 0; ph < p.phases.size(); ++ph) {
    ChunkPlan::Phase& d = c.phases[ph];
    d.steps.resize(count);
    d.offset.resize(count);
    d.coefficient_sum.resize(count);
    d.widen.resize(count);
    for (uint32_t r = 0; r < count; ++r) {
      const PhasePlan& pp = plans[first + r].phases[ph];
      if (pp.steps >= UINT32_MAX) return false;
      d.steps[r] = static_cast<uint32_t>(pp.steps);
      d.max_steps = std::max(d.max_steps, d.steps[r]);
      d.offset[r] = d.coefficients.size();
      // Summed in cpu.param-bounds' order, so inactive rows agree bit for bit.
      double sum = 0;
      for (double coefficient : pp.coefficients) {
        d.coefficients.push_back(coefficient);
        sum += coefficient;
      }
      d.coefficient_sum[r] = sum;
      d.widen[r] = pp.widen;
    }
  }
  return true;
}

// Steps per call of Launcher::steps: a fused launch of this many steps takes
// milliseconds, so progress reports and cancellation come between them.
inline constexpr uint32_t k_steps_per_slice = 256;

// The launch sequence of one chunk, shared by the device driver (each call
// one or more kernel launches) and the CPU test (loops over the element
// ids). Launcher: start(), start_phase(ph, zero_inactive), steps(ph, k_first,
// k_last) (may throw to cancel), finish_phase(ph, probability), gather().
template <class Launcher>
void run_chunk(const ParamBoundsProblem& p, const ChunkPlan& plan, Launcher& launch) {
  launch.start();
  for (size_t ph = 0; ph < p.phases.size(); ++ph) {
    launch.start_phase(ph, p.phases[ph].zero_inactive_start ? 1 : 0);
    const uint32_t max_steps = plan.phases[ph].max_steps;
    for (uint32_t k = 1; k <= max_steps;) {
      const uint32_t last = k - 1 + std::min(k_steps_per_slice, max_steps - k + 1);
      launch.steps(ph, k, last);
      k = last + 1;
    }
    launch.finish_phase(ph, p.probability ? 1 : 0);
  }
  launch.gather();
}

}  // namespace pmc::param_kernels
