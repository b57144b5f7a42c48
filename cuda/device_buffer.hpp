// RAII device memory and page-locked host memory, over device_runtime.hpp:
// usable from host code compiled without nvcc as well as from cuda/*.cu.
// Copies go to the given stream (null: the legacy default stream, for code
// that has none of its own).
#pragma once

#include <cstdint>
#include <vector>

#include "cuda/device_runtime.hpp"

namespace pmc::cuda {

template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t count) { allocate(count); }
  explicit DeviceBuffer(const std::vector<T>& host, StreamHandle stream = nullptr) { upload(host, stream); }
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
    data_ = static_cast<T*>(device_allocate(count * sizeof(T)));
    count_ = count;
  }
  void upload(const std::vector<T>& host, StreamHandle stream = nullptr) {
    if (host.size() != count_) allocate(host.size());
    if (count_ > 0) copy_to_device(data_, host.data(), count_ * sizeof(T), stream);
  }
  void download(std::vector<T>& host, StreamHandle stream = nullptr) const {
    host.resize(count_);
    if (count_ > 0) copy_to_host(host.data(), data_, count_ * sizeof(T), stream);
  }
  void fill_zero(StreamHandle stream = nullptr) {
    if (count_ > 0) cuda::fill_bytes(data_, 0, count_ * sizeof(T), stream);
  }
  // Every byte set to `byte` (flags: 1 for uint8_t).
  void fill_bytes(unsigned char byte, StreamHandle stream = nullptr) {
    if (count_ > 0) cuda::fill_bytes(data_, byte, count_ * sizeof(T), stream);
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return count_; }

 private:
  void release() {
    device_free(data_);
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
  explicit PinnedBuffer(size_t count) { allocate(count); }
  ~PinnedBuffer() { release(); }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;

  void allocate(size_t count) {
    if (count == count_) return;
    release();
    if (count == 0) return;
    data_ = static_cast<T*>(pinned_allocate(count * sizeof(T)));
    count_ = count;
  }
  void download(const DeviceBuffer<T>& from, StreamHandle stream = nullptr) {
    allocate(from.size());
    if (count_ > 0) copy_to_host(data_, from.data(), count_ * sizeof(T), stream);
  }
  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return count_; }

 private:
  void release() {
    pinned_free(data_);
    data_ = nullptr;
    count_ = 0;
  }
  T* data_ = nullptr;
  size_t count_ = 0;
};

}  // namespace pmc::cuda
