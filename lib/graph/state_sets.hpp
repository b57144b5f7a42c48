// Disjoint sets of states stored as CSR: the form in which graph/ returns
// SCCs (scc.hpp), bottom SCCs (bscc.hpp) and maximal end components
// (end_components.hpp). CSR rather than one Bitset per set: a model can
// have about as many of them as it has states (a chain with many absorbing
// states has as many BSCCs), and n Bitsets of n bits would not fit in
// memory.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "common/bitset.hpp"

namespace pmc::graph {

struct StateSets {
  // Set i is states[offsets[i] .. offsets[i+1]); offsets has count()+1
  // entries (or none, when there is no set).
  std::vector<uint64_t> offsets;
  std::vector<uint32_t> states;

  uint64_t count() const { return offsets.empty() ? 0 : offsets.size() - 1; }
  std::span<const uint32_t> members(uint64_t i) const {
    return {states.data() + offsets[i], states.data() + offsets[i + 1]};
  }
  // Set i, and the union of all sets, as Bitsets over `num_states` states.
  Bitset members_as_bitset(uint64_t i, uint64_t num_states) const {
    Bitset set(num_states);
    for (uint32_t s : members(i)) set.set(s);
    return set;
  }
  Bitset union_as_bitset(uint64_t num_states) const {
    Bitset set(num_states);
    for (uint32_t s : states) set.set(s);
    return set;
  }
};

}  // namespace pmc::graph
