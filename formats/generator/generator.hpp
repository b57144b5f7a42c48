// Model generators: a caller (a frontend with its own modelling language)
// describes its model by expanding one state at a time, and pmc explores it
// — the C ABI's pmc_generator / pmc_model_explore. States are opaque byte
// strings; pmc deduplicates them by their bytes, numbers them (sorted by
// bytes, or breadth-first), builds the model as the PRISM-language explorer
// does (labels "init" and "deadlock" first, deadlocks as self-loops, DTMC
// choices resolved uniformly, CTMC rates added) and keeps each state's
// bytes with the model.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "model/model.hpp"

namespace pmc::generator {

class Expansion;  // generator/expansion.hpp

enum class StateOrder : uint8_t { bytes, bfs };

// Expands one state into `expansion`; returns 0, or any other value to stop
// the exploration (ErrorCode::cancelled or out_of_memory when it returns
// that code, else ErrorCode::model). Must not throw.
using ExpandFunction = std::function<int(std::span<const uint8_t> state, Expansion& expansion)>;

// The largest state pmc_generator_create accepts, in bytes.
inline constexpr uint32_t k_max_state_size = 4096;

struct GeneratorSpec {
  ModelType type = ModelType::dtmc;
  uint32_t max_state_size = 0;
  bool fixed_size = false;   // every state exactly max_state_size bytes
  bool thread_safe = false;  // `expand` may run on several threads at once
  StateOrder order = StateOrder::bytes;
  std::vector<std::vector<uint8_t>> initial_states;
  std::vector<std::string> labels;   // the caller's, after "init" and "deadlock"
  std::vector<std::string> rewards;  // reward structures' names
  ExpandFunction expand;
};

struct GeneratorOptions {
  ModelOptions model;       // strict, row-sum tolerance, memory limit
  uint64_t max_states = 0;  // 0: pmc's 32-bit limit only
  unsigned threads = 0;     // for a thread-safe generator; 0: every core
  const std::atomic<bool>* cancel = nullptr;
};

// The exploration's model, ready for Model::create. Throws pmc::Error
// naming the state (its bytes in hexadecimal) for the caller's errors, and
// for the limits (states, memory) and cancellation.
ModelParts explore_generator(const GeneratorSpec& spec, const GeneratorOptions& options);

// "0x0a1b..." (at most the first 32 bytes, then "…"), for messages.
std::string describe_state_bytes(std::span<const uint8_t> bytes);

}  // namespace pmc::generator
