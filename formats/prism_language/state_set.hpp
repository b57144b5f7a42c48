// The set of reached states during exploration: open addressing
// over packed state vectors (state_packing.hpp), inserted into by every
// exploring thread at once. A slot costs the packed words, one status byte
// and, once numbered, a 32-bit state index: memory per state stays close to
// the packed vector, which is what lets millions of states fit.
//
// Concurrency: a slot goes empty → writing → full through a compare-and-swap
// on its status byte; a reader that finds "writing" waits for "full" (the
// writer only copies a few words), so a key is never seen half-written. The
// table does not grow while threads insert: insert() answers `full` when the
// load limit is reached and the explorer grows the table between batches
// and retries the states whose successors were not all inserted (inserting
// is idempotent).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace pmc::prism_language {

class StateSet {
 public:
  enum class Insert : uint8_t { existing, inserted, full };

  explicit StateSet(uint32_t words, uint64_t expected_states = 1024);

  uint32_t words() const { return words_; }
  uint64_t size() const { return count_.load(std::memory_order_relaxed); }
  uint64_t capacity() const { return mask_ + 1; }
  // Bytes held by the table (for the memory-per-state figures).
  uint64_t bytes() const;
  // Bytes held while grow(more) rehashes: the old table and the new one
  // (bytes() when it would not grow). The memory limit is checked against
  // it before growing, so the limit holds while it grows.
  uint64_t bytes_while_growing(uint64_t more) const;
  // Bytes of a new set for `expected_states` (the constructor's table).
  static uint64_t bytes_for(uint32_t words, uint64_t expected_states);

  // Thread-safe against other insert() calls.
  Insert insert(const uint64_t* key);

  // Whether the table can take `more` states without reaching its load
  // limit; grow() doubles it until it can, rehashing on `threads` threads.
  // Not thread-safe: no insert() may run meanwhile.
  bool has_room_for(uint64_t more) const { return size() + more <= limit_; }
  void grow(uint64_t more, unsigned threads = 1);

  // Every stored key, `words()` per state, in table order. Not thread-safe.
  std::vector<uint64_t> keys() const;

  // After every insert: gives each stored key its index (the key's position
  // in `sorted_keys`); index_of() then answers for any stored key.
  // Parallel with `threads` threads.
  void number(const std::vector<uint64_t>& sorted_keys, unsigned threads);
  // The index number() gave `key`; the key must be stored.
  uint32_t index_of(const uint64_t* key) const;

 private:
  static constexpr uint8_t k_empty = 0, k_writing = 1, k_full = 2;

  uint64_t hash(const uint64_t* key) const {
    // splitmix64's finaliser per word: packed states differ in few bits
    // (often the low ones), which a plain modulo would cluster.
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (uint32_t w = 0; w < words_; ++w) {
      uint64_t z = key[w] + h;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      h = z ^ (z >> 31);
    }
    return h;
  }
  uint64_t find_slot(const uint64_t* key) const;
  void allocate(uint64_t capacity);

  uint32_t words_;
  uint64_t mask_ = 0, limit_ = 0;
  std::vector<uint64_t> keys_;
  std::unique_ptr<std::atomic<uint8_t>[]> status_;
  std::vector<uint32_t> indices_;
  std::atomic<uint64_t> count_{0};
};

}  // namespace pmc::prism_language
