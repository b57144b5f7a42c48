#include "common/memory_limit.hpp"

#include <unistd.h>

#include <algorithm>

#include "common/caller_language.hpp"
#include "common/cgroup_memory.hpp"
#include "common/error.hpp"

namespace pmc {
namespace {

struct MachineMemory {
  uint64_t bytes = 0;
  const char* source = "";  // for the error message
};

MachineMemory detect_machine_memory() {
  MachineMemory m;
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page_size > 0) {
    m.bytes = saturating_mul(static_cast<uint64_t>(pages), static_cast<uint64_t>(page_size));
    m.source = "this machine's physical memory";
  }
  const uint64_t cgroup = cgroup_memory_limit();
  if (cgroup > 0 && (m.bytes == 0 || cgroup < m.bytes)) {
    m.bytes = cgroup;
    m.source = "this process's cgroup memory limit";
  }
  if (m.bytes == 0) {
    // Neither is known (an exotic system): no limit rather than a wrong one.
    m.bytes = UINT64_MAX;
    m.source = "unknown machine memory";
  }
  return m;
}

const MachineMemory& machine_memory() {
  static const MachineMemory m = detect_machine_memory();
  return m;
}

}  // namespace

uint64_t machine_memory_bytes() { return machine_memory().bytes; }

uint64_t effective_memory_limit(uint64_t setting) { return setting != 0 ? setting : machine_memory_bytes(); }

std::string format_bytes(uint64_t bytes) {
  if (bytes == UINT64_MAX) return "more than 16 EiB";
  if (bytes < 1024) return fmt::format("{} bytes", bytes);
  const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes) / 1024;
  size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(units)) {
    value /= 1024;
    ++unit;
  }
  return fmt::format("{:.1f} {}", value, units[unit]);
}

void require_memory(uint64_t needed, uint64_t setting, std::string_view what, std::string_view detail) {
  const uint64_t limit = effective_memory_limit(setting);
  if (needed <= limit) return;
  fail(ErrorCode::out_of_memory,
       "{} needs ~{}{}{}{}, more than the memory limit of {} ({}); raise it with {}",
       what, format_bytes(needed), detail.empty() ? "" : " (", detail, detail.empty() ? "" : ")", format_bytes(limit),
       setting != 0 ? "as set" : machine_memory().source, setting_name(Setting::memory_limit));
}

}  // namespace pmc
