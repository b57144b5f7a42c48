#include "graph/dtmc_precomputation.hpp"

#include "common/error.hpp"
#include "graph/bitset_ops.hpp"
#include "graph/reachability.hpp"

namespace pmc::graph {
namespace {

void require_chain_graph(const TransposedGraph& g, const char* what) {
  // An MDP's transposed graph unions its choices; prob0 over it would be
  // Pmax = 0 and prob1 would be meaningless, so reject it rather than return
  // a plausible-looking wrong set. The MDP algorithms have their own entry points.
  if (!g.rows_are_states()) {
    fail(ErrorCode::invalid_argument, "{}: needs the transposed graph of a DTMC or CTMC, got one of an MDP", what);
  }
}

void require_chain_model(const Model& model, const char* what) {
  if (model.type() != ModelType::dtmc && model.type() != ModelType::ctmc) {
    fail(ErrorCode::unsupported, "{} is defined for DTMCs and CTMCs; this model is a {}", what,
         to_string(model.type()));
  }
}

}  // namespace

Bitset prob0(const TransposedGraph& transposed, const Bitset& phi, const Bitset& psi) {
  require_chain_graph(transposed, "prob0");
  return bits::complement(backward_reachable(transposed, psi, phi));
}

Bitset prob1(const TransposedGraph& transposed, const Bitset& phi, const Bitset& psi, const Bitset& prob0_states) {
  require_chain_graph(transposed, "prob1");
  bits::require_same_size(phi, psi, "prob1");
  return bits::complement(backward_reachable(transposed, prob0_states, bits::difference(phi, psi)));
}

Bitset prob1(const TransposedGraph& transposed, const Bitset& phi, const Bitset& psi) {
  return prob1(transposed, phi, psi, prob0(transposed, phi, psi));
}

Prob01 prob01(const TransposedGraph& transposed, const Bitset& phi, const Bitset& psi) {
  Prob01 result;
  result.prob0 = prob0(transposed, phi, psi);
  result.prob1 = prob1(transposed, phi, psi, result.prob0);
  return result;
}

Bitset prob0(const Model& model, const Bitset& phi, const Bitset& psi) {
  require_chain_model(model, "prob0");
  return prob0(transpose(model), phi, psi);
}

Bitset prob1(const Model& model, const Bitset& phi, const Bitset& psi) {
  require_chain_model(model, "prob1");
  return prob1(transpose(model), phi, psi);
}

Prob01 prob01(const Model& model, const Bitset& phi, const Bitset& psi) {
  require_chain_model(model, "prob01");
  return prob01(transpose(model), phi, psi);
}

}  // namespace pmc::graph
