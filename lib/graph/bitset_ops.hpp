// Word-wise set operations on pmc::Bitset that the graph algorithms need.
// They live here, not in common/bitset.hpp, so the graph code does not
// depend on that header growing; callers qualify them (graph::bits::...) so
// a same-named function added to namespace pmc later cannot make a call
// ambiguous through argument-dependent lookup.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

#include "common/bitset.hpp"
#include "common/error.hpp"

namespace pmc::graph::bits {

// Bits past size() must stay zero (Bitset's invariant), so every result that
// can turn bits on masks the last word.
inline uint64_t last_word_mask(uint64_t size) {
  const uint64_t used = size & 63;
  return used == 0 ? ~uint64_t{0} : (uint64_t{1} << used) - 1;
}

inline void require_same_size(const Bitset& a, const Bitset& b, const char* what) {
  if (a.size() != b.size()) {
    fail(ErrorCode::invalid_argument, "{}: state sets of different sizes ({} and {})", what, a.size(), b.size());
  }
}

inline Bitset full(uint64_t size) {
  std::vector<uint64_t> words((size + 63) / 64, ~uint64_t{0});
  if (!words.empty()) words.back() &= last_word_mask(size);
  return Bitset(size, std::move(words));
}

inline Bitset complement(const Bitset& a) {
  std::vector<uint64_t> words(a.words().size());
  for (size_t i = 0; i < words.size(); ++i) words[i] = ~a.words()[i];
  if (!words.empty()) words.back() &= last_word_mask(a.size());
  return Bitset(a.size(), std::move(words));
}

// a \ b
inline Bitset difference(const Bitset& a, const Bitset& b) {
  require_same_size(a, b, "set difference");
  std::vector<uint64_t> words(a.words().size());
  for (size_t i = 0; i < words.size(); ++i) words[i] = a.words()[i] & ~b.words()[i];
  return Bitset(a.size(), std::move(words));
}

inline Bitset intersection(const Bitset& a, const Bitset& b) {
  require_same_size(a, b, "set intersection");
  std::vector<uint64_t> words(a.words().size());
  for (size_t i = 0; i < words.size(); ++i) words[i] = a.words()[i] & b.words()[i];
  return Bitset(a.size(), std::move(words));
}

inline Bitset set_union(const Bitset& a, const Bitset& b) {
  require_same_size(a, b, "set union");
  std::vector<uint64_t> words(a.words().size());
  for (size_t i = 0; i < words.size(); ++i) words[i] = a.words()[i] | b.words()[i];
  return Bitset(a.size(), std::move(words));
}

// Calls f(i) for every set bit, in increasing order, a word at a time.
template <typename F>
void for_each_set(const Bitset& a, F&& f) {
  const std::vector<uint64_t>& words = a.words();
  for (size_t w = 0; w < words.size(); ++w) {
    for (uint64_t bits = words[w]; bits != 0; bits &= bits - 1) {
      f((static_cast<uint64_t>(w) << 6) + static_cast<uint64_t>(std::countr_zero(bits)));
    }
  }
}

}  // namespace pmc::graph::bits
