// Which of a list of commands can be enabled in a state, without evaluating
// every guard: PRISM models often hold hundreds of commands per module
// (QVBS's pacman: 555), each guarded by `x=3 & y>=2 & ...`, of which a
// handful hold in any one state. The index splits the list by the value of
// the variable that most guards constrain (their necessary ranges,
// Expression::necessary_ranges), then each part again by another variable,
// a few levels deep. Each part keeps the commands in source order: the
// explorer's alternatives come out in PRISM's order. The guards of the
// candidates are still evaluated; the index only leaves out commands whose
// guard is false in the state.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "formats/prism_language/prism_model.hpp"

namespace pmc::prism_language {

class GuardIndex {
 public:
  // A command and the caller's tag for it (SuccessorGenerator: the class of
  // commands with the same guard).
  struct Entry {
    const Command* command;
    uint32_t tag;
  };

  GuardIndex() = default;
  // `tags[i]` goes with `commands[i]`; none given: every tag 0.
  GuardIndex(const std::vector<const Command*>& commands, const std::vector<Variable>& variables,
             const std::vector<uint32_t>& tags = {});

  // The commands whose guard may hold in `values`, in source order.
  std::span<const Entry> candidates(std::span<const int32_t> values) const;

 private:
  // A node either lists its commands (variable < 0) or splits them by the
  // value of `variable`: child[value - lower] for values in [lower, upper].
  struct Node {
    int32_t variable = -1;
    int32_t lower = 0;
    std::vector<uint32_t> children;      // node indices, one per value
    std::vector<Entry> commands;  // a leaf's
  };
  uint32_t build(std::vector<Entry> commands, const std::vector<Variable>& variables, int depth);

  std::vector<Node> nodes_;  // nodes_[0]: the root (when not empty)
  double listed_ = 0;        // commands listed in the leaves so far (and splits planned)
};

}  // namespace pmc::prism_language
