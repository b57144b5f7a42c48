#include "formats/prism_language/state_set.hpp"

#include <algorithm>
#include <bit>

#include "formats/prism_language/state_packing.hpp"

namespace pmc::prism_language {
namespace {

// At most 70% full: linear probing's expected probe count stays near 2 for
// hits and misses alike (Knuth, TAOCP vol. 3, §6.4).
constexpr double k_max_load = 0.7;

uint64_t capacity_for(uint64_t states) {
  const auto wanted = static_cast<uint64_t>(static_cast<double>(states) / k_max_load) + 1;
  return std::max<uint64_t>(std::bit_ceil(wanted), 1024);
}

}  // namespace

StateSet::StateSet(uint32_t words, uint64_t expected_states) : words_(words) {
  allocate(capacity_for(expected_states));
}

void StateSet::allocate(uint64_t capacity) {
  mask_ = capacity - 1;
  limit_ = static_cast<uint64_t>(static_cast<double>(capacity) * k_max_load);
  keys_.assign(capacity * words_, 0);
  status_ = std::make_unique<std::atomic<uint8_t>[]>(capacity);  // value-initialised: k_empty
  indices_.clear();
}

uint64_t StateSet::bytes() const {
  const uint64_t slots = capacity();
  return slots * (words_ * sizeof(uint64_t) + 1) + indices_.size() * sizeof(uint32_t);
}

uint64_t StateSet::bytes_for(uint32_t words, uint64_t expected_states) {
  return capacity_for(expected_states) * (words * sizeof(uint64_t) + 1);
}

uint64_t StateSet::bytes_while_growing(uint64_t more) const {
  const uint64_t wanted = capacity_for(size() + more);
  if (wanted <= capacity()) return bytes();
  return bytes() + wanted * (words_ * sizeof(uint64_t) + 1);
}

StateSet::Insert StateSet::insert(const uint64_t* key) {
  uint64_t slot = hash(key) & mask_;
  while (true) {
    uint8_t status = status_[slot].load(std::memory_order_acquire);
    if (status == k_empty) {
      if (count_.load(std::memory_order_relaxed) >= limit_) return Insert::full;
      if (status_[slot].compare_exchange_strong(status, k_writing, std::memory_order_acquire)) {
        std::copy_n(key, words_, &keys_[slot * words_]);
        status_[slot].store(k_full, std::memory_order_release);
        count_.fetch_add(1, std::memory_order_relaxed);
        return Insert::inserted;
      }
      // Lost the race: `status` now holds the winner's writing/full.
    }
    while (status == k_writing) status = status_[slot].load(std::memory_order_acquire);
    if (packed_equal(&keys_[slot * words_], key, words_)) return Insert::existing;
    slot = (slot + 1) & mask_;
  }
}

void StateSet::grow(uint64_t more, unsigned threads) {
  const uint64_t wanted = capacity_for(size() + more);
  if (wanted <= capacity()) return;
  // Rehashed in parallel straight from the old arrays: with 16 threads a
  // serial rehash of every doubling held up all of them.
  const std::vector<uint64_t> old_keys = std::move(keys_);
  const std::unique_ptr<std::atomic<uint8_t>[]> old_status = std::move(status_);
  const auto old_capacity = static_cast<int64_t>(mask_ + 1);
  allocate(wanted);
  count_.store(0);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int64_t slot = 0; slot < old_capacity; ++slot) {
    if (old_status[slot].load(std::memory_order_relaxed) == k_full) {
      insert(&old_keys[static_cast<uint64_t>(slot) * words_]);
    }
  }
}

std::vector<uint64_t> StateSet::keys() const {
  std::vector<uint64_t> out;
  out.reserve(size() * words_);
  for (uint64_t slot = 0; slot <= mask_; ++slot) {
    if (status_[slot].load(std::memory_order_relaxed) != k_full) continue;
    out.insert(out.end(), keys_.begin() + static_cast<int64_t>(slot * words_),
               keys_.begin() + static_cast<int64_t>((slot + 1) * words_));
  }
  return out;
}

uint64_t StateSet::find_slot(const uint64_t* key) const {
  uint64_t slot = hash(key) & mask_;
  // Only called for stored keys once inserting is over.
  while (!packed_equal(&keys_[slot * words_], key, words_) || status_[slot].load(std::memory_order_relaxed) != k_full) {
    slot = (slot + 1) & mask_;
  }
  return slot;
}

void StateSet::number(const std::vector<uint64_t>& sorted_keys, unsigned threads) {
  indices_.assign(capacity(), 0);
  const auto n = static_cast<int64_t>(sorted_keys.size() / words_);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int64_t i = 0; i < n; ++i) {
    indices_[find_slot(&sorted_keys[static_cast<uint64_t>(i) * words_])] = static_cast<uint32_t>(i);
  }
}

uint32_t StateSet::index_of(const uint64_t* key) const { return indices_[find_slot(key)]; }

}  // namespace pmc::prism_language
