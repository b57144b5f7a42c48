// gpu.param-bounds: the backward parametric transient analysis of Češka et
// al. 2017 (PRISM-PSY) §3.2 on the device, with the seed's two-level
// parallelism (§3.4): one thread per (state, region), many regions in one
// kernel over the sparsity pattern they share. The numerics are those of
// cpu.param-bounds (lib/solver/param_bounds.cpp): the same rate bounds, the
// same per-region uniformisation rate and Fox–Glynn plan (param_setup.cpp,
// computed on the host), the same order of the sums.
//
// Three choices differ from the seed, each for bandwidth:
//  * r⊥/r⊤ are not stored per region (the seed's matValBot/matValTop) but
//    computed in the kernel from the affine rate and the region's box; the
//    rate data are shared by all regions and stay in cache, where stored
//    bounds would stream 16 B per entry and region per step.
//  * Vectors are region-interleaved, element (s, r) at s·R + r, so that the
//    threads of a warp handle one row for consecutive regions: the row's
//    pattern is read once and broadcast, and the neighbour values a warp
//    gathers are contiguous.
//  * Regions differ in their number of steps (adaptive Fox–Glynn); a region
//    whose steps are done idles while the others go on, and its vectors are
//    double-buffered by step parity instead of swapped, so each region's
//    last values are found in buffer (steps mod 2).
// Layouts (seed §3.3): CSR, or ELL (entry j of row s at j·n + s, rows padded
// with zero-rate self-loops) whose loads coalesce when few regions share a
// warp.
#include <algorithm>
#include <chrono>
#include <string>

#include "cuda/device_buffer.cuh"
#include "cuda/device_context.cuh"
#include "cuda/launch.cuh"
#include "solver/param_setup.hpp"
#include "solver/param_solvers.hpp"
#include "solver/progress.hpp"

