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

void DestroyStream::operator()(CUstream_st* stream) const noexcept { cudaStreamDestroy(stream); }
void DestroyEvent::operator()(CUevent_st* event) const noexcept { cudaEventDestroy(event); }

namespace {

OwnedEvent create_event(unsigned flags) {
  cudaEvent_t event = nullptr;
  PMC_CUDA_CHECK(cudaEventCreateWithFlags(&event, flags));
  return OwnedEvent(event);
}

}  // namespace

Stream::Stream() {
  cudaStream_t stream = nullptr;
  PMC_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  stream_.reset(stream);
}

Event::Event() : event_(create_event(cudaEventDisableTiming)) {}
void Event::record(StreamHandle stream) { PMC_CUDA_CHECK(cudaEventRecord(get(), stream)); }
void Event::make_wait(StreamHandle stream) const { PMC_CUDA_CHECK(cudaStreamWaitEvent(stream, get(), 0)); }
void Event::synchronize() const { PMC_CUDA_CHECK(cudaEventSynchronize(get())); }

StreamTimer::StreamTimer(StreamHandle stream)
    : stream_(stream), start_(create_event(cudaEventDefault)), stop_(create_event(cudaEventDefault)) {}

void StreamTimer::start() { PMC_CUDA_CHECK(cudaEventRecord(start_.get(), stream_)); }

double StreamTimer::stop_seconds() {
  PMC_CUDA_CHECK(cudaEventRecord(stop_.get(), stream_));
  PMC_CUDA_CHECK(cudaEventSynchronize(stop_.get()));
  float ms = 0;
  PMC_CUDA_CHECK(cudaEventElapsedTime(&ms, start_.get(), stop_.get()));
  return ms * 1e-3;
}

}  // namespace pmc::cuda
