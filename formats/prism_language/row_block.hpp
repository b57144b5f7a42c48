// The rows of explored states before they are numbered: what pass 1 of
// exploration (the CPU's state_discovery.cpp, or the GPU explorer) hands to
// the numbering and assembly passes of explorer.cpp. Plain vectors, so
// that cuda/ can fill it too.
#pragma once

#include <cstdint>
#include <vector>

namespace pmc::prism_language {

// The rows of the states one chunk of exploration expanded, in the order it
// expanded them, with columns as discovery ids (state_set.hpp); the
// explorer copies them into the model in PRISM's order once the states are
// numbered. Within a row the entries are already in PRISM's order (by
// target key), so renumbering keeps them sorted.
struct RowBlock {
  static constexpr uint8_t k_deadlock = 1, k_nondeterministic = 2;

  std::vector<uint32_t> states;  // discovery ids
  std::vector<uint8_t> flags;    // per state: k_deadlock, k_nondeterministic (a DTMC state with several alternatives)
  // Offsets: state k's rows are [state_rows[k], state_rows[k+1]), row r's
  // entries [row_entries[r], row_entries[r+1]); finish() adds the ends.
  std::vector<uint32_t> state_rows;
  std::vector<uint32_t> row_entries;
  std::vector<uint32_t> columns;
  std::vector<double> values;
  std::vector<uint32_t> actions;  // per entry; empty when the program names no actions
  std::vector<std::vector<double>> transition_rewards;  // per reward structure with transition items

  void finish() {
    state_rows.push_back(static_cast<uint32_t>(row_entries.size()));
    row_entries.push_back(static_cast<uint32_t>(columns.size()));
  }
  uint64_t bytes() const;
};

}  // namespace pmc::prism_language
