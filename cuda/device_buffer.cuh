// RAII device memory: the only place cudaMalloc/cudaFree appear (STYLE.md).
#pragma once

#include <cstdint>
#include <vector>

#include "cuda/check.cuh"

namespace pmc::cuda {

template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t count) { allocate(count); }
  explicit DeviceBuffer(const std::vector<T>& host) { upload(host); }
  ~DeviceBuffer() { release(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept : data_(other.data_), count_(other.count_) {
    other.data_ = nullptr;
    other.count_ = 0;
  }
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = other.data_;
      count_ = other.count_;
      other.data_ = nullptr;
      other.count_ = 0;
    }
    return *this;
  }

  void allocate(size_t count) {
    release();
    if (count == 0) return;
    PMC_CUDA_CHECK(cudaMalloc(&data_, count * sizeof(T)));
    count_ = count;
  }
  void upload(const std::vector<T>& host) {
    if (host.size() != count_) allocate(host.size());
    if (count_ > 0) PMC_CUDA_CHECK(cudaMemcpy(data_, host.data(), count_ * sizeof(T), cudaMemcpyHostToDevice));
  }
  void download(std::vector<T>& host) const {
    host.resize(count_);
    if (count_ > 0) PMC_CUDA_CHECK(cudaMemcpy(host.data(), data_, count_ * sizeof(T), cudaMemcpyDeviceToHost));
  }
  void fill_zero() {
    if (count_ > 0) PMC_CUDA_CHECK(cudaMemset(data_, 0, count_ * sizeof(T)));
  }
  // Every byte set to `byte` (flags: 1 for uint8_t).
  void fill_bytes(unsigned char byte) {
    if (count_ > 0) PMC_CUDA_CHECK(cudaMemset(data_, byte, count_ * sizeof(T)));
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return count_; }

 private:
  void release() {
    if (data_ != nullptr) cudaFree(data_);  // cannot fail usefully in a destructor
    data_ = nullptr;
    count_ = 0;
  }
  T* data_ = nullptr;
  size_t count_ = 0;
};

// Page-locked host memory: copies from the device into it run at the
// link's speed (pageable memory goes through a driver bounce buffer at a
// fraction of it). Worth it for buffers reused across solves.
template <typename T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  ~PinnedBuffer() { release(); }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;

  void allocate(size_t count) {
    if (count == count_) return;
    release();
    if (count == 0) return;
    PMC_CUDA_CHECK(cudaMallocHost(&data_, count * sizeof(T)));
    count_ = count;
  }
  void download(const DeviceBuffer<T>& from) {
    allocate(from.size());
    if (count_ > 0) PMC_CUDA_CHECK(cudaMemcpy(data_, from.data(), count_ * sizeof(T), cudaMemcpyDeviceToHost));
  }
  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return count_; }

 private:
  void release() {
    if (data_ != nullptr) cudaFreeHost(data_);
    data_ = nullptr;
    count_ = 0;
  }
  T* data_ = nullptr;
  size_t count_ = 0;
};

}  // namespace pmc::cuda
