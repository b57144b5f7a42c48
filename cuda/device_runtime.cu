// device_runtime.hpp over the CUDA runtime.
#include "cuda/check.cuh"
#include "cuda/device_runtime.hpp"

namespace pmc::cuda {

void* device_allocate(size_t bytes) {
  void* data = nullptr;
  PMC_CUDA_CHECK(cudaMalloc(&data, bytes));
  return data;
}

void device_free(void* data) noexcept {
  if (data != nullptr) cudaFree(data);  // cannot fail usefully where memory is released
}

void* pinned_allocate(size_t bytes) {
  void* data = nullptr;
  PMC_CUDA_CHECK(cudaMallocHost(&data, bytes));
  return data;
}

void pinned_free(void* data) noexcept {
  if (data != nullptr) cudaFreeHost(data);
}

void copy_to_device(void* device, const void* host, size_t bytes, StreamHandle stream) {
  PMC_CUDA_CHECK(cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, stream));
  PMC_CUDA_CHECK(cudaStreamSynchronize(stream));  // the source may go once this returns
}

void copy_to_host(void* host, const void* device, size_t bytes, StreamHandle stream) {
  PMC_CUDA_CHECK(cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, stream));
  PMC_CUDA_CHECK(cudaStreamSynchronize(stream));  // the caller reads the value next
}

void copy_on_device(void* to, const void* from, size_t bytes, StreamHandle stream) {
  PMC_CUDA_CHECK(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToDevice, stream));
}

void fill_bytes(void* device, unsigned char byte, size_t bytes, StreamHandle stream) {
  PMC_CUDA_CHECK(cudaMemsetAsync(device, byte, bytes, stream));
}

void synchronize(StreamHandle stream) { PMC_CUDA_CHECK(cudaStreamSynchronize(stream)); }

void make_device_current(int ordinal) { PMC_CUDA_CHECK(cudaSetDevice(ordinal)); }

void make_device_current_noexcept(int ordinal) noexcept { cudaSetDevice(ordinal); }

Stream::Stream() { PMC_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
Stream::~Stream() { cudaStreamDestroy(stream_); }

Event::Event() { PMC_CUDA_CHECK(cudaEventCreateWithFlags(&event_, cudaEventDisableTiming)); }
Event::~Event() { cudaEventDestroy(event_); }
void Event::record(StreamHandle stream) { PMC_CUDA_CHECK(cudaEventRecord(event_, stream)); }
void Event::make_wait(StreamHandle stream) const { PMC_CUDA_CHECK(cudaStreamWaitEvent(stream, event_, 0)); }
void Event::synchronize() const { PMC_CUDA_CHECK(cudaEventSynchronize(event_)); }

StreamTimer::StreamTimer(StreamHandle stream) : stream_(stream) {
  PMC_CUDA_CHECK(cudaEventCreate(&start_));
  PMC_CUDA_CHECK(cudaEventCreate(&stop_));
}

StreamTimer::~StreamTimer() {
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
}

void StreamTimer::start() { PMC_CUDA_CHECK(cudaEventRecord(start_, stream_)); }

double StreamTimer::stop_seconds() {
  PMC_CUDA_CHECK(cudaEventRecord(stop_, stream_));
  PMC_CUDA_CHECK(cudaEventSynchronize(stop_));
  float ms = 0;
  PMC_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
  return ms * 1e-3;
}

}  // namespace pmc::cuda
