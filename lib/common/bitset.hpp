// A fixed-size set of state indices, 64 states per word. Labels and the
// results of graph algorithms are Bitsets.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace pmc {

class Bitset {
 public:
  Bitset() = default;
  explicit Bitset(uint64_t size) : size_(size), words_((size + 63) / 64, 0) {}
  // Takes whole words; the caller guarantees words.size() == ceil(size/64)
  // and that bits past `size` are zero.
  Bitset(uint64_t size, std::vector<uint64_t> words) : size_(size), words_(std::move(words)) {}

  uint64_t size() const { return size_; }
  bool test(uint64_t i) const { return (words_[i >> 6] >> (i & 63)) & 1u; }
  void set(uint64_t i) { words_[i >> 6] |= uint64_t{1} << (i & 63); }
  void reset(uint64_t i) { words_[i >> 6] &= ~(uint64_t{1} << (i & 63)); }

  uint64_t count() const {
    uint64_t total = 0;
    for (uint64_t w : words_) total += static_cast<uint64_t>(std::popcount(w));
    return total;
  }

  // Index of the first set bit at or after `from`, or size() if none.
  uint64_t find_next(uint64_t from) const {
    if (from >= size_) return size_;
    uint64_t w = from >> 6;
    uint64_t bits = words_[w] & (~uint64_t{0} << (from & 63));
    while (true) {
      if (bits != 0) {
        uint64_t i = (w << 6) + static_cast<uint64_t>(std::countr_zero(bits));
        return i < size_ ? i : size_;
      }
      if (++w >= words_.size()) return size_;
      bits = words_[w];
    }
  }

  const std::vector<uint64_t>& words() const { return words_; }
  friend bool operator==(const Bitset&, const Bitset&) = default;

 private:
  uint64_t size_ = 0;
  std::vector<uint64_t> words_;
};

}  // namespace pmc
