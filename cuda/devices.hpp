// GPU discovery, usable from host-only code: cuda/devices.cu implements it
// with the CUDA runtime, cuda/devices_stub.cpp when pmc is built without CUDA.
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

// Discovered once, then cached (device properties do not change).
const DeviceList& discover_devices();
// Free and total bytes of device `index`, measured now. Throws Error.
void device_memory(uint64_t index, uint64_t& free_bytes, uint64_t& total_bytes);
// Whether this build has the CUDA solvers at all.
bool built_with_cuda();

}  // namespace pmc
