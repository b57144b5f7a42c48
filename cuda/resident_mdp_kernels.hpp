// Launchers of gpu.interval-vi's kernels on a resident MDP
// (resident_mdp_kernels.cu), over plain views of device memory: the host
// half (lib/solver/gpu/resident_mdp_reachability.cpp) calls them without
// nvcc. Statuses as in resident_kernels.hpp. Every launch is enqueued on
// `stream`.
#pragma once

#include <cstdint>

#include "cuda/device_runtime.hpp"
#include "cuda/interval_kernels.hpp"
#include "cuda/resident_kernels.hpp"

namespace pmc::cuda {

// zero: `first` did not reach s. one: `second` reached s (max: the Prob1E
// set itself) or did not (min: the complement of the Prob1A search). Fixed
// states start at their value in both vectors, maybe states at [0, 1];
// `maybe_count` counts the maybe states. n > 0.
void launch_classify_mdp_states(uint64_t n, const unsigned* first, const unsigned* second, int one_when_reached,
                                uint8_t* status, BoundPair* v, BoundPair* w, unsigned* maybe_count,
                                StreamHandle stream);

// A mask word per 64 states: bit s set when status[s] is in `statuses`
// (bit k for status k).
void launch_status_words(uint64_t n, const uint8_t* status, unsigned statuses, uint64_t* words, StreamHandle stream);

// Adds to `count` the maybe states that a search `reached`.
void launch_count_reached_maybe(uint64_t n, const uint8_t* status, const unsigned* reached, unsigned* count,
                                StreamHandle stream);

// What the scheduler's choice reads. Pair: BoundPair on the host, double2
// in the kernels (same layout).
template <typename Pair>
struct ChoiceInputsView {
  uint64_t n;
  const uint64_t* groups;
  CsrView a;  // a row per choice
  const uint8_t* status;
  const Pair* v;
};
using ChoiceInputs = ChoiceInputsView<BoundPair>;

// Pmin's scheduler: a global row per state in `chosen` (all ones: none).
void launch_choose_min_rows(const ChoiceInputs& in, const uint64_t* psi, uint32_t* chosen, StreamHandle stream);

// Pmax's scheduler, first half: flags the rows optimal on the lower bounds
// in `usable`; a search from ψ over them gives the rows.
void launch_flag_optimal_rows(const ChoiceInputs& in, uint8_t* usable, StreamHandle stream);

// Global rows to indices within the state's group (-1: none).
void launch_local_choices(uint64_t n, const uint64_t* groups, const uint32_t* chosen, int32_t* out,
                          StreamHandle stream);

}  // namespace pmc::cuda
