// One GPU's share of a row-partitioned solve (solver/device/row_partition.hpp):
// its slice's rows, the whole padded iterate twice (current and next), and
// the streams and events that order its computation against the exchange
// of slices (cuda/slice_exchange.cuh).
#pragma once

#include <memory>
#include <vector>

#include "cuda/check.cuh"
#include "cuda/device_buffer.hpp"
#include "solver/gpu/device_csr.hpp"
#include "cuda/streams.cuh"
#include "solver/device/row_partition.hpp"

namespace pmc::cuda {

// Makes `ordinal` current before the members of a DevicePart are built.
struct CurrentDevice {
  explicit CurrentDevice(int ordinal_) : ordinal(ordinal_) { PMC_CUDA_CHECK(cudaSetDevice(ordinal)); }
  void activate() const { PMC_CUDA_CHECK(cudaSetDevice(ordinal)); }
  int ordinal;
};

struct DevicePart : CurrentDevice {
  DevicePart(int ordinal_, const MatrixSlice& slice, uint64_t states_, uint64_t interior_, uint64_t slot_base_,
             const std::vector<double>& padded_start)
      : CurrentDevice(ordinal_),
        states(states_),
        interior(interior_),
        slot_base(slot_base_),
        groups(slice.groups),
        a(slice.a),
        b(slice.b),
        scale(slice.scale),
        diff(states_),
        local_max(1),
        global_max(1),
        choice(states_) {
    x[0].upload(padded_start);
    x[1].upload(padded_start);
  }
  // The buffers, streams and events go back to the device they came from.
  ~DevicePart() { cudaSetDevice(ordinal); }
  DevicePart(const DevicePart&) = delete;
  DevicePart& operator=(const DevicePart&) = delete;

  uint64_t states;     // this slice's states (MDP) or rows (linear system)
  uint64_t interior;   // its first `interior` states read only its own values
  uint64_t slot_base;  // its values' first slot in the padded iterate
  DeviceBuffer<uint64_t> groups;  // MDP: states + 1 offsets into a's rows
  DeviceCsr a;
  DeviceBuffer<double> b, scale;
  DeviceBuffer<double> x[2];
  DeviceBuffer<double> diff;        // per state, on checked iterations
  DeviceBuffer<double> local_max;   // max of diff
  DeviceBuffer<double> global_max;  // max over all parts (NCCL all-reduce)
  DeviceBuffer<uint32_t> choice;
  Stream compute, comm;
  Event slice_ready;  // compute: this iteration's slice (and local_max) written
  Event gathered;     // comm: the last exchange done on this part's side
};

using DeviceParts = std::vector<std::unique_ptr<DevicePart>>;

}  // namespace pmc::cuda
