#include "graph/end_components.hpp"

#include <algorithm>
#include <utility>

#include "common/error.hpp"
#include "graph/bitset_ops.hpp"

namespace pmc::graph {
namespace {

constexpr uint32_t k_unvisited = std::numeric_limits<uint32_t>::max();
// stamp value of a state that is in no candidate set any more.
constexpr uint64_t k_dropped = 0;

// One suspended call of the recursive Tarjan: the state being explored, the
// row it is walking and the next entry of that row.
struct Frame {
  uint32_t state;
  uint64_t row;
  uint64_t entry;
};

// A set of states still to be decomposed; its states carry `id` as stamp.
struct Block {
  uint64_t id;
  std::vector<uint32_t> states;
};

class MecRefinement {
 public:
  // rows == nullptr: every row of a subset state is allowed at the start.
  MecRefinement(const RowGraph& graph, const Bitset& subset, const Bitset* rows)
      : groups_(graph.row_groups),
        row_offsets_(graph.row_offsets),
        columns_(graph.columns),
        allowed_(graph.num_rows()),
        stamp_(graph.num_states(), k_dropped),
        index_(graph.num_states(), k_unvisited),
        lowlink_(graph.num_states(), 0),
        local_(graph.num_states(), 0) {
    Block all{next_id_++, {}};
    bits::for_each_set(subset, [&](uint64_t s) {
      bool any_allowed = false;
      for (uint64_t r = groups_[s]; r < groups_[s + 1]; ++r) {
        if (rows != nullptr && !rows->test(r)) continue;
        allowed_.set(r);
        any_allowed = true;
      }
      // A state without an allowed row is in no end component; leaving it
      // out now gives the same result as dropping it in the first round.
      if (!any_allowed) return;
      all.states.push_back(static_cast<uint32_t>(s));
      stamp_[s] = all.id;
    });
    if (!all.states.empty()) work_.push_back(std::move(all));
  }

  // Decomposes blocks until none is left; every state then either was
  // dropped or belongs to exactly one recorded MEC.
  void run() {
    while (!work_.empty()) {
      Block block = std::move(work_.back());
      work_.pop_back();
      decompose(block);
    }
  }

  MecDecomposition result(uint64_t num_states) &&;

 private:
  // Iterative Tarjan over the block's states, following only allowed rows
  // and only into states still stamped with the block's id. Each SCC is
  // handled the moment it is complete: its states get a fresh stamp, so a
  // state still stamped block.id is exactly one Tarjan has not finished, and
  // finished or dropped states are skipped like edges leaving the subgraph.
  void decompose(const Block& block) {
    for (uint32_t s : block.states) index_[s] = k_unvisited;
    uint32_t next_index = 0;
    auto discover = [&](uint32_t s) {
      index_[s] = lowlink_[s] = next_index++;
      stack_.push_back(s);
      frames_.push_back({s, groups_[s], row_offsets_[groups_[s]]});
    };
    for (uint32_t root : block.states) {
      if (index_[root] != k_unvisited || stamp_[root] != block.id) continue;
      discover(root);
      while (!frames_.empty()) {
        Frame& frame = frames_.back();
        const uint32_t v = frame.state;
        uint32_t w = 0;
        if (next_successor(frame, w)) {
          if (stamp_[w] != block.id) continue;
          if (index_[w] == k_unvisited) {
            discover(w);  // invalidates `frame`; the loop re-reads frames_.back()
          } else {
            // Stamped block.id and visited: still on Tarjan's stack.
            lowlink_[v] = std::min(lowlink_[v], index_[w]);
          }
          continue;
        }
        if (lowlink_[v] == index_[v]) {
          const uint64_t id = next_id_++;
          component_.clear();
          uint32_t x;
          do {
            x = stack_.back();
            stack_.pop_back();
            stamp_[x] = id;
            component_.push_back(x);
          } while (x != v);
          settle(id);
        }
        frames_.pop_back();
        if (!frames_.empty()) {
          const uint32_t parent = frames_.back().state;
          lowlink_[parent] = std::min(lowlink_[parent], lowlink_[v]);
        }
      }
    }
  }

