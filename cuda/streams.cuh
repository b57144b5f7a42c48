// RAII CUDA events and pinned host values (streams: device_runtime.hpp), for the multi-GPU
// solves (cuda/partitioned_solve.cu). Each is created on, and must be
// destroyed with, the device that was current at its creation.
#pragma once

#include "cuda/check.cuh"
#include "cuda/device_runtime.hpp"  // Stream

namespace pmc::cuda {

class Event {
 public:
  Event() { PMC_CUDA_CHECK(cudaEventCreateWithFlags(&event_, cudaEventDisableTiming)); }
  ~Event() { cudaEventDestroy(event_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return event_; }
  void record(cudaStream_t stream) { PMC_CUDA_CHECK(cudaEventRecord(event_, stream)); }
  // Work enqueued on `stream` from now on waits for the last record (a
  // never-recorded event is complete; events of another device work too).
  void make_wait(cudaStream_t stream) const { PMC_CUDA_CHECK(cudaStreamWaitEvent(stream, event_, 0)); }
  void synchronize() const { PMC_CUDA_CHECK(cudaEventSynchronize(event_)); }

 private:
  cudaEvent_t event_{};
};

// Page-locked host values that asynchronous device-to-host copies may
// target without blocking the host.
class PinnedValues {
 public:
  explicit PinnedValues(size_t count) : count_(count) {
    PMC_CUDA_CHECK(cudaMallocHost(&data_, count * sizeof(double)));
  }
  ~PinnedValues() { cudaFreeHost(data_); }
  PinnedValues(const PinnedValues&) = delete;
  PinnedValues& operator=(const PinnedValues&) = delete;
  double* data() { return data_; }
  size_t size() const { return count_; }

 private:
  double* data_ = nullptr;
  size_t count_ = 0;
};

}  // namespace pmc::cuda
