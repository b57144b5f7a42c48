// Bottom strongly connected components of a DTMC or CTMC: the SCCs that no
// transition leaves. In a finite chain every run ends in one of them almost
// surely, so steady-state (S=?) and long-run reward properties solve each
// BSCC on its own and weight it by the probability of reaching it. States in
// no BSCC are transient (their long-run probability is 0).
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "common/bitset.hpp"
#include "graph/state_sets.hpp"
#include "model/model.hpp"

namespace pmc::graph {

// The BSCCs, numbered in the order the SCC decomposition emitted them, each
// one's states in increasing order.
struct Bsccs : StateSets {
  // bscc_of[s] for a transient state.
  static constexpr uint32_t k_transient = std::numeric_limits<uint32_t>::max();

  // BSCC index per state (num_states entries), k_transient outside BSCCs.
  std::vector<uint32_t> bscc_of;

  std::span<const uint32_t> bscc(uint64_t i) const { return members(i); }
  // The states of BSCC i as a set over all num_states states.
  Bitset bscc_states(uint64_t i) const { return members_as_bitset(i, bscc_of.size()); }
  // The union of all BSCCs (its complement is the transient states).
  Bitset recurrent_states() const { return union_as_bitset(bscc_of.size()); }
};

// DTMC and CTMC only: for an MDP, bottom components of the union graph are
// not the end components the MDP algorithms need, and for a pCTMC an entry
// whose rate can be zero inside the parameter box would make the answer
// depend on the parameters; both throw pmc::Error(unsupported).
// O(n + m) on top of the SCC decomposition. An irreducible chain (one BSCC)
// is recognised first by two searches on `threads` cores (0: all), without
// the decomposition.
Bsccs bottom_sccs(const Model& model, int threads = 0);

}  // namespace pmc::graph
