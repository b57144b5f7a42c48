// gpu.param-bounds: the backward parametric transient analysis of Češka et
// al. 2017 (PRISM-PSY) §3.2 on the device, with the seed's two-level
// parallelism (§3.4): one thread per (state, region), many regions in one
// kernel over the sparsity pattern they share. The numerics are those of
// cpu.param-bounds (lib/solver/param_bounds.cpp): the same rate bounds, the
// same per-region uniformisation rate and Fox–Glynn plan (param_setup.cpp,
// on the host), the same order of the sums. The per-thread work lives in
// param_kernels.hpp, which the CPU tests also run.
//
// Three choices differ from the seed, each for bandwidth:
//  * r⊥/r⊤ are not stored per region (the seed's matValBot/matValTop) but
//    computed in the kernel from the affine rate and the region's box; the
//    rate data are shared by all regions and stay in cache, where stored
//    bounds would stream 16 B per entry and region per step.
//  * Vectors are region-interleaved, so that the threads of a warp handle
//    one row for consecutive regions: the row's pattern is read once and
//    broadcast, and the neighbour values a warp gathers are contiguous.
//  * Regions differ in their number of steps (adaptive Fox–Glynn); a region
//    whose steps are done idles while the others go on.
// Layouts (seed §3.3): CSR, or ELL, whose loads coalesce when few regions
// share a warp.
#include <algorithm>
#include <chrono>
#include <string>

#include "cuda/device_buffer.cuh"
#include "cuda/device_context.cuh"
#include "cuda/launch.cuh"
#include "cuda/param_kernels.hpp"
#include "solver/param_setup.hpp"
#include "solver/param_solvers.hpp"
#include "solver/progress.hpp"

namespace pmc {

using namespace pmc::cuda;
namespace pk = pmc::param_kernels;

namespace {

// ELL pays when padding to the longest row adds at most half again the entries.
constexpr double k_ell_max_padding = 1.5;


template <bool Ell>
__global__ void param_step(pk::PatternView m, pk::RegionsView g, pk::PhaseView ph, pk::VectorsView v, uint32_t k) {
  pk::step<Ell>(m, g, ph, v, k, blockIdx.x * uint64_t{k_block_threads} + threadIdx.x);
}

__global__ void param_start(uint64_t elements, uint32_t regions, const double* x0, pk::VectorsView v) {
  pk::start(elements, regions, x0, v, blockIdx.x * uint64_t{k_block_threads} + threadIdx.x);
}

__global__ void param_start_phase(uint64_t elements, uint32_t regions, pk::PhaseView ph, int zero_inactive,
                                  pk::VectorsView v) {
  pk::start_phase(elements, regions, ph, zero_inactive, v, blockIdx.x * uint64_t{k_block_threads} + threadIdx.x);
}

__global__ void param_finish_phase(uint64_t elements, uint32_t regions, pk::PhaseView ph, int probability,
                                   pk::VectorsView v) {
  pk::finish_phase(elements, regions, ph, probability, v, blockIdx.x * uint64_t{k_block_threads} + threadIdx.x);
}

__global__ void param_gather(uint64_t count, uint32_t regions, const uint64_t* states, const double* lo,
                             const double* hi, double* out_lo, double* out_hi) {
  pk::gather(count, regions, states, lo, hi, out_lo, out_hi, blockIdx.x * uint64_t{k_block_threads} + threadIdx.x);
}

// The rate data on the device, in the chosen layout.
struct DevicePattern {
  DevicePattern(const ParamBoundsProblem& p, bool ell) {
    view.rows = p.num_states;
    view.num_params = p.num_parameters;
    view.ell_width = 0;
    if (!ell) {
      offsets.upload(p.row_offsets);
      columns.upload(p.columns);
      constants.upload(p.constants);
      coefficients.upload(p.coefficients);
    } else {
      const pk::EllPattern e = pk::ell_pattern(p);
      columns.upload(e.columns);
      constants.upload(e.constants);
      coefficients.upload(e.coefficients);
      view.ell_width = e.width;
    }
    view.offsets = offsets.data();
    view.columns = columns.data();
    view.constants = constants.data();
    view.coefficients = coefficients.data();
  }
  uint64_t bytes() const {
    return offsets.size() * 8 + columns.size() * 4 + (constants.size() + coefficients.size()) * 8;
  }

  pk::PatternView view{};
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
  return static_cast<double>(pk::longest_row(p) * p.num_states) <=
         k_ell_max_padding * static_cast<double>(p.num_entries());
}

// One chunk's per-region data on the device.
struct DeviceChunk {
  explicit DeviceChunk(const pk::ChunkPlan& c) : lower(c.lower), upper(c.upper), inv_q(c.inv_q) {
    for (const pk::ChunkPlan::Phase& ph : c.phases) {
      steps.emplace_back(ph.steps);
      offset.emplace_back(ph.offset);
      coefficients.emplace_back(ph.coefficients);
      coefficient_sum.emplace_back(ph.coefficient_sum);
      widen.emplace_back(ph.widen);
    }
  }
  pk::PhaseView phase(size_t ph, const uint8_t* active) const {
    return {active, steps[ph].data(), offset[ph].data(), coefficients[ph].data(), coefficient_sum[ph].data(),
            widen[ph].data()};
  }
  DeviceBuffer<double> lower, upper, inv_q;
  std::vector<DeviceBuffer<uint32_t>> steps;
  std::vector<DeviceBuffer<uint64_t>> offset;
  std::vector<DeviceBuffer<double>> coefficients, coefficient_sum, widen;
};

// pk::run_chunk's launcher: one kernel launch per call.
struct DeviceLauncher {
  const ParamBoundsProblem& problem;
  const DevicePattern& pattern;
  const DeviceChunk& data;
  pk::RegionsView regions;
  pk::VectorsView v;
  const std::vector<DeviceBuffer<uint8_t>>& active;
  const double* x0;
  const uint64_t* kept_states;
  double* out_lo;
  double* out_hi;
  uint64_t kept;
  uint32_t count;
  bool ell;
  ProgressReporter& progress;
  uint64_t& steps_done;

