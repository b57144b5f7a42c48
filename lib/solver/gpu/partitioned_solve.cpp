// gpu.jacobi and gpu.vi over several GPUs: the rows are cut into slices
// balanced by non-zeros (solver/device/row_partition.hpp), each GPU updates its
// slice against the whole iterate, and the slices travel between GPUs
// after every iteration (cuda/slice_exchange.hpp: NCCL all-gather, or peer
// copies). Per iteration and GPU:
//
//   compute: interior rows (own values only) ── wait for the last exchange ──
//            boundary rows ── [max of diff] ── slice_ready
//   comm:    wait slice_ready ── [all-reduce max] ── all-gather ── gathered
//
// so the interior rows of iteration k+1 run while iteration k's slices are
// in flight (GPU-PRISM's two GPUs synchronised through the host every
// iteration and stayed near 4× one CPU: Bošnački 2011 §5). The convergence
// test is read back every k_check_interval iterations, as on one GPU.
// Host code over the launchers of cuda/; one GPU's share of the solve is a
// cuda::DevicePart (cuda/device_part.hpp).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "common/stopwatch.hpp"
#include "cuda/device_part.hpp"
#include "cuda/launch.hpp"
#include "cuda/linear_kernels.hpp"
#include "cuda/minmax_kernels.hpp"
#include "cuda/reduction_kernels.hpp"
#include "cuda/slice_exchange.hpp"
#include "solver/device/devices.hpp"
#include "solver/device/row_partition.hpp"
#include "solver/gpu/gpu_solvers.hpp"
#include "solver/progress.hpp"

