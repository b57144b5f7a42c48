#include "graph/mdp_precomputation.hpp"

#include "common/error.hpp"
#include "graph/bitset_ops.hpp"
#include "graph/reachability.hpp"

namespace pmc::graph {
namespace {

// The graph must be transpose(model): the searches walk predecessor rows in
// `transposed` and successor entries in `model`, and a graph of another model
// would index out of range or, worse, give a plausible wrong set.
void require_inputs(const Model& model, const TransposedGraph& g, const Bitset& phi, const Bitset& psi,
                    const char* what) {
  if (model.type() != ModelType::mdp && model.type() != ModelType::dtmc) {
    fail(ErrorCode::unsupported, "{} is defined for MDPs (and DTMCs); this model is a {}", what,
         to_string(model.type()));
  }
  const uint64_t n = model.num_states();
  if (g.num_states != n || g.num_rows != model.num_rows() || (g.rows_are_states() && g.num_rows != n)) {
    fail(ErrorCode::invalid_argument,
         "{}: the transposed graph has {} states and {} rows, the model has {} states and {} rows", what,
         g.num_states, g.num_rows, n, model.num_rows());
  }
  if (phi.size() != n || psi.size() != n) {
    fail(ErrorCode::invalid_argument, "{}: state sets have {} and {} states, the model has {}", what, phi.size(),
         psi.size(), n);
  }
}

void require_size(const Model& model, const Bitset& set, const char* what, const char* name) {
  if (set.size() != model.num_states()) {
    fail(ErrorCode::invalid_argument, "{}: {} has {} states, the model has {}", what, name, set.size(),
         model.num_states());
  }
}

// True when every successor of `row` lies in `set`.
bool row_stays_in(const Model& model, uint64_t row, const Bitset& set) {
  const std::vector<uint64_t>& offsets = model.row_offsets();
  const std::vector<uint32_t>& columns = model.columns();
  for (uint64_t e = offsets[row]; e < offsets[row + 1]; ++e) {
    if (!set.test(columns[e])) return false;
  }
  return true;
}

// The rows of states in `owners` whose successors all lie in `set`, as a
// Bitset over rows. Rows of other states are left out: no caller expands them.
Bitset rows_staying_in(const Model& model, const Bitset& owners, const Bitset& set) {
  const std::vector<uint64_t>& groups = model.row_groups();
  Bitset rows(model.num_rows());
  bits::for_each_set(owners, [&](uint64_t s) {
    for (uint64_t r = groups[s]; r < groups[s + 1]; ++r) {
      if (row_stays_in(model, r, set)) rows.set(r);
    }
  });
  return rows;
}

// Backward breadth-first search from psi that expands a state of `expand`
// through a predecessor row only when that row is in `usable`. Writes the
// reached set into `reached` (psi included) and, when `via` is not null, the
// row through which each non-psi state was first reached. Because the queue
// is FIFO, that row has a successor discovered one layer earlier: this is the
// distance-decreasing choice of progressing_choices.
void search_usable_rows(const TransposedGraph& g, const Bitset& psi, const Bitset& expand, const Bitset& usable,
                        Bitset& reached, std::vector<uint64_t>* via) {
  reached = psi;
  std::vector<uint32_t> queue;
  bits::for_each_set(psi, [&](uint64_t s) { queue.push_back(static_cast<uint32_t>(s)); });
  for (size_t head = 0; head < queue.size(); ++head) {
    for (uint32_t row : g.predecessor_rows(queue[head])) {
      const uint32_t pred = g.state_of_row(row);
      if (reached.test(pred) || !expand.test(pred) || !usable.test(row)) continue;
      reached.set(pred);
      if (via != nullptr) (*via)[pred] = row;
      queue.push_back(pred);
    }
  }
}

}  // namespace

Bitset prob0a(const Model& model, const TransposedGraph& transposed, const Bitset& phi, const Bitset& psi) {
  require_inputs(model, transposed, phi, psi, "prob0A");
  // The MDP's transposed graph unions all choices, so plain backward
  // reachability is exactly "some scheduler reaches psi with positive probability".
  return bits::complement(backward_reachable(transposed, psi, phi));
}

Bitset prob0e(const Model& model, const TransposedGraph& transposed, const Bitset& phi, const Bitset& psi) {
  require_inputs(model, transposed, phi, psi, "prob0E");
  const uint64_t n = model.num_states();
  const std::vector<uint64_t>& groups = model.row_groups();
  const Bitset candidates = bits::difference(phi, psi);

  // Attractor computation (the "all choices" player forcing a visit to psi):
  // a phi\psi state joins A once every one of its choices has a successor in
  // A. `pending[s]` counts the choices of s not yet known to hit A and
  // `hit` marks those that do, so each row is counted down once however many
  // of its successors join A: O(n + rows + entries) in total.
  std::vector<uint32_t> pending(n, 0);
  bits::for_each_set(candidates, [&](uint64_t s) { pending[s] = static_cast<uint32_t>(groups[s + 1] - groups[s]); });
  Bitset hit(model.num_rows());
  Bitset attractor = psi;
  std::vector<uint32_t> queue;
  bits::for_each_set(psi, [&](uint64_t s) { queue.push_back(static_cast<uint32_t>(s)); });
  for (size_t head = 0; head < queue.size(); ++head) {
    for (uint32_t row : transposed.predecessor_rows(queue[head])) {
      if (hit.test(row)) continue;
      hit.set(row);
      const uint32_t pred = transposed.state_of_row(row);
      if (attractor.test(pred) || !candidates.test(pred)) continue;
      if (--pending[pred] == 0) {
        attractor.set(pred);
        queue.push_back(pred);
      }
    }
  }
  // Outside A some choice avoids A for one more step, forever: Pmin = 0.
  return bits::complement(attractor);
}

Bitset prob1a(const Model& model, const TransposedGraph& transposed, const Bitset& phi, const Bitset& psi,
              const Bitset& prob0e_states) {
  require_inputs(model, transposed, phi, psi, "prob1A");
  require_size(model, prob0e_states, "prob1A", "the prob0E set");
  // Baier & Katoen §10.6.1 / PRISM's symbolic Prob1A: Pmin < 1 exactly
  // where some scheduler reaches a Pmin = 0 state with positive probability
  // while still in phi\psi.
  return bits::complement(backward_reachable(transposed, prob0e_states, bits::difference(phi, psi)));
}

Bitset prob1a(const Model& model, const TransposedGraph& transposed, const Bitset& phi, const Bitset& psi) {
  return prob1a(model, transposed, phi, psi, prob0e(model, transposed, phi, psi));
}

Bitset prob1e(const Model& model, const TransposedGraph& transposed, const Bitset& phi, const Bitset& psi) {
  require_inputs(model, transposed, phi, psi, "prob1E");
  const Bitset expand = bits::difference(phi, psi);
  const uint64_t num_rows = model.num_rows();

  // u starts as all states, so every row is valid (its successors all lie in
  // u) and the first round is plain Pmax > 0 reachability. After each round
  // the states that fell out of u invalidate the rows that enter them: each
  // state falls out at most once, so invalidation costs O(entries) overall
  // and only the searches are repeated. Rows of psi-states are never used.
  Bitset valid = bits::full(num_rows);
  Bitset u = bits::full(model.num_states());
  uint64_t u_count = u.size();
  Bitset v;
  while (true) {
    // Inner least fixed point: the states that reach psi through phi using
    // valid rows only. Breadth-first search computes it in one pass; PRISM
    // iterates single steps to the same set.
    search_usable_rows(transposed, psi, expand, valid, v, nullptr);
    // v ⊆ u always (v = F(u) ⊆ F(previous u) = u, F monotone), so equal
    // counts mean equal sets and the greatest fixed point is reached.
    const uint64_t v_count = v.count();
    if (v_count == u_count) break;
    bits::for_each_set(bits::difference(u, v), [&](uint64_t s) {
      for (uint32_t row : transposed.predecessor_rows(s)) valid.reset(row);
    });
    u = std::move(v);
    u_count = v_count;
  }
  return u;
}

std::vector<uint64_t> progressing_choices(const Model& model, const TransposedGraph& transposed, const Bitset& phi,
                                          const Bitset& psi, const Bitset& prob1e_states) {
  require_inputs(model, transposed, phi, psi, "progressing choices");
  require_size(model, prob1e_states, "progressing choices", "the prob1E set");
  const Bitset expand = bits::intersection(prob1e_states, bits::difference(phi, psi));
  // The final round of prob1e, replayed with the discovering row recorded.
  const Bitset usable = rows_staying_in(model, expand, prob1e_states);
  std::vector<uint64_t> choice(model.num_states(), k_no_choice);
  Bitset reached;
  search_usable_rows(transposed, psi, expand, usable, reached, &choice);
  const Bitset missing = bits::difference(expand, reached);
  if (missing.count() != 0) {
    fail(ErrorCode::invalid_argument,
         "progressing choices: state {} of the given set has no choice that stays in the set and leads towards psi "
         "(the set is not the prob1E set)",
         missing.find_next(0));
  }
  return choice;
}

Prob01 prob01_max(const Model& model, const TransposedGraph& transposed, const Bitset& phi, const Bitset& psi) {
  Prob01 result;
  result.prob0 = prob0a(model, transposed, phi, psi);
  result.prob1 = prob1e(model, transposed, phi, psi);
  return result;
}

Prob01 prob01_min(const Model& model, const TransposedGraph& transposed, const Bitset& phi, const Bitset& psi) {
  Prob01 result;
  result.prob0 = prob0e(model, transposed, phi, psi);
  result.prob1 = prob1a(model, transposed, phi, psi, result.prob0);
  return result;
}

}  // namespace pmc::graph
