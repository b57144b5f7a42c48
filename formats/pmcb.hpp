// pmc's chunked binary model format (.pmcb, formats/pmc.proto).
#pragma once

#include <string>

#include "model/model.hpp"

namespace pmc {

// options.memory_limit: the header's sizes must fit it (and the
// file) before the arrays are reserved; the other options are Model::create's.
ModelParts read_pmcb(const std::string& path, const ModelOptions& options = {});

struct PmcbWriteOptions {
  // Entries (and rows) per matrix chunk; small values are for tests that
  // exercise many chunks.
  uint64_t chunk_items = uint64_t{1} << 20;
};
void write_pmcb(const Model& model, const std::string& path, const PmcbWriteOptions& options = {});

}  // namespace pmc
