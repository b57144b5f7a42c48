// gpu.interval-vi on a resident chain, the solve on the device
// (lib/solver/gpu/resident_reachability.cpp caches the chain on the model): P[φ U ψ] of a DTMC (or a
// CTMC's embedded DTMC) with everything after the labels on the GPU. The
// first check of a model uploads its probability matrix and transposes it
// there (cuda/resident_chain.hpp, cached on the model); each check then
// uploads only φ and ψ (a bit per state), runs prob0/prob1 as frontier
// searches (cuda/frontier_search.hpp), and iterates both bounds on the whole
// matrix with the states prob0/prob1 decide held fixed — the equation system
// the host would build (restrict_linear) is implicit in that mask — and
// reads back one {lower, upper} pair and one status byte per state.
//
// Host code over the launchers of cuda/resident_kernels.hpp and the
// searches of cuda/frontier_search.hpp. Its work goes to the legacy default
// stream, as the resident MDP solve's (resident_mdp_reachability.cpp) does.
#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "common/error_code.hpp"
#include "common/large_arrays.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/device_runtime.hpp"
#include "cuda/frontier_search.hpp"
#include "cuda/interval_kernels.hpp"
#include "cuda/resident_chain.hpp"
#include "cuda/resident_kernels.hpp"
#include "solver/convergence.hpp"
#include "solver/device/device_selection.hpp"
#include "solver/gpu/gpu_solvers.hpp"
#include "solver/gpu/interval_loop.hpp"
#include "solver/gpu/resident_solves.hpp"

