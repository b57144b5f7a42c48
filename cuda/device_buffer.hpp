// RAII device memory and page-locked host memory, over device_runtime.hpp:
// usable from host code compiled without nvcc as well as from cuda/*.cu.
// Copies go to the given stream (null: the legacy default stream, for code
// that has none of its own).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "cuda/device_runtime.hpp"

namespace pmc::cuda {

namespace detail {

// `size()` values of T in memory from `Allocate`, handed back to `Free` by
// the owner; movable, not copyable. What the two buffers below share.
template <typename T, void* (*Allocate)(size_t), void (*Free)(void*) noexcept>
class OwnedArray {
 public:
  OwnedArray() = default;
  ~OwnedArray() { release(); }
  OwnedArray(const OwnedArray&) = delete;
  OwnedArray& operator=(const OwnedArray&) = delete;
  OwnedArray(OwnedArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  OwnedArray& operator=(OwnedArray&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }

  // Room for `count` values (the old ones are gone); none for 0.
  void allocate(size_t count) {
    release();
    if (count == 0) return;
    data_ = static_cast<T*>(Allocate(count * sizeof(T)));
    count_ = count;
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return count_; }

 private:
  void release() {
    Free(data_);
    data_ = nullptr;
    count_ = 0;
  }
  T* data_ = nullptr;
  size_t count_ = 0;
};

}  // namespace detail

template <typename T>
class DeviceBuffer : public detail::OwnedArray<T, device_allocate, device_free> {
  using Memory = detail::OwnedArray<T, device_allocate, device_free>;

 public:
  using Memory::allocate;
  using Memory::data;
  using Memory::size;

  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t count) { allocate(count); }
  explicit DeviceBuffer(const std::vector<T>& host, StreamHandle stream = nullptr) { upload(host, stream); }

  void upload(const std::vector<T>& host, StreamHandle stream = nullptr) {
    if (host.size() != size()) allocate(host.size());
    if (size() > 0) copy_to_device(data(), host.data(), size() * sizeof(T), stream);
  }
  void download(std::vector<T>& host, StreamHandle stream = nullptr) const {
    host.resize(size());
    if (size() > 0) copy_to_host(host.data(), data(), size() * sizeof(T), stream);
  }
  void fill_zero(StreamHandle stream = nullptr) {
    if (size() > 0) cuda::fill_bytes(data(), 0, size() * sizeof(T), stream);
  }
  // Every byte set to `byte` (flags: 1 for uint8_t).
  void fill_bytes(unsigned char byte, StreamHandle stream = nullptr) {
    if (size() > 0) cuda::fill_bytes(data(), byte, size() * sizeof(T), stream);
  }
};

// Page-locked host memory: copies from the device into it run at the
// link's speed (pageable memory goes through a driver bounce buffer at a
// fraction of it). Worth it for buffers reused across solves.
template <typename T>
class PinnedBuffer : public detail::OwnedArray<T, pinned_allocate, pinned_free> {
  using Memory = detail::OwnedArray<T, pinned_allocate, pinned_free>;

 public:
  using Memory::data;
  using Memory::size;

  PinnedBuffer() = default;
  explicit PinnedBuffer(size_t count) { allocate(count); }

  // Keeps the memory it has for the same count: pinning is slow.
  void allocate(size_t count) {
    if (count != size()) Memory::allocate(count);
  }
  void download(const DeviceBuffer<T>& from, StreamHandle stream = nullptr) {
    allocate(from.size());
    if (size() > 0) copy_to_host(data(), from.data(), size() * sizeof(T), stream);
  }
};

}  // namespace pmc::cuda
