// Pass 1 of exploration on the GPU (cuda/gpu_explorer.hpp): the program
// flattened for the device, the explorer run, and its outcomes turned into
// what the CPU's pass 1 gives explorer.cpp — keys by discovery id, the
// initial states' ids and RowBlocks — or into the CPU's own errors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "formats/prism_language/prism_model.hpp"
#include "formats/prism_language/row_block.hpp"
#include "formats/prism_language/state_packing.hpp"

namespace pmc::prism_language {

struct GpuReached {
  std::vector<uint64_t> keys;  // packed states by discovery id
  std::vector<uint32_t> initial_ids;
  std::vector<RowBlock> blocks;
};

// Why the device explorer cannot run `program` (pow or log of reals, more
// variables or state words or a deeper expression than its per-state
// arrays hold), or empty.
std::string gpu_exploration_obstacle(const PrismModel& program, const StateLayout& layout);

// Whether options.build asks for the GPU here. automatic: the CPU for now
// (gpu_exploration.cpp says why). gpu: throws Error(no_device) when there
// is no GPU; a program the device explorer cannot run is explored on the
// CPU with a warning (in `warnings`).
bool use_gpu_explorer(const PrismModel& program, const StateLayout& layout, const ExploreOptions& options,
                      std::vector<std::string>& warnings);

// Explores on the first GPU. The errors are the CPU explorer's, with its
// messages: a failing state is expanded again on the CPU, which throws;
// more than max_states states, the memory limit (host memory: the keys and
// the rows copied back), Ctrl-C. Returns nullopt, with a warning saying
// why, when the model outgrows the device (its memory, or a state's
// expansion beyond the per-state arrays): the caller explores on the CPU.
std::optional<GpuReached> reach_states_on_gpu(const PrismModel& program, const StateLayout& layout,
                                              const std::vector<uint64_t>& initial,
                                              const std::vector<uint32_t>& transition_structures,
                                              const ExploreOptions& options, std::vector<std::string>& warnings);

}  // namespace pmc::prism_language
