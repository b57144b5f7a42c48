// A generator's state as the explorer's StateSet key: its bytes packed
// big-endian into 64-bit words, zero-padded to the longest state, then (for
// states of varying size) a word holding the size. Comparing keys word by
// word is then memcmp order on the bytes, a shorter state before the longer
// ones it begins: sorting the keys numbers the states by their bytes.
#pragma once

#include <cstdint>
#include <span>

namespace pmc::generator {

class StateKey {
 public:
  StateKey(uint32_t max_size, bool fixed)
      : max_size_(max_size), fixed_(fixed), data_words_((max_size + 7) / 8), words_(data_words_ + (fixed ? 0 : 1)) {}

  uint32_t words() const { return words_; }
  uint32_t max_size() const { return max_size_; }
  bool fixed() const { return fixed_; }

  // `bytes` must fit (size checked by the caller); writes words() words.
  void pack(std::span<const uint8_t> bytes, uint64_t* key) const {
    for (uint32_t w = 0; w < words_; ++w) key[w] = 0;
    for (size_t i = 0; i < bytes.size(); ++i) key[i / 8] |= uint64_t{bytes[i]} << (56 - 8 * (i % 8));
    if (!fixed_) key[data_words_] = bytes.size();
  }
  uint32_t size_of(const uint64_t* key) const { return fixed_ ? max_size_ : static_cast<uint32_t>(key[data_words_]); }
  // Writes size_of(key) bytes to `out`.
  void unpack(const uint64_t* key, uint8_t* out) const {
    const uint32_t size = size_of(key);
    for (uint32_t i = 0; i < size; ++i) out[i] = static_cast<uint8_t>(key[i / 8] >> (56 - 8 * (i % 8)));
  }

 private:
  uint32_t max_size_;
  bool fixed_;
  uint32_t data_words_, words_;
};

}  // namespace pmc::generator
