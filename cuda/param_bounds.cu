// gpu.param-bounds: the backward parametric transient analysis of Češka et
// al. 2017 (PRISM-PSY) §3.2 on the device, with the seed's two-level
// parallelism (§3.4): one thread per (state, region), many regions in one
// kernel over the sparsity pattern they share. The numerics are those of
// cpu.param-bounds (lib/solver/param/param_bounds.cpp): the same rate bounds, the
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
//  * Fused loop: when a launch's elements fit the threads that can be
//    resident at once, one cooperative launch runs 256 steps with a grid
//    barrier between them, each thread keeping its elements' values and
//    weighted sums in registers; a step then moves only the new values out
//    and the neighbours' in (about half the bytes of a launch per step, and
//    no launch gap). Otherwise, or without cooperative launch, one launch
//    per step.
//  * Block loop: where a region's four vectors fit a block's shared memory
//    (up to ~7K states on an H100), one block per region runs 256 steps
//    with only block barriers, the vectors never leaving the SM; blocks of
//    finished regions make room for the next (regions go longest first).
//    Chosen by default for models of at most 1024 states only.
// Layouts (seed §3.3): CSR, or ELL, whose loads coalesce when few regions
// share a warp.
#include <cooperative_groups.h>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <string>

#include "common/stopwatch.hpp"
#include "cuda/check.cuh"
#include "cuda/device_buffer.hpp"
#include "cuda/device_context.cuh"
#include "cuda/launch.hpp"
#include "cuda/param_kernels.hpp"
#include "solver/gpu/param_chunk_plan.hpp"
#include "solver/param/param_setup.hpp"
#include "solver/gpu/gpu_solvers.hpp"
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

// Steps [k_first, k_last] in one cooperative launch (pk::FusedThread).
template <bool Ell, int E>
__global__ void __launch_bounds__(k_block_threads)
    param_steps_fused(pk::PatternView m, pk::RegionsView g, pk::PhaseView ph, pk::VectorsView v, uint32_t k_first,
                      uint32_t k_last) {
  const cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  const uint64_t first = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  const uint64_t stride = uint64_t{gridDim.x} * k_block_threads;
  pk::FusedThread<Ell, E> thread;
  thread.load(m, g, ph, v, first, stride, k_first);
  for (uint32_t k = k_first; k <= k_last; ++k) {
    thread.step(m, g, ph, v, first, stride, k);
    if (k < k_last) grid.sync();  // the launch's end orders the last step
  }
  thread.store(v, first, stride, k_first);
}

// Elements per thread of the fused loop: the fewest that fit.
constexpr int k_fused_elements[] = {1, 2, 4};

template <bool Ell, int E>
const void* fused_kernel() {
  return reinterpret_cast<const void*>(&param_steps_fused<Ell, E>);
}
const void* fused_kernel(bool ell, int elements_per_thread) {
  switch (elements_per_thread) {
    case 1: return ell ? fused_kernel<true, 1>() : fused_kernel<false, 1>();
    case 2: return ell ? fused_kernel<true, 2>() : fused_kernel<false, 2>();
    default: return ell ? fused_kernel<true, 4>() : fused_kernel<false, 4>();
  }
}

// How many blocks of the fused kernel can be resident at once (0: the
// device has no cooperative launch).
uint64_t resident_blocks(bool ell, int elements_per_thread) {
  int device = 0, cooperative = 0, sms = 0, per_sm = 0;
  PMC_CUDA_CHECK(cudaGetDevice(&device));
  PMC_CUDA_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
  if (!cooperative) return 0;
  PMC_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  PMC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fused_kernel(ell, elements_per_thread),
                                                               k_block_threads, 0));
  return static_cast<uint64_t>(sms) * static_cast<uint64_t>(per_sm);
}

// The fused loop's shape for `elements` elements: E and the grid, or E = 0
// when they do not fit the resident threads.
struct FusedShape {
  int elements_per_thread = 0;
  unsigned blocks = 0;
};
FusedShape fused_shape(bool ell, uint64_t elements) {
  for (int e : k_fused_elements) {
    const uint64_t blocks = (elements + uint64_t{k_block_threads} * e - 1) / (uint64_t{k_block_threads} * e);
    if (blocks <= resident_blocks(ell, e)) return {e, static_cast<unsigned>(blocks)};
  }
  return {};
}

