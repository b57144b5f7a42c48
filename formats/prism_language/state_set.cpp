#include "formats/prism_language/state_set.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <numeric>
#include <thread>

#include <omp.h>
#include <parallel/algorithm>

#include "common/huge_pages.hpp"
#include "formats/prism_language/state_packing.hpp"

namespace pmc::prism_language {
namespace {

// At most 70% full: linear probing's expected probe count stays near 2 for
// hits and misses alike (Knuth, TAOCP vol. 3, §6.4).
constexpr double k_max_load = 0.7;

// Key words, then status and id in one word.
uint64_t slot_bytes(uint32_t words) { return (words + 1) * sizeof(uint64_t); }

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
  slots_.clear();
  slots_.shrink_to_fit();
  reserve_with_huge_pages(slots_, capacity * (words_ + 1));
  slots_.resize(capacity * (words_ + 1), 0);  // every head k_empty
}

uint64_t StateSet::bytes() const {
  return capacity() * slot_bytes(words_);
}

uint64_t StateSet::bytes_for(uint32_t words, uint64_t expected_states) {
  return capacity_for(expected_states) * slot_bytes(words);
}

uint64_t StateSet::bytes_while_growing(uint64_t more) const {
  const uint64_t wanted = capacity_for(size() + more);
  if (wanted <= capacity()) return bytes();
  return bytes() + wanted * slot_bytes(words_);
}

StateSet::Found StateSet::insert(const uint64_t* key) {
  uint64_t index = hash(key) & mask_;
  while (true) {
    uint64_t* slot = slot_at(index);
    uint64_t word = head(slot).load(std::memory_order_acquire);
    if (word == k_empty) {
      if (count_.load(std::memory_order_relaxed) >= limit_) return {Insert::full, 0};
      if (head(slot).compare_exchange_strong(word, k_writing, std::memory_order_acquire)) {
        std::copy_n(key, words_, slot + 1);
        const auto id = static_cast<uint32_t>(count_.fetch_add(1, std::memory_order_relaxed));
        head(slot).store(uint64_t{id} << 8 | k_full, std::memory_order_release);
        return {Insert::inserted, id};
      }
      // Lost the race: `word` now holds the winner's writing/full.
    }
    while ((word & k_status) == k_writing) word = head(slot).load(std::memory_order_acquire);
    if (packed_equal(slot + 1, key, words_)) return {Insert::existing, static_cast<uint32_t>(word >> 8)};
    index = (index + 1) & mask_;
  }
}

// Growing: every key is new to the table and keeps its id; nobody reads a
// key meanwhile.
void StateSet::insert_rehashed(const uint64_t* key, uint32_t id) {
  uint64_t index = hash(key) & mask_;
  while (true) {
    uint64_t* slot = slot_at(index);
    uint64_t word = k_empty;
    if (head(slot).load(std::memory_order_relaxed) == k_empty &&
        head(slot).compare_exchange_strong(word, uint64_t{id} << 8 | k_full, std::memory_order_relaxed)) {
      std::copy_n(key, words_, slot + 1);
      return;
    }
    index = (index + 1) & mask_;
  }
}

void StateSet::grow(uint64_t more, unsigned threads) {
  const uint64_t wanted = capacity_for(size() + more);
  if (wanted <= capacity()) return;
  // Rehashed in parallel straight from the old array: with 16 threads a
  // serial rehash of every doubling held up all of them. On std::threads,
  // not OpenMP's: grow() runs on whichever exploring thread found the set
  // full, a std::thread that ends with the exploration, and an OpenMP
  // region opened from such a thread leaves libomp's state for it behind
  // (LeakSanitizer: 1440 bytes a thread and exploration).
  const std::vector<uint64_t> old = std::move(slots_);
  const uint32_t stride = words_ + 1;
  const uint64_t old_capacity = mask_ + 1;
  allocate(wanted);
  auto rehash = [&](uint64_t begin, uint64_t end) {
    for (uint64_t index = begin; index < end; ++index) {
      const uint64_t* slot = &old[index * stride];
      if ((slot[0] & k_status) == k_full) insert_rehashed(slot + 1, static_cast<uint32_t>(slot[0] >> 8));
    }
  };
  const auto parts = static_cast<unsigned>(std::clamp<uint64_t>(old_capacity / (1 << 16), 1, std::max(1u, threads)));
  std::vector<std::thread> helpers;
  helpers.reserve(parts - 1);
  for (unsigned p = 1; p < parts; ++p) {
    helpers.emplace_back(rehash, old_capacity * p / parts, old_capacity * (p + 1) / parts);
  }
  rehash(0, old_capacity / parts);
  for (std::thread& helper : helpers) helper.join();
}

std::vector<uint64_t> StateSet::keys_with_ids(unsigned threads) const {
  // Each thread takes a range of slots: counts its keys, then (after the
  // ranges before it are counted) copies them to their place.
  const uint32_t stride = words_ + 1;
  std::vector<uint64_t> out;
  reserve_with_huge_pages(out, size() * stride);
  out.resize(size() * stride);
  const uint64_t slots = capacity();
  const auto parts = static_cast<unsigned>(std::clamp<uint64_t>(slots / (1 << 16), 1, std::max(1u, threads)));
  std::vector<uint64_t> first(parts + 1, 0);
#pragma omp parallel num_threads(static_cast<int>(parts))
  {
    const auto p = static_cast<uint64_t>(omp_get_thread_num());
    const uint64_t begin = slots * p / parts, end = slots * (p + 1) / parts;
    uint64_t count = 0;
    for (uint64_t index = begin; index < end; ++index) count += (slot_at(index)[0] & k_status) == k_full;
    first[p + 1] = count;
#pragma omp barrier
#pragma omp single
    std::partial_sum(first.begin(), first.end(), first.begin());
    uint64_t at = first[p] * stride;
    for (uint64_t index = begin; index < end; ++index) {
      const uint64_t* slot = slot_at(index);
      if ((slot[0] & k_status) != k_full) continue;
      std::copy_n(slot + 1, words_, &out[at]);
      out[at + words_] = slot[0] >> 8;
      at += stride;
    }
  }
  return out;
}

uint64_t StateSet::find_slot(const uint64_t* key) const {
  uint64_t index = hash(key) & mask_;
  // Only called for stored keys once inserting is over.
  while ((slot_at(index)[0] & k_status) != k_full || !packed_equal(slot_at(index) + 1, key, words_)) {
    index = (index + 1) & mask_;
  }
  return index;
}

uint32_t StateSet::id_of(const uint64_t* key) const { return static_cast<uint32_t>(slot_at(find_slot(key))[0] >> 8); }

namespace {

// A gigabyte of records is a quarter of a second on one thread.
void copy_words(const uint64_t* from, uint64_t count, uint64_t* to, unsigned threads) {
  const auto parts = static_cast<int64_t>(std::clamp<uint64_t>(count / (1 << 20), 1, threads));
#pragma omp parallel for num_threads(static_cast<int>(parts)) schedule(static)
  for (int64_t p = 0; p < parts; ++p) {
    const uint64_t begin = count * static_cast<uint64_t>(p) / static_cast<uint64_t>(parts);
    const uint64_t end = count * static_cast<uint64_t>(p + 1) / static_cast<uint64_t>(parts);
    std::memcpy(to + begin, from + begin, (end - begin) * sizeof(uint64_t));
  }
}

// libstdc++'s parallel mode sorts on the OpenMP threads (std::sort took
// 0.5 s of leader_async N7's 7 s build on 2 cores); records of 2–4 words
// are sorted as arrays rather than through a permutation, which costs a
// random access per comparison. Keys are distinct, so the id never decides
// a comparison.
template <size_t W>
void sort_words(std::vector<uint64_t>& records, unsigned threads) {
  std::vector<std::array<uint64_t, W>> rows;
  reserve_with_huge_pages(rows, records.size() / W);
  rows.resize(records.size() / W);
  copy_words(records.data(), records.size(), rows.data()->data(), threads);
  __gnu_parallel::sort(rows.begin(), rows.end(), __gnu_parallel::default_parallel_tag(threads));
  copy_words(rows.data()->data(), records.size(), records.data(), threads);
}

// Sorts records of `stride` words (the key, then the id) in place.
void sort_records(std::vector<uint64_t>& records, uint32_t stride, unsigned threads) {
  switch (stride) {
    case 2: sort_words<2>(records, threads); return;
    case 3: sort_words<3>(records, threads); return;
    case 4: sort_words<4>(records, threads); return;
    default: break;
  }
  const uint64_t n = records.size() / stride;
  std::vector<uint64_t> order(n);
  std::iota(order.begin(), order.end(), uint64_t{0});
  __gnu_parallel::sort(order.begin(), order.end(),
                       [&](uint64_t a, uint64_t b) {
                         return packed_less(&records[a * stride], &records[b * stride], stride - 1);
                       },
                       __gnu_parallel::default_parallel_tag(threads));
  std::vector<uint64_t> sorted(records.size());
  for (uint64_t i = 0; i < n; ++i) std::copy_n(&records[order[i] * stride], stride, &sorted[i * stride]);
  records = std::move(sorted);
}

}  // namespace

std::vector<uint64_t> sorted_records(const StateSet& set, unsigned threads) {
  std::vector<uint64_t> records = set.keys_with_ids(threads);
  sort_records(records, set.words() + 1, threads);
  return records;
}

}  // namespace pmc::prism_language
