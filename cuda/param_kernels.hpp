// The per-thread work of gpu.param-bounds, written once for the device and
// the host: the kernels (param_bounds_kernels.cu) call these functions for
// their thread index, and tests/unit/test_param_kernels.cpp runs the same
// functions over every index on the CPU to check the layouts, the indexing
// and the phase sequence against cpu.param-bounds where there is no GPU.
// Plain C++ without CUDA headers; nvcc compiles it as __host__ __device__.
// Plain views only: the plan of a launch sequence from a ParamBoundsProblem
// is lib/solver/gpu/param_chunk_plan.hpp.
//
// Vectors are region-interleaved: element (s, r) of an n-vector for R
// regions is at s·R + r. A step reads buffer (k−1) mod 2 and writes buffer
// k mod 2, so a region whose steps are done leaves its last values in buffer
// (steps mod 2), and rows that never move hold the same value in both.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#if defined(__CUDACC__)
#define PMC_PARAM_HD __host__ __device__ __forceinline__
#else
#define PMC_PARAM_HD inline
#endif
// Fully unrolled, a thread's element arrays live in registers, not memory.
#if defined(__CUDA_ARCH__)
#define PMC_PARAM_UNROLL _Pragma("unroll")
#else
#define PMC_PARAM_UNROLL
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

// a[i & 1] by selection: indexing a kernel parameter's array with a value
// known only at run time would copy the array to local memory.
template <class T>
PMC_PARAM_HD T* parity(T* const (&a)[2], uint32_t i) {
  return (i & 1u) ? a[1] : a[0];
}

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

// Step k of element (s, r) from its values (vl, vh) after step k − 1 and the
// neighbours' in lo/hi, where state t of this region is at t·interleave +
// slot (global vectors: interleave R, slot r; a block's shared copy of one
// region: 1, 0): its values after step k.
template <bool Ell>
PMC_PARAM_HD void advance(const PatternView& m, const RegionsView& g, const double* lo, const double* hi,
                          uint64_t interleave, uint32_t slot, uint64_t s, uint32_t r, double vl, double vh, double& xl,
                          double& xh) {
  double acc_l = 0, acc_h = 0;
  if constexpr (Ell) {
    for (uint32_t j = 0; j < m.ell_width; ++j) {
      const uint64_t at = j * m.rows + s;
      const uint64_t t = uint64_t{m.columns[at]} * interleave + slot;
      add_transition(g, r, m.num_params, m.constants[at], m.coefficients + uint64_t{j} * m.num_params * m.rows + s,
                     m.rows, lo[t] - vl, hi[t] - vh, acc_l, acc_h);
    }
  } else {
    for (uint64_t e = m.offsets[s]; e < m.offsets[s + 1]; ++e) {
      const uint64_t t = uint64_t{m.columns[e]} * interleave + slot;
      add_transition(g, r, m.num_params, m.constants[e], m.coefficients + e * m.num_params, 1, lo[t] - vl,
                     hi[t] - vh, acc_l, acc_h);
    }
  }
  xl = vl + acc_l * g.inv_q[r];
  xh = vh + acc_h * g.inv_q[r];
}

// Step k ≥ 1 of element `id` (state id / R, region id mod R), one launch
// per step: the element's values and its weighted sums go through memory.
template <bool Ell>
PMC_PARAM_HD void step(const PatternView& m, const RegionsView& g, const PhaseView& ph, const VectorsView& v,
                       uint32_t k, uint64_t id) {
  const uint64_t regions = g.count;
  if (id >= m.rows * regions) return;
  const uint64_t s = id / regions;
  const auto r = static_cast<uint32_t>(id - s * regions);
  if (!ph.active[s] || k > ph.steps[r]) return;
  const double* lo = parity(v.lo, k - 1);
  const double* hi = parity(v.hi, k - 1);
  double xl, xh;
  advance<Ell>(m, g, lo, hi, regions, r, s, r, lo[id], hi[id], xl, xh);
  parity(v.lo, k)[id] = xl;
  parity(v.hi, k)[id] = xh;
  const double c = ph.coefficients[ph.offset[r] + k];
  v.res_lo[id] += c * xl;
  v.res_hi[id] += c * xh;
}

