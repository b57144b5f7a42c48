// Exploration on the GPU (cuda/gpu_explorer.hpp): the program flattened
// for the device, the explorer run, and its outcome — the model's arrays in
// PRISM's state order, numbered and assembled on the device — handed to
// explorer.cpp, or its failures turned into the CPU's own errors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cuda/gpu_explorer.hpp"
#include "formats/prism_language/prism_model.hpp"
#include "formats/prism_language/state_packing.hpp"

namespace pmc::prism_language {

// Why the device explorer cannot run `program` (pow or log of reals, more
// variables or state words or a deeper expression than its per-state
// arrays hold, command rewards), or empty.
std::string gpu_exploration_obstacle(const PrismModel& program, const StateLayout& layout);

// Whether options.build asks for the GPU from the start. gpu: throws
// Error(no_device) when there is no GPU; a program the device explorer
// cannot run is explored on the CPU with a warning (in `warnings`).
// automatic: no — the CPU starts, and hands a model over to the GPU once
// it has found more states than small models have (explorer.cpp), if
// gpu_explorer_runs.
bool use_gpu_explorer(const PrismModel& program, const StateLayout& layout, const ExploreOptions& options,
                      std::vector<std::string>& warnings);

// Whether a GPU is there and the device explorer runs `program`. The
// first call asks CUDA for the GPUs (~0.1 s).
bool gpu_explorer_runs(const PrismModel& program, const StateLayout& layout);

// Explores on the first GPU. The errors are the CPU explorer's, with its
// messages: a failing state is expanded again on the CPU, which throws;
// more than max_states states, the memory limit (host memory for the
// model's copy, checked before it is assembled), Ctrl-C. Returns nullopt,
// with a warning saying why, when the model outgrows the device (its
// memory, or a state's expansion beyond the per-state arrays): the caller
// explores on the CPU.
std::optional<cuda::ExploredModel> explore_model_on_gpu(const PrismModel& program, const StateLayout& layout,
                                                        const std::vector<uint64_t>& initial,
                                                        const std::vector<uint32_t>& transition_structures,
                                                        const ExploreOptions& options,
                                                        std::vector<std::string>& warnings);

}  // namespace pmc::prism_language
