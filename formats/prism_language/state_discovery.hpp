// Pass 1 of exploration (explorer.cpp): every state reachable from the
// initial ones, inserted into a StateSet by `threads` threads, and each
// state's rows recorded as it is expanded (columns as discovery ids).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "formats/prism_language/prism_model.hpp"
#include "formats/prism_language/rows.hpp"
#include "formats/prism_language/state_packing.hpp"
#include "formats/prism_language/state_set.hpp"

namespace pmc::prism_language {

// `initial`: packed initial states; `transition_structures`: as
// RowBuilder's. Throws pmc::Error (code model) when more than `max_states`
// states are reached (0: only pmc's 2^32 − 1 limit), Error(out_of_memory)
// when the set and the rows would outgrow `memory_limit` (0: the machine's
// memory; common/memory_limit.hpp) — checked before the set grows and
// after each chunk, the message giving the states found so far —, or
// whatever expanding a state throws (successors.hpp), or Error(cancelled)
// once `cancel` is set (polled before each chunk). Returns the rows of
// every state, in blocks (each state in exactly one).
// The error of an exploration that found more than `limit` states (the
// user's --max-states when `user_limit`, else pmc's 32-bit limit).
[[noreturn]] void too_many_states(const std::string& file, uint64_t limit, bool user_limit);

// `auto` builds: past `states` states (0: never) the CPU asks `to_gpu`,
// once, whether the GPU should explore the model instead; if it answers
// yes, reach_states stops and throws HandedOver, and the caller starts
// again on the GPU. Small models never wake a GPU this way.
struct GpuHandOver {
  uint64_t states = 0;
  std::function<bool()> to_gpu;
};
struct HandedOver {};

std::vector<RowBlock> reach_states(const PrismModel& program, const StateLayout& layout,
                                   const std::vector<uint64_t>& initial, StateSet& set,
                                   const std::vector<uint32_t>& transition_structures, uint64_t max_states,
                                   unsigned threads, uint64_t memory_limit = 0,
                                   const std::atomic<bool>* cancel = nullptr,
                                   const std::function<void(uint64_t, double)>& progress = {},
                                   const GpuHandOver& hand_over = {});

}  // namespace pmc::prism_language
