// How much memory a model takes: measured for a model that
// exists, estimated from counts for one a reader or builder is about to make
// (a file's header, an exploration's states), so that it can be refused
// against the memory limit (common/memory_limit.hpp) before allocating.
#pragma once

#include <cstdint>
#include <string_view>

#include "model/model.hpp"

namespace pmc {

// Bytes held by the model's arrays: matrix, row groups, coefficients,
// actions, labels, rewards, valuations (not its derived-data cache).
uint64_t model_bytes(const Model& model);

// The model store of a model with these counts, as Model::create leaves it:
// row offsets and groups, 12 B per entry (at least one entry per row: a
// deadlock gets a self-loop), the parametric coefficients, the "init" and
// "deadlock" labels. Saturates instead of wrapping for absurd counts.
// Loading peaks above this (a reader's buffers, normalising rows) by less
// than the model itself again.
uint64_t model_bytes_for(ModelType type, uint64_t states, uint64_t rows, uint64_t entries, uint64_t parameters = 0);

// require_memory(model_bytes_for(...), memory_limit, ...): Error(out_of_memory)
// naming `where` (a file, "line 1 of x.tra") and the counts.
void require_model_memory(ModelType type, uint64_t states, uint64_t rows, uint64_t entries, uint64_t parameters,
                          uint64_t memory_limit, std::string_view where);

}  // namespace pmc
