// One GPU's share of a row-partitioned solve (the host half:
// lib/solver/gpu/partitioned_solve.cpp; the split:
// solver/device/row_partition.hpp): its slice's rows, the whole padded
// iterate twice (current and next), and the streams and events that order
// its computation against the exchange of slices (cuda/slice_exchange.hpp).
// Plain C++ over device_runtime.hpp: host code builds the parts without nvcc.
#pragma once

#include <memory>
#include <vector>

#include "common/index_range.hpp"
#include "common/sparse_matrix.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/device_csr.hpp"
#include "cuda/device_runtime.hpp"

namespace pmc::cuda {

// Makes `ordinal` current before the members of a DevicePart are built.
struct CurrentDevice {
  explicit CurrentDevice(int ordinal_) : ordinal(ordinal_) { make_device_current(ordinal); }
  void activate() const { make_device_current(ordinal); }
  int ordinal;
};

struct DevicePart : CurrentDevice {
  // The slice's rows as row_partition.hpp's MatrixSlice holds them: `groups`
  // (MDP: states + 1 offsets into a's rows; empty for a linear system), the
  // renumbered matrix, b and Jacobi's scale (linear systems only). Its
  // `states_` values sit at slots [slot_base_, slot_base_ + states_) of the
  // padded iterate, whose start is `padded_start`.
  DevicePart(int ordinal_, const std::vector<uint64_t>& groups_, const SparseMatrix& a_,
             const std::vector<double>& b_, const std::vector<double>& scale_, uint64_t states_, uint64_t interior_,
             uint64_t slot_base_, const std::vector<double>& padded_start)
      : CurrentDevice(ordinal_),
        states(states_),
        interior(interior_),
        slot_base(slot_base_),
        groups(groups_),
        a(a_),
        b(b_),
        scale(scale_),
        diff(states_),
        local_max(1),
        global_max(1),
        choice(states_) {
    x[0].upload(padded_start);
    x[1].upload(padded_start);
  }
  // The buffers, streams and events go back to the device they came from.
  ~DevicePart() { make_device_current_noexcept(ordinal); }
  DevicePart(const DevicePart&) = delete;
  DevicePart& operator=(const DevicePart&) = delete;

  uint64_t states;     // this slice's states (MDP) or rows (linear system)
  uint64_t interior;   // its first `interior` states read only its own values
  uint64_t slot_base;  // its values' first slot in the padded iterate
  // reads_from[q]: the positions of slice q's values (slots
  // q·stride + position) this slice's rows read, which the exchange must
  // deliver; empty where it reads none (row_partition.hpp's
  // PartitionLayout::reads).
  std::vector<IndexRange> reads_from;
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
