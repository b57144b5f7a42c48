// Launchers of the Bellman update behind gpu.vi (minmax_kernels.cu), over a
// plain view of device memory: host code calls them without nvcc.
#pragma once

#include <cstdint>

#include "cuda/device_csr.hpp"
#include "cuda/device_runtime.hpp"

namespace pmc::cuda {

// Bellman updates of an MDP (Berger 2014 §3.5): x'_s = opt over the
// choices r of s of (b_r + Σ_k a_k·x[col_k]).
struct BellmanUpdate {
  uint64_t states;
  const uint64_t* groups;  // states + 1: first choice of each state
  CsrView a;               // a row per choice
  const double* b;         // per choice
  const double* x;
  double* y;
  double* diff;      // may be null
  uint32_t* choice;  // may be null: the optimal choice, 0-based within the state
  int maximize;
  int relative;
  // Slices of a multi-GPU solve, as RowUpdate: states [first, states), the
  // state's own value at x[slot_base + s] and y[slot_base + s].
  uint64_t first = 0;
  uint64_t slot_base = 0;
};

// A thread per state when states have few entries; a warp per state (lanes
// over each choice's entries, shuffle reduction) when they have many.
// Enqueued on `stream`.
void launch_bellman(const BellmanUpdate& u, bool warp_per_state, StreamHandle stream);

}  // namespace pmc::cuda
