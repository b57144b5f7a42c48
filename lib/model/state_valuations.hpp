// The PRISM `.sta` valuation of each state, stored packed: each variable is
// a bit field of its state's 64-bit words holding value − lower in
// bit_width(upper − lower) bits, variable 0 in the most significant bits of
// word 0 and no field straddling two words — the PRISM-language explorer's
// packed states as they are (formats/prism_language/state_packing.hpp). A
// state then costs a word or two rather than four bytes a variable
// (consensus N=8: 8 bytes for 68; egl N=8: 24 for 176), and the explorer
// hands over its sorted keys instead of unpacking every state.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace pmc {

// Where a variable sits in its state's words: (word >> shift) & mask, plus lower.
struct PackedField {
  uint32_t word = 0, shift = 0;
  uint64_t mask = 0;  // 0 for a variable with one value
  int32_t lower = 0;
};

// The fields of variables ranging over [lower, upper] each, laid out as
// above (the explorer's state_packing.hpp and the readers use this one
// layout); `words` is set to the words a state takes, at least 1.
std::vector<PackedField> pack_layout(std::span<const std::pair<int32_t, int32_t>> ranges, uint32_t& words);

class StateValuations {
 public:
  using Field = PackedField;

  // The variables' names and types (public: readers fill them first).
  std::vector<std::string> variables;
  std::vector<uint8_t> is_bool;  // per variable

  StateValuations() = default;
  // From plain values, row-major by state (num_states × variables.size());
  // each field spans the least to the greatest value the variable takes.
  StateValuations(std::vector<std::string> names, std::vector<uint8_t> bool_flags, std::span<const int32_t> values);
  StateValuations(std::vector<std::string> names, std::vector<uint8_t> bool_flags,
                  const std::vector<int32_t>& values)
      : StateValuations(std::move(names), std::move(bool_flags), std::span<const int32_t>(values)) {}
  // From packed states: `words` per state, one Field per name.
  StateValuations(std::vector<std::string> names, std::vector<uint8_t> bool_flags, std::vector<Field> fields,
                  uint32_t words, std::vector<uint64_t> packed);

  bool empty() const { return variables.empty(); }
  size_t num_variables() const { return variables.size(); }
  uint64_t num_states() const { return words_ == 0 ? 0 : packed_.size() / words_; }
  // Whether there is one Field per variable and whole states (the model's
  // validation checks num_states() against the model's).
  bool consistent() const;

  int32_t value(uint64_t state, size_t variable) const {
    const Field& f = fields_[variable];
    return static_cast<int32_t>(static_cast<int64_t>((packed_[state * words_ + f.word] >> f.shift) & f.mask) + f.lower);
  }
  // The state's values in variable order; `out` holds num_variables().
  void unpack(uint64_t state, std::span<int32_t> out) const {
    for (size_t i = 0; i < fields_.size(); ++i) out[i] = value(state, i);
  }
  // Every value, row-major by state (for writers and tests).
  std::vector<int32_t> unpacked() const;

  // Bytes held (model_memory.cpp).
  uint64_t bytes() const { return packed_.capacity() * sizeof(uint64_t) + fields_.capacity() * sizeof(Field); }

  // Equal when they name the same variables of the same types and every
  // state has the same values, however each is packed.
  friend bool operator==(const StateValuations& a, const StateValuations& b);

 private:
  std::vector<Field> fields_;
  uint32_t words_ = 0;
  std::vector<uint64_t> packed_;
};

}  // namespace pmc
