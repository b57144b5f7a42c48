#include "solver/device/device_selection.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "common/caller_language.hpp"
#include "common/error.hpp"
#include "common/memory_limit.hpp"
#include "solver/device/devices.hpp"
#include "model/model.hpp"

namespace pmc {

namespace {

const DeviceList& usable_devices() {
  const DeviceList& list = discover_devices();
  if (list.devices.empty()) fail(ErrorCode::no_device, "no usable GPU: {}", list.problem);
  return list;
}

void require_device(const DeviceList& list, int index) {
  if (index < 0 || static_cast<size_t>(index) >= list.devices.size()) {
    fail(ErrorCode::invalid_argument, "GPU {} does not exist ({} usable; see `pmc devices`)", index,
         list.devices.size());
  }
}

}  // namespace

std::string megabytes(uint64_t bytes) { return fmt::format("{:.0f} MB", static_cast<double>(bytes) / 1e6); }

int primary_device(const SolverSettings& settings) {
  return settings.devices.empty() ? settings.device : settings.devices.front();
}

int primary_device_ordinal(const SolverSettings& settings) {
  const DeviceList& list = discover_devices();
  if (list.devices.empty()) throw Error(ErrorCode::no_device, "no usable GPU: " + list.problem);
  const int device = primary_device(settings);
  if (device < 0 || static_cast<size_t>(device) >= list.devices.size()) {
    throw Error(ErrorCode::invalid_argument, "GPU " + std::to_string(device) + " does not exist (" +
                                                 std::to_string(list.devices.size()) + " usable)");
  }
  return list.devices[device].ordinal;
}

uint64_t gpu_bytes_needed(uint64_t entries, uint64_t rows) { return 12 * entries + 48 * rows; }

uint64_t gpu_bytes_per_share(uint64_t entries, uint64_t rows, uint64_t gpus) {
  gpus = std::max<uint64_t>(gpus, 1);
  return gpu_bytes_needed(entries / gpus + 1, rows / gpus + 1) + 16 * rows;
}

namespace {

// The first of `devices` whose budget is below `bytes`, or -1.
int first_without_room(const SolverSettings& settings, const std::vector<int>& devices, uint64_t bytes) {
  for (const int d : devices) {
    if (bytes > gpu_memory_budget(settings, d)) return d;
  }
  return -1;
}

}  // namespace


// Row offsets of the matrix and of its transpose; columns, values and
// predecessors.
// Row offsets and predecessor offsets (8 B each per state), columns,
// values and predecessor rows (16 B per non-zero); an MDP adds its row
// groups (8 B per state) and, per row, an offset and the row's state.
uint64_t resident_chain_bytes(uint64_t states, uint64_t entries, uint64_t mdp_rows) {
  const uint64_t chain = 16 * (states + 1) + 16 * entries;
  return mdp_rows == 0 ? chain : chain + 8 * (states + 1) + 12 * mdp_rows;
}

// Two {lower, upper} pair vectors, the state status, two frontier queues,
// two visited marks, the frontier's degrees and their scan, the two label
// masks (and CUB's scratch, a few KB).
// An MDP's searches add per state two more marks, the counters, the
// chosen rows (twice) and two masks; per row a hit flag and a usable byte.
uint64_t resident_solve_bytes(uint64_t states, uint64_t mdp_rows) {
  const uint64_t chain = 32 * states + states + 8 * states + 8 * states + 16 * states + states / 4 + (1u << 20);
  return mdp_rows == 0 ? chain : chain + 20 * states + states / 4 + 5 * mdp_rows;
}

uint64_t gpu_memory_budget(const SolverSettings& settings, int index) {
  if (settings.gpu_memory_limit > 0) return settings.gpu_memory_limit;
  uint64_t free_bytes = 0, total_bytes = 0;
  device_memory(static_cast<uint64_t>(index), free_bytes, total_bytes);
  return free_bytes / 10 * 9;
}

void require_device_memory(std::string_view solver, uint64_t entries, uint64_t rows, const SolverSettings& settings) {
  if (!solver.starts_with("gpu.") || solver == "gpu.topo-vi" || solver == "gpu.param-bounds") return;
  const DeviceList& list = discover_devices();
  const int device = primary_device(settings);
  if (list.devices.empty() || device < 0 || static_cast<size_t>(device) >= list.devices.size()) return;
  if (solver == "gpu.jacobi" || solver == "gpu.vi") {
    const DevicePlan plan = plan_devices(settings, entries, rows);
    if (plan.devices.size() > 1) {
      // Every GPU of the split holds its share and the whole iterate twice.
      const uint64_t share = gpu_bytes_per_share(entries, rows, plan.devices.size());
      const int d = first_without_room(settings, plan.devices, share);
      if (d < 0) return;
      fail(ErrorCode::out_of_memory,
           "{}: split over {} GPUs, the problem ({} rows, {} non-zeros) needs ~{} on each, more than GPU {}'s "
           "budget of {}; raise it with {}, list more GPUs, or choose a CPU solver",
           solver, plan.devices.size(), rows, entries, format_bytes(share), d,
           format_bytes(gpu_memory_budget(settings, d)), setting_name(Setting::gpu_memory_limit));
    }
  }
  const uint64_t needed = gpu_bytes_needed(entries, rows);
  const uint64_t budget = gpu_memory_budget(settings, device);
  if (needed <= budget) return;
  fail(ErrorCode::out_of_memory,
       "{}: the problem ({} rows, {} non-zeros) needs ~{} of GPU memory, more than GPU {}'s budget of {} ({}); "
       "raise it with {}, or choose a CPU solver",
       solver, rows, entries, format_bytes(needed), device, format_bytes(budget),
       settings.gpu_memory_limit > 0 ? "the GPU memory limit" : "90% of its free memory",
       setting_name(Setting::gpu_memory_limit));
}

DevicePlan plan_devices(const SolverSettings& settings, uint64_t entries, uint64_t rows) {
  const DeviceList& list = usable_devices();
  DevicePlan plan;
  if (!settings.devices.empty()) {
    for (size_t k = 0; k < settings.devices.size(); ++k) {
      require_device(list, settings.devices[k]);
      const bool repeats = std::find(settings.devices.begin(), settings.devices.begin() + k, settings.devices[k]) !=
                           settings.devices.begin() + k;
      if (repeats && settings.gpu_exchange != GpuExchange::copies) {
        fail(ErrorCode::invalid_argument, "GPU {} is listed twice in the device list", settings.devices[k]);
      }
    }
    plan.devices = settings.devices;
    plan.reason = "listed";
    return plan;
  }
  const int count = static_cast<int>(list.devices.size());
  if (settings.all_devices) {
    for (int d = 0; d < count; ++d) plan.devices.push_back(d);
    plan.reason = fmt::format("all {} GPUs", count);
    return plan;
  }
  const int primary = settings.device;
  require_device(list, primary);
  plan.devices = {primary};
  const uint64_t needed = gpu_bytes_needed(entries, rows);
  const uint64_t budget = gpu_memory_budget(settings, primary);
  if (needed <= budget || count < 2) {
    plan.reason = fmt::format("GPU {}", primary);
    return plan;
  }
  // Split over all GPUs only where every one holds its share; else the
  // caller's fallbacks (SCC blocks, the CPU) apply.
  std::vector<int> all(static_cast<size_t>(count));
  std::iota(all.begin(), all.end(), 0);
  const uint64_t share = gpu_bytes_per_share(entries, rows, static_cast<uint64_t>(count));
  if (const int d = first_without_room(settings, all, share); d >= 0) {
    plan.reason = fmt::format("needs ~{}, more than GPU {}'s {}, and ~{} on each of {} GPUs does not fit GPU {}",
                              megabytes(needed), primary, megabytes(budget), megabytes(share), count, d);
    return plan;
  }
  plan.devices = std::move(all);
  plan.reason = fmt::format("needs ~{}, more than GPU {}'s {}: split over all {} GPUs", megabytes(needed), primary,
                            megabytes(budget), count);
  return plan;
}

}  // namespace pmc
