// Backward searches on a resident chain's predecessors (cuda/resident_chain.hpp):
// DTMC prob0/prob1 (graph/dtmc_precomputation.hpp) and MDP
// Prob0A/0E/1A/1E (graph/mdp_precomputation.hpp, through
// cuda/mdp_precomputation.hpp) as frontier fixpoints on the device, level
// by level. A level spreads the frontier's predecessor
// edges over the grid (a thread per edge, balanced however skewed the
// in-degrees are); predecessors are claimed with an atomic exchange, so
// each state enters a frontier once. The sets are the CPU's bit for bit: both are
// the least fixpoint of the same search. Plain C++: the levels are run by
// frontier_search.cu over frontier_kernels.cuh.
#pragma once

#include <cstdint>

#include "cuda/device_buffer.hpp"
#include "cuda/resident_chain.hpp"

namespace pmc::cuda {

// How a predecessor row passes its state into the next frontier (MDPs;
// a chain's rows are its states and take the default).
//  - k_through_any_row: through any row (Prob0A, Prob1A: some choice).
//  - k_through_every_row: once every row of the state has entered the
//    reached set (Prob0E's attractor): `row_hit` marks a row counted, and
//    `pending` (per state, its number of rows) counts down; the state
//    joins when it reaches 0, as graph/mdp_precomputation.cpp's counter.
//  - k_through_usable_row: through rows flagged in `usable` only (Prob1E's
//    rounds, the progressing scheduler); `via` (may be null) records the row
//    through which each state was reached.
enum ExpansionMode : int { k_through_any_row = 0, k_through_every_row = 1, k_through_usable_row = 2 };

struct Expansion {
  int mode = k_through_any_row;
  const uint32_t* state_of_row = nullptr;  // null: rows are states
  unsigned* row_hit = nullptr;
  unsigned* pending = nullptr;
  const uint8_t* usable = nullptr;
  uint32_t* via = nullptr;
};

// Frontier queues and the per-level size read-back of one search.
class FrontierSearch {
 public:
  explicit FrontierSearch(uint64_t n);

  // Expands from the queued seeds (queue_size of them in current_) until no
  // state joins; `reached` marks the result. Returns the number of levels;
  // reached_count() then gives the states reached, seeds included.
  // A level: degrees, their scan, one read-back of the edge count, the
  // edges, one read-back of the next frontier's size.
  uint64_t run(const ResidentChain& chain, const uint64_t* allowed, const uint64_t* blocked, unsigned* reached,
               Expansion how = {});

  uint64_t reached_count() const { return reached_count_; }

  // Seeds for run(): `seed`'s states, or those `first` left unreached.
  void seed_set(const uint64_t* seed, unsigned* reached);
  void seed_unreached_by(const unsigned* first, unsigned* reached);

 private:
  void reset_size();
  unsigned read_size(int which);

  uint64_t n_;
  uint64_t reached_count_ = 0;
  DeviceBuffer<uint32_t> current_, next_;
  DeviceBuffer<unsigned> sizes_;  // [0]: the seeds, [1]: the next frontier
  DeviceBuffer<uint64_t> degrees_, edge_offsets_;
  DeviceBuffer<unsigned char> scratch_;
};

}  // namespace pmc::cuda
