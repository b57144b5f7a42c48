// gpu.param-bounds: the backward parametric transient analysis of Češka et
// al. 2017 (PRISM-PSY) §3.2 on the device, with the seed's two-level
// parallelism (§3.4): one thread per (state, region), many regions in one
// kernel over the sparsity pattern they share. The numerics are those of
// cpu.param-bounds (lib/solver/param/param_bounds.cpp): the same rate bounds, the
// same per-region uniformisation rate and Fox–Glynn plan (param_setup.cpp,
// on the host), the same order of the sums. The per-thread work lives in
// cuda/param_kernels.hpp, which the CPU tests also run, and the kernels and
// their launchers in cuda/param_bounds_kernels.*; this is the host half:
// the plans, the chunks of regions, the choice of loop, progress.
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
#include <algorithm>
#include <chrono>
#include <numeric>
#include <string>

#include "common/stopwatch.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/devices.hpp"
#include "cuda/param_bounds_kernels.hpp"
#include "cuda/param_kernels.hpp"
#include "solver/device/device_selection.hpp"
#include "solver/gpu/gpu_solvers.hpp"
#include "solver/gpu/param_chunk_plan.hpp"
#include "solver/param/param_setup.hpp"
#include "solver/progress.hpp"

namespace pmc {

using namespace pmc::cuda;
namespace pk = pmc::param_kernels;

namespace {

// ELL pays when padding to the longest row adds at most half again the entries.
constexpr double k_ell_max_padding = 1.5;

// The block loop is the automatic choice for models this small: a grid
// barrier would cost more than a step. Measured on an H100 (bench/NOTES.md,
// 2026-11-23): am_10_4 (120 states) 2.2× faster end to end than the fused
// loop; sir_100 (5136 states) slower than fused at every region count
// (one block's 352 threads spill and cannot hide the pattern's latency).
constexpr uint64_t k_block_loop_small_model = 1024;

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
  ParamStepLoop loop;
  ProgressReporter& progress;
  uint64_t& steps_done;
  StreamHandle stream;

  uint64_t elements() const { return problem.num_states * count; }
  void start() { launch_param_start(elements(), count, x0, v, stream); }
  void start_phase(size_t ph, int zero_inactive) {
    launch_param_start_phase(elements(), count, data.phase(ph, active[ph].data()), zero_inactive, v, stream);
  }
  void steps(size_t ph, uint32_t k_first, uint32_t k_last) {
    progress.tick(steps_done);  // throws when cancelled
    launch_param_steps(loop, ell, pattern.view, regions, data.phase(ph, active[ph].data()), v, k_first, k_last,
                       stream);
    steps_done += k_last - k_first + 1;
  }
  void finish_phase(size_t ph, int probability) {
    launch_param_finish_phase(elements(), count, data.phase(ph, active[ph].data()), probability, v, stream);
  }
  void gather() { launch_param_gather(kept, count, kept_states, v.lo[0], v.hi[0], out_lo, out_hi, stream); }
};

}  // namespace

SolveStats param_bounds_gpu(const ParamBoundsProblem& problem, const std::vector<ParamBox>& boxes,
                            std::vector<ParamBounds>& out, const SolverSettings& settings, ParamGpuLoop loop) {
  const auto start = std::chrono::steady_clock::now();
  check_param_problem(problem, boxes);
  throw_if_cancelled(settings.cancel);
  const bool ell = choose_ell(problem, settings.gpu_layout);
  const int ordinal = primary_device_ordinal(settings);
  make_device_current(ordinal);
  // The legacy default stream, as the model's other device work: a stream
  // of this solve's own is still to come.
  const StreamHandle stream = nullptr;
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
  device_memory_of_ordinal(ordinal, free_bytes, total_bytes);
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
  const ParamBlockShape block = may_block ? param_block_shape(n) : ParamBlockShape{};
  if (loop == ParamGpuLoop::block && block.elements_per_thread == 0) {
    throw Error(ErrorCode::unsupported, "gpu.param-bounds: the block loop keeps a region in shared memory, " +
                                            std::to_string(n * 4 * sizeof(double)) + " bytes for " +
                                            std::to_string(n) + " states; a block has " +
                                            std::to_string(shared_bytes_per_block()) + " (and 8192 states at most)");
  }
  const bool use_block =
      block.elements_per_thread > 0 && (loop == ParamGpuLoop::block || n <= k_block_loop_small_model);
  if (use_block) prepare_param_block_loop(ell, block);
  const uint64_t capacity =
      use_block || loop == ParamGpuLoop::per_step || loop == ParamGpuLoop::block ? 0 : param_fused_capacity(ell);
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
  StreamTimer timer(stream);
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
    const ParamFusedShape shape = use_fused ? param_fused_shape(ell, n * count) : ParamFusedShape{};
    if (use_fused && shape.elements_per_thread == 0) {
      throw Error(ErrorCode::internal, "gpu.param-bounds: a fused launch does not fit its capacity");
    }
    DeviceLauncher launch{problem,
                          pattern,
                          data,
                          regions,
                          v,
                          active,
                          x0.data(),
                          kept_states.data(),
                          out_lo.data(),
                          out_hi.data(),
                          kept.size(),
                          count,
                          ell,
                          ParamStepLoop{use_block ? block : ParamBlockShape{}, shape},
                          progress,
                          steps_done,
                          stream};
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
