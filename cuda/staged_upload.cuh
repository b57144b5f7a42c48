// Host-to-device copies of large pageable arrays (a model's matrix) through
// two pinned staging buffers: while the copy engine moves one
// chunk, the host's cores fill the other. A plain cudaMemcpy from pageable
// memory stages through the driver's bounce buffer one chunk at a time on
// one thread (measured ~7 GB/s for a 20M-state chain's 400 MB, bench/NOTES.md).
// The copies run on their own stream: the caller's kernels on other streams
// keep running meanwhile, and finish() waits for the last chunk.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "cuda/check.cuh"
#include "cuda/device_buffer.hpp"

namespace pmc::cuda {

class StagedUpload {
 public:
  // 32 MB per chunk: large enough that a chunk's DMA (~1.5 ms) hides the
  // threads' start, small enough that two stay cheap to pin.
  static constexpr size_t k_chunk_bytes = size_t{32} << 20;
  // Below this a single cudaMemcpy is as fast and needs no staging.
  static constexpr size_t k_direct_bytes = size_t{4} << 20;

  StagedUpload() {
    PMC_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    for (int i = 0; i < 2; ++i) {
      staging_[i].allocate(k_chunk_bytes);
      PMC_CUDA_CHECK(cudaEventCreateWithFlags(&drained_[i], cudaEventDisableTiming));
    }
  }
  ~StagedUpload() {
    cudaStreamSynchronize(stream_);  // nothing to report from a destructor; the buffers go after it
    for (int i = 0; i < 2; ++i) cudaEventDestroy(drained_[i]);
    cudaStreamDestroy(stream_);
  }
  StagedUpload(const StagedUpload&) = delete;
  StagedUpload& operator=(const StagedUpload&) = delete;

  // Queues the copy of `bytes` from `host` to `device`; returns once the
  // last chunk is staged (its DMA may still run).
  void copy(void* device, const void* host, size_t bytes) {
    auto* to = static_cast<unsigned char*>(device);
    const auto* from = static_cast<const unsigned char*>(host);
    if (bytes <= k_direct_bytes) {
      PMC_CUDA_CHECK(cudaMemcpyAsync(to, from, bytes, cudaMemcpyHostToDevice, stream_));
      PMC_CUDA_CHECK(cudaStreamSynchronize(stream_));  // pageable: the source must outlive the copy
      return;
    }
    for (size_t offset = 0; offset < bytes; offset += k_chunk_bytes) {
      const int i = next_++ % 2;
      const size_t n = std::min(k_chunk_bytes, bytes - offset);
      PMC_CUDA_CHECK(cudaEventSynchronize(drained_[i]));  // the DMA out of this buffer is done
      fill(staging_[i].data(), from + offset, n);
      PMC_CUDA_CHECK(cudaMemcpyAsync(to + offset, staging_[i].data(), n, cudaMemcpyHostToDevice, stream_));
      PMC_CUDA_CHECK(cudaEventRecord(drained_[i], stream_));
    }
  }

  void finish() { PMC_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

  // The current device's uploader, made once per process and device:
  // pinning its 64 MB costs ~10–20 ms, as much as it saves on one upload
  // (measured: a fresh one per upload made a 20M chain's upload 10–35%
  // slower, bench/NOTES.md). The lock keeps one upload per device at a time.
  struct Lease {
    std::unique_lock<std::mutex> lock;
    StagedUpload* upload;
    StagedUpload* operator->() { return upload; }
  };
  // Never destroyed by a static destructor: one calling CUDA would run at
  // exit, around the CUDA runtime's own teardown (cuda/devices.hpp); the
  // process's end releases the pinned buffers and the stream, unless
  // release_all() did so first.
  static Lease for_current_device() {
    int ordinal = 0;
    PMC_CUDA_CHECK(cudaGetDevice(&ordinal));
    Uploaders& all = uploaders();
    std::unique_lock<std::mutex> lock(all.mutex);
    std::unique_ptr<StagedUpload>& upload = all.by_device[ordinal];
    if (!upload) upload = std::make_unique<StagedUpload>();
    return {std::move(lock), upload.get()};
  }

  // Frees every device's uploader now (the next upload makes a new one):
  // for a program that wants its pinned memory back while CUDA is alive,
  // e.g. a test program under compute-sanitizer's leak check.
  static void release_all() noexcept {
    Uploaders& all = uploaders();
    std::lock_guard<std::mutex> lock(all.mutex);
    int current = 0;
    const bool restore = cudaGetDevice(&current) == cudaSuccess;
    for (auto& [ordinal, upload] : all.by_device) {
      if (cudaSetDevice(ordinal) == cudaSuccess) upload.reset();
    }
    all.by_device.clear();
    if (restore) cudaSetDevice(current);
  }

 private:
  struct Uploaders {
    std::mutex mutex;
    std::map<int, std::unique_ptr<StagedUpload>> by_device;
  };
  static Uploaders& uploaders() {
    static auto* const all = new Uploaders;  // never destroyed (above)
    return *all;
  }

  // memcpy split over up to 8 threads: one core copies at ~8–10 GB/s, short
  // of what the link takes.
  static void fill(unsigned char* to, const unsigned char* from, size_t n) {
    const size_t workers = std::clamp<size_t>(std::thread::hardware_concurrency() / 2, 1, 8);
    const size_t part = (n + workers - 1) / workers;
    std::vector<std::thread> threads;
    for (size_t w = 1; w < workers && w * part < n; ++w) {
      threads.emplace_back([=] { std::memcpy(to + w * part, from + w * part, std::min(part, n - w * part)); });
    }
    std::memcpy(to, from, std::min(part, n));
    for (std::thread& t : threads) t.join();
  }

  cudaStream_t stream_ = nullptr;
  PinnedBuffer<unsigned char> staging_[2];
  cudaEvent_t drained_[2] = {nullptr, nullptr};
  unsigned next_ = 0;
};

}  // namespace pmc::cuda
