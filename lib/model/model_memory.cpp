#include "model/model_memory.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "common/memory_limit.hpp"

namespace pmc {
namespace {

template <typename T>
uint64_t vector_bytes(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

}  // namespace

uint64_t model_bytes(const Model& model) {
  uint64_t bytes = vector_bytes(model.row_groups()) + vector_bytes(model.row_offsets()) +
                   vector_bytes(model.columns()) + vector_bytes(model.values()) +
                   vector_bytes(model.coefficients()) + vector_bytes(model.entry_actions()) +
                   model.valuations().bytes() + model.state_bytes().bytes();
  for (const Label& label : model.labels()) bytes += vector_bytes(label.states.words());
  for (const RewardStructure& r : model.rewards()) {
    bytes += vector_bytes(r.state_rewards) + vector_bytes(r.transition_rewards);
  }
  return bytes;
}

uint64_t model_bytes_for(ModelType type, uint64_t states, uint64_t rows, uint64_t entries, uint64_t parameters) {
  if (type != ModelType::mdp) rows = states;
  rows = std::max(rows, states);
  entries = std::max(entries, rows);
  uint64_t bytes = csr_bytes(rows, entries);
  bytes = saturating_add(bytes, saturating_mul(8, saturating_add(states, 1)));  // row groups
  bytes = saturating_add(bytes, saturating_mul(saturating_mul(8, entries), parameters));
  bytes = saturating_add(bytes, saturating_mul(2, states / 8 + 8));  // "init" and "deadlock"
  return bytes;
}

void require_model_memory(ModelType type, uint64_t states, uint64_t rows, uint64_t entries, uint64_t parameters,
                          uint64_t memory_limit, std::string_view where) {
  const uint64_t needed = model_bytes_for(type, states, rows, entries, parameters);
  if (needed <= effective_memory_limit(memory_limit)) return;
  const std::string counts =
      type == ModelType::mdp
          ? fmt::format("{} states, {} choices and {} transitions", states, rows, entries)
          : fmt::format("{} states and {} transitions", states, entries);
  require_memory(needed, memory_limit, fmt::format("{}: a {} of {}", where, to_string(type), counts));
}

}  // namespace pmc
