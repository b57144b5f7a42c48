#include "api/guard.hpp"
#include "solver/device/devices.hpp"

namespace {

const pmc::DeviceInfo& device_at(uint64_t index) {
  const pmc::DeviceList& list = pmc::discover_devices();
  if (list.devices.empty()) pmc::fail(pmc::ErrorCode::no_device, "{}", list.problem);
  if (index >= list.devices.size()) {
    pmc::fail(pmc::ErrorCode::invalid_argument, "device {} does not exist ({} device(s))", index, list.devices.size());
  }
  return list.devices[index];
}

}  // namespace

extern "C" {

pmc_status pmc_device_count(uint64_t* out_count) {
  return guarded([&] {
    uint64_t& count = require(out_count, "out_count");
    const pmc::DeviceList& list = pmc::discover_devices();
    count = list.devices.size();
    if (list.devices.empty()) pmc::fail(pmc::ErrorCode::no_device, "{}", list.problem);
  });
}

pmc_status pmc_device_name(uint64_t index, const char** out_name) {
  return guarded([&] {
    require(out_name, "out_name");
    *out_name = device_at(index).name.c_str();
  });
}

pmc_status pmc_device_memory(uint64_t index, uint64_t* out_free_bytes, uint64_t* out_total_bytes) {
  return guarded([&] {
    require(out_free_bytes, "out_free_bytes");
    require(out_total_bytes, "out_total_bytes");
    device_at(index);
    uint64_t free_bytes = 0, total_bytes = 0;
    pmc::device_memory(index, free_bytes, total_bytes);
    *out_free_bytes = free_bytes;
    *out_total_bytes = total_bytes;
  });
}

pmc_status pmc_device_compute_capability(uint64_t index, int* out_major, int* out_minor) {
  return guarded([&] {
    require(out_major, "out_major");
    require(out_minor, "out_minor");
    const pmc::DeviceInfo& d = device_at(index);
    *out_major = d.major;
    *out_minor = d.minor;
  });
}

}  // extern "C"
