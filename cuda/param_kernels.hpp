// The per-thread work of gpu.param-bounds (param_bounds.cu), written once for
// the device and the host: the kernels call these functions for their thread
// index, and tests/unit/test_param_kernels.cpp runs the same functions over
// every index on the CPU to check the layouts, the indexing and the phase
// sequence against cpu.param-bounds where there is no GPU. Plain C++ without
// CUDA headers; nvcc compiles it as __host__ __device__.
//
// Vectors are region-interleaved: element (s, r) of an n-vector for R
// regions is at s·R + r. A step reads buffer (k−1) mod 2 and writes buffer
// k mod 2, so a region whose steps are done leaves its last values in buffer
// (steps mod 2), and rows that never move hold the same value in both.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "solver/param_problem.hpp"
#include "solver/param_setup.hpp"

#if defined(__CUDACC__)
#define PMC_PARAM_HD __host__ __device__ __forceinline__
#else
#define PMC_PARAM_HD inline
#endif

namespace pmc::param_kernels {

// The rate data, shared by every region. CSR (ell_width == 0): entries of
// row s in [offsets[s], offsets[s+1]), coefficients[e·K + k]. ELL: entry j
// of row s at j·rows + s, coefficients[(j·K + k)·rows + s]; short rows are
// padded with zero-rate self-loops, which add 0·(v_s − v_s).
struct PatternView {
  uint64_t rows;
  uint32_t num_params;
  uint32_t ell_width;
  const uint64_t* offsets;
  const uint32_t* columns;
  const double* constants;
  const double* coefficients;
};

// The regions of one launch: boxes parameter-major (lower[k·R + r]) and 1/q.
struct RegionsView {
  uint32_t count;
  const double* lower;
  const double* upper;
  const double* inv_q;
};

// One phase for every region: steps, Fox–Glynn coefficients (region r's c_k
// at coefficients[offset[r] + k]), Σ_k c_k, and the widening.
struct PhaseView {
  const uint8_t* active;
  const uint32_t* steps;
  const uint64_t* offset;
  const double* coefficients;
  const double* coefficient_sum;
  const double* widen;
};

struct VectorsView {
  double* lo[2];
  double* hi[2];
  double* res_lo;
  double* res_hi;
};

// Adds transition s→t to both bounds (seed Eq. 2/3), with r⊥/r⊤ over the
// region computed exactly as region_rate_bounds does.
PMC_PARAM_HD void add_transition(const RegionsView& g, uint32_t r, uint32_t num_params, double constant,
                                 const double* coefficient, uint64_t stride, double dl, double dh, double& acc_l,
                                 double& acc_h) {
  double bottom = constant, top = constant;
  for (uint32_t k = 0; k < num_params; ++k) {
    const double a = coefficient[k * stride];
    const double at_lower = a * g.lower[k * g.count + r], at_upper = a * g.upper[k * g.count + r];
    bottom += fmin(at_lower, at_upper);
    top += fmax(at_lower, at_upper);
  }
  bottom = fmax(bottom, 0.0);
  top = fmax(top, 0.0);
  acc_l += (dl > 0 ? bottom : top) * dl;
  acc_h += (dh > 0 ? top : bottom) * dh;
}

// Step k ≥ 1 of element `id` (state id / R, region id mod R).
template <bool Ell>
PMC_PARAM_HD void step(const PatternView& m, const RegionsView& g, const PhaseView& ph, const VectorsView& v,
                       uint32_t k, uint64_t id) {
  const uint64_t regions = g.count;
  if (id >= m.rows * regions) return;
  const uint64_t s = id / regions;
  const auto r = static_cast<uint32_t>(id - s * regions);
  if (!ph.active[s] || k > ph.steps[r]) return;
  const double* lo = v.lo[(k - 1) & 1u];
  const double* hi = v.hi[(k - 1) & 1u];
  const double vl = lo[id], vh = hi[id];
  double acc_l = 0, acc_h = 0;
  if constexpr (Ell) {
    for (uint32_t j = 0; j < m.ell_width; ++j) {
      const uint64_t at = j * m.rows + s;
      const uint64_t t = uint64_t{m.columns[at]} * regions + r;
      add_transition(g, r, m.num_params, m.constants[at], m.coefficients + uint64_t{j} * m.num_params * m.rows + s,
                     m.rows, lo[t] - vl, hi[t] - vh, acc_l, acc_h);
    }
  } else {
    for (uint64_t e = m.offsets[s]; e < m.offsets[s + 1]; ++e) {
      const uint64_t t = uint64_t{m.columns[e]} * regions + r;
      add_transition(g, r, m.num_params, m.constants[e], m.coefficients + e * m.num_params, 1, lo[t] - vl,
                     hi[t] - vh, acc_l, acc_h);
    }
  }
  const double xl = vl + acc_l * g.inv_q[r], xh = vh + acc_h * g.inv_q[r];
  v.lo[k & 1u][id] = xl;
  v.hi[k & 1u][id] = xh;
  const double c = ph.coefficients[ph.offset[r] + k];
  v.res_lo[id] += c * xl;
  v.res_hi[id] += c * xh;
}

// Before the first phase: (s, r) ← x0[s] in buffer 0.
PMC_PARAM_HD void start(uint64_t elements, uint32_t regions, const double* x0, const VectorsView& v, uint64_t id) {
  if (id >= elements) return;
  v.lo[0][id] = v.hi[0][id] = x0[id / regions];
}

// A phase starts from buffer 0 (inactive rows zeroed where the phase says
// so), copied into buffer 1; the weighted sum starts with c_0·v_0.
PMC_PARAM_HD void start_phase(uint64_t elements, uint32_t regions, const PhaseView& ph, int zero_inactive,
                              const VectorsView& v, uint64_t id) {
  if (id >= elements) return;
  const uint64_t s = id / regions;
  const auto r = static_cast<uint32_t>(id - s * regions);
  double l = v.lo[0][id], h = v.hi[0][id];
  if (zero_inactive && !ph.active[s]) l = h = 0;
  v.lo[0][id] = v.lo[1][id] = l;
  v.hi[0][id] = v.hi[1][id] = h;
  const double c0 = ph.coefficients[ph.offset[r]];
  v.res_lo[id] = c0 * l;
  v.res_hi[id] = c0 * h;
}

// The phase's result into buffer 0: Σ_k c_k·v_k (an inactive row kept its
// value: Σ_k c_k times it), widened by the truncated Poisson mass, clamped
// into [0, 1] for probabilities.
PMC_PARAM_HD void finish_phase(uint64_t elements, uint32_t regions, const PhaseView& ph, int probability,
                               const VectorsView& v, uint64_t id) {
  if (id >= elements) return;
  const uint64_t s = id / regions;
  const auto r = static_cast<uint32_t>(id - s * regions);
  double l, h;
  if (ph.active[s]) {
    l = v.res_lo[id];
    h = v.res_hi[id];
  } else {
    l = ph.coefficient_sum[r] * v.lo[0][id];
    h = ph.coefficient_sum[r] * v.hi[0][id];
  }
  l -= ph.widen[r];
  h += ph.widen[r];
  if (probability) {
    l = fmin(fmax(l, 0.0), 1.0);
    h = fmin(fmax(h, 0.0), 1.0);
  }
  v.lo[0][id] = l;
  v.hi[0][id] = h;
}

// out[i·R + r] = buffer 0 at (states[i], r).
PMC_PARAM_HD void gather(uint64_t count, uint32_t regions, const uint64_t* states, const double* lo, const double* hi,
                         double* out_lo, double* out_hi, uint64_t id) {
  if (id >= count * regions) return;
  const uint64_t i = id / regions;
  const uint64_t at = states[i] * regions + (id - i * regions);
  out_lo[id] = lo[at];
  out_hi[id] = hi[at];
}

// --- host side: the data a launch sequence needs ----------------------------

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

// The launch sequence of one chunk, shared by the device driver (each call a
// kernel launch) and the CPU test (each call a loop over the element ids).
// Launcher: start(), start_phase(ph, zero_inactive), step(ph, k) (may throw
// to cancel), finish_phase(ph, probability), gather().
template <class Launcher>
void run_chunk(const ParamBoundsProblem& p, const ChunkPlan& plan, Launcher& launch) {
  launch.start();
  for (size_t ph = 0; ph < p.phases.size(); ++ph) {
    launch.start_phase(ph, p.phases[ph].zero_inactive_start ? 1 : 0);
    for (uint32_t k = 1; k <= plan.phases[ph].max_steps; ++k) launch.step(ph, k);
    launch.finish_phase(ph, p.probability ? 1 : 0);
  }
  launch.gather();
}

}  // namespace pmc::param_kernels
