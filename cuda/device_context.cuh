// Selecting the device for a solve and timing it with CUDA events.
#pragma once

#include "cuda/check.cuh"
#include "cuda/device_runtime.hpp"
#include "solver/device/device_selection.hpp"
#include "solver/problem.hpp"

namespace pmc::cuda {

// Makes the settings' primary device current (solver/device/device_selection.hpp);
// throws Error(no_device) when there is no usable GPU, naming the reason.
inline void select_device(const SolverSettings& settings) {
  make_device_current(primary_device_ordinal(settings));
}

class EventTimer {
 public:
  EventTimer() {
    PMC_CUDA_CHECK(cudaEventCreate(&start_));
    PMC_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~EventTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  void start() { PMC_CUDA_CHECK(cudaEventRecord(start_)); }
  double stop_seconds() {
    PMC_CUDA_CHECK(cudaEventRecord(stop_));
    PMC_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    PMC_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms * 1e-3;
  }

 private:
  cudaEvent_t start_{}, stop_{};
};

}  // namespace pmc::cuda
