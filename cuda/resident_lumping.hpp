// Lumping a resident MDP's reachability problem on its GPU: the maybe
// states that are bisimilar for the problem become one unknown of a small
// MinMaxProblem, solved on the host or uploaded again, and its bounds are
// lifted back onto every state (lib/solver/gpu/resident_mdp_reachability.cpp
// decides when). The same notion as the host's lumping
// (lib/solver/minmax/lumping.hpp), on the resident matrix: zero states form
// block 0, one states block 1, and two maybe states stay together while
// their rows lift to the same *set* of rows over blocks, each lifted row's
// block sums taken in one canonical order (entries sorted by block and
// value), so identical multisets give identical doubles.
//
// Refinement: each round hashes every maybe state's rows (a multiset hash,
// finer than the set, so never coarser than bisimulation) together with its
// block, sorts the maybe states by that key (CUB radix sort; stable, so a
// block's first member is its least state) and numbers the runs. A round
// that splits nothing ends it. The partition found is then checked exactly:
// every state's lifted rows, as a set, against its block's first member's,
// bit for bit; a hash collision fails the check and lumping is abandoned.
// Every step is deterministic: the same blocks whatever the timing.
//
// Plain C++: the kernels and CUB's calls are in resident_lumping.cu. Work
// goes to the legacy default stream, as the resident MDP solve's.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "cuda/interval_kernels.hpp"
#include "cuda/resident_chain.hpp"

namespace pmc::cuda {

// The quotient, as host arrays of a MinMaxProblem over the maybe blocks
// (block b ≥ 2 is unknown b − 2): a row per row of the block's first
// member, its entries into maybe blocks in `columns`/`values`, its mass into
// block 1 (the one states) in `b`.
struct QuotientArrays {
  std::vector<uint64_t> groups, offsets;
  std::vector<uint32_t> columns;
  std::vector<double> values, b;
};

class ResidentLumping {
 public:
  enum class Refined { going, stable, too_many_blocks, unlumpable };

  // Rows longer than this, or states with more rows, make a problem
  // unlumpable here (the kernels lift rows in per-thread arrays).
  static constexpr uint32_t k_max_row_entries = 32, k_max_state_rows = 64;

  // One block of the `maybe_count` states whose `status` (device, one byte
  // per state, resident_kernels.hpp) is k_reach_maybe. The chain must
  // outlive this.
  ResidentLumping(const ResidentChain& chain, const uint8_t* status, uint64_t maybe_count);
  ~ResidentLumping();
  ResidentLumping(const ResidentLumping&) = delete;
  ResidentLumping& operator=(const ResidentLumping&) = delete;

  // Up to `rounds` more rounds: stable once a round splits nothing,
  // too_many_blocks once the maybe blocks exceed `max_blocks`, unlumpable
  // when a row or a state is too long for the kernels.
  Refined refine(uint64_t rounds, uint64_t max_blocks);
  uint64_t blocks() const;  // maybe blocks
  uint64_t rounds() const;

  // After a stable refinement: the exact check, then the quotient's rows
  // copied back. False (and `out` untouched) when the check fails.
  bool quotient(QuotientArrays& out);

  // v[s] = w[s] = bounds[block(s) − 2] for every maybe state s (`bounds`:
  // host, one pair per maybe block; v and w device vectors of the chain's
  // states).
  void lift(const std::vector<BoundPair>& bounds, BoundPair* v, BoundPair* w);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pmc::cuda