  // The next successor through an allowed row of frame.state, if any.
  bool next_successor(Frame& frame, uint32_t& successor) {
    const uint64_t end_row = groups_[frame.state + 1];
    while (frame.row < end_row) {
      if (allowed_.test(frame.row) && frame.entry < row_offsets_[frame.row + 1]) {
        successor = columns_[frame.entry++];
        return true;
      }
      ++frame.row;
      frame.entry = row_offsets_[frame.row];  // row_offsets_ has rows+1 entries
    }
    return false;
  }

  // component_ is one SCC, stamped `id`. Drops the choices that leave it,
  // the states left without a choice, and then what that forces in turn:
  // a choice into a dropped state, a state whose last choice went (its
  // attractor, through the component's own predecessor lists). If nothing
  // was dropped it is a MEC (strongly connected through choices that all
  // stay inside); otherwise the survivors, still stamped `id`, are
  // decomposed again, because a dropped choice may have carried an edge the
  // SCC needed. Without the attractor, a long chain of states that must
  // leave was peeled one state per decomposition (QVBS consensus N=6: 6,189
  // decompositions of 1.26M states).
  void settle(uint64_t id) {
    const auto m = static_cast<uint32_t>(component_.size());
    for (uint32_t i = 0; i < m; ++i) local_[component_[i]] = i;
    bool changed = false;
    // Each state's choices that stay inside, and each state's predecessor
    // choices among them (CSR by target: the choice and its state).
    live_choices_.assign(m, 0);
    pred_start_.assign(static_cast<size_t>(m) + 1, 0);
    for (uint32_t i = 0; i < m; ++i) {
      const uint32_t s = component_[i];
      for (uint64_t r = groups_[s]; r < groups_[s + 1]; ++r) {
        if (!allowed_.test(r)) continue;
        if (!stays_in(r, id)) {
          allowed_.reset(r);
          changed = true;
          continue;
        }
        ++live_choices_[i];
        for (uint64_t e = row_offsets_[r]; e < row_offsets_[r + 1]; ++e) ++pred_start_[local_[columns_[e]] + 1];
      }
    }
    for (uint32_t i = 0; i < m; ++i) pred_start_[i + 1] += pred_start_[i];
    preds_.resize(pred_start_[m]);
    cursor_.assign(pred_start_.begin(), pred_start_.end() - 1);
    for (uint32_t i = 0; i < m; ++i) {
      const uint32_t s = component_[i];
      for (uint64_t r = groups_[s]; r < groups_[s + 1]; ++r) {
        if (!allowed_.test(r)) continue;
        for (uint64_t e = row_offsets_[r]; e < row_offsets_[r + 1]; ++e) {
          preds_[cursor_[local_[columns_[e]]]++] = {r, i};
        }
      }
    }
    // The attractor of the states without a choice.
    dropped_.clear();
    for (uint32_t i = 0; i < m; ++i) {
      if (live_choices_[i] == 0) dropped_.push_back(i);
    }
    for (size_t k = 0; k < dropped_.size(); ++k) {
      const uint32_t d = dropped_[k];
      stamp_[component_[d]] = k_dropped;
      changed = true;
      for (uint64_t p = pred_start_[d]; p < pred_start_[d + 1]; ++p) {
        const auto [row, owner] = preds_[p];
        if (!allowed_.test(row)) continue;
        allowed_.reset(row);
        if (--live_choices_[owner] == 0) dropped_.push_back(owner);
      }
    }
    std::vector<uint32_t> survivors;
    for (uint32_t i = 0; i < m; ++i) {
      if (live_choices_[i] > 0) survivors.push_back(component_[i]);
    }
    if (!changed) {
      mecs_.push_back(std::move(survivors));
    } else if (!survivors.empty()) {
      work_.push_back({id, std::move(survivors)});
    }
  }

  bool stays_in(uint64_t row, uint64_t id) const {
    for (uint64_t e = row_offsets_[row]; e < row_offsets_[row + 1]; ++e) {
      if (stamp_[columns_[e]] != id) return false;
    }
    return true;
  }