  uint64_t elements() const { return problem.num_states * count; }
  unsigned blocks() const { return blocks_for_threads(elements()); }
  void start() {
    param_start<<<blocks(), k_block_threads>>>(elements(), count, x0, v);
    PMC_CUDA_CHECK_LAUNCH("param_start");
  }
  void start_phase(size_t ph, int zero_inactive) {
    param_start_phase<<<blocks(), k_block_threads>>>(elements(), count, data.phase(ph, active[ph].data()),
                                                      zero_inactive, v);
    PMC_CUDA_CHECK_LAUNCH("param_start_phase");
  }
  void step(size_t ph, uint32_t k) {
    progress.tick(steps_done);  // throws when cancelled
    const pk::PhaseView phase = data.phase(ph, active[ph].data());
    if (ell) {
      param_step<true><<<blocks(), k_block_threads>>>(pattern.view, regions, phase, v, k);
    } else {
      param_step<false><<<blocks(), k_block_threads>>>(pattern.view, regions, phase, v, k);
    }
    PMC_CUDA_CHECK_LAUNCH("param_step");
    ++steps_done;
  }
  void finish_phase(size_t ph, int probability) {
    param_finish_phase<<<blocks(), k_block_threads>>>(elements(), count, data.phase(ph, active[ph].data()),
                                                       probability, v);
    PMC_CUDA_CHECK_LAUNCH("param_finish_phase");
  }
  void gather() {
    param_gather<<<blocks_for_threads(kept * count), k_block_threads>>>(kept, count, kept_states, v.lo[0], v.hi[0],
                                                                         out_lo, out_hi);
    PMC_CUDA_CHECK_LAUNCH("param_gather");
  }
};

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
  std::vector<pk::RegionPlan> plans(boxes.size());
  uint64_t total_steps = 0;
  for (size_t r = 0; r < boxes.size(); ++r) {
    plans[r].q = region_uniformisation_rate(problem, boxes[r]);
    plans[r].phases = plan_phases(problem, plans[r].q);
    for (const PhasePlan& pp : plans[r].phases) total_steps += pp.steps;
  }

  DevicePattern pattern(problem, ell);
  DeviceBuffer<double> x0(problem.x0);
  std::vector<DeviceBuffer<uint8_t>> active;
  for (const ParamPhase& phase : problem.phases) active.emplace_back(phase.active);
  std::vector<uint64_t> kept = problem.keep_states;
  if (kept.empty()) {
    kept.resize(n);
    for (uint64_t s = 0; s < n; ++s) kept[s] = s;
  }
  DeviceBuffer<uint64_t> kept_states(kept);

  // Regions per launch: six n-vectors and the gathered bounds each, within
  // the memory pmc may use.
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
  uint64_t steps_done = 0;
  std::vector<double> host_lo, host_hi;
  for (size_t first = 0; first < boxes.size(); first += chunk) {
    const auto count = static_cast<uint32_t>(std::min<size_t>(chunk, boxes.size() - first));
    pk::ChunkPlan plan;
    if (!pk::plan_chunk(problem, boxes, plans, first, count, plan)) {
      throw Error(ErrorCode::invalid_argument, "gpu.param-bounds: a region needs 2^32 or more steps");
    }
    const DeviceChunk data(plan);
    const pk::RegionsView regions{count, data.lower.data(), data.upper.data(), data.inv_q.data()};
    const pk::VectorsView v{{lo0.data(), lo1.data()}, {hi0.data(), hi1.data()}, res_lo.data(), res_hi.data()};
    DeviceLauncher launch{problem, pattern, data, regions, v, active, x0.data(), kept_states.data(),
                          out_lo.data(), out_hi.data(), kept.size(), count, ell, progress, steps_done};
    timer.start();
    pk::run_chunk(problem, plan, launch);
    stats.loop_seconds += timer.stop_seconds();
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
      for (const PhasePlan& pp : plans[first + r].phases) b.iterations += pp.steps;
      stats.iterations = std::max(stats.iterations, b.iterations);
    }
  }
  stats.converged = true;
  // Per launch (averaged over the chunks): the pattern once (shared by the
  // regions) and, per state and region, the six vector accesses of a row.
  stats.bytes_per_iteration = static_cast<double>(pattern.bytes()) +
                              static_cast<double>(n) * static_cast<double>(boxes.size()) /
                                  static_cast<double>((boxes.size() + chunk - 1) / chunk) * 6.0 * 8.0;
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return stats;
}

}  // namespace pmc
