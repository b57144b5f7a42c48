// resident_chain.hpp's upload and transposition: counts, an exclusive scan,
// a scatter on the device.
#include <chrono>
#include <cstdint>


#include "common/stopwatch.hpp"
#include "cuda/check.cuh"
#include "cuda/device_buffer.hpp"
#include "cuda/device_scan.cuh"
#include "cuda/launch.hpp"
#include "cuda/resident_chain.hpp"
#include "cuda/staged_upload.cuh"

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

// Row r of state s for every r in groups[s]..groups[s+1].
static __global__ void owners_of_rows(uint64_t states, const uint64_t* groups, uint32_t* state_of_row) {
  const uint64_t s = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (s >= states) return;
  for (uint64_t r = groups[s]; r < groups[s + 1]; ++r) state_of_row[r] = static_cast<uint32_t>(s);
}

ResidentChain::ResidentChain(int device_ordinal, uint64_t n, const uint64_t* host_groups, const uint64_t* host_offsets,
                             const uint32_t* host_columns, const double* host_values, double& upload_seconds)
    : ordinal(device_ordinal), states(n), rows(host_groups ? host_groups[n] : n), entries(host_offsets[rows]) {
  const auto start = std::chrono::steady_clock::now();
  StagedUpload::Lease upload = StagedUpload::for_current_device();
  offsets.allocate(rows + 1);
  columns.allocate(entries);
  values.allocate(entries);
  upload->copy(offsets.data(), host_offsets, (rows + 1) * sizeof(uint64_t));
  if (host_groups != nullptr) {
    groups.allocate(n + 1);
    state_of_row.allocate(rows);
    upload->copy(groups.data(), host_groups, (n + 1) * sizeof(uint64_t));
  }
  if (entries > 0) upload->copy(columns.data(), host_columns, entries * sizeof(uint32_t));
  upload->finish();  // the transposition reads the offsets and columns
  upload_seconds = seconds_since(start);

  transpose();
  const auto values_start = std::chrono::steady_clock::now();
  if (entries > 0) upload->copy(values.data(), host_values, entries * sizeof(double));
  upload->finish();
  upload_seconds += seconds_since(values_start);
  PMC_CUDA_CHECK(cudaDeviceSynchronize());
}

ResidentChain::ResidentChain(int device_ordinal, uint64_t n, DeviceBuffer<uint64_t>&& device_groups,
                             DeviceBuffer<uint64_t>&& device_offsets, DeviceBuffer<uint32_t>&& device_columns,
                             DeviceBuffer<double>&& device_values)
    : ordinal(device_ordinal), states(n), rows(device_offsets.size() - 1), entries(device_columns.size()),
      groups(std::move(device_groups)), offsets(std::move(device_offsets)), columns(std::move(device_columns)),
      values(std::move(device_values)) {
  if (is_mdp()) state_of_row.allocate(rows);
  transpose();
  PMC_CUDA_CHECK(cudaDeviceSynchronize());
}

void ResidentChain::transpose() {
  const uint64_t n = states;
  predecessor_offsets.allocate(n + 1);
  predecessors.allocate(entries);
  DeviceBuffer<uint64_t> counts(n + 1);
  counts.fill_zero();
  auto* counts_ull = reinterpret_cast<unsigned long long*>(counts.data());
  if (is_mdp() && n > 0) {
    owners_of_rows<<<blocks_for_threads(n), k_block_threads>>>(n, groups.data(), state_of_row.data());
    PMC_CUDA_CHECK_LAUNCH("owners_of_rows");
  }
  if (rows > 0) {
    count_predecessors<<<blocks_for_threads(rows), k_block_threads>>>(rows, offsets.data(), columns.data(),
                                                                      counts_ull);
    PMC_CUDA_CHECK_LAUNCH("count_predecessors");
  }
  DeviceBuffer<unsigned char> scratch;
  exclusive_sum(counts.data(), predecessor_offsets.data(), n + 1, scratch);
  // The scan's output is the scatter's cursor too: copy it, then advance.
  PMC_CUDA_CHECK(cudaMemcpy(counts.data(), predecessor_offsets.data(), (n + 1) * sizeof(uint64_t),
                            cudaMemcpyDeviceToDevice));
  if (rows > 0) {
    scatter_predecessors<<<blocks_for_threads(rows), k_block_threads>>>(rows, offsets.data(), columns.data(),
                                                                        counts_ull, predecessors.data());
    PMC_CUDA_CHECK_LAUNCH("scatter_predecessors");
  }
}

ResidentChain::~ResidentChain() { cudaSetDevice(ordinal); }

}  // namespace pmc::cuda
