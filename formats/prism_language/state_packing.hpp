// Packed state vectors for the explorer: each variable takes
// bit_width(upper − lower) bits and holds value − lower, so a state of the
// PRISM benchmark models is one or two 64-bit words instead of a vector of
// ints. Variable 0 sits in the most significant bits of word 0, the next
// ones below it, and a variable never straddles two words: comparing packed
// states word by word, as unsigned integers, is then exactly PRISM's state
// order (lexicographic on the values in PrismModel::variables order, which is
// how the explicit engine sorts its states and numbers its `.sta` rows).
#pragma once

#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "formats/prism_language/prism_model.hpp"
#include "model/state_valuations.hpp"

namespace pmc::prism_language {

class StateLayout {
 public:
  StateLayout() = default;
  explicit StateLayout(const std::vector<Variable>& variables) {
    std::vector<std::pair<int32_t, int32_t>> ranges;
    for (const Variable& v : variables) ranges.emplace_back(v.lower, v.upper);
    fields_ = pack_layout(ranges, words_);
    for (const Field& f : fields_) total_bits_ += static_cast<uint64_t>(std::bit_width(f.mask));
  }

  // Words per packed state (at least 1, also for a program without variables).
  uint32_t words() const { return words_; }
  uint64_t total_bits() const { return total_bits_; }
  size_t num_variables() const { return fields_.size(); }

  // The values must lie within the variables' ranges (the explorer checks
  // every update before packing).
  void pack(std::span<const int32_t> values, uint64_t* out) const {
    for (uint32_t w = 0; w < words_; ++w) out[w] = 0;
    for (size_t i = 0; i < fields_.size(); ++i) {
      const Field& f = fields_[i];
      const uint64_t offset = static_cast<uint64_t>(static_cast<int64_t>(values[i]) - f.lower);
      out[f.word] |= (offset & f.mask) << f.shift;
    }
  }

  // Overwrites one variable of a packed state (the value within its range).
  void set(uint64_t* packed, size_t variable, int32_t value) const {
    const Field& f = fields_[variable];
    const uint64_t offset = static_cast<uint64_t>(static_cast<int64_t>(value) - f.lower);
    packed[f.word] = (packed[f.word] & ~(f.mask << f.shift)) | ((offset & f.mask) << f.shift);
  }

  // Where variable i sits: bits [shift, shift + bit_width(mask)) of word.
  using Field = PackedField;
  const Field& field(size_t variable) const { return fields_[variable]; }
  const std::vector<Field>& fields() const { return fields_; }

  void unpack(const uint64_t* packed, std::span<int32_t> values) const {
    for (size_t i = 0; i < fields_.size(); ++i) {
      const Field& f = fields_[i];
      values[i] = static_cast<int32_t>(static_cast<int64_t>((packed[f.word] >> f.shift) & f.mask) + f.lower);
    }
  }

 private:
  std::vector<Field> fields_;
  uint32_t words_ = 1;
  uint64_t total_bits_ = 0;
};

// Unsigned word-by-word comparison: PRISM's state order (see above).
inline bool packed_less(const uint64_t* a, const uint64_t* b, uint32_t words) {
  for (uint32_t w = 0; w < words; ++w) {
    if (a[w] != b[w]) return a[w] < b[w];
  }
  return false;
}

inline bool packed_equal(const uint64_t* a, const uint64_t* b, uint32_t words) {
  for (uint32_t w = 0; w < words; ++w) {
    if (a[w] != b[w]) return false;
  }
  return true;
}

}  // namespace pmc::prism_language
