// The memory limit of the cgroup this process runs in: the smallest of
// cgroup v2's memory.max or v1's memory.limit_in_bytes along the process's
// own cgroup and its ancestors, found through /proc/self/cgroup and the
// cgroup file system's mount in /proc/self/mountinfo. Reading fixed paths
// at the mount's root instead misses a limit set on a child cgroup (a job
// in a 1 GiB slice was killed by the kernel where pmc should have refused).
//
// No fmt here: memory_limit.hpp's reason.
#pragma once

#include <cstdint>
#include <string>

namespace pmc {

// 0 when no limit applies or none can be read. `root` prefixes every path
// read ("/" on a real system; tests build a fake /proc and /sys under a
// temporary folder).
uint64_t cgroup_memory_limit(const std::string& root = "/");

}  // namespace pmc
