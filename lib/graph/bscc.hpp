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
#include "model/model.hpp"

namespace pmc::graph {

struct Bsccs {
  // bscc_of[s] for a transient state.
  static constexpr uint32_t k_transient = std::numeric_limits<uint32_t>::max();

  // BSCC index per state (num_states entries), k_transient outside BSCCs.
  std::vector<uint32_t> bscc_of;
  // The BSCCs as CSR (offsets has count()+1 entries), numbered in the order
  // the SCC decomposition emitted them. CSR rather than one Bitset per BSCC:
  // a chain with many absorbing states has as many BSCCs as states, and n
  // Bitsets of n bits would not fit in memory.
  std::vector<uint64_t> offsets;
  std::vector<uint32_t> states;

  uint64_t count() const { return offsets.empty() ? 0 : offsets.size() - 1; }
  std::span<const uint32_t> bscc(uint64_t i) const {
    return {states.data() + offsets[i], states.data() + offsets[i + 1]};
  }
  // The states of BSCC i as a set over all num_states states.
  Bitset bscc_states(uint64_t i) const;
  // The union of all BSCCs (its complement is the transient states).
  Bitset recurrent_states() const;
};

// DTMC and CTMC only: for an MDP, bottom components of the union graph are
// not the end components the MDP algorithms need, and for a pCTMC an entry
// whose rate can be zero inside the parameter box would make the answer
// depend on the parameters; both throw pmc::Error(unsupported).
// O(n + m) on top of the SCC decomposition.
Bsccs bottom_sccs(const Model& model);

}  // namespace pmc::graph
