// Pass 1 of exploration (explorer.cpp): every state reachable from the
// initial ones, inserted into a StateSet by `threads` threads.
#pragma once

#include <cstdint>
#include <vector>

#include "formats/prism_language/program.hpp"
#include "formats/prism_language/state_packing.hpp"
#include "formats/prism_language/state_set.hpp"

namespace pmc::prism_language {

// `initial`: packed initial states. Throws pmc::Error (code model) when
// more than `max_states` states are reached (0: only pmc's 2^32 − 1 limit),
// or whatever expanding a state throws (successors.hpp).
void reach_states(const Program& program, const StateLayout& layout, const std::vector<uint64_t>& initial,
                  StateSet& set, uint64_t max_states, unsigned threads);

}  // namespace pmc::prism_language
