// CUB's device-wide prefix sums with their two-call protocol (ask the
// scratch's size, then scan) in one place. The scratch grows as needed and
// is kept by the caller, so a loop of scans allocates once.
#pragma once

#include <cstdint>

#include <cub/device/device_scan.cuh>

#include "cuda/check.cuh"
#include "cuda/device_buffer.hpp"

namespace pmc::cuda {

// out[i] = in[0] + ... + in[i - 1] for the first `items` values.
template <typename T>
void exclusive_sum(const T* in, T* out, uint64_t items, DeviceBuffer<unsigned char>& scratch,
                   StreamHandle stream = nullptr) {
  size_t bytes = 0;
  PMC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, static_cast<int64_t>(items), stream));
  if (bytes > scratch.size()) scratch.allocate(bytes);
  PMC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch.data(), bytes, in, out, static_cast<int64_t>(items), stream));
}

// out[i] = in[0] + ... + in[i] for the first `items` values.
template <typename T>
void inclusive_sum(const T* in, T* out, uint64_t items, DeviceBuffer<unsigned char>& scratch,
                   StreamHandle stream = nullptr) {
  size_t bytes = 0;
  PMC_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, in, out, static_cast<int64_t>(items), stream));
  if (bytes > scratch.size()) scratch.allocate(bytes);
  PMC_CUDA_CHECK(cub::DeviceScan::InclusiveSum(scratch.data(), bytes, in, out, static_cast<int64_t>(items), stream));
}

}  // namespace pmc::cuda
