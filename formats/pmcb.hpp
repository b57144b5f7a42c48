// pmc's chunked binary model format (.pmcb, formats/pmc.proto).
#pragma once

#include <string>

#include "model/model.hpp"

namespace pmc {

ModelParts read_pmcb(const std::string& path);

struct PmcbWriteOptions {
  // Entries (and rows) per matrix chunk; small values are for tests that
  // exercise many chunks.
  uint64_t chunk_items = uint64_t{1} << 20;
};
void write_pmcb(const Model& model, const std::string& path, const PmcbWriteOptions& options = {});

}  // namespace pmc