namespace pmc {

using namespace pmc::cuda;

namespace {

// ELL pays when padding to the longest row adds at most half again the entries.
constexpr double k_ell_max_padding = 1.5;

// The rate data, shared by every region: CSR or ELL.
struct PatternView {
  uint64_t rows;
  uint32_t num_params;
  // CSR (ell_width == 0): entries of row s in [offsets[s], offsets[s+1]),
  // coefficients[e·K + k]. ELL: entry j of row s at j·rows + s,
  // coefficients[(j·K + k)·rows + s].
  uint32_t ell_width;
  const uint64_t* offsets;
  const uint32_t* columns;
  const double* constants;
  const double* coefficients;
};

// The regions of one launch: boxes parameter-major (lower[k·R + r]), and
// per region 1/q.
struct RegionsView {
  uint32_t count;
  const double* lower;
  const double* upper;
  const double* inv_q;
};

// One phase for every region: its steps, Fox–Glynn coefficients (region r's
// c_k at coefficients[offset[r] + k]), Σ_k c_k and the widening.
struct PhaseView {
  const uint8_t* active;
  const uint32_t* steps;
  const uint64_t* offset;
  const double* coefficients;
  const double* coefficient_sum;
  const double* widen;
};

// The vectors of one launch, each n·R, element (s, r) at s·R + r.
struct VectorsView {
  double* lo[2];
  double* hi[2];
  double* res_lo;
  double* res_hi;
};

// Adds one transition s→t to both bounds (seed Eq. 2/3), with r⊥/r⊤ over the
// region exactly as region_rate_bounds computes them.
__device__ __forceinline__ void add_transition(const RegionsView& g, uint32_t r, uint32_t num_params, double constant,
                                               const double* coefficient, uint64_t stride, double dl, double dh,
                                               double& acc_l, double& acc_h) {
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

template <bool Ell>
__global__ void param_step(PatternView m, RegionsView g, PhaseView ph, VectorsView v, uint32_t k) {
  const uint64_t id = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  const uint64_t regions = g.count;
  if (id >= m.rows * regions) return;
  const uint64_t s = id / regions;
  const auto r = static_cast<uint32_t>(id - s * regions);
  if (!ph.active[s] || k > ph.steps[r]) return;
  const unsigned from = (k - 1) & 1u, to = k & 1u;
  const double* lo = v.lo[from];
  const double* hi = v.hi[from];
  const double vl = lo[id], vh = hi[id];
  double acc_l = 0, acc_h = 0;
  if constexpr (Ell) {
    for (uint32_t j = 0; j < m.ell_width; ++j) {
      const uint64_t at = j * m.rows + s;
      const uint64_t t = uint64_t{m.columns[at]} * regions + r;
      add_transition(g, r, m.num_params, m.constants[at], m.coefficients + j * m.num_params * m.rows + s, m.rows,
                     lo[t] - vl, hi[t] - vh, acc_l, acc_h);
    }
  } else {
    for (uint64_t e = m.offsets[s]; e < m.offsets[s + 1]; ++e) {
      const uint64_t t = uint64_t{m.columns[e]} * regions + r;
      add_transition(g, r, m.num_params, m.constants[e], m.coefficients + e * m.num_params, 1, lo[t] - vl,
                     hi[t] - vh, acc_l, acc_h);
    }
  }
  const double xl = vl + acc_l * g.inv_q[r], xh = vh + acc_h * g.inv_q[r];
  v.lo[to][id] = xl;
  v.hi[to][id] = xh;
  const double c = ph.coefficients[ph.offset[r] + k];
  v.res_lo[id] += c * xl;
  v.res_hi[id] += c * xh;
}

// Every element: (s, r) ← x0[s].
__global__ void param_start(uint64_t elements, uint32_t regions, const double* x0, VectorsView v) {
  const uint64_t id = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (id >= elements) return;
  v.lo[0][id] = v.hi[0][id] = x0[id / regions];
}

// A phase starts from buffer 0 (inactive rows zeroed where the phase says),
// copied into buffer 1 so that rows that do not move read the same value
// at either parity; the weighted sum starts with c_0·v_0.
__global__ void param_start_phase(uint64_t elements, uint32_t regions, PhaseView ph, int zero_inactive, VectorsView v) {
  const uint64_t id = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
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

// The phase's result into buffer 0: Σ_k c_k·v_k (inactive rows kept their
// value: Σ_k c_k times it), widened by the truncated Poisson mass.
__global__ void param_finish_phase(uint64_t elements, uint32_t regions, PhaseView ph, int probability, VectorsView v) {
  const uint64_t id = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
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
__global__ void param_gather(uint64_t count, uint32_t regions, const uint64_t* states, const double* lo,
                             const double* hi, double* out_lo, double* out_hi) {
  const uint64_t id = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (id >= count * regions) return;
  const uint64_t i = id / regions;
  const uint64_t at = states[i] * regions + (id - i * regions);
  out_lo[id] = lo[at];
  out_hi[id] = hi[at];
}

// The rate data on the device, in the chosen layout.
struct DevicePattern {
  DevicePattern(const ParamBoundsProblem& p, bool ell) {
    const uint64_t n = p.num_states;
    const uint32_t K = p.num_parameters;
    view.rows = n;
    view.num_params = K;
    view.ell_width = 0;
    if (!ell) {
      offsets.upload(p.row_offsets);
      columns.upload(p.columns);
      constants.upload(p.constants);
      coefficients.upload(p.coefficients);
    } else {
      uint64_t width = 0;
      for (uint64_t s = 0; s < n; ++s) width = std::max(width, p.row_offsets[s + 1] - p.row_offsets[s]);
      // Padding: a self-loop of rate 0 adds 0·(v_s − v_s).
      std::vector<uint32_t> col(width * n);
      std::vector<double> con(width * n, 0.0), coef(width * n * K, 0.0);
      for (uint64_t s = 0; s < n; ++s) {
        const uint64_t begin = p.row_offsets[s], length = p.row_offsets[s + 1] - begin;
        for (uint64_t j = 0; j < width; ++j) {
          const uint64_t at = j * n + s;
          if (j >= length) {
            col[at] = static_cast<uint32_t>(s);
            continue;
          }
          col[at] = p.columns[begin + j];
          con[at] = p.constants[begin + j];
          for (uint32_t k = 0; k < K; ++k) coef[(j * K + k) * n + s] = p.coefficients[(begin + j) * K + k];
        }
      }
      columns.upload(col);
      constants.upload(con);
      coefficients.upload(coef);
      view.ell_width = static_cast<uint32_t>(width);
    }
    view.offsets = offsets.data();
    view.columns = columns.data();
    view.constants = constants.data();
    view.coefficients = coefficients.data();
  }
  uint64_t bytes() const {
    return offsets.size() * 8 + columns.size() * 4 + (constants.size() + coefficients.size()) * 8;
  }

  PatternView view{};
  DeviceBuffer<uint64_t> offsets;
  DeviceBuffer<uint32_t> columns;
  DeviceBuffer<double> constants, coefficients;
};

bool choose_ell(const ParamBoundsProblem& p, GpuLayout layout) {
  switch (layout) {
    case GpuLayout::ell: return true;
    case GpuLayout::thread_per_row: return false;
    case GpuLayout::automatic: break;
    default:
      throw Error(ErrorCode::invalid_argument,
                  "gpu.param-bounds has the layouts auto, thread (CSR) and ell; the warp layouts are gpu.jacobi's");
  }
  uint64_t width = 0;
  for (uint64_t s = 0; s < p.num_states; ++s) width = std::max(width, p.row_offsets[s + 1] - p.row_offsets[s]);
  return static_cast<double>(width * p.num_states) <= k_ell_max_padding * static_cast<double>(p.num_entries());
}

struct RegionPlan {
  double q = 1;
  std::vector<PhasePlan> phases;
};

// Host copies of one chunk's per-region data, uploaded once per chunk.
struct ChunkData {
  DeviceBuffer<double> lower, upper, inv_q;
  std::vector<DeviceBuffer<uint32_t>> steps;
  std::vector<DeviceBuffer<uint64_t>> offset;
  std::vector<DeviceBuffer<double>> coefficients, coefficient_sum, widen;
  std::vector<uint32_t> max_steps;  // per phase
};

void upload_chunk(const ParamBoundsProblem& p, const std::vector<ParamBox>& boxes, const std::vector<RegionPlan>& plans,
                  size_t first, uint32_t count, ChunkData& d) {
  const uint32_t K = p.num_parameters;
  std::vector<double> lower(uint64_t{K} * count), upper(uint64_t{K} * count), inv_q(count);
  for (uint32_t r = 0; r < count; ++r) {
    for (uint32_t k = 0; k < K; ++k) {
      lower[uint64_t{k} * count + r] = boxes[first + r].lower[k];
      upper[uint64_t{k} * count + r] = boxes[first + r].upper[k];
    }
    inv_q[r] = 1.0 / plans[first + r].q;
  }
  d.lower.upload(lower);
  d.upper.upload(upper);
  d.inv_q.upload(inv_q);
  const size_t phases = p.phases.size();
  d.steps.resize(phases);
  d.offset.resize(phases);
  d.coefficients.resize(phases);
  d.coefficient_sum.resize(phases);
  d.widen.resize(phases);
  d.max_steps.assign(phases, 0);
  for (size_t ph = 0; ph < phases; ++ph) {
    std::vector<uint32_t> steps(count);
    std::vector<uint64_t> offset(count);
    std::vector<double> coefficients, sums(count), widen(count);
    for (uint32_t r = 0; r < count; ++r) {
      const PhasePlan& pp = plans[first + r].phases[ph];
      if (pp.steps > UINT32_MAX - 1) {
        throw Error(ErrorCode::invalid_argument, "gpu.param-bounds: a region needs more than 2^32 steps");
      }
      steps[r] = static_cast<uint32_t>(pp.steps);
      d.max_steps[ph] = std::max(d.max_steps[ph], steps[r]);
      offset[r] = coefficients.size();
      // Summed in the CPU solver's order, so inactive rows agree bit for bit.
      double sum = 0;
      for (double c : pp.coefficients) {
        coefficients.push_back(c);
        sum += c;
      }
      sums[r] = sum;
      widen[r] = pp.widen;
    }
    d.steps[ph].upload(steps);
    d.offset[ph].upload(offset);
    d.coefficients[ph].upload(coefficients);
    d.coefficient_sum[ph].upload(sums);
    d.widen[ph].upload(widen);
  }
}

}  // namespace

SolveStats param_bounds_gpu(const ParamBoundsProblem& problem, const std::vector<ParamBox>& boxes,
                            std::vector<ParamBounds>& out, const SolverSettings& settings) {
  const auto start = std::chrono::steady_clock::now();
  check_param_problem(problem, boxes);
  throw_if_cancelled(settings.cancel);
  const bool ell = choose_ell(problem, settings.gpu_layout);
  select_device(settings);
  SolveStats stats;
  stats.solver = "gpu.param-bounds";
  stats.kernel = ell ? "ell" : "csr";
  const uint64_t n = problem.num_states;
  out.assign(boxes.size(), ParamBounds{});
  if (boxes.empty() || n == 0) {
    stats.converged = true;
    return stats;
  }
  // Fox–Glynn may throw (λ too large): every plan before any device work.
  std::vector<RegionPlan> plans(boxes.size());
  uint64_t total_steps = 0;
  for (size_t r = 0; r < boxes.size(); ++r) {
    plans[r].q = region_uniformisation_rate(problem, boxes[r]);
    plans[r].phases = plan_phases(problem, plans[r].q);
    for (const PhasePlan& pp : plans[r].phases) total_steps += pp.steps;
  }

  DevicePattern pattern(problem, ell);
  DeviceBuffer<double> x0(problem.x0);
  std::vector<DeviceBuffer<uint8_t>> active(problem.phases.size());
  for (size_t ph = 0; ph < problem.phases.size(); ++ph) active[ph].upload(problem.phases[ph].active);
  std::vector<uint64_t> kept = problem.keep_states;
  if (kept.empty()) {
    kept.resize(n);
    for (uint64_t s = 0; s < n; ++s) kept[s] = s;
  }
  DeviceBuffer<uint64_t> kept_states(kept);

  // Regions per launch: six n-vectors each, within the memory pmc may use.
  uint64_t free_bytes = 0, total_bytes = 0;
  PMC_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  uint64_t budget = free_bytes / 10 * 9;
  if (settings.gpu_memory_limit > 0) {
    const uint64_t used = pattern.bytes() + n * 9 + kept.size() * 8;
    budget = std::min(budget, settings.gpu_memory_limit > used ? settings.gpu_memory_limit - used : 0);
  }
  const uint64_t per_region = n * 6 * 8 + kept.size() * 16 + 256;
  const uint64_t fit = budget / per_region;
  if (fit == 0) {
    throw Error(ErrorCode::out_of_memory, "gpu.param-bounds: one region needs " + std::to_string(per_region) +
                                              " bytes of GPU memory, " + std::to_string(budget) + " are available");
  }
  const auto chunk = static_cast<uint32_t>(std::min<uint64_t>({fit, boxes.size(), uint64_t{1} << 16}));

  DeviceBuffer<double> lo0(n * chunk), lo1(n * chunk), hi0(n * chunk), hi1(n * chunk), res_lo(n * chunk),
      res_hi(n * chunk), out_lo(kept.size() * chunk), out_hi(kept.size() * chunk);
  ProgressReporter progress(settings, "gpu.param-bounds", total_steps);
  EventTimer timer;
  double loop_seconds = 0;
  uint64_t steps_done = 0;
  ChunkData data;
  std::vector<double> host_lo, host_hi;
  for (size_t first = 0; first < boxes.size(); first += chunk) {
    const auto count = static_cast<uint32_t>(std::min<size_t>(chunk, boxes.size() - first));
    upload_chunk(problem, boxes, plans, first, count, data);
    const RegionsView regions{count, data.lower.data(), data.upper.data(), data.inv_q.data()};
    const VectorsView v{{lo0.data(), lo1.data()}, {hi0.data(), hi1.data()}, res_lo.data(), res_hi.data()};
    const uint64_t elements = n * count;
    const unsigned blocks = blocks_for_threads(elements);
    timer.start();
    param_start<<<blocks, k_block_threads>>>(elements, count, x0.data(), v);
    PMC_CUDA_CHECK_LAUNCH("param_start");
    for (size_t ph = 0; ph < problem.phases.size(); ++ph) {
      const PhaseView phase{active[ph].data(),         data.steps[ph].data(),           data.offset[ph].data(),
                            data.coefficients[ph].data(), data.coefficient_sum[ph].data(), data.widen[ph].data()};
      param_start_phase<<<blocks, k_block_threads>>>(elements, count, phase,
                                                    problem.phases[ph].zero_inactive_start ? 1 : 0, v);
      PMC_CUDA_CHECK_LAUNCH("param_start_phase");
      for (uint32_t k = 1; k <= data.max_steps[ph]; ++k) {
        progress.tick(steps_done);  // throws when cancelled
        if (ell) {
          param_step<true><<<blocks, k_block_threads>>>(pattern.view, regions, phase, v, k);
        } else {
          param_step<false><<<blocks, k_block_threads>>>(pattern.view, regions, phase, v, k);
        }
        PMC_CUDA_CHECK_LAUNCH("param_step");
        ++steps_done;
      }
      param_finish_phase<<<blocks, k_block_threads>>>(elements, count, phase, problem.probability ? 1 : 0, v);
      PMC_CUDA_CHECK_LAUNCH("param_finish_phase");
    }
    param_gather<<<blocks_for_threads(kept.size() * count), k_block_threads>>>(
        kept.size(), count, kept_states.data(), lo0.data(), hi0.data(), out_lo.data(), out_hi.data());
    PMC_CUDA_CHECK_LAUNCH("param_gather");
    loop_seconds += timer.stop_seconds();
    out_lo.download(host_lo);
    out_hi.download(host_hi);
    for (uint32_t r = 0; r < count; ++r) {
      ParamBounds& b = out[first + r];
      b.lower.resize(kept.size());
      b.upper.resize(kept.size());
      for (size_t i = 0; i < kept.size(); ++i) {
        b.lower[i] = host_lo[i * count + r];
        b.upper[i] = host_hi[i * count + r];
      }
      b.rate = plans[first + r].q;
      b.iterations = 0;
      for (const PhasePlan& pp : plans[first + r].phases) b.iterations += pp.steps;
      stats.iterations = std::max(stats.iterations, b.iterations);
    }
  }
  stats.converged = true;
  // Per launch: the pattern once (shared by the regions) and, per region,
  // the six vector accesses of every row (two gathered per entry counted once).
  stats.bytes_per_iteration =
      static_cast<double>(pattern.bytes()) + static_cast<double>(n) * chunk * 6.0 * 8.0;
  stats.loop_seconds = loop_seconds;
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return stats;
}

}  // namespace pmc