  std::span<const uint64_t> groups_;
  std::span<const uint64_t> row_offsets_;
  std::span<const uint32_t> columns_;
  Bitset allowed_;  // over rows: choices not yet dropped
  // Per state: the id of the block or SCC it currently belongs to, or
  // k_dropped. Ids are never reused (64-bit, one per SCC found), so a stale
  // stamp can never be mistaken for the current one and nothing is cleared.
  std::vector<uint64_t> stamp_;
  uint64_t next_id_ = 1;
  std::vector<uint32_t> index_;
  std::vector<uint32_t> lowlink_;
  std::vector<uint32_t> stack_;
  std::vector<Frame> frames_;
  std::vector<uint32_t> component_;
  // settle()'s working data: positions in component_, live choices per
  // state, predecessor choices, the attractor's queue.
  struct PredecessorChoice {
    uint64_t row;
    uint32_t owner;
  };
  std::vector<uint32_t> local_;
  std::vector<uint32_t> live_choices_;
  std::vector<uint64_t> pred_start_, cursor_;
  std::vector<PredecessorChoice> preds_;
  std::vector<uint32_t> dropped_;
  std::vector<Block> work_;
  std::vector<std::vector<uint32_t>> mecs_;  // in the order they were settled
};

MecDecomposition MecRefinement::result(uint64_t num_states) && {
  MecDecomposition out;
  out.mec_of.assign(num_states, MecDecomposition::k_no_mec);
  // Number the MECs by their smallest state so the result does not depend on
  // the order the work list happened to settle them in.
  std::vector<uint32_t> settled_of(num_states, MecDecomposition::k_no_mec);
  for (size_t i = 0; i < mecs_.size(); ++i) {
    for (uint32_t s : mecs_[i]) settled_of[s] = static_cast<uint32_t>(i);
  }
  std::vector<uint32_t> number(mecs_.size(), MecDecomposition::k_no_mec);
  std::vector<uint64_t> sizes;
  for (uint64_t s = 0; s < num_states; ++s) {
    const uint32_t i = settled_of[s];
    if (i == MecDecomposition::k_no_mec) continue;
    if (number[i] == MecDecomposition::k_no_mec) {
      number[i] = static_cast<uint32_t>(sizes.size());
      sizes.push_back(0);
    }
    out.mec_of[s] = number[i];
    ++sizes[number[i]];
  }
  out.offsets.assign(sizes.size() + 1, 0);
  for (size_t k = 0; k < sizes.size(); ++k) out.offsets[k + 1] = out.offsets[k] + sizes[k];
  out.states.resize(out.offsets.back());
  std::vector<uint64_t> cursor(out.offsets.begin(), out.offsets.end() - 1);
  // Increasing s, so each MEC lists its states in increasing order.
  for (uint64_t s = 0; s < num_states; ++s) {
    if (out.mec_of[s] != MecDecomposition::k_no_mec) out.states[cursor[out.mec_of[s]]++] = static_cast<uint32_t>(s);
  }
  // Dropped states lost all their rows, and a MEC's surviving rows all stay
  // inside it (settle() found nothing to drop), so allowed_ is the answer.
  out.choices = std::move(allowed_);
  return out;
}

}  // namespace

MecDecomposition maximal_end_components(const RowGraph& graph, const Bitset& subset, const Bitset* rows) {
  if (subset.size() != graph.num_states() || (rows != nullptr && rows->size() != graph.num_rows())) {
    fail(ErrorCode::invalid_argument,
         "maximal end components: masks of {} states / {} rows for a graph of {} states / {} rows", subset.size(),
         rows ? rows->size() : graph.num_rows(), graph.num_states(), graph.num_rows());
  }
  MecRefinement refinement(graph, subset, rows);
  refinement.run();
  return std::move(refinement).result(graph.num_states());
}

MecDecomposition maximal_end_components(const Model& model, const Bitset& subset) {
  if (model.type() != ModelType::mdp && model.type() != ModelType::dtmc) {
    fail(ErrorCode::unsupported, "maximal end components are defined for MDPs (and DTMCs); this model is a {}",
         to_string(model.type()));
  }
  if (subset.size() != model.num_states()) {
    fail(ErrorCode::invalid_argument, "maximal end components: the state subset has {} states, the model has {}",
         subset.size(), model.num_states());
  }
  return maximal_end_components(row_graph(model), subset);
}

MecDecomposition maximal_end_components(const Model& model) {
  return maximal_end_components(model, bits::full(model.num_states()));
}

}  // namespace pmc::graph
