// Device discovery with the CUDA runtime. The runtime is linked statically,
// so libpmc loads on machines without CUDA; the driver (libcuda) is looked
// up at run time, and its absence is reported, not fatal.
#include <mutex>

#include "cuda/check.cuh"
#include "cuda/devices.hpp"
#include "cuda/slice_exchange.hpp"
#include "cuda/staged_upload.cuh"

namespace pmc {
namespace {

// A tiny kernel run once per device at discovery: a device the runtime
// lists but cannot run code on (wrong architecture in this build, broken
// driver) is reported here rather than in the middle of a solve.
__global__ void probe_kernel(int* out) { *out = 42; }

std::string probe_device(int index) {
  if (cudaSetDevice(index) != cudaSuccess) return "cannot select the device";
  int* flag = nullptr;
  if (cudaMalloc(&flag, sizeof(int)) != cudaSuccess) return "cannot allocate device memory";
  probe_kernel<<<1, 1>>>(flag);
  cudaError_t status = cudaGetLastError();
  int value = 0;
  if (status == cudaSuccess) status = cudaMemcpy(&value, flag, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(flag);
  if (status != cudaSuccess) {
    return std::string("a test kernel failed: ") + cudaGetErrorString(status) + " (pmc was built for sm_" +
           std::to_string(PMC_CUDA_ARCH) + "; see the cuda-arch option)";
  }
  return value == 42 ? std::string{} : "a test kernel returned a wrong value";
}

}  // namespace

DeviceList detail::discover_uncached() {
  DeviceList list;
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status == cudaErrorInsufficientDriver) {
    list.problem = "the NVIDIA driver is missing or older than this build's CUDA runtime needs";
    return list;
  }
  if (status == cudaErrorNoDevice || (status == cudaSuccess && count == 0)) {
    list.problem = "no CUDA-capable GPU found";
    return list;
  }
  if (status != cudaSuccess) {
    list.problem = std::string("CUDA cannot list the GPUs: ") + cudaGetErrorString(status);
    cudaGetLastError();  // clear the sticky error
    return list;
  }
  std::string problems;
  int previous = 0;
  cudaGetDevice(&previous);
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) continue;
    if (std::string why = probe_device(i); !why.empty()) {
      problems += (problems.empty() ? "" : "; ") + std::string("GPU ") + std::to_string(i) + " (" + prop.name + "): " + why;
      continue;
    }
    list.devices.push_back(DeviceInfo{i, prop.name, prop.major, prop.minor, static_cast<uint64_t>(prop.totalGlobalMem)});
  }
  cudaSetDevice(previous);  // discovery must not change the caller's device
  if (list.devices.empty()) list.problem = problems.empty() ? "no usable GPU found" : problems;
  return list;
}

void device_memory_of_ordinal(int ordinal, uint64_t& free_bytes, uint64_t& total_bytes) {
  size_t free_memory = 0, total_memory = 0;
  int previous = 0;
  PMC_CUDA_CHECK(cudaGetDevice(&previous));
  PMC_CUDA_CHECK(cudaSetDevice(ordinal));
  const cudaError_t status = cudaMemGetInfo(&free_memory, &total_memory);
  cudaSetDevice(previous);
  PMC_CUDA_CHECK(status);
  free_bytes = free_memory;
  total_bytes = total_memory;
}

bool built_with_cuda() { return true; }

void release_process_caches() noexcept {
  cuda::StagedUpload::release_all();
  cuda::release_nccl_communicators();
}

}  // namespace pmc
