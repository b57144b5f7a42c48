// PRISM-language exploration on the GPU (cuda/gpu_explorer.cu): the
// program's guards, weights and updates as flat code (a device VM runs
// it), a breadth-first search whose frontier is the newest range of
// discovery ids, a device hash set of packed states, and each state's rows
// computed on the device exactly as the CPU's RowBuilder computes them
// (same order of sums, no fused multiply-adds); then the states sorted
// into PRISM's order and the model assembled on the device, and copied
// back once.
// No CUDA header here: formats/prism_language/gpu_exploration.cpp builds
// the program and calls it from plain C++.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "expression/flat_code.hpp"

namespace pmc::cuda {

struct ResidentChain;  // resident_chain.hpp

using expression::FlatExpression;
using expression::FlatInstruction;

// How a variable sits in a packed state (state_packing.hpp's Field).
struct ExploreField {
  uint32_t word = 0, shift = 0;
  uint64_t mask = 0;
  int32_t lower = 0, upper = 0;
};
struct ExploreAssignment {
  uint32_t variable = 0;
  FlatExpression value;
};
struct ExploreUpdate {
  FlatExpression weight;
  uint32_t first_assignment = 0, num_assignments = 0;
};
struct ExploreCommand {
  FlatExpression guard;
  uint32_t first_update = 0, num_updates = 0;
};
// A module taking part in an action: its commands with that action label,
// participant_commands[first, first + count).
struct ExploreParticipant {
  uint32_t first = 0, count = 0;
};
struct ExploreRewardItem {
  uint32_t action = 0;
  FlatExpression guard, value;
};
struct ExploreStateRewardItem {
  FlatExpression guard, value;
};

// A checked program, flattened (successors.hpp gives the semantics).
struct ExploreProgram {
  uint8_t model_type = 0;  // 0 DTMC, 1 CTMC, 2 MDP
  uint32_t words = 1;
  std::vector<ExploreField> fields;  // one per variable
  std::vector<FlatInstruction> code;
  std::vector<ExploreCommand> commands;
  std::vector<ExploreUpdate> updates;
  std::vector<ExploreAssignment> assignments;
  std::vector<uint32_t> local_commands;  // unlabelled commands, module by module
  // Action a (1..) has participants [action_participants[a], action_participants[a + 1]).
  std::vector<uint32_t> action_participants;
  std::vector<ExploreParticipant> participants;
  std::vector<uint32_t> participant_commands;
  // Transition reward structure r (RowBlock order) has items
  // [structure_items[r], structure_items[r + 1]).
  std::vector<uint32_t> structure_items;
  std::vector<ExploreRewardItem> reward_items;
  // The labels and state rewards, evaluated on the device once the states
  // are in order, when `state_expressions` says the device computes them
  // as the CPU does (else the host evaluates them). State reward structure
  // k (the program's structures with state items, in order) has items
  // [state_structure_items[k], state_structure_items[k + 1]).
  bool state_expressions = false;
  std::vector<FlatExpression> labels;
  std::vector<uint32_t> state_structure_items;
  std::vector<ExploreStateRewardItem> state_reward_items;
};

// Per-state bounds of the device's expansion (thread-local arrays); a
// program or state beyond them is explored on the CPU instead.
inline constexpr uint32_t k_explore_max_variables = 96;
inline constexpr uint32_t k_explore_max_words = 6;
inline constexpr uint32_t k_explore_max_stack = 24;
inline constexpr uint32_t k_explore_max_enabled = 48;   // enabled commands of one action
inline constexpr uint32_t k_explore_max_weights = 192;  // their branch weights

// The explored model in PRISM's state order (packed keys ascending),
// numbered and assembled on the device: what explorer.cpp's numbering and
// assembly passes make of the CPU's rows, ready to move into ModelParts.
// Within a row the entries are in PRISM's order (by target key).
struct ExploredModel {
  static constexpr uint8_t k_deadlock = 1, k_nondeterministic = 2;
  uint64_t num_states = 0;
  std::vector<uint64_t> keys;            // packed states in state order, words each
  std::vector<uint32_t> initial_states;  // their indices, in the order given
  std::vector<uint8_t> flags;            // per state: k_deadlock, k_nondeterministic (DTMC alternatives)
  std::vector<uint64_t> row_groups;      // MDPs: each state's first row, num_states + 1; else empty
  std::vector<uint64_t> row_offsets;     // rows + 1
  std::vector<uint32_t> columns;
  std::vector<double> values;
  std::vector<uint32_t> actions;  // per entry; empty when the program names no actions
  std::vector<std::vector<double>> transition_rewards;  // per transition reward structure
  // With ExploreProgram::state_expressions, and when no evaluation failed
  // on the device (the host evaluates them again and reports the error):
  // each label's states as Bitset words, and each state reward
  // structure's rewards per state.
  bool states_evaluated = false;
  std::vector<std::vector<uint64_t>> label_words;
  std::vector<std::vector<double>> state_rewards;
  // A DTMC's or MDP's rows left on the device as the copy the GPU solvers
  // keep (a CTMC's solvers use its embedded chain instead); null where
  // the device had no room for it beside the exploration.
  std::shared_ptr<ResidentChain> resident;
};

struct GpuExploration {
  enum class Stop {
    done,
    state_failed,    // expanding failed_key failed (an error the CPU reports with its message)
    too_many_states, // more than ExploreLimits::max_states
    beyond_device,   // a state or the model exceeds what the device explorer holds: `reason`
  };
  Stop stop = Stop::done;
  ExploredModel model;                    // done
  std::vector<uint64_t> failed_key;       // state_failed
  std::string reason;                     // beyond_device
};

struct ExploreLimits {
  uint64_t max_states = 0;  // stop above this many states (at most 2^32 - 1)
  // Called on the host after each chunk with the states found so far; may
  // throw (Ctrl-C) to stop the exploration, the device's memory freed on
  // the way out.
  std::function<void(uint64_t states)> after_chunk;
  // Called once the state space is known, before the model is assembled
  // and copied to the host; may throw (the host's memory limit).
  std::function<void(uint64_t states, uint64_t rows, uint64_t entries)> before_assembly;
};

// Explores `program` from the packed `initial` states (distinct, words
// each) on CUDA device `ordinal`. Throws pmc::Error on CUDA failures
// (no_device, device; out_of_memory when the device's memory runs out).
GpuExploration explore_on_gpu(const ExploreProgram& program, const std::vector<uint64_t>& initial,
                              const ExploreLimits& limits, int ordinal);

}  // namespace pmc::cuda
