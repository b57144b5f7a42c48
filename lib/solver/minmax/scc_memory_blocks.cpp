#include "solver/minmax/scc_memory_blocks.hpp"

namespace pmc {

uint64_t scc_bytes(const MinMaxProblem& p, const graph::SccDecomposition& sccs, uint64_t component) {
  uint64_t bytes = 0;
  for (uint32_t s : sccs.component(component)) {
    bytes += 4 * 8 + 4;
    for (uint64_t r = p.row_groups[s]; r < p.row_groups[s + 1]; ++r) {
      bytes += 2 * 8;
      for (uint64_t e = p.a.row_offsets[r]; e < p.a.row_offsets[r + 1]; ++e) {
        bytes += 4 + 8;
        if (sccs.component_of[p.a.columns[e]] != component) bytes += 8;
      }
    }
  }
  return bytes;
}

std::vector<uint64_t> all_scc_bytes(const MinMaxProblem& p, const graph::SccDecomposition& sccs) {
  std::vector<uint64_t> out(sccs.num_components());
  for (uint64_t c = 0; c < out.size(); ++c) out[c] = scc_bytes(p, sccs, c);
  return out;
}

std::vector<SccBlock> group_sccs(std::span<const uint64_t> bytes, uint64_t budget) {
  std::vector<SccBlock> blocks;
  bool open = false;  // the last block may still take SCCs
  for (uint64_t i = 0; i < bytes.size(); ++i) {
    const bool alone_too_big = budget != 0 && bytes[i] > budget;
    if (alone_too_big) {
      blocks.push_back({i, i, bytes[i], false});
      open = false;
      continue;
    }
    if (open && (budget == 0 || blocks.back().bytes + bytes[i] <= budget)) {
      blocks.back().last_scc = i;
      blocks.back().bytes += bytes[i];
      continue;
    }
    blocks.push_back({i, i, bytes[i], true});
    open = true;
  }
  return blocks;
}

}  // namespace pmc