// The fused loop: one cooperative launch runs steps [k_first, k_last] of a
// phase, the grid synchronised between steps. Thread `first` of a grid of
// `stride` threads owns elements first + j·stride (j < E) and keeps their
// values and weighted sums in registers for the whole slice, so a step
// moves only the new values out and the neighbours' in. The same additions
// in the same order as step(): the results are equal bit for bit.
template <bool Ell, int E>
struct FusedThread {
  uint32_t state[E];  // the fused loop runs where states < 2^32
  uint32_t region[E];
  uint32_t last[E];  // the element's last step in this phase; 0: it does not move
  double cur_l[E], cur_h[E], sum_l[E], sum_h[E];

  PMC_PARAM_HD void load(const PatternView& m, const RegionsView& g, const PhaseView& ph, const VectorsView& v,
                         uint64_t first, uint64_t stride, uint32_t k_first) {
    const uint64_t regions = g.count, elements = m.rows * regions;
    PMC_PARAM_UNROLL for (int j = 0; j < E; ++j) {
      const uint64_t id = first + j * stride;
      last[j] = 0;
      state[j] = 0;
      region[j] = 0;
      cur_l[j] = cur_h[j] = sum_l[j] = sum_h[j] = 0;
      if (id >= elements) continue;
      const uint64_t s = id / regions;
      state[j] = static_cast<uint32_t>(s);
      region[j] = static_cast<uint32_t>(id - s * regions);
      if (ph.active[state[j]]) last[j] = ph.steps[region[j]];
      if (k_first > last[j]) continue;
      cur_l[j] = parity(v.lo, k_first - 1)[id];
      cur_h[j] = parity(v.hi, k_first - 1)[id];
      sum_l[j] = v.res_lo[id];
      sum_h[j] = v.res_hi[id];
    }
  }

  PMC_PARAM_HD void step(const PatternView& m, const RegionsView& g, const PhaseView& ph, const VectorsView& v,
                         uint64_t first, uint64_t stride, uint32_t k) {
    const double* lo = parity(v.lo, k - 1);
    const double* hi = parity(v.hi, k - 1);
    PMC_PARAM_UNROLL for (int j = 0; j < E; ++j) {
      if (k > last[j]) continue;
      const uint64_t id = first + j * stride;
      double xl, xh;
      advance<Ell>(m, g, lo, hi, g.count, region[j], state[j], region[j], cur_l[j], cur_h[j], xl, xh);
      parity(v.lo, k)[id] = xl;
      parity(v.hi, k)[id] = xh;
      const double c = ph.coefficients[ph.offset[region[j]] + k];
      sum_l[j] += c * xl;
      sum_h[j] += c * xh;
      cur_l[j] = xl;
      cur_h[j] = xh;
    }
  }

  // The sums back to memory for the next slice or finish_phase; an element
  // that did not move in the slice keeps what memory has.
  PMC_PARAM_HD void store(const VectorsView& v, uint64_t first, uint64_t stride, uint32_t k_first) const {
    PMC_PARAM_UNROLL for (int j = 0; j < E; ++j) {
      if (k_first > last[j]) continue;
      const uint64_t id = first + j * stride;
      v.res_lo[id] = sum_l[j];
      v.res_hi[id] = sum_h[j];
    }
  }
};

// The block loop: one thread block per region runs steps [k_first, k_last]
// of a phase on a copy of the region's lo/hi in shared memory (both
// buffers, 32 B per state), with a block barrier between steps and no grid
// barrier: the vectors never leave the SM within a slice, and blocks of
// regions whose steps are done leave the SM to the next. Thread `tid` of
// `threads` owns states tid + j·threads (j < E) and keeps their weighted
// sums in registers. The same additions in the same order as step().
struct SharedRegion {
  double* lo[2];
  double* hi[2];
};