// The block loop (pk::BlockThread): one block per region, the region's
// lo/hi in shared memory.
constexpr uint32_t k_block_loop_max_threads = 512;
constexpr int k_block_elements[] = {1, 2, 4, 8, 16};

template <bool Ell, int E>
__global__ void __launch_bounds__(k_block_loop_max_threads, 1)
    param_steps_block(pk::PatternView m, pk::RegionsView g, pk::PhaseView ph, pk::VectorsView v, uint32_t k_first,
                      uint32_t k_last) {
  extern __shared__ double shared[];
  const uint32_t r = blockIdx.x;
  const uint32_t end = pk::block_end(ph, r, k_last);
  if (end < k_first) return;  // the whole block: its region's steps are done
  const uint64_t n = m.rows;
  const pk::SharedRegion sh{{shared, shared + n}, {shared + 2 * n, shared + 3 * n}};
  pk::block_load(m, g, v, sh, r, k_first, threadIdx.x, blockDim.x);
  pk::BlockThread<Ell, E> thread;
  thread.load(m, g, ph, v, r, threadIdx.x, blockDim.x);
  __syncthreads();
  for (uint32_t k = k_first; k <= end; ++k) {
    thread.step(m, g, ph, sh, r, threadIdx.x, blockDim.x, k);
    __syncthreads();
  }
  thread.store(g, v, sh, r, threadIdx.x, blockDim.x, end);
}

template <bool Ell, int E>
const void* block_kernel() {
  return reinterpret_cast<const void*>(&param_steps_block<Ell, E>);
}
const void* block_kernel(bool ell, int elements_per_thread) {
  switch (elements_per_thread) {
    case 1: return ell ? block_kernel<true, 1>() : block_kernel<false, 1>();
    case 2: return ell ? block_kernel<true, 2>() : block_kernel<false, 2>();
    case 4: return ell ? block_kernel<true, 4>() : block_kernel<false, 4>();
    case 8: return ell ? block_kernel<true, 8>() : block_kernel<false, 8>();
    default: return ell ? block_kernel<true, 16>() : block_kernel<false, 16>();
  }
}