namespace pmc {

namespace {

using namespace pmc::cuda;

constexpr uint64_t k_check_interval = 8;

ExchangeKind to_exchange_kind(GpuExchange exchange) {
  switch (exchange) {
    case GpuExchange::nccl: return ExchangeKind::nccl;
    case GpuExchange::copies: return ExchangeKind::copy;
    case GpuExchange::automatic: break;
  }
  return ExchangeKind::automatic;
}

std::vector<int> device_ordinals(const std::vector<int>& devices) {
  const DeviceList& list = discover_devices();
  if (list.devices.empty()) throw Error(ErrorCode::no_device, "no usable GPU: " + list.problem);
  if (devices.empty()) throw Error(ErrorCode::invalid_argument, "a partitioned solve needs at least one GPU");
  std::vector<int> ordinals;
  for (const int d : devices) {
    if (d < 0 || static_cast<size_t>(d) >= list.devices.size()) {
      throw Error(ErrorCode::invalid_argument,
                  "GPU " + std::to_string(d) + " does not exist (" + std::to_string(list.devices.size()) +
                      " usable; see `pmc devices`)");
    }
    ordinals.push_back(list.devices[d].ordinal);
  }
  return ordinals;
}

// Builds one DevicePart per slice (slice p on devices[p]).
template <typename SliceFn>
DeviceParts make_parts(const std::vector<int>& devices, const PartitionLayout& layout,
                       const std::vector<double>& padded_start, SliceFn slice_of) {
  const std::vector<int> ordinals = device_ordinals(devices);
  DeviceParts parts;
  for (uint64_t p = 0; p < layout.slices(); ++p) {
    const MatrixSlice slice = slice_of(p);
    parts.push_back(std::make_unique<DevicePart>(ordinals[p], slice.groups, slice.a, slice.b, slice.scale,
                                                 layout.states[p].size(), layout.interior[p], p * layout.stride,
                                                 padded_start));
    parts.back()->reads_from = layout.reads[p];
  }
  return parts;
}

void synchronize(const DeviceParts& parts) {
  for (const auto& part : parts) {
    cuda::synchronize(part->compute.get());
    cuda::synchronize(part->comm.get());
  }
}

bool any_reads_across(const DeviceParts& parts) {
  for (size_t p = 0; p < parts.size(); ++p) {
    for (size_t q = 0; q < parts.size(); ++q) {
      if (q != p && !parts[q]->reads_from[p].empty()) return true;
    }
  }
  return false;
}

// The values one iteration sends between parts: what each part reads of the
// others (peer copies), or, for NCCL's all-gather, every slice to every
// other part while any part reads across.
struct Transfers {
  uint64_t pairs = 0;   // (p, q), p != q: q receives values of p
  double values = 0.0;  // values sent in all
};

Transfers transfers_per_iteration(const DeviceParts& parts, const SliceExchange& exchange) {
  Transfers sent;
  const bool across = any_reads_across(parts);
  for (size_t p = 0; p < parts.size(); ++p) {
    for (size_t q = 0; q < parts.size(); ++q) {
      if (q == p) continue;
      const uint64_t values = exchange.sends_to_all() ? (across ? parts[p]->states : 0) : parts[q]->reads_from[p].size();
      sent.pairs += values > 0 ? 1 : 0;
      sent.values += static_cast<double>(values);
    }
  }
  return sent;
}

// Bytes one iteration moves: every part's slice of the matrix and its own
// vectors (b, scale, x read and written), and the values sent between parts.
double bytes_per_iteration(const DeviceParts& parts, const SliceExchange& exchange, double per_state_bytes) {
  double bytes = 8.0 * transfers_per_iteration(parts, exchange).values;
  for (const auto& part : parts) bytes += part->a.bytes() + part->states * per_state_bytes;
  return bytes;
}

// The iterations: `update(part, first, end, current, check)` enqueues the
// update of the part's states [first, end) from x[current] into
// x[1 - current] on its compute stream. Returns the index of the last iterate.
template <typename Update>
int iterate(DeviceParts& parts, SliceExchange& exchange, const SolverSettings& settings, const char* solver,
            uint64_t limit, bool bounded, SolveStats& stats, Update update) {
  int current = 0;
  ProgressReporter progress(settings, solver, limit);
  double residual = std::numeric_limits<double>::quiet_NaN();
  synchronize(parts);
  const auto loop_start = std::chrono::steady_clock::now();
  while (stats.iterations < limit) {
    progress.tick(stats.iterations, residual);  // cancellation: between iterations, nothing half written
    const bool check = !bounded && ((stats.iterations + 1) % k_check_interval == 0 || stats.iterations + 1 == limit);
    for (size_t p = 0; p < parts.size(); ++p) {
      DevicePart& part = *parts[p];
      part.activate();
      const StreamHandle stream = part.compute.get();
      if (check) part.local_max.fill_zero(stream);
      update(part, 0, part.interior, current, check);
      exchange.wait_gathered(parts, p);
      update(part, part.interior, part.states, current, check);
      if (check) launch_max_into(part.states, part.diff.data(), part.local_max.data(), stream);
      part.slice_ready.record(stream);
    }
    if (check) exchange.start_max(parts);
    exchange.all_gather(parts, 1 - current);
    current = 1 - current;
    ++stats.iterations;
    if (check && (residual = exchange.finish_max(parts)) < settings.epsilon) {
      stats.converged = true;
      break;
    }
  }
  synchronize(parts);
  stats.loop_seconds = seconds_since(loop_start);
  if (bounded) stats.converged = true;
  return current;
}

// Each part's own slice of x[current], back in the caller's numbering.
void download_result(const DeviceParts& parts, const PartitionLayout& layout, int current, std::vector<double>& x) {
  std::vector<double> padded(layout.padded_size(), 0.0);
  for (const auto& part : parts) {
    if (part->states == 0) continue;
    part->activate();
    copy_to_host(padded.data() + part->slot_base, part->x[current].data() + part->slot_base,
                 part->states * sizeof(double), nullptr);  // the parts are synchronised: any stream will do
  }
  from_padded(padded, layout, x);
}

uint32_t distinct_gpus(const DeviceParts& parts) {
  std::vector<int> ordinals;
  for (const auto& part : parts) ordinals.push_back(part->ordinal);
  std::sort(ordinals.begin(), ordinals.end());
  return static_cast<uint32_t>(std::unique(ordinals.begin(), ordinals.end()) - ordinals.begin());
}

// "warp-per-row on 2 GPUs, NCCL exchange, 97% interior rows, 2 of 2 slice
// transfers (100% of the iterate)"; "... in 3 slices on 1 GPU, ..." where
// slices share a GPU. The share counts each value once per receiver.
std::string kernel_description(bool warp, const char* per_row, const DeviceParts& parts, const SliceExchange& exchange) {
  uint64_t interior = 0, states = 0;
  for (const auto& part : parts) {
    interior += part->interior;
    states += part->states;
  }
  const auto percent = static_cast<int>(std::lround(states == 0 ? 100.0 : 100.0 * interior / states));
  const uint32_t gpus = distinct_gpus(parts);
  const std::string where = gpus == parts.size() ? "on " + std::to_string(gpus) + " GPUs"
                                                 : "in " + std::to_string(parts.size()) + " slices on " +
                                                       std::to_string(gpus) + (gpus == 1 ? " GPU" : " GPUs");
  const Transfers sent = transfers_per_iteration(parts, exchange);
  const double share = states == 0 ? 0.0 : 100.0 * sent.values / static_cast<double>(states);
  return std::string(warp ? "warp-per-" : "thread-per-") + per_row + " " + where + ", " + exchange.name() +
         " exchange, " + std::to_string(percent) + "% interior rows, " + std::to_string(sent.pairs) + " of " +
         std::to_string(parts.size() * (parts.size() - 1)) + " slice transfers (" + fmt::format("{:.3g}", share) +
         "% of the iterate)";
}

}  // namespace

SolveStats gpu_jacobi_partitioned(const LinearSystem& system, std::vector<double>& x, const SolverSettings& settings,
                                  const std::vector<int>& devices, GpuExchange exchange_kind) {
  const auto start = std::chrono::steady_clock::now();
  if (settings.gpu_layout != GpuLayout::automatic && settings.gpu_layout != GpuLayout::thread_per_row &&
      settings.gpu_layout != GpuLayout::warp_per_row) {
    throw Error(ErrorCode::unsupported, "gpu.jacobi on several GPUs keeps rows in CSR (thread or warp per row); the "
                                        "warp-segment and ELL layouts run on one GPU");
  }
  const uint64_t n = system.a.num_rows();
  if (x.size() != n) {
    throw Error(ErrorCode::invalid_argument,
                "gpu.jacobi: start vector has " + std::to_string(x.size()) + " values, the system has " +
                    std::to_string(n) + " rows");
  }
  const std::vector<uint64_t> bounds = balance_by_entries(system.a.row_offsets, devices.size());
  const PartitionLayout layout = make_partition_layout(bounds, {}, system.a);
  DeviceParts parts = make_parts(devices, layout, to_padded(x, layout),
                                 [&](uint64_t p) { return slice_linear_system(system, layout, p); });
  std::unique_ptr<SliceExchange> exchange = make_exchange(to_exchange_kind(exchange_kind), parts, layout.stride);
  const bool warp = settings.gpu_layout == GpuLayout::warp_per_row ||
                    (settings.gpu_layout == GpuLayout::automatic && use_warp_per_row(n, system.a.num_entries()));
  SolveStats stats;
  stats.solver = "gpu.jacobi";
  stats.kernel = kernel_description(warp, "row", parts, *exchange);
  stats.gpus = distinct_gpus(parts);
  stats.bytes_per_iteration = bytes_per_iteration(parts, *exchange, 8.0 * 4);  // b, scale, x_i read, y_i written
  const int relative = settings.relative ? 1 : 0;
  const int current = iterate(parts, *exchange, settings, "gpu.jacobi", settings.max_iterations, false, stats,
                              [&](DevicePart& part, uint64_t first, uint64_t end, int cur, bool check) {
                                RowUpdate u{end, part.a.view(), part.b.data(), part.scale.data(), part.x[cur].data(),
                                            part.x[1 - cur].data(), check ? part.diff.data() : nullptr, nullptr,
                                            0.0, relative, 0, first, part.slot_base};
                                launch_row_update(u, warp, part.compute.get());
                              });
  download_result(parts, layout, current, x);
  exchange.reset();  // communicators before the parts' streams
  stats.seconds = seconds_since(start);
  return stats;
}

SolveStats gpu_value_iteration_partitioned(const MinMaxProblem& p, MinMaxSolution& solution,
                                           const SolverSettings& settings, const std::vector<int>& devices,
                                           GpuExchange exchange_kind, bool bounded) {
  const auto start = std::chrono::steady_clock::now();
  const uint64_t n = p.num_unknowns();
  if (solution.x.empty()) solution.x.assign(n, 0.0);
  if (solution.x.size() != n) {
    throw Error(ErrorCode::invalid_argument,
                "gpu.vi: start vector has " + std::to_string(solution.x.size()) + " values, the problem has " +
                    std::to_string(n) + " unknowns");
  }
  // A state weighs the entries of all its choices.
  std::vector<uint64_t> state_entries(n + 1);
  for (uint64_t s = 0; s <= n; ++s) state_entries[s] = p.a.row_offsets[p.row_groups[s]];
  const std::vector<uint64_t> bounds = balance_by_entries(state_entries, devices.size());
  const PartitionLayout layout = make_partition_layout(bounds, p.row_groups, p.a);
  DeviceParts parts = make_parts(devices, layout, to_padded(solution.x, layout),
                                 [&](uint64_t slice) { return slice_minmax_problem(p, layout, slice); });
  std::unique_ptr<SliceExchange> exchange = make_exchange(to_exchange_kind(exchange_kind), parts, layout.stride);
  const bool warp = use_warp_per_row(n, p.a.num_entries());
  SolveStats stats;
  stats.solver = "gpu.vi";
  stats.kernel = kernel_description(warp, "state", parts, *exchange);
  stats.gpus = distinct_gpus(parts);
  stats.bytes_per_iteration = bytes_per_iteration(parts, *exchange, 8.0 * 3);  // group offset, x_s read, y_s written (+ b per choice below)
  for (const auto& part : parts) stats.bytes_per_iteration += part->a.rows * 8.0;
  const int maximize = p.maximize ? 1 : 0, relative = settings.relative ? 1 : 0;
  auto bellman = [&](DevicePart& part, uint64_t first, uint64_t end, int cur, double* diff, uint32_t* choice) {
    BellmanUpdate u{end, part.groups.data(), part.a.view(), part.b.data(), part.x[cur].data(),
                    part.x[1 - cur].data(), diff, choice, maximize, relative, first, part.slot_base};
    launch_bellman(u, warp, part.compute.get());
  };
  // Bounded: at most max_iterations of the steps (the split solve
  // does not test for a stationary iterate, the one-GPU gpu.vi does).
  const uint64_t limit = bounded ? std::min(p.steps, settings.max_iterations) : settings.max_iterations;
  const int current = iterate(parts, *exchange, settings, "gpu.vi", limit, bounded, stats,
                              [&](DevicePart& part, uint64_t first, uint64_t end, int cur, bool check) {
                                bellman(part, first, end, cur, check ? part.diff.data() : nullptr, nullptr);
                              });
  if (bounded && limit < p.steps) {
    stats.converged = false;
    stats.notes.push_back(step_limit_note("gpu.vi", limit, p.steps));
  }
  // One more update only to read off the optimal choices (values
  // unchanged); every part holds the whole last iterate after the final exchange.
  for (const auto& part : parts) {
    part->activate();
    bellman(*part, 0, part->states, current, nullptr, part->choice.data());
  }
  synchronize(parts);
  download_result(parts, layout, current, solution.x);
  solution.choice.assign(n, 0);
  for (uint64_t slice = 0; slice < parts.size(); ++slice) {
    std::vector<uint32_t> local;
    parts[slice]->activate();
    parts[slice]->choice.download(local);
    for (uint64_t k = 0; k < local.size(); ++k) solution.choice[layout.states[slice][k]] = local[k];
  }
  exchange.reset();
  stats.seconds = seconds_since(start);
  return stats;
}

}  // namespace pmc
