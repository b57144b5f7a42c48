// The set of reached states during exploration: open addressing
// over packed state vectors (state_packing.hpp), inserted into by every
// exploring thread at once. A slot costs the packed words, one status byte
// and a 32-bit discovery id: memory per state stays close to the packed
// vector, which is what lets millions of states fit.
//
// Discovery ids are 0, 1, 2, ... in the order the inserts won their slots
// (dense, but not PRISM's order, which only the final sort gives): the
// explorer records rows against them while it explores, and renumbers once.
//
// A slot is one word of status and id, then the key's words, side by side:
// an insert that misses the cache misses it once, not once per array
// (status, keys and ids apart cost three misses per probe).
//
// Concurrency: a slot goes empty → writing → full through a compare-and-swap
// on its first word; a reader that finds "writing" waits for "full" (the
// writer only copies a few words and the id), so a key is never seen
// half-written. The
// table does not grow while threads insert: insert() answers `full` when the
// load limit is reached and the explorer grows the table between batches
// and retries the states whose successors were not all inserted (inserting
// is idempotent).
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

namespace pmc::prism_language {

class StateSet {
 public:
  enum class Insert : uint8_t { existing, inserted, full };
  struct Found {
    Insert result;
    uint32_t id;  // the key's discovery id (existing, inserted); unset when full
  };

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
  Found insert(const uint64_t* key);
  // Starts loading the slot where insert(key) will look first: a state's
  // targets prefetched together overlap their cache misses.
  void prefetch(const uint64_t* key) const { __builtin_prefetch(slot_at(hash(key) & mask_)); }

  // Whether the table can take `more` states without reaching its load
  // limit; grow() doubles it until it can, rehashing on `threads` threads.
  // Not thread-safe: no insert() may run meanwhile.
  bool has_room_for(uint64_t more) const { return size() + more <= limit_; }
  void grow(uint64_t more, unsigned threads = 1);

  // Every stored key followed by its discovery id (as a word): `words() + 1`
  // words per state, in table order; collected on `threads` threads. Not
  // thread-safe against insert().
  std::vector<uint64_t> keys_with_ids(unsigned threads) const;

  // The discovery id of a stored key. Not thread-safe against insert().
  uint32_t id_of(const uint64_t* key) const;

 private:
  // A slot's first word: the id above the low byte, the status in it.
  static constexpr uint64_t k_empty = 0, k_writing = 1, k_full = 2, k_status = 0xff;

  uint64_t* slot_at(uint64_t slot) const { return const_cast<uint64_t*>(&slots_[slot * (words_ + 1)]); }
  static std::atomic_ref<uint64_t> head(uint64_t* slot) { return std::atomic_ref<uint64_t>(*slot); }

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
  void insert_rehashed(const uint64_t* key, uint32_t id);

  uint32_t words_;
  uint64_t mask_ = 0, limit_ = 0;
  std::vector<uint64_t> slots_;  // (words_ + 1) per slot: status and id, then the key
  std::atomic<uint64_t> count_{0};
};

// Every stored key followed by its discovery id (`set.words() + 1` words a
// state), sorted by key: packed order, which for the PRISM language's
// packing is PRISM's state order. On `threads` threads.
std::vector<uint64_t> sorted_records(const StateSet& set, unsigned threads);

}  // namespace pmc::prism_language
