// Device discovery for builds without CUDA: there is never a device.
#include "common/error.hpp"
#include "cuda/devices.hpp"

namespace pmc {

DeviceList detail::discover_uncached() {
  return DeviceList{{}, "pmc was built without CUDA support (meson option -Dcuda=disabled or no nvcc found)"};
}

void device_memory(uint64_t, uint64_t&, uint64_t&) {
  fail(ErrorCode::no_device, "{}", discover_devices().problem);
}

bool built_with_cuda() { return false; }

}  // namespace pmc