// The block loop's shape for n states: E states per thread, the threads
// and the shared bytes of a block; E = 0 where a region does not fit.
struct BlockShape {
  int elements_per_thread = 0;
  unsigned threads = 0;
  size_t shared_bytes = 0;
};
uint64_t shared_bytes_per_block() {
  int device = 0, shared_optin = 0;
  PMC_CUDA_CHECK(cudaGetDevice(&device));
  PMC_CUDA_CHECK(cudaDeviceGetAttribute(&shared_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return static_cast<uint64_t>(shared_optin);
}
BlockShape block_shape(uint64_t n) {
  const uint64_t bytes = n * 4 * sizeof(double);
  if (bytes > shared_bytes_per_block()) return {};
  for (int e : k_block_elements) {
    const uint64_t threads = (n + e - 1) / e;
    if (threads <= k_block_loop_max_threads) {
      return {e, static_cast<unsigned>((threads + 31) / 32 * 32), static_cast<size_t>(bytes)};
    }
  }
  return {};
}

// The block loop is the automatic choice for models this small: a grid
// barrier would cost more than a step. Measured on an H100 (bench/NOTES.md,
// 2026-11-23): am_10_4 (120 states) 2.2× faster end to end than the fused
// loop; sir_100 (5136 states) slower than fused at every region count
// (one block's 352 threads spill and cannot hide the pattern's latency).
constexpr uint64_t k_block_loop_small_model = 1024;

// The most elements one fused launch can hold on this device.
uint64_t fused_capacity(bool ell) {
  constexpr int e = k_fused_elements[std::size(k_fused_elements) - 1];
  return resident_blocks(ell, e) * k_block_threads * e;
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
  BlockShape block;  // elements_per_thread > 0: the block loop
  FusedShape fused;  // elements_per_thread > 0: the fused loop; neither: one launch per step
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
  void steps(size_t ph, uint32_t k_first, uint32_t k_last) {
    progress.tick(steps_done);  // throws when cancelled
    pk::PhaseView phase = data.phase(ph, active[ph].data());
    if (block.elements_per_thread > 0) {
      pk::PatternView m = pattern.view;
      pk::RegionsView g = regions;
      pk::VectorsView vectors = v;
      void* args[] = {&m, &g, &phase, &vectors, &k_first, &k_last};
      PMC_CUDA_CHECK(cudaLaunchKernel(block_kernel(ell, block.elements_per_thread), count, block.threads, args,
                                      block.shared_bytes, nullptr));
    } else if (fused.elements_per_thread > 0) {
      pk::PatternView m = pattern.view;
      pk::RegionsView g = regions;
      pk::VectorsView vectors = v;
      void* args[] = {&m, &g, &phase, &vectors, &k_first, &k_last};
      PMC_CUDA_CHECK(cudaLaunchCooperativeKernel(fused_kernel(ell, fused.elements_per_thread), fused.blocks,
                                                 k_block_threads, args, 0, nullptr));
    } else {
      for (uint32_t k = k_first; k <= k_last; ++k) {
        if (ell) {
          param_step<true><<<blocks(), k_block_threads>>>(pattern.view, regions, phase, v, k);
        } else {
          param_step<false><<<blocks(), k_block_threads>>>(pattern.view, regions, phase, v, k);
        }
        PMC_CUDA_CHECK_LAUNCH("param_step");
      }
    }
    steps_done += k_last - k_first + 1;
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
                            std::vector<ParamBounds>& out, const SolverSettings& settings, ParamGpuLoop loop) {
  const auto start = std::chrono::steady_clock::now();
  check_param_problem(problem, boxes);
  throw_if_cancelled(settings.cancel);
  const bool ell = choose_ell(problem, settings.gpu_layout);
  select_device(settings);
  SolveStats stats;
  stats.solver = "gpu.param-bounds";
  stats.kernel = ell ? "ell" : "csr";
  if (loop != ParamGpuLoop::automatic && loop != ParamGpuLoop::per_step && loop != ParamGpuLoop::fused &&
      loop != ParamGpuLoop::block) {
    throw Error(ErrorCode::invalid_argument, "gpu.param-bounds: unknown loop");
  }
  const uint64_t n = problem.num_states;
  out.assign(boxes.size(), ParamBounds{});
  if (boxes.empty() || n == 0) {
    stats.converged = true;
    return stats;
  }
  // Fox–Glynn may throw (λ too large): every plan before any device work.
  std::vector<pk::RegionPlan> by_box(boxes.size());
  std::vector<uint64_t> region_steps(boxes.size(), 0);
  uint64_t total_steps = 0;
  for (size_t r = 0; r < boxes.size(); ++r) {
    by_box[r].q = region_uniformisation_rate(problem, boxes[r]);
    by_box[r].phases = plan_phases(problem, by_box[r].q);
    for (const PhasePlan& pp : by_box[r].phases) region_steps[r] += pp.steps;
    total_steps += region_steps[r];
  }
  // Launches take the regions longest first: a launch holds regions of
  // similar length, so few of its threads idle while its longest goes on
  // (a region's steps vary with its largest rate, 60-fold over the seed's
  // epidemic space). order[i]: the box at place i.
  std::vector<size_t> order(boxes.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return region_steps[a] > region_steps[b]; });
  std::vector<ParamBox> sorted_boxes;
  std::vector<pk::RegionPlan> plans;
  for (size_t i : order) {
    sorted_boxes.push_back(boxes[i]);
    plans.push_back(by_box[i]);
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
  auto chunk = static_cast<uint32_t>(std::min<uint64_t>({fit, boxes.size(), uint64_t{1} << 16}));
  // The block loop where a region fits a block's shared memory and the
  // launch has regions enough (or the model is small); otherwise the fused
  // loop, which takes as many regions per launch as its resident threads
  // hold; where not even one region fits, one launch per step.
  const bool may_block = loop == ParamGpuLoop::automatic || loop == ParamGpuLoop::block;
  const BlockShape block = may_block ? block_shape(n) : BlockShape{};
  if (loop == ParamGpuLoop::block && block.elements_per_thread == 0) {
    throw Error(ErrorCode::unsupported, "gpu.param-bounds: the block loop keeps a region in shared memory, " +
                                            std::to_string(n * 4 * sizeof(double)) + " bytes for " +
                                            std::to_string(n) + " states; a block has " +
                                            std::to_string(shared_bytes_per_block()) + " (and 8192 states at most)");
  }
  const bool use_block =
      block.elements_per_thread > 0 && (loop == ParamGpuLoop::block || n <= k_block_loop_small_model);
  if (use_block) {
    PMC_CUDA_CHECK(cudaFuncSetAttribute(block_kernel(ell, block.elements_per_thread),
                                        cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(block.shared_bytes)));
  }
  const uint64_t capacity =
      use_block || loop == ParamGpuLoop::per_step || loop == ParamGpuLoop::block ? 0 : fused_capacity(ell);
  const bool use_fused = capacity >= n && n <= UINT32_MAX;
  if (loop == ParamGpuLoop::fused && !use_fused) {
    throw Error(ErrorCode::unsupported,
                "gpu.param-bounds: the fused loop needs cooperative launch and at most " + std::to_string(capacity) +
                    " elements per launch; one region has " + std::to_string(n));
  }
  if (use_fused) chunk = static_cast<uint32_t>(std::min<uint64_t>(chunk, capacity / n));
  stats.kernel += use_block ? "/block" : use_fused ? "/fused" : "/per-step";

  DeviceBuffer<double> lo0(n * chunk), lo1(n * chunk), hi0(n * chunk), hi1(n * chunk), res_lo(n * chunk),
      res_hi(n * chunk), out_lo(kept.size() * chunk), out_hi(kept.size() * chunk);
  ProgressReporter progress(settings, "gpu.param-bounds", total_steps);
  EventTimer timer;
  uint64_t steps_done = 0;
  double bytes_moved = 0;
  std::vector<double> host_lo, host_hi;
  for (size_t first = 0; first < boxes.size(); first += chunk) {
    const auto count = static_cast<uint32_t>(std::min<size_t>(chunk, boxes.size() - first));
    pk::ChunkPlan plan;
    if (!pk::plan_chunk(problem, sorted_boxes, plans, first, count, plan)) {
      throw Error(ErrorCode::invalid_argument, "gpu.param-bounds: a region needs 2^32 or more steps");
    }
    const DeviceChunk data(plan);
    const pk::RegionsView regions{count, data.lower.data(), data.upper.data(), data.inv_q.data()};
    const pk::VectorsView v{{lo0.data(), lo1.data()}, {hi0.data(), hi1.data()}, res_lo.data(), res_hi.data()};
    const FusedShape shape = use_fused ? fused_shape(ell, n * count) : FusedShape{};
    if (use_fused && shape.elements_per_thread == 0) {
      throw Error(ErrorCode::internal, "gpu.param-bounds: a fused launch does not fit its capacity");
    }
    DeviceLauncher launch{problem,       pattern,       data,        regions, v,   active, x0.data(),
                          kept_states.data(), out_lo.data(), out_hi.data(), kept.size(), count, ell,
                          use_block ? block : BlockShape{}, shape, progress, steps_done};
    // What must move per step if every vector element is read and written
    // once. Per-step loop: the pattern once (shared by the regions) and,
    // per state and region, lo/hi read and written and the two weighted
    // sums read and written (64 B); fused loop: the pattern and 32 B (sums
    // and own values in registers); block loop: the pattern per region
    // (the vectors stay in shared memory), for each region's own steps.
    if (use_block) {
      for (uint32_t r = 0; r < count; ++r) {
        for (const PhasePlan& pp : plans[first + r].phases) {
          bytes_moved += static_cast<double>(pp.steps) * static_cast<double>(pattern.bytes());
        }
      }
    } else {
      uint32_t chunk_steps = 0;
      for (const pk::ChunkPlan::Phase& ph : plan.phases) chunk_steps += ph.max_steps;
      bytes_moved += static_cast<double>(chunk_steps) * (static_cast<double>(pattern.bytes()) +
                                                         static_cast<double>(n * count) * (use_fused ? 32.0 : 64.0));
    }
    timer.start();
    pk::run_chunk(problem, plan, launch);
    stats.loop_seconds += timer.stop_seconds();
    out_lo.download(host_lo);
    out_hi.download(host_hi);
    for (uint32_t r = 0; r < count; ++r) {
      ParamBounds& b = out[order[first + r]];
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
  // bytes_per_iteration × iterations is what moved over all launches.
  stats.bytes_per_iteration = stats.iterations > 0 ? bytes_moved / static_cast<double>(stats.iterations) : 0;
  stats.seconds = seconds_since(start);
  return stats;
}

SolveStats param_bounds_gpu(const ParamBoundsProblem& problem, const std::vector<ParamBox>& boxes,
                            std::vector<ParamBounds>& out, const SolverSettings& settings) {
  return param_bounds_gpu(problem, boxes, out, settings, ParamGpuLoop::automatic);
}

}  // namespace pmc