namespace pmc {

namespace {

using namespace pmc::cuda;
using namespace pmc::gpu::interval_loop;

constexpr const char* k_name = "gpu.interval-vi";

// The kernels classify states with the values the solution reports.
static_assert(cuda::k_reach_maybe == pmc::k_reach_maybe && cuda::k_reach_one == pmc::k_reach_one &&
              cuda::k_reach_zero == pmc::k_reach_zero);

// The vectors of one solve on a chain of n states, reused by the next
// (ResidentChain::workspace).
struct Workspace {
  explicit Workspace(uint64_t n)
      : left((n + 63) / 64), right((n + 63) / 64), first(n), second(n), status(n), v(n), w(n), search(n) {}
  DeviceBuffer<uint64_t> left, right;
  DeviceBuffer<unsigned> first, second;
  DeviceBuffer<uint8_t> status;
  DeviceBuffer<BoundPair> v, w;
  FrontierSearch search;
  PinnedBuffer<unsigned char> staging;  // the results' way back (download_reachability_results)
};

}  // namespace

void upload_words(DeviceBuffer<uint64_t>& to, const std::vector<uint64_t>& words) {
  if (words.size() != to.size()) throw Error(ErrorCode::internal, "gpu.interval-vi: label mask of the wrong size");
  if (!words.empty()) copy_to_device(to.data(), words.data(), words.size() * sizeof(uint64_t), nullptr);
}

namespace {

// The staging buffer's size: pieces of 32 MB cross the link in ~1 ms.
constexpr size_t k_staging_bytes = size_t{32} << 20;

// `count` values of device array `from` through `staging`, a piece at a
// time; consume(first, values, length) takes each piece from the pinned
// buffer before the next overwrites it.
template <typename T, typename Consume>
void staged_copy(const T* from, uint64_t count, PinnedBuffer<unsigned char>& staging, double& transfer_seconds,
                 Consume consume) {
  staging.allocate(k_staging_bytes);
  const uint64_t piece = k_staging_bytes / sizeof(T);
  for (uint64_t at = 0; at < count; at += piece) {
    const uint64_t length = std::min(piece, count - at);
    const auto t = std::chrono::steady_clock::now();
    copy_to_host(staging.data(), from + at, length * sizeof(T), nullptr);
    transfer_seconds += seconds_since(t);
    consume(at, reinterpret_cast<const T*>(staging.data()), static_cast<int64_t>(length));
  }
}

}  // namespace

void download_reachability_results(const DeviceBuffer<BoundPair>& v, const DeviceBuffer<uint8_t>& status,
                                   const DeviceBuffer<int32_t>* local, uint64_t n,
                                   PinnedBuffer<unsigned char>& staging, ReachabilitySolution& out,
                                   double& transfer_seconds) {
  ArraySizing sizing;
  sizing.add(out.status, n);
  sizing.add(out.lower, n);
  sizing.add(out.upper, n);
  sizing.add(out.values, n);
  if (local != nullptr) sizing.add(out.choice, n);
  sizing.run();
  staged_copy(v.data(), n, staging, transfer_seconds, [&](uint64_t at, const BoundPair* pairs, int64_t length) {
#pragma omp parallel for schedule(static) if (length > 65536)
    for (int64_t i = 0; i < length; ++i) {
      out.lower[at + i] = pairs[i].lower;
      out.upper[at + i] = pairs[i].upper;
      out.values[at + i] = bounds_midpoint(pairs[i].lower, pairs[i].upper);
    }
  });
  staged_copy(status.data(), n, staging, transfer_seconds, [&](uint64_t at, const uint8_t* bytes, int64_t length) {
    copy_in_parallel(out.status.data() + at, bytes, static_cast<size_t>(length));
  });
  if (local == nullptr) return;
  staged_copy(local->data(), n, staging, transfer_seconds, [&](uint64_t at, const int32_t* choices, int64_t length) {
#pragma omp parallel for schedule(static) if (length > 65536)
    for (int64_t i = 0; i < length; ++i) out.choice[at + i] = choices[i];
  });
}

std::shared_ptr<void> gpu_upload_chain(const SolverSettings& settings, uint64_t states, const uint64_t* groups,
                                       const uint64_t* offsets, const uint32_t* columns, const double* values,
                                       double& upload_seconds) {
  const int ordinal = primary_device_ordinal(settings);
  make_device_current(ordinal);
  return std::make_shared<ResidentChain>(ordinal, states, groups, offsets, columns, values, upload_seconds);
}

SolveStats gpu_reachability_on_chain(const void* resident, const ReachabilityProblem& p, ReachabilitySolution& out,
                                     const SolverSettings& settings) {
  const auto start = std::chrono::steady_clock::now();
  SolveStats stats;
  stats.solver = k_name;
  auto* chain = const_cast<ResidentChain*>(static_cast<const ResidentChain*>(resident));
  make_device_current(chain->ordinal);
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
  if (n > 0) launch_classify_states(n, first.data(), second.data(), status.data(), v.data(), w.data(), nullptr);
  synchronize(nullptr);  // all of the search's work is on the legacy default stream
  stats.precompute_seconds = seconds_since(t);

  const bool warp = warp_layout(settings, n, chain->entries);
  stats.kernel = std::string("resident ") + (warp ? "warp-per-row" : "thread-per-row");
  // The matrix, the status bytes, the pairs gathered (at least once) and written.
  stats.bytes_per_iteration = chain->matrix_bytes() + n * (1.0 + 16.0 + 16.0);
  CheckRecord record;
  StreamTimer timer(nullptr);
  timer.start();
  ProgressReporter progress(settings, k_name, settings.max_iterations);
  double residual = std::numeric_limits<double>::quiet_NaN();
  bool done = true;
  if (n > 0) {
    launch_masked_gaps(n, status.data(), v.data(), settings.epsilon, settings.relative ? 1 : 0, record.reset(),
                       nullptr);
    done = record.read().open == 0;
  }
  if (!done) {
    done = iterate(
        [&](IntervalCheck* check) {
          const MaskedRows u{n, chain->matrix(), status.data(), v.data(), w.data(), check, settings.epsilon,
                             settings.relative ? 1 : 0};
          launch_masked_rows(u, warp, nullptr);
          std::swap(v, w);
        },
        [](const CheckReading& r) { return r.open == 0; }, record, settings, stats, progress, residual);
  }
  stats.converged = done;
  stats.sound = true;  // [0, 1] brackets every probability; the clamped iteration keeps the bracket
  stats.loop_seconds = timer.stop_seconds();

  download_reachability_results(v, status, nullptr, n, ws.staging, out, stats.transfer_seconds);
  stats.seconds = seconds_since(start);
  return stats;
}

}  // namespace pmc
