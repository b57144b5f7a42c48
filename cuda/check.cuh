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

}  // namespace pmc::cuda

#define PMC_CUDA_CHECK(call)                                                          \
  do {                                                                                \
    cudaError_t pmc_status_ = (call);                                                 \
    if (pmc_status_ != cudaSuccess) ::pmc::cuda::throw_cuda_error(pmc_status_, #call, __FILE__, __LINE__); \
  } while (0)

// After a kernel launch: launch-configuration errors surface at once.
#define PMC_CUDA_CHECK_LAUNCH(name) PMC_CUDA_CHECK(cudaGetLastError())
