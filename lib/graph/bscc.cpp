#include "graph/bscc.hpp"

#include <numeric>

#include "common/error.hpp"
#include "graph/parallel_reach.hpp"
#include "graph/scc.hpp"
#include "graph/transpose.hpp"

namespace pmc::graph {

namespace {

// Whether every state reaches every other (the chain is irreducible, as most
// steady-state models are): a forward and a backward breadth-first search
// from state 0 both cover every state. Far cheaper than Tarjan's bookkeeping
// on millions of states, and both searches run on all cores
// (parallel_reach.hpp); the transposed graph is the model's cached one.
bool irreducible(const Model& model, int threads) {
  const uint64_t n = model.num_states();
  if (n == 0) return false;
  if (reachable_from(n, model.row_offsets().data(), model.columns().data(), 0, threads).count() != n) return false;
  const TransposedGraph& transposed =
      model.derived<TransposedGraph>(k_transposed_key, [&] { return transpose(model, threads); });
  return reachable_from(n, transposed.offsets.data(), transposed.sources.data(), 0, threads).count() == n;
}

}  // namespace

Bsccs bottom_sccs(const Model& model, int threads) {
  if (model.type() != ModelType::dtmc && model.type() != ModelType::ctmc) {
    fail(ErrorCode::unsupported, "bottom SCCs are computed for DTMCs and CTMCs; this model is a {}",
         to_string(model.type()));
  }
  const uint64_t n = model.num_states();
  if (irreducible(model, threads)) {  // one BSCC: every state
    Bsccs out;
    out.bscc_of.assign(n, 0);
    out.states.resize(n);
    std::iota(out.states.begin(), out.states.end(), uint32_t{0});
    out.offsets = {0, n};
    return out;
  }
  const std::vector<uint64_t>& row_offsets = model.row_offsets();
  const std::vector<uint32_t>& columns = model.columns();
  const SccDecomposition sccs = strongly_connected_components(model);

  // One pass over the edges: a component is bottom unless some edge leaves it.
  std::vector<uint8_t> leaves(sccs.num_components(), 0);
  for (uint64_t s = 0; s < n; ++s) {
    const uint32_t c = sccs.component_of[s];
    for (uint64_t e = row_offsets[s]; e < row_offsets[s + 1]; ++e) {
      if (sccs.component_of[columns[e]] != c) {
        leaves[c] = 1;
        break;
      }
    }
  }

  // Each BSCC's states in increasing order (a counting sort by BSCC), so
  // that a pass over a BSCC reads the model's rows in storage order.
  Bsccs out;
  out.bscc_of.assign(n, Bsccs::k_transient);
  std::vector<uint32_t> id_of(sccs.num_components(), Bsccs::k_transient);
  out.offsets.push_back(0);
  for (uint64_t c = 0; c < sccs.num_components(); ++c) {
    if (leaves[c]) continue;
    id_of[c] = static_cast<uint32_t>(out.offsets.size() - 1);
    out.offsets.push_back(out.offsets.back() + sccs.component(c).size());
  }
  out.states.resize(out.offsets.back());
  std::vector<uint64_t> next(out.offsets.begin(), out.offsets.end() - 1);
  for (uint64_t s = 0; s < n; ++s) {
    const uint32_t id = id_of[sccs.component_of[s]];
    if (id == Bsccs::k_transient) continue;
    out.bscc_of[s] = id;
    out.states[next[id]++] = static_cast<uint32_t>(s);
  }
  return out;
}

}  // namespace pmc::graph
