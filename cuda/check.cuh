// Every CUDA runtime call and kernel launch goes through these checks: a
// failure becomes a pmc::Error naming the call, never a silent wrong result.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "common/error_code.hpp"

namespace pmc::cuda {

[[noreturn]] inline void throw_cuda_error(cudaError_t status, const char* what, const char* file, int line) {
  const ErrorCode code = (status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver)
                             ? ErrorCode::no_device
                             : (status == cudaErrorMemoryAllocation ? ErrorCode::out_of_memory : ErrorCode::device);
  throw Error(code, std::string("CUDA error in ") + what + " (" + file + ":" + std::to_string(line) +
                        "): " + cudaGetErrorString(status) + " (" + cudaGetErrorName(status) + ")");
}

// After a kernel launch: a launch-configuration error surfaces at once,
// naming the kernel. With PMC_CUDA_DEBUG_SYNC (meson option cuda-debug-sync)
// the device is also synchronised, so that a fault inside the kernel is
// reported against it rather than at some later copy; that serialises the
// GPU's work, so it is for debugging only.
inline void check_launch(const char* kernel, const char* file, int line) {
  cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess) throw_cuda_error(status, (std::string("launch of ") + kernel).c_str(), file, line);
#ifdef PMC_CUDA_DEBUG_SYNC
  status = cudaDeviceSynchronize();
  if (status != cudaSuccess) {
    throw_cuda_error(status, (std::string("kernel ") + kernel + " (synchronised by cuda-debug-sync)").c_str(), file,
                     line);
  }
#endif
}

}  // namespace pmc::cuda

#define PMC_CUDA_CHECK(call)                                                          \
  do {                                                                                \
    cudaError_t pmc_status_ = (call);                                                 \
    if (pmc_status_ != cudaSuccess) ::pmc::cuda::throw_cuda_error(pmc_status_, #call, __FILE__, __LINE__); \
  } while (0)

#define PMC_CUDA_CHECK_LAUNCH(name) ::pmc::cuda::check_launch((name), __FILE__, __LINE__)
