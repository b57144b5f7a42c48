// A DTMC's probability matrix (a CTMC's embedded one) kept on a GPU across
// checks (issue 19), with its transposed graph built there: the
// predecessors the qualitative precomputation searches.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>

#include <cub/device/device_scan.cuh>

#include "cuda/device_buffer.cuh"
#include "cuda/launch.cuh"

namespace pmc::cuda {

// Thread per row: one atomic per entry on its column's count.
static __global__ void count_predecessors(uint64_t rows, const uint64_t* offsets, const uint32_t* columns,
                                          unsigned long long* counts) {
  const uint64_t row = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (row >= rows) return;
  for (uint64_t k = offsets[row]; k < offsets[row + 1]; ++k) atomicAdd(&counts[columns[k]], 1ull);
}

// The order of a state's predecessors is whatever the atomics give: the
// searches' results do not depend on it.
static __global__ void scatter_predecessors(uint64_t rows, const uint64_t* offsets, const uint32_t* columns,
                                            unsigned long long* cursor, uint32_t* predecessors) {
  const uint64_t row = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (row >= rows) return;
  for (uint64_t k = offsets[row]; k < offsets[row + 1]; ++k) {
    predecessors[atomicAdd(&cursor[columns[k]], 1ull)] = static_cast<uint32_t>(row);
  }
}

struct ResidentChain {
  int ordinal = 0;  // the CUDA device it lives on
  uint64_t states = 0, entries = 0;
  DeviceBuffer<uint64_t> offsets;
  DeviceBuffer<uint32_t> columns;
  DeviceBuffer<double> values;
  DeviceBuffer<uint64_t> predecessor_offsets;  // states + 1
  DeviceBuffer<uint32_t> predecessors;
  // One solve's vectors, kept for the next solve on this chain (allocating
  // them is most of a resident check's set-up otherwise); solves on one
  // chain take turns with them. Its type is the solver's
  // (cuda/resident_reachability.cu).
  std::mutex workspace_mutex;
  std::shared_ptr<void> workspace;

  // Uploads the matrix (synchronous copies from pageable memory) and
  // transposes its pattern on the device: counts, an exclusive scan, a
  // scatter. `upload_seconds` gets the copies' share.
  ResidentChain(int device_ordinal, uint64_t n, const uint64_t* host_offsets, const uint32_t* host_columns,
                const double* host_values, double& upload_seconds)
      : ordinal(device_ordinal), states(n), entries(host_offsets[n]) {
    const auto start = std::chrono::steady_clock::now();
    offsets.allocate(n + 1);
    columns.allocate(entries);
    values.allocate(entries);
    PMC_CUDA_CHECK(cudaMemcpy(offsets.data(), host_offsets, (n + 1) * sizeof(uint64_t), cudaMemcpyHostToDevice));
    if (entries > 0) {
      PMC_CUDA_CHECK(cudaMemcpy(columns.data(), host_columns, entries * sizeof(uint32_t), cudaMemcpyHostToDevice));
      PMC_CUDA_CHECK(cudaMemcpy(values.data(), host_values, entries * sizeof(double), cudaMemcpyHostToDevice));
    }
    upload_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    predecessor_offsets.allocate(n + 1);
    predecessors.allocate(entries);
    DeviceBuffer<uint64_t> counts(n + 1);
    counts.fill_zero();
    auto* counts_ull = reinterpret_cast<unsigned long long*>(counts.data());
    if (n > 0) {
      count_predecessors<<<blocks_for_threads(n), k_block_threads>>>(n, offsets.data(), columns.data(), counts_ull);
      PMC_CUDA_CHECK_LAUNCH("count_predecessors");
    }
    size_t scratch_bytes = 0;
    PMC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scratch_bytes, counts.data(), predecessor_offsets.data(),
                                                 n + 1));
    DeviceBuffer<unsigned char> scratch(scratch_bytes);
    PMC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch.data(), scratch_bytes, counts.data(),
                                                 predecessor_offsets.data(), n + 1));
    // The scan's output is the scatter's cursor too: copy it, then advance.
    PMC_CUDA_CHECK(cudaMemcpy(counts.data(), predecessor_offsets.data(), (n + 1) * sizeof(uint64_t),
                              cudaMemcpyDeviceToDevice));
    if (n > 0) {
      scatter_predecessors<<<blocks_for_threads(n), k_block_threads>>>(n, offsets.data(), columns.data(), counts_ull,
                                                                       predecessors.data());
      PMC_CUDA_CHECK_LAUNCH("scatter_predecessors");
    }
    PMC_CUDA_CHECK(cudaDeviceSynchronize());
  }

  ~ResidentChain() { cudaSetDevice(ordinal); }  // the buffers, freed after this, belong to that device
  ResidentChain(const ResidentChain&) = delete;
  ResidentChain& operator=(const ResidentChain&) = delete;

  // Bytes one pass over the matrix streams: 12 per entry, 8 per row offset.
  double matrix_bytes() const { return entries * 12.0 + (states + 1) * 8.0; }
};

}  // namespace pmc::cuda
