// gpu.interval-vi on a resident chain (issue 19), the device half
// (lib/solver/gpu/resident_reachability.cpp caches the chain on the model): P[φ U ψ] of a DTMC (or a
// CTMC's embedded DTMC) with everything after the labels on the GPU. The
// first check of a model uploads its probability matrix and transposes it
// there (cuda/resident_chain.hpp, cached on the model); each check then
// uploads only φ and ψ (a bit per state), runs prob0/prob1 as frontier
// searches (cuda/frontier_search.hpp), and iterates both bounds on the whole
// matrix with the states prob0/prob1 decide held fixed — the equation system
// the host would build (restrict_linear) is implicit in that mask — and
// reads back one {lower, upper} pair and one status byte per state.
#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "cuda/check.cuh"
#include "common/error_code.hpp"
#include "cuda/device_context.cuh"
#include "cuda/frontier_search.hpp"
#include "solver/gpu/gpu_solvers.hpp"
#include "cuda/interval_kernels.cuh"
#include "cuda/resident_chain.hpp"
#include "cuda/resident_mdp.hpp"
#include "solver/convergence.hpp"
#include "solver/gpu/interval_loop.hpp"

namespace pmc {

namespace {

using namespace pmc::cuda;
using namespace pmc::gpu::interval_loop;

constexpr const char* k_name = "gpu.interval-vi";

// prob0 = not reached by the first search; prob1 = not reached by the second.
__global__ void classify_states(uint64_t n, const unsigned* first, const unsigned* second, uint8_t* status,
                                double2* v, double2* w) {
  const uint64_t s = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (s >= n) return;
  const uint8_t st = first[s] == 0 ? k_reach_zero : (second[s] == 0 ? k_reach_one : k_reach_maybe);
  status[s] = st;
  // Fixed states hold their value in both vectors (the iteration swaps
  // them and writes maybe states only); maybe states start from [0, 1].
  const double2 start = st == k_reach_one ? make_double2(1.0, 1.0)
                                           : (st == k_reach_zero ? make_double2(0.0, 0.0) : make_double2(0.0, 1.0));
  v[s] = start;
  w[s] = start;
}

struct MaskedRows {
  uint64_t rows;
  const uint64_t* offsets;
  const uint32_t* columns;
  const double* values;
  const uint8_t* status;
  const double2* v;
  double2* w;
  IntervalCheck* check;  // null except on check iterations
  double epsilon;
  int relative;
};

// x_s = Σ_{t≠s} P(s,t)·x_t / (1 − P(s,s)) on both bounds, clamped monotone
// (as interval_rows in cuda/interval_kernels.cuh, with the diagonal and
// the fixed states' contribution found in the row itself).
__device__ inline CheckPartial finish_masked_row(const MaskedRows& u, uint64_t i, double2 sum, double diagonal) {
  CheckPartial part = no_check();
  const double scale = 1.0 / (1.0 - diagonal);
  const double2 old = u.v[i];
  const double lower = fmax(old.x, sum.x * scale);
  const double upper = fmin(old.y, sum.y * scale);
  u.w[i] = make_double2(lower, upper);
  part.open = device_bounds_close(lower, upper, u.epsilon, u.relative) ? 0 : 1;
  part.widest = upper - lower;
  return part;
}

__global__ void masked_rows_thread(MaskedRows u) {
  const uint64_t i = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  CheckPartial part = no_check();
  if (i < u.rows && u.status[i] == k_reach_maybe) {
    double2 sum = make_double2(0.0, 0.0);
    double diagonal = 0.0;
    for (uint64_t k = u.offsets[i]; k < u.offsets[i + 1]; ++k) {
      const uint32_t j = u.columns[k];
      const double a = u.values[k];
      if (j == i) {
        diagonal += a;
        continue;
      }
      const double2 x = u.v[j];
      sum.x += a * x.x;
      sum.y += a * x.y;
    }
    part = finish_masked_row(u, i, sum, diagonal);
  }
  if (u.check) reduce_check(part, u.check);
}

__global__ void masked_rows_warp(MaskedRows u) {
  const uint64_t i = (blockIdx.x * uint64_t{k_block_threads} + threadIdx.x) / k_warp;
  const unsigned lane = threadIdx.x % k_warp;
  CheckPartial part = no_check();
  if (i < u.rows && u.status[i] == k_reach_maybe) {  // uniform across the warp: the shuffles see all 32
    double2 sum = make_double2(0.0, 0.0);
    double diagonal = 0.0;
    for (uint64_t k = u.offsets[i] + lane; k < u.offsets[i + 1]; k += k_warp) {
      const uint32_t j = u.columns[k];
      const double a = u.values[k];
      if (j == i) {
        diagonal += a;
        continue;
      }
      const double2 x = u.v[j];
      sum.x += a * x.x;
      sum.y += a * x.y;
    }
    for (int delta = k_warp / 2; delta > 0; delta /= 2) {
      sum.x += __shfl_down_sync(0xffffffffu, sum.x, delta);
      sum.y += __shfl_down_sync(0xffffffffu, sum.y, delta);
      diagonal += __shfl_down_sync(0xffffffffu, diagonal, delta);
    }
    if (lane == 0) part = finish_masked_row(u, i, sum, diagonal);
  }
  if (u.check) reduce_check(part, u.check);
}

// The stopping test on the start bounds: 0 open means no maybe state.
__global__ void masked_gaps(uint64_t n, const uint8_t* status, const double2* v, double epsilon, int relative,
                            IntervalCheck* check) {
  const uint64_t i = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  CheckPartial part = no_check();
  if (i < n && status[i] == k_reach_maybe) {
    const double2 p = v[i];
    part.open = device_bounds_close(p.x, p.y, epsilon, relative) ? 0 : 1;
    part.widest = p.y - p.x;
  }
  reduce_check(part, check);
}


// The vectors of one solve on a chain of n states, reused by the next
// (ResidentChain::workspace): the results come back through pinned memory.
struct Workspace {
  explicit Workspace(uint64_t n)
      : left((n + 63) / 64), right((n + 63) / 64), first(n), second(n), status(n), v(n), w(n), search(n) {}
  DeviceBuffer<uint64_t> left, right;
  DeviceBuffer<unsigned> first, second;
  DeviceBuffer<uint8_t> status;
  DeviceBuffer<BoundPair> v, w;
  FrontierSearch search;
  PinnedBuffer<BoundPair> pairs;
  PinnedBuffer<uint8_t> status_out;
};

}  // namespace

void upload_words(DeviceBuffer<uint64_t>& to, const std::vector<uint64_t>& words) {
  if (words.size() != to.size()) throw Error(ErrorCode::internal, "gpu.interval-vi: label mask of the wrong size");
  if (!words.empty()) {
    PMC_CUDA_CHECK(cudaMemcpy(to.data(), words.data(), words.size() * sizeof(uint64_t), cudaMemcpyHostToDevice));
  }
}

// Split over the host's cores: millions of states take ~10 ms on one core.
// The vectors' zero-filling resize stays on this thread.
void split_reachability_results(const BoundPair* pairs, const uint8_t* status, uint64_t n,
                                 ReachabilitySolution& out) {
  out.status.resize(n);
  out.lower.resize(n);
  out.upper.resize(n);
  out.values.resize(n);
  const uint64_t workers =
      std::max<uint64_t>(1, std::min<uint64_t>(std::thread::hardware_concurrency(), n / (1u << 16)));
  auto part = [&](uint64_t w) {
    const uint64_t begin = n * w / workers, end = n * (w + 1) / workers;
    for (uint64_t s = begin; s < end; ++s) {
      out.status[s] = status[s];
      out.lower[s] = pairs[s].lower;
      out.upper[s] = pairs[s].upper;
      out.values[s] = bounds_midpoint(pairs[s].lower, pairs[s].upper);
    }
  };
  std::vector<std::thread> threads;
  for (uint64_t w = 1; w < workers; ++w) threads.emplace_back(part, w);
  part(0);
  for (std::thread& t : threads) t.join();
}

std::shared_ptr<void> gpu_upload_chain(const SolverSettings& settings, uint64_t states, const uint64_t* groups,
                                       const uint64_t* offsets, const uint32_t* columns, const double* values,
                                       double& upload_seconds) {
  select_device(settings);
  int ordinal = 0;
  PMC_CUDA_CHECK(cudaGetDevice(&ordinal));
  return std::make_shared<ResidentChain>(ordinal, states, groups, offsets, columns, values, upload_seconds);
}

SolveStats gpu_reachability_on_chain(const void* resident, const ReachabilityProblem& p, ReachabilitySolution& out,
                                     const SolverSettings& settings) {
  const auto start = std::chrono::steady_clock::now();
  SolveStats stats;
  stats.solver = k_name;
  auto* chain = const_cast<ResidentChain*>(static_cast<const ResidentChain*>(resident));
  PMC_CUDA_CHECK(cudaSetDevice(chain->ordinal));
  const uint64_t n = p.states;
  if (n != chain->states || p.is_mdp() != chain->is_mdp()) {
    throw Error(ErrorCode::internal, "gpu.interval-vi: the resident copy is of another model");
  }
  if (chain->is_mdp()) return gpu_mdp_reachability_on_chain(*chain, p, out, settings);
  std::lock_guard<std::mutex> turn(chain->workspace_mutex);
  if (!chain->workspace) chain->workspace = std::make_shared<Workspace>(n);
  Workspace& ws = *static_cast<Workspace*>(chain->workspace.get());
  DeviceBuffer<uint64_t>&left = ws.left, &right = ws.right;
  DeviceBuffer<unsigned>&first = ws.first, &second = ws.second;
  DeviceBuffer<uint8_t>& status = ws.status;
  DeviceBuffer<BoundPair>&v = ws.v, &w = ws.w;
  FrontierSearch& search = ws.search;

  auto t = std::chrono::steady_clock::now();
  upload_words(left, *p.left);
  upload_words(right, *p.right);
  stats.transfer_seconds += seconds_since(t);

  // prob0: the states the backward search from ψ through φ misses; prob1:
  // those the search from prob0 through φ \ ψ misses.
  t = std::chrono::steady_clock::now();
  search.seed_set(right.data(), first.data());
  search.run(*chain, left.data(), nullptr, first.data());
  search.seed_unreached_by(first.data(), second.data());
  search.run(*chain, left.data(), right.data(), second.data());
  if (n > 0) {
    classify_states<<<blocks_for_threads(n), k_block_threads>>>(n, first.data(), second.data(), status.data(),
                                                                as_double2(v.data()), as_double2(w.data()));
    PMC_CUDA_CHECK_LAUNCH("classify_states");
  }
  PMC_CUDA_CHECK(cudaDeviceSynchronize());
  stats.precompute_seconds = seconds_since(t);

  const bool warp = warp_layout(settings, n, chain->entries);
  stats.kernel = std::string("resident ") + (warp ? "warp-per-row" : "thread-per-row");
  // The matrix, the status bytes, the pairs gathered (at least once) and written.
  stats.bytes_per_iteration = chain->matrix_bytes() + n * (1.0 + 16.0 + 16.0);
  CheckRecord record;
  EventTimer timer;
  timer.start();
  ProgressReporter progress(settings, k_name, settings.max_iterations);
  double residual = std::numeric_limits<double>::quiet_NaN();
  bool done = true;
  if (n > 0) {
    masked_gaps<<<blocks_for_threads(n), k_block_threads>>>(n, status.data(), as_double2(v.data()), settings.epsilon,
                                                            settings.relative ? 1 : 0, record.reset());
    PMC_CUDA_CHECK_LAUNCH("masked_gaps");
    done = record.read().open == 0;
  }
  if (!done) {
    done = iterate(
        [&](IntervalCheck* check) {
          const MaskedRows u{n, chain->offsets.data(), chain->columns.data(), chain->values.data(), status.data(),
                             as_double2(v.data()), as_double2(w.data()), check, settings.epsilon,
                             settings.relative ? 1 : 0};
          if (warp) {
            masked_rows_warp<<<blocks_for_warps(n), k_block_threads>>>(u);
          } else {
            masked_rows_thread<<<blocks_for_threads(n), k_block_threads>>>(u);
          }
          PMC_CUDA_CHECK_LAUNCH("masked_rows");
          std::swap(v, w);
        },
        [](const CheckReading& r) { return r.open == 0; }, record, settings, stats, progress, residual);
  }
  stats.converged = done;
  stats.sound = true;  // [0, 1] brackets every probability; the clamped iteration keeps the bracket
  stats.loop_seconds = timer.stop_seconds();

  t = std::chrono::steady_clock::now();
  ws.pairs.download(v);
  ws.status_out.download(status);
  stats.transfer_seconds += seconds_since(t);
  split_reachability_results(ws.pairs.data(), ws.status_out.data(), n, out);
  stats.seconds = seconds_since(start);
  return stats;
}

}  // namespace pmc
