// Graph algorithms (lib/graph/) on small hand-made chains whose answers are
// known by hand, plus a 2-million-state line and cycle that a recursive DFS
// could not survive.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "graph/bitset_ops.hpp"
#include "graph/bscc.hpp"
#include "graph/dtmc_precomputation.hpp"
#include "graph/parallel_reach.hpp"
#include "graph/reachability.hpp"
#include "graph/row_graph.hpp"
#include "graph/scc.hpp"
#include "graph/transpose.hpp"
#include "model/model.hpp"

namespace pmc::graph {
namespace {

using Edge = std::tuple<uint32_t, uint32_t, double>;  // source, target, value

// A DTMC or CTMC from an edge list; edges may come in any order.
ModelPtr make_chain(uint64_t n, std::vector<Edge> edges, ModelType type = ModelType::dtmc) {
  ModelParts parts;
  parts.type = type;
  parts.num_states = n;
  parts.row_offsets.assign(n + 1, 0);
  for (const auto& [s, t, v] : edges) ++parts.row_offsets[s + 1];
  for (uint64_t s = 0; s < n; ++s) parts.row_offsets[s + 1] += parts.row_offsets[s];
  std::vector<uint64_t> cursor(parts.row_offsets.begin(), parts.row_offsets.end() - 1);
  parts.columns.resize(edges.size());
  parts.values.resize(edges.size());
  for (const auto& [s, t, v] : edges) {
    parts.columns[cursor[s]] = t;
    parts.values[cursor[s]++] = v;
  }
  return Model::create(std::move(parts));
}

// An MDP: states[s][c] is choice c of state s as (target, probability) pairs.
ModelPtr make_mdp(const std::vector<std::vector<std::vector<std::pair<uint32_t, double>>>>& states) {
  ModelParts parts;
  parts.type = ModelType::mdp;
  parts.num_states = states.size();
  parts.row_groups.push_back(0);
  parts.row_offsets.push_back(0);
  for (const auto& choices : states) {
    for (const auto& choice : choices) {
      for (const auto& [t, p] : choice) {
        parts.columns.push_back(t);
        parts.values.push_back(p);
      }
      parts.row_offsets.push_back(parts.columns.size());
    }
    parts.row_groups.push_back(parts.row_offsets.size() - 1);
  }
  return Model::create(std::move(parts));
}

Bitset set_of(uint64_t n, std::initializer_list<uint64_t> members) {
  Bitset b(n);
  for (uint64_t s : members) b.set(s);
  return b;
}

std::vector<uint64_t> members(const Bitset& b) {
  std::vector<uint64_t> out;
  bits::for_each_set(b, [&](uint64_t s) { out.push_back(s); });
  return out;
}

std::vector<uint32_t> states_of(const TransposedGraph& g, uint64_t target) {
  std::vector<uint32_t> out;
  for (uint32_t row : g.predecessor_rows(target)) out.push_back(g.state_of_row(row));
  return out;
}

// Every edge goes from a component to itself or to one emitted earlier
// (Tarjan's reverse topological order); edges leaving the subset are skipped.
void expect_reverse_topological(const Model& m, const SccDecomposition& sccs) {
  for (uint64_t s = 0; s < m.num_states(); ++s) {
    const uint32_t cs = sccs.component_of[s];
    if (cs == SccDecomposition::k_no_component) continue;
    for (uint64_t e = m.row_offsets()[m.row_groups()[s]]; e < m.row_offsets()[m.row_groups()[s + 1]]; ++e) {
      const uint32_t ct = sccs.component_of[m.columns()[e]];
      if (ct == SccDecomposition::k_no_component) continue;
      ASSERT_LE(ct, cs) << "edge " << s << " -> " << m.columns()[e];
    }
  }
}

// The CSR listing and component_of describe the same partition.
void expect_consistent(const SccDecomposition& sccs, uint64_t expected_listed) {
  ASSERT_EQ(sccs.states.size(), expected_listed);
  for (uint64_t c = 0; c < sccs.num_components(); ++c) {
    ASSERT_LT(sccs.offsets[c], sccs.offsets[c + 1]) << "empty component " << c;
    for (uint32_t s : sccs.component(c)) ASSERT_EQ(sccs.component_of[s], c);
  }
}

// ---- transpose -------------------------------------------------------------

TEST(GraphTranspose, DtmcPredecessorsAreStatesInOrder) {
  auto m = make_chain(3, {{0, 1, 0.5}, {0, 2, 0.5}, {1, 2, 1.0}, {2, 0, 0.25}, {2, 2, 0.75}});
  TransposedGraph g = transpose(*m);
  EXPECT_TRUE(g.rows_are_states());
  EXPECT_EQ(g.offsets, (std::vector<uint64_t>{0, 1, 2, 5}));
  EXPECT_EQ(g.sources, (std::vector<uint32_t>{2, 0, 0, 1, 2}));
  EXPECT_EQ(g.num_entries(), m->num_entries());
}

TEST(GraphTranspose, MdpStoresRowsAndUnionsChoices) {
  // Rows: state 0 -> rows 0,1; state 1 -> rows 2,3; state 2 -> row 4; state 3 -> row 5.
  auto m = make_mdp({
      {{{1, 1.0}}, {{2, 0.5}, {3, 0.5}}},
      {{{1, 1.0}}, {{0, 1.0}}},
      {{{2, 1.0}}},
      {{{2, 0.5}, {3, 0.5}}},
  });
  TransposedGraph g = transpose(*m);
  EXPECT_FALSE(g.rows_are_states());
  EXPECT_EQ(g.num_rows, 6u);
  EXPECT_EQ(g.offsets, (std::vector<uint64_t>{0, 1, 3, 6, 8}));
  EXPECT_EQ(g.sources, (std::vector<uint32_t>{3, 0, 2, 1, 4, 5, 1, 5}));
  EXPECT_EQ(g.row_to_state, (std::vector<uint32_t>{0, 0, 1, 1, 2, 3}));
  EXPECT_EQ(states_of(g, 0), (std::vector<uint32_t>{1}));
  EXPECT_EQ(states_of(g, 1), (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(states_of(g, 2), (std::vector<uint32_t>{0, 2, 3}));
  EXPECT_EQ(states_of(g, 3), (std::vector<uint32_t>{0, 3}));

  // The union graph: 0 and 1 reach each other, 2 and 3 are their own SCCs.
  SccDecomposition sccs = strongly_connected_components(*m);
  EXPECT_EQ(sccs.num_components(), 3u);
  EXPECT_EQ(sccs.component_of[0], sccs.component_of[1]);
  expect_reverse_topological(*m, sccs);
  expect_consistent(sccs, 4);
  // Backward search over the union: every state can reach 2 under some choice.
  EXPECT_EQ(members(backward_reachable(g, set_of(4, {2}), bits::full(4))), (std::vector<uint64_t>{0, 1, 2, 3}));

  // The chain-only algorithms refuse an MDP instead of answering wrongly.
  EXPECT_THROW(prob0(*m, bits::full(4), set_of(4, {2})), Error);
  EXPECT_THROW(prob0(g, bits::full(4), set_of(4, {2})), Error);
  EXPECT_THROW(bottom_sccs(*m), Error);
}

// ---- prob0 / prob1 ---------------------------------------------------------

TEST(GraphPrecomputation, GamblersRuin) {
  // 0 and 4 absorbing (ruin, win), 1..3 move up or down with 1/2: from
  // every interior state both ends are reachable, so only the ends are 0/1.
  std::vector<Edge> edges{{0, 0, 1.0}, {4, 4, 1.0}};
  for (uint32_t i = 1; i <= 3; ++i) {
    edges.emplace_back(i, i - 1, 0.5);
    edges.emplace_back(i, i + 1, 0.5);
  }
  auto m = make_chain(5, edges);
  Prob01 r = prob01(*m, bits::full(5), set_of(5, {4}));
  EXPECT_EQ(members(r.prob0), (std::vector<uint64_t>{0}));
  EXPECT_EQ(members(r.prob1), (std::vector<uint64_t>{4}));
  // Reaching "win" while avoiding state 2: 1 cannot, 3 still can.
  Prob01 avoid = prob01(*m, bits::complement(set_of(5, {2})), set_of(5, {4}));
  EXPECT_EQ(members(avoid.prob0), (std::vector<uint64_t>{0, 1, 2}));
  EXPECT_EQ(members(avoid.prob1), (std::vector<uint64_t>{4}));
}

TEST(GraphPrecomputation, UnreachableTarget) {
  auto m = make_chain(4, {{0, 0, 0.5}, {0, 1, 0.5}, {1, 2, 1.0}, {2, 0, 1.0}, {3, 3, 1.0}});
  Prob01 r = prob01(*m, bits::full(4), set_of(4, {3}));
  EXPECT_EQ(members(r.prob0), (std::vector<uint64_t>{0, 1, 2}));
  EXPECT_EQ(members(r.prob1), (std::vector<uint64_t>{3}));
  // An empty target: nothing reaches it, nothing is certain.
  Prob01 none = prob01(*m, bits::full(4), Bitset(4));
  EXPECT_EQ(none.prob0, bits::full(4));
  EXPECT_EQ(none.prob1.count(), 0u);
}

TEST(GraphPrecomputation, StatesThatOnlyReachASink) {
  // 3 = goal, 4 = sink (both absorbing). 0 may go either way; 1 and 5 reach
  // the goal surely; 2 and 6 can only end in the sink.
  const std::vector<Edge> edges{{0, 1, 0.5}, {0, 2, 0.5}, {1, 3, 1.0}, {2, 4, 1.0}, {3, 3, 1.0},
                                {4, 4, 1.0}, {5, 1, 1.0}, {6, 6, 0.5}, {6, 4, 0.5}};
  for (ModelType type : {ModelType::dtmc, ModelType::ctmc}) {
    std::vector<Edge> scaled = edges;
    // A CTMC's rates differ from the DTMC's probabilities; the graph does not.
    if (type == ModelType::ctmc) {
      for (auto& e : scaled) std::get<2>(e) *= 3.0;
    }
    auto m = make_chain(7, scaled, type);
    TransposedGraph g = transpose(*m);
    Bitset goal = set_of(7, {3});
    EXPECT_EQ(members(prob0(g, bits::full(7), goal)), (std::vector<uint64_t>{2, 4, 6}));
    EXPECT_EQ(members(prob1(g, bits::full(7), goal)), (std::vector<uint64_t>{1, 3, 5}));
    // With state 1 outside phi every path to the goal is blocked.
    Prob01 blocked = prob01(g, bits::complement(set_of(7, {1})), goal);
    EXPECT_EQ(members(blocked.prob0), (std::vector<uint64_t>{0, 1, 2, 4, 5, 6}));
    EXPECT_EQ(members(blocked.prob1), (std::vector<uint64_t>{3}));
  }
}

TEST(GraphPrecomputation, SelfLoopsOnly) {
  auto m = make_chain(4, {{0, 0, 1.0}, {1, 1, 1.0}, {2, 2, 1.0}, {3, 3, 1.0}});
  Prob01 r = prob01(*m, bits::full(4), set_of(4, {2}));
  EXPECT_EQ(members(r.prob0), (std::vector<uint64_t>{0, 1, 3}));
  EXPECT_EQ(members(r.prob1), (std::vector<uint64_t>{2}));

  SccDecomposition sccs = strongly_connected_components(*m);
  EXPECT_EQ(sccs.num_components(), 4u);
  Bsccs bsccs = bottom_sccs(*m);
  EXPECT_EQ(bsccs.count(), 4u);
  EXPECT_EQ(bsccs.recurrent_states(), bits::full(4));
}

TEST(GraphPrecomputation, DeadlocksGetSelfLoopsAndAreBottom) {
  // No transitions at all: Model::create adds a self-loop to every state.
  auto m = make_chain(3, {});
  EXPECT_FALSE(m->warnings().empty());
  EXPECT_EQ(bottom_sccs(*m).count(), 3u);
  EXPECT_EQ(members(prob1(*m, bits::full(3), set_of(3, {1}))), (std::vector<uint64_t>{1}));
}

TEST(GraphPrecomputation, RejectsMismatchedSets) {
  auto m = make_chain(3, {{0, 1, 1.0}, {1, 2, 1.0}, {2, 2, 1.0}});
  EXPECT_THROW(prob0(*m, bits::full(4), set_of(3, {2})), Error);
  EXPECT_THROW(prob1(*m, bits::full(3), Bitset(5)), Error);
  EXPECT_THROW(strongly_connected_components(*m, Bitset(2)), Error);
}

// ---- SCCs and BSCCs --------------------------------------------------------

TEST(GraphBscc, TwoBottomComponentsAndTransientStates) {
  // BSCCs {1,2} and {4,5}; {7,8} is a cycle that leaks to 1, so transient;
  // 0, 3 and 6 (with a self-loop) are transient singletons.
  auto m = make_chain(9, {{0, 1, 0.5}, {0, 3, 0.5}, {1, 2, 1.0}, {2, 1, 1.0}, {3, 4, 0.5}, {3, 5, 0.5},
                          {4, 5, 1.0}, {5, 4, 1.0}, {6, 6, 0.5}, {6, 0, 0.5}, {7, 7, 0.3}, {7, 8, 0.7},
                          {8, 7, 0.5}, {8, 1, 0.5}});
  SccDecomposition sccs = strongly_connected_components(*m);
  EXPECT_EQ(sccs.num_components(), 6u);  // {0} {1,2} {3} {4,5} {6} {7,8}
  expect_reverse_topological(*m, sccs);
  expect_consistent(sccs, 9);

  Bsccs b = bottom_sccs(*m);
  ASSERT_EQ(b.count(), 2u);
  std::vector<std::vector<uint64_t>> found{members(b.bscc_states(0)), members(b.bscc_states(1))};
  std::sort(found.begin(), found.end());
  EXPECT_EQ(found, (std::vector<std::vector<uint64_t>>{{1, 2}, {4, 5}}));
  EXPECT_EQ(members(bits::complement(b.recurrent_states())), (std::vector<uint64_t>{0, 3, 6, 7, 8}));
  for (uint64_t s : {0, 3, 6, 7, 8}) EXPECT_EQ(b.bscc_of[s], Bsccs::k_transient);
  EXPECT_EQ(b.bscc_of[1], b.bscc_of[2]);
  EXPECT_EQ(b.bscc_of[4], b.bscc_of[5]);
  EXPECT_NE(b.bscc_of[1], b.bscc_of[4]);

  // The same chain as a CTMC has the same BSCCs.
  auto c = make_chain(3, {{0, 1, 2.0}, {1, 2, 4.0}, {2, 1, 0.5}}, ModelType::ctmc);
  Bsccs bc = bottom_sccs(*c);
  ASSERT_EQ(bc.count(), 1u);
  EXPECT_EQ(members(bc.bscc_states(0)), (std::vector<uint64_t>{1, 2}));
}

TEST(GraphScc, SubsetIgnoresEdgesLeavingIt) {
  // 0 -> 1 -> 2 -> 0 is one SCC; without state 1 the cycle is broken.
  auto m = make_chain(4, {{0, 1, 1.0}, {1, 2, 1.0}, {2, 0, 0.5}, {2, 3, 0.5}, {3, 3, 1.0}});
  EXPECT_EQ(strongly_connected_components(*m).num_components(), 2u);
  SccDecomposition sub = strongly_connected_components(*m, bits::complement(set_of(4, {1})));
  EXPECT_EQ(sub.num_components(), 3u);
  EXPECT_EQ(sub.component_of[1], SccDecomposition::k_no_component);
  EXPECT_NE(sub.component_of[0], sub.component_of[2]);
  expect_reverse_topological(*m, sub);
  expect_consistent(sub, 3);
  // Nothing selected: no components.
  EXPECT_EQ(strongly_connected_components(*m, Bitset(4)).num_components(), 0u);
}

TEST(GraphScc, MembersInStateOrderKeepTheComponents) {
  // Two cycles 0 -> 3 -> 1 -> 0 and 2 -> 4 -> 2, and 5 outside the subset.
  auto m = make_chain(6, {{0, 3, 1.0}, {3, 1, 1.0}, {1, 0, 0.5}, {1, 2, 0.5}, {2, 4, 1.0}, {4, 2, 1.0}, {5, 5, 1.0}});
  SccDecomposition sccs = strongly_connected_components(*m, bits::complement(set_of(6, {5})));
  const SccDecomposition tarjan = sccs;
  order_members_by_state(sccs);
  EXPECT_EQ(sccs.offsets, tarjan.offsets);
  EXPECT_EQ(sccs.component_of, tarjan.component_of);
  ASSERT_EQ(sccs.num_components(), 2u);
  for (uint64_t c = 0; c < sccs.num_components(); ++c) {
    const auto members = sccs.component(c);
    EXPECT_TRUE(std::is_sorted(members.begin(), members.end())) << c;
    for (const uint32_t s : members) EXPECT_EQ(sccs.component_of[s], c);
  }
  EXPECT_EQ(std::vector<uint32_t>(sccs.component(sccs.component_of[0]).begin(), sccs.component(sccs.component_of[0]).end()),
            (std::vector<uint32_t>{0, 1, 3}));
  expect_reverse_topological(*m, sccs);
  // Only components of at least 3 states: {2, 4} keeps Tarjan's order.
  SccDecomposition some = tarjan;
  order_members_by_state(some, 3);
  const auto small = some.component(some.component_of[2]), small_before = tarjan.component(tarjan.component_of[2]);
  EXPECT_TRUE(std::equal(small.begin(), small.end(), small_before.begin(), small_before.end()));
  const auto large = some.component(some.component_of[0]);
  EXPECT_TRUE(std::is_sorted(large.begin(), large.end()));
}

// A pseudo-random chain checked against the definitions: two states share a
// component iff each reaches the other (transitive closure by repeated BFS),
// a BSCC reaches nothing outside itself, and prob0/prob1 are exactly the
// states whose iterated reachability probability is 0 or 1.
TEST(GraphRandom, SccsBsccsAndProb01MatchTheirDefinitions) {
  const uint32_t n = 60;
  uint64_t seed = 12345;
  auto next = [&] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(seed >> 33);
  };
  std::vector<Edge> edges;
  for (uint32_t s = 0; s < n; ++s) {
    // Mostly edges inside blocks of 8 states, a quarter anywhere: this seed
    // gives 37 components, several of 2 to 7 states, and 5 of them bottom.
    const uint32_t degree = 1 + next() % 2;
    std::vector<uint32_t> targets;
    while (targets.size() < degree) {
      const uint32_t t = next() % 4 == 0 ? next() % n : ((s / 8) * 8 + next() % 8) % n;
      if (std::find(targets.begin(), targets.end(), t) == targets.end()) targets.push_back(t);
    }
    for (uint32_t t : targets) edges.emplace_back(s, t, 1.0 / degree);
  }
  auto m = make_chain(n, edges);
  TransposedGraph g = transpose(*m);
  SccDecomposition sccs = strongly_connected_components(*m);
  expect_reverse_topological(*m, sccs);
  expect_consistent(sccs, n);
  ASSERT_EQ(sccs.num_components(), 37u);  // the test is not vacuous
  std::vector<Bitset> reaches_to(n);  // reaches_to[t] = states that can reach t
  for (uint32_t t = 0; t < n; ++t) reaches_to[t] = backward_reachable(g, set_of(n, {t}), bits::full(n));
  for (uint32_t s = 0; s < n; ++s) {
    for (uint32_t t = 0; t < n; ++t) {
      const bool mutual = reaches_to[t].test(s) && reaches_to[s].test(t);
      EXPECT_EQ(sccs.component_of[s] == sccs.component_of[t], mutual) << s << ", " << t;
    }
  }
  // BSCCs are the components that reach nothing outside themselves.
  Bsccs b = bottom_sccs(*m);
  EXPECT_EQ(b.count(), 5u);
  for (uint64_t i = 0; i < b.count(); ++i) {  // each BSCC's states in increasing order
    EXPECT_TRUE(std::is_sorted(b.bscc(i).begin(), b.bscc(i).end())) << "BSCC " << i;
    EXPECT_EQ(std::adjacent_find(b.bscc(i).begin(), b.bscc(i).end()), b.bscc(i).end()) << "BSCC " << i;
  }
  for (uint64_t c = 0; c < sccs.num_components(); ++c) {
    const uint32_t s = sccs.component(c)[0];
    bool bottom = true;
    for (uint32_t t = 0; t < n; ++t) bottom = bottom && (!reaches_to[t].test(s) || sccs.component_of[t] == c);
    EXPECT_EQ(b.bscc_of[s] != Bsccs::k_transient, bottom) << "component " << c;
  }

  // prob0/prob1 against the numbers: iterate x = P·x with x = 1 on psi until
  // it settles; the graph answers must be exactly the states at 0 and at 1.
  const Bitset psi = set_of(n, {3, 17, 42});
  const Bitset phi = bits::complement(set_of(n, {9, 30}));
  Prob01 r = prob01(g, phi, psi);
  std::vector<double> x(n, 0.0);
  for (int iteration = 0; iteration < 20000; ++iteration) {
    for (uint32_t s = 0; s < n; ++s) {
      if (psi.test(s) || !phi.test(s)) {
        x[s] = psi.test(s) ? 1.0 : 0.0;
        continue;
      }
      double sum = 0.0;
      for (uint64_t e = m->row_offsets()[s]; e < m->row_offsets()[s + 1]; ++e) {
        sum += m->values()[e] * x[m->columns()[e]];
      }
      x[s] = sum;
    }
  }
  uint64_t in_between = 0;
  for (uint32_t s = 0; s < n; ++s) {
    EXPECT_EQ(r.prob0.test(s), x[s] == 0.0) << "state " << s << " value " << x[s];
    EXPECT_EQ(r.prob1.test(s), x[s] > 1.0 - 1e-9) << "state " << s << " value " << x[s];
    in_between += !r.prob0.test(s) && !r.prob1.test(s);
  }
  EXPECT_GT(in_between, 0u);
  EXPECT_GT(r.prob0.count(), 0u);
  EXPECT_GT(r.prob1.count(), psi.count());
}

// ---- scale: the DFS is iterative --------------------------------------------

constexpr uint32_t k_long = 2'000'000;

TEST(GraphScc, TwoMillionStateLineHasNoStackOverflow) {
  // 0 -> 1 -> ... -> n-1 (self-loop): the DFS is n deep and the last state
  // is the first component to close.
  std::vector<Edge> edges;
  edges.reserve(k_long);
  for (uint32_t s = 0; s + 1 < k_long; ++s) edges.emplace_back(s, s + 1, 1.0);
  edges.emplace_back(k_long - 1, k_long - 1, 1.0);
  auto m = make_chain(k_long, std::move(edges));
  SccDecomposition sccs = strongly_connected_components(*m);
  ASSERT_EQ(sccs.num_components(), k_long);
  for (uint32_t s = 0; s < k_long; ++s) ASSERT_EQ(sccs.component_of[s], k_long - 1 - s);
  Bsccs b = bottom_sccs(*m);
  ASSERT_EQ(b.count(), 1u);
  EXPECT_EQ(b.bscc(0)[0], k_long - 1);
  Prob01 r = prob01(*m, bits::full(k_long), set_of(k_long, {k_long - 1}));
  EXPECT_EQ(r.prob0.count(), 0u);
  EXPECT_EQ(r.prob1.count(), k_long);
}

TEST(GraphScc, TwoMillionStateCycleIsOneComponent) {
  // The back edge n-1 -> 0 is found at depth n, and its lowlink has to
  // travel up through all n frames.
  std::vector<Edge> edges;
  edges.reserve(k_long);
  for (uint32_t s = 0; s < k_long; ++s) edges.emplace_back(s, (s + 1) % k_long, 1.0);
  auto m = make_chain(k_long, std::move(edges));
  SccDecomposition sccs = strongly_connected_components(*m);
  ASSERT_EQ(sccs.num_components(), 1u);
  EXPECT_EQ(sccs.component(0).size(), k_long);
  EXPECT_EQ(bottom_sccs(*m).count(), 1u);
}

// A random chain of n states with 8 successors each (a ring keeps it
// irreducible unless `cut`, which keeps the upper half's edges inside it:
// state 0 then reaches everything, but the upper half never returns).
ModelPtr random_chain(uint32_t n, bool cut, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Edge> edges;
  edges.reserve(uint64_t{n} * 8);
  const uint32_t half = n / 2;
  for (uint32_t s = 0; s < n; ++s) {
    std::vector<uint32_t> targets = {(s + 1) % n};
    while (targets.size() < 8) targets.push_back(static_cast<uint32_t>(rng() % n));
    if (cut && s >= half) {
      for (uint32_t& t : targets) t = half + t % (n - half);
    }
    std::sort(targets.begin(), targets.end());
    targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
    for (uint32_t t : targets) edges.emplace_back(s, t, 1.0);
  }
  return make_chain(n, std::move(edges), ModelType::ctmc);
}

// From 2^20 entries the transposition runs on all cores: the same lists,
// each in increasing row order, as on one.
TEST(GraphTranspose, OnAllCoresAsOnOne) {
  const ModelPtr m = random_chain(200000, false, 5);
  ASSERT_GE(m->num_entries(), uint64_t{1} << 20);
  const TransposedGraph one = transpose(*m, 1), four = transpose(*m, 4);
  EXPECT_EQ(one.offsets, four.offsets);
  EXPECT_EQ(one.sources, four.sources);
  for (uint64_t t = 0; t < one.num_states; ++t) {
    const auto rows = four.predecessor_rows(t);
    ASSERT_TRUE(std::is_sorted(rows.begin(), rows.end())) << "target " << t;
  }
}

// The parallel search finds what the serial one finds, forward and
// backward, and bottom_sccs tells an irreducible chain from one that is
// not on any number of threads.
TEST(GraphParallelReach, AgreesWithTheSerialSearch) {
  for (const bool cut : {false, true}) {
    const ModelPtr m = random_chain(100000, cut, 11);
    const uint64_t n = m->num_states();
    Bitset start(n);
    start.set(0);
    const Bitset serial = forward_reachable(row_graph(*m), start, bits::full(n));
    const TransposedGraph t = transpose(*m, 1);
    const Bitset serial_back = backward_reachable(t, start, bits::full(n));
    for (const int threads : {1, 2, 4}) {
      SCOPED_TRACE(testing::Message() << "cut " << cut << ", " << threads << " threads");
      EXPECT_EQ(reachable_from(n, m->row_offsets().data(), m->columns().data(), 0, threads), serial);
      EXPECT_EQ(reachable_from(n, t.offsets.data(), t.sources.data(), 0, threads), serial_back);
      const Bsccs bsccs = bottom_sccs(*m, threads);
      if (cut) {
        EXPECT_LT(serial_back.count(), n);
        EXPECT_EQ(bsccs.count(), bottom_sccs(*m, 1).count());
      } else {
        EXPECT_EQ(serial_back.count(), n);
        ASSERT_EQ(bsccs.count(), 1u);
        EXPECT_EQ(bsccs.bscc(0).size(), n);
      }
    }
  }
}

// Row masks and state subsets over the MDP 0: {→1, →2/3}, 1: {→1, →0},
// 2: {→2}, 3: {→2/3} (rows 0..5 in that order), through the one RowGraph
// view the solvers use too.
TEST(GraphRowMasks, ReachabilityAndSccsFollowOnlyAllowedRows) {
  ModelPtr m = make_mdp({
      {{{1, 1.0}}, {{2, 0.5}, {3, 0.5}}},
      {{{1, 1.0}}, {{0, 1.0}}},
      {{{2, 1.0}}},
      {{{2, 0.5}, {3, 0.5}}},
  });
  const RowGraph graph = row_graph(*m);
  EXPECT_EQ(graph.num_states(), 4u);
  EXPECT_EQ(graph.num_rows(), 6u);
  EXPECT_EQ(row_owners(graph), (std::vector<uint32_t>{0, 0, 1, 1, 2, 3}));
  const Bitset all = bits::full(4);
  const Bitset without_row_1 = bits::complement(set_of(6, {1}));

  EXPECT_EQ(members(forward_reachable(graph, set_of(4, {0}), all)), (std::vector<uint64_t>{0, 1, 2, 3}));
  EXPECT_EQ(members(forward_reachable(graph, set_of(4, {0}), all, &without_row_1)), (std::vector<uint64_t>{0, 1}));
  EXPECT_EQ(members(forward_reachable(graph, set_of(4, {0}), set_of(4, {0, 2, 3}))),
            (std::vector<uint64_t>{0, 2, 3}));

  const TransposedGraph g = transpose(*m);
  EXPECT_EQ(members(backward_reachable(g, set_of(4, {2}), all, &without_row_1)), (std::vector<uint64_t>{2, 3}));
  const Bitset only_self_loops = set_of(6, {0, 2, 4});
  EXPECT_EQ(members(backward_reachable(g, set_of(4, {2}), all, &only_self_loops)), (std::vector<uint64_t>{2}));

  EXPECT_EQ(strongly_connected_components(graph).num_components(), 3u);
  const Bitset without_row_3 = bits::complement(set_of(6, {3}));
  const SccDecomposition split = strongly_connected_components(graph, nullptr, &without_row_3);
  EXPECT_EQ(split.num_components(), 4u);
  expect_consistent(split, 4);
  const Bitset subset = set_of(4, {0, 1});
  EXPECT_EQ(strongly_connected_components(graph, &subset).num_components(), 1u);

  EXPECT_THROW(forward_reachable(graph, set_of(4, {0}), all, &subset), Error);
  EXPECT_THROW(backward_reachable(g, set_of(4, {0}), all, &subset), Error);
  EXPECT_THROW(strongly_connected_components(graph, nullptr, &subset), Error);
}

}  // namespace
}  // namespace pmc::graph
