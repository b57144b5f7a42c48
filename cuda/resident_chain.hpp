// A DTMC's probability matrix (a CTMC's embedded one), or an MDP's, kept on
// a GPU across checks, with its transposed graph built there: the
// predecessor rows the qualitative precomputation searches. For an MDP a
// row is a choice; the owner of each row is kept beside it. Plain C++: the
// upload and the transposition are in resident_chain.cu.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>

#include "cuda/device_buffer.hpp"
#include "cuda/device_csr.hpp"

namespace pmc::cuda {

struct ResidentChain {
  int ordinal = 0;  // the CUDA device it lives on
  uint64_t states = 0, rows = 0, entries = 0;
  // MDPs only (empty for chains, whose rows are their states): each
  // state's rows, and each row's state.
  DeviceBuffer<uint64_t> groups;
  DeviceBuffer<uint32_t> state_of_row;
  DeviceBuffer<uint64_t> offsets;
  DeviceBuffer<uint32_t> columns;
  DeviceBuffer<double> values;
  DeviceBuffer<uint64_t> predecessor_offsets;  // states + 1
  DeviceBuffer<uint32_t> predecessors;         // rows, by the state they enter
  // One solve's vectors, kept for the next solve on this chain (allocating
  // them is most of a resident check's set-up otherwise); solves on one
  // chain take turns with them. Its type is the solver's
  // (lib/solver/gpu/resident_chain_reachability.cpp).
  std::mutex workspace_mutex;
  std::shared_ptr<void> workspace;

  // Uploads the matrix through pinned staging buffers (cuda/staged_upload.cuh)
  // and transposes its pattern on the device: counts, an exclusive scan, a
  // scatter, which run while the values (the largest array) are still
  // being copied. `host_groups` is null for a chain. `upload_seconds` gets
  // the copies' share.
  ResidentChain(int device_ordinal, uint64_t n, const uint64_t* host_groups, const uint64_t* host_offsets,
                const uint32_t* host_columns, const double* host_values, double& upload_seconds);

  // Adopts a matrix already on device `device_ordinal` (the GPU explorer's:
  // groups empty for a chain) and transposes it there. That device must be
  // current.
  ResidentChain(int device_ordinal, uint64_t n, DeviceBuffer<uint64_t>&& device_groups,
                DeviceBuffer<uint64_t>&& device_offsets, DeviceBuffer<uint32_t>&& device_columns,
                DeviceBuffer<double>&& device_values);

  ~ResidentChain();  // makes its device current: the buffers, freed after this, belong to it
  ResidentChain(const ResidentChain&) = delete;
  ResidentChain& operator=(const ResidentChain&) = delete;

  bool is_mdp() const { return groups.size() != 0; }
  CsrView matrix() const { return {offsets.data(), columns.data(), values.data()}; }
  // Bytes one pass over the matrix streams: 12 per entry, 8 per row offset
  // (and per row group).
  double matrix_bytes() const { return entries * 12.0 + (rows + 1) * 8.0 + (is_mdp() ? (states + 1) * 8.0 : 0.0); }

 private:
  // The predecessor rows (and an MDP's owners of rows) from the pattern.
  void transpose();
};

}  // namespace pmc::cuda