// Before the first step of the slice: both shared buffers ← the region's
// values after step k_first − 1 (rows that do not move hold the same value
// in both, as in global memory).
PMC_PARAM_HD void block_load(const PatternView& m, const RegionsView& g, const VectorsView& v, const SharedRegion& sh,
                             uint32_t r, uint32_t k_first, uint32_t tid, uint32_t threads) {
  const double* lo = parity(v.lo, k_first - 1);
  const double* hi = parity(v.hi, k_first - 1);
  for (uint64_t s = tid; s < m.rows; s += threads) {
    sh.lo[0][s] = sh.lo[1][s] = lo[s * g.count + r];
    sh.hi[0][s] = sh.hi[1][s] = hi[s * g.count + r];
  }
}

// The last step the block runs in this slice (< k_first: none).
PMC_PARAM_HD uint32_t block_end(const PhaseView& ph, uint32_t r, uint32_t k_last) {
  return ph.steps[r] < k_last ? ph.steps[r] : k_last;
}

template <bool Ell, int E>
struct BlockThread {
  bool moves[E];
  double sum_l[E], sum_h[E];

  PMC_PARAM_HD void load(const PatternView& m, const RegionsView& g, const PhaseView& ph, const VectorsView& v,
                         uint32_t r, uint32_t tid, uint32_t threads) {
    PMC_PARAM_UNROLL for (int j = 0; j < E; ++j) {
      const uint64_t s = tid + uint64_t{threads} * j;
      moves[j] = s < m.rows && ph.active[s];
      sum_l[j] = moves[j] ? v.res_lo[s * g.count + r] : 0;
      sum_h[j] = moves[j] ? v.res_hi[s * g.count + r] : 0;
    }
  }

  PMC_PARAM_HD void step(const PatternView& m, const RegionsView& g, const PhaseView& ph, const SharedRegion& sh,
                         uint32_t r, uint32_t tid, uint32_t threads, uint32_t k) {
    const double* lo = parity(sh.lo, k - 1);
    const double* hi = parity(sh.hi, k - 1);
    double* next_lo = parity(sh.lo, k);
    double* next_hi = parity(sh.hi, k);
    const double c = ph.coefficients[ph.offset[r] + k];
    PMC_PARAM_UNROLL for (int j = 0; j < E; ++j) {
      if (!moves[j]) continue;
      const uint64_t s = tid + uint64_t{threads} * j;
      double xl, xh;
      advance<Ell>(m, g, lo, hi, 1, 0, s, r, lo[s], hi[s], xl, xh);
      next_lo[s] = xl;
      next_hi[s] = xh;
      sum_l[j] += c * xl;
      sum_h[j] += c * xh;
    }
  }

  // After the slice's last step `end`: the moving states' values to global
  // buffer end mod 2 (where the next slice, or nothing, reads them) and
  // their sums.
  PMC_PARAM_HD void store(const RegionsView& g, const VectorsView& v, const SharedRegion& sh, uint32_t r, uint32_t tid,
                          uint32_t threads, uint32_t end) const {
    double* lo = parity(v.lo, end);
    double* hi = parity(v.hi, end);
    PMC_PARAM_UNROLL for (int j = 0; j < E; ++j) {
      if (!moves[j]) continue;
      const uint64_t s = tid + uint64_t{threads} * j;
      const uint64_t id = s * g.count + r;
      lo[id] = parity(sh.lo, end)[s];
      hi[id] = parity(sh.hi, end)[s];
      v.res_lo[id] = sum_l[j];
      v.res_hi[id] = sum_h[j];
    }
  }
};

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

}  // namespace pmc::param_kernels
