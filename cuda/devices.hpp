// What the CUDA runtime says about this machine's GPUs, usable from host-only
// code: cuda/devices.cu asks the runtime, lib/solver/gpu/without_cuda.cpp
// answers for a build without CUDA. The cached, background-started discovery
// the rest of pmc uses is lib/solver/device/devices.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pmc {

struct DeviceInfo {
  int ordinal = 0;  // the CUDA device number
  std::string name;
  int major = 0, minor = 0;  // compute capability
  uint64_t total_bytes = 0;
};

struct DeviceList {
  std::vector<DeviceInfo> devices;
  std::string problem;  // why there are none
};

namespace detail {
// The uncached discovery: cuda/devices.cu, or lib/solver/gpu/without_cuda.cpp without CUDA.
DeviceList discover_uncached();
}  // namespace detail
// Free and total bytes of the device with CUDA number `ordinal`, measured
// now. Throws Error.
void device_memory_of_ordinal(int ordinal, uint64_t& free_bytes, uint64_t& total_bytes);
// Whether this build has the CUDA solvers at all.
bool built_with_cuda();
// Frees what pmc keeps for the process's life once CUDA is up (the pinned
// staging buffers of uploads, the NCCL communicators of multi-GPU solves).
// Nothing needs it: the process's end frees
// them too; a program that wants every allocation back before it exits
// (memcheck's leak check) calls it. Not while a solve runs. No-op without CUDA.
void release_process_caches() noexcept;
}  // namespace pmc
