// Signature refinement over a MinMaxProblem's unknowns (lumping.hpp).
//
// Invariant between rounds: the members of a block that were not re-signed
// in a round all carry the block's hash (block_hash_), because they had it
// when the block was formed and none of their successors has moved since.
// So a round groups only the re-signed ("dirty") unknowns: a block's
// members not among them form the group with the block's hash, which keeps
// the block's id, and never need to be looked at.
#include "solver/minmax/lumping.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include <fmt/format.h>
#include <omp.h>

#include "common/cancellation.hpp"
#include "common/error.hpp"
#include "common/index_range.hpp"
#include "common/stopwatch.hpp"
#include "solver/minmax/bellman.hpp"
#include "solver/parallel.hpp"

namespace pmc {

namespace {

constexpr uint32_t k_no_state = UINT32_MAX;

uint64_t mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

uint64_t combine(uint64_t h, uint64_t v) { return mix(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2))); }

uint64_t bits_of(double x) { return std::bit_cast<uint64_t>(x == 0.0 ? 0.0 : x); }  // -0 as +0

// The calling OpenMP thread's contiguous share of `count` items, shares in
// thread order, by the threads its region got (maybe fewer than asked).
IndexRange thread_share(uint64_t count) {
  const auto t = static_cast<uint64_t>(omp_get_thread_num()), threads = static_cast<uint64_t>(omp_get_num_threads());
  return {count * t / threads, count * (t + 1) / threads};
}

struct Entry {
  uint32_t block;
  double value;
};

// Sorts a short range in place (a row's entries, a state's row hashes:
// usually a handful, where insertion sort beats std::sort's set-up).
template <typename T, typename Less>
void sort_short(std::vector<T>& v, Less less) {
  if (v.size() > 24) {
    std::sort(v.begin(), v.end(), less);
    return;
  }
  for (size_t i = 1; i < v.size(); ++i) {
    T x = v[i];
    size_t j = i;
    for (; j > 0 && less(x, v[j - 1]); --j) v[j] = v[j - 1];
    v[j] = x;
  }
}

// Row r's entries lifted to blocks: emit(block, sum) per block, blocks
// ascending, each sum taken over the entries in ascending value order, so
// identical multisets give identical doubles. `entries` is scratch.
template <typename Emit>
void lift_row(const MinMaxProblem& p, const std::vector<uint32_t>& block, uint64_t r, std::vector<Entry>& entries,
              Emit emit) {
  entries.clear();
  for (uint64_t e = p.a.row_offsets[r]; e < p.a.row_offsets[r + 1]; ++e) {
    entries.push_back({block[p.a.columns[e]], p.a.values[e]});
  }
  sort_short(entries, [](const Entry& x, const Entry& y) {
    return x.block != y.block ? x.block < y.block : x.value < y.value;
  });
  for (size_t i = 0; i < entries.size();) {
    const uint32_t c = entries[i].block;
    double sum = 0.0;
    for (; i < entries.size() && entries[i].block == c; ++i) sum += entries[i].value;
    emit(c, sum);
  }
}

// One unknown's rows lifted to blocks, in a canonical form: each row as
// words [b, count, block, sum, block, sum, ...] with its entries' sums
// taken in (block, value) order, the rows sorted and without duplicates.
// The exact comparison and the quotient use it; refinement rounds hash the
// same content (SignatureHasher).
class LiftedRows {
 public:
  LiftedRows(const MinMaxProblem& p, const std::vector<uint32_t>& block) : p_(p), block_(block) {}

  // The rows of unknown s into rows_ (offsets into words_).
  void lift(uint64_t s) {
    words_.clear();
    rows_.clear();
    for (uint64_t r = p_.row_groups[s]; r < p_.row_groups[s + 1]; ++r) {
      const uint64_t start = words_.size();
      words_.push_back(bits_of(p_.b[r]));
      words_.push_back(0);  // entry count, below
      uint64_t count = 0;
      lift_row(p_, block_, r, entries_, [&](uint32_t c, double sum) {
        words_.push_back(c);
        words_.push_back(bits_of(sum));
        ++count;
      });
      words_[start + 1] = count;
      rows_.push_back({start, words_.size()});
    }
    std::sort(rows_.begin(), rows_.end(), [&](const Span& x, const Span& y) { return less(x, y); });
    rows_.erase(std::unique(rows_.begin(), rows_.end(), [&](const Span& x, const Span& y) { return equal(x, y); }),
                rows_.end());
  }

  bool same_as(const LiftedRows& other) const {
    if (rows_.size() != other.rows_.size()) return false;
    for (size_t i = 0; i < rows_.size(); ++i) {
      const Span x = rows_[i], y = other.rows_[i];
      if (x.last - x.first != y.last - y.first ||
          !std::equal(words_.begin() + x.first, words_.begin() + x.last, other.words_.begin() + y.first)) {
        return false;
      }
    }
    return true;
  }

  // Calls row(b, entries) per distinct lifted row; entries as (block, sum).
  template <typename Row>
  void for_each_row(Row row) const {
    for (const Span& r : rows_) {
      std::vector<Entry> entries;
      for (uint64_t w = r.first + 2; w < r.last; w += 2) {
        entries.push_back({static_cast<uint32_t>(words_[w]), std::bit_cast<double>(words_[w + 1])});
      }
      row(std::bit_cast<double>(words_[r.first]), entries);
    }
  }

 private:
  struct Span {
    uint64_t first, last;
  };
  bool less(const Span& x, const Span& y) const {
    return std::lexicographical_compare(words_.begin() + x.first, words_.begin() + x.last, words_.begin() + y.first,
                                        words_.begin() + y.last);
  }
  bool equal(const Span& x, const Span& y) const {
    return x.last - x.first == y.last - y.first &&
           std::equal(words_.begin() + x.first, words_.begin() + x.last, words_.begin() + y.first);
  }

  const MinMaxProblem& p_;
  const std::vector<uint32_t>& block_;
  std::vector<Entry> entries_;
  std::vector<uint64_t> words_;
  std::vector<Span> rows_;
};

// LiftedRows::hash() without building the words: what refinement rounds
// compute for every re-signed unknown.
class SignatureHasher {
 public:
  SignatureHasher(const MinMaxProblem& p, const std::vector<uint32_t>& block) : p_(p), block_(block) {}

  uint64_t hash(uint64_t s) {
    row_hashes_.clear();
    for (uint64_t r = p_.row_groups[s]; r < p_.row_groups[s + 1]; ++r) {
      uint64_t h = combine(mix(bits_of(p_.b[r])), 0);
      uint64_t count = 0;
      lift_row(p_, block_, r, entries_, [&](uint32_t c, double sum) {
        h = combine(combine(h, c), bits_of(sum));
        ++count;
      });
      row_hashes_.push_back(combine(h, count));
    }
    sort_short(row_hashes_, std::less<uint64_t>());
    row_hashes_.erase(std::unique(row_hashes_.begin(), row_hashes_.end()), row_hashes_.end());
    uint64_t h = mix(row_hashes_.size());
    for (const uint64_t x : row_hashes_) h = combine(h, x);
    return h;
  }

 private:
  const MinMaxProblem& p_;
  const std::vector<uint32_t>& block_;
  std::vector<Entry> entries_;
  std::vector<uint64_t> row_hashes_;
};

// Unknowns with an entry into each unknown (CSR; an unknown may repeat).
struct Predecessors {
  std::vector<uint64_t> offsets;
  std::vector<uint32_t> states;
};

Predecessors predecessors(const MinMaxProblem& p) {
  const uint64_t n = p.num_unknowns();
  Predecessors pred;
  pred.offsets.assign(n + 1, 0);
  for (const uint32_t c : p.a.columns) ++pred.offsets[c + 1];
  for (uint64_t i = 0; i < n; ++i) pred.offsets[i + 1] += pred.offsets[i];
  pred.states.resize(p.a.columns.size());
  std::vector<uint64_t> next(pred.offsets.begin(), pred.offsets.end() - 1);
  for (uint64_t s = 0; s < n; ++s) {
    for (uint64_t e = p.a.row_offsets[p.row_groups[s]]; e < p.a.row_offsets[p.row_groups[s + 1]]; ++e) {
      pred.states[next[p.a.columns[e]]++] = static_cast<uint32_t>(s);
    }
  }
  return pred;
}

class Refinement {
 public:
  Refinement(const MinMaxProblem& p, int threads) : p_(p), n_(p.num_unknowns()), threads_(threads) {
    block_.assign(n_, 0);
    hash_.assign(n_, 0);
    block_size_.push_back(n_);
    block_hash_.push_back(0);
    dirty_.resize(n_);
    for (uint64_t s = 0; s < n_; ++s) dirty_[s] = static_cast<uint32_t>(s);
    pred_ = predecessors(p);
  }

  enum class Status { stable, too_many_blocks, paused };

  // Rounds until the partition is stable, the blocks pass `max_blocks`
  // (refinement is then useless: blocks only split), or the signatures
  // computed since construction would pass `signature_limit` (paused: a
  // later call continues where this one stopped).
  Status run(uint64_t max_blocks, uint64_t signature_limit, const std::atomic<bool>* cancel) {
    marked_.resize(n_, 0);
    while (!dirty_.empty()) {
      throw_if_cancelled(cancel);
      if (signatures_ + dirty_.size() > signature_limit) return Status::paused;
      signatures_ += dirty_.size();
      ++rounds_;
      Stopwatch phase;
      sign_dirty();
      seconds_[0] += phase.seconds();
      phase.restart();
      const std::vector<uint32_t> moved = split();
      seconds_[1] += phase.seconds();
      phase.restart();
      mark_predecessors(moved);
      seconds_[2] += phase.seconds();
      if (block_size_.size() > max_blocks) return Status::too_many_blocks;
    }
    return Status::stable;
  }

  // PMC_LUMPING_TIMES=1: where refinement's time went, on stderr (bench/NOTES.md).
  void print_times(const char* outcome) const {
    std::fprintf(stderr, "lumping: %s after %llu rounds, %llu signatures (%.2f per unknown), %llu blocks: "
                 "signing %.3f s, splitting %.3f s, marking %.3f s\n", outcome,
                 static_cast<unsigned long long>(rounds_), static_cast<unsigned long long>(signatures_),
                 static_cast<double>(signatures_) / static_cast<double>(std::max<uint64_t>(n_, 1)),
                 static_cast<unsigned long long>(block_size_.size()), seconds_[0], seconds_[1], seconds_[2]);
  }

  const std::vector<uint32_t>& blocks() const { return block_; }
  uint64_t num_blocks() const { return block_size_.size(); }
  uint64_t rounds() const { return rounds_; }

 private:
  void sign_dirty() {
    const auto count = static_cast<int64_t>(dirty_.size());
#pragma omp parallel num_threads(threads_) if (count > 4096)
    {
      SignatureHasher hasher(p_, block_);
#pragma omp for schedule(dynamic, 1024)
      for (int64_t i = 0; i < count; ++i) hash_[dirty_[i]] = hasher.hash(dirty_[i]);
    }
  }

  // Splits every block with re-signed members by their hashes; returns
  // the unknowns that changed block, in dirty_'s order. The re-signed
  // unknowns are spread over k_split_parts parts by their (block, hash)
  // (stably), each part grouped by a hash table of its own on some core,
  // and the groups numbered part by part in the order of their first
  // member; so the new ids depend on dirty_'s order, never on the threads.
  // Within a block the group with the block's hash keeps the id when some
  // members were not re-signed (they are in it); else the largest group
  // (the first of equal ones) does.
  std::vector<uint32_t> split() {
    const size_t d = dirty_.size();
    const int threads = d > k_parallel_split ? threads_ : 1;
    group_of_.resize(d);
    part_start_.assign(k_split_parts + 1, 0);
    // 1. Each re-signed unknown's part, and the parts' members, stably.
    key_.resize(d);
    by_part_.resize(d);
    std::vector<std::array<uint32_t, k_split_parts>> counts(static_cast<size_t>(threads));
#pragma omp parallel num_threads(threads)
    {
      const int t = omp_get_thread_num(), running = omp_get_num_threads();
      const IndexRange share = thread_share(d);
      std::array<uint32_t, k_split_parts>& count = counts[static_cast<size_t>(t)];
      count.fill(0);
      for (uint64_t i = share.begin; i < share.end; ++i) {
        const uint32_t u = dirty_[i];
        key_[i] = mix(hash_[u] ^ (static_cast<uint64_t>(block_[u]) * 0x9e3779b97f4a7c15ULL));
        ++count[key_[i] >> k_part_shift];
      }
#pragma omp barrier
#pragma omp single
      {
        uint32_t at = 0;
        for (uint32_t part = 0; part < k_split_parts; ++part) {
          part_start_[part] = at;
          for (int u = 0; u < running; ++u) {
            uint32_t* c = counts[static_cast<size_t>(u)].data();
            const uint32_t here = c[part];
            c[part] = at;
            at += here;
          }
        }
        part_start_[k_split_parts] = at;
      }
      for (uint64_t i = share.begin; i < share.end; ++i) {
        by_part_[count[key_[i] >> k_part_shift]++] = static_cast<uint32_t>(i);
      }
    }
    // 2. Each part's groups, in the order of their first member.
    for (std::vector<Group>& groups : part_groups_) groups.clear();
#pragma omp parallel num_threads(threads)
    {
      std::vector<uint32_t> table;
#pragma omp for schedule(dynamic, 1)
      for (int part = 0; part < static_cast<int>(k_split_parts); ++part) {
        std::vector<Group>& groups = part_groups_[static_cast<size_t>(part)];
        const uint32_t begin = part_start_[static_cast<size_t>(part)], end = part_start_[static_cast<size_t>(part) + 1];
        table.assign(std::bit_ceil(2 * static_cast<uint64_t>(end - begin) + 2), k_empty_slot);
        const uint64_t mask = table.size() - 1;
        for (uint32_t k = begin; k < end; ++k) {
          const uint32_t i = by_part_[k];
          const uint32_t u = dirty_[i];
          const uint32_t b = block_[u];
          const uint64_t h = hash_[u];
          uint64_t slot = key_[i] & mask;
          while (table[slot] != k_empty_slot && (groups[table[slot]].block != b || groups[table[slot]].hash != h)) {
            slot = (slot + 1) & mask;
          }
          if (table[slot] == k_empty_slot) {
            table[slot] = static_cast<uint32_t>(groups.size());
            groups.push_back({b, h, 0, b});
          }
          group_of_[i] = table[slot];
          ++groups[table[slot]].count;
        }
      }
    }
    // 3. One numbering of all groups, part by part; each unknown's group in it.
    group_base_.resize(k_split_parts + 1);
    groups_.clear();
    for (uint32_t part = 0; part < k_split_parts; ++part) {
      group_base_[part] = static_cast<uint32_t>(groups_.size());
      groups_.insert(groups_.end(), part_groups_[part].begin(), part_groups_[part].end());
    }
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (int part = 0; part < static_cast<int>(k_split_parts); ++part) {
      for (uint32_t k = part_start_[static_cast<size_t>(part)]; k < part_start_[static_cast<size_t>(part) + 1]; ++k) {
        group_of_[by_part_[k]] += group_base_[static_cast<size_t>(part)];
      }
    }
    // 4. Per touched block: its re-signed members and the group keeping it.
    signed_in_block_.resize(block_size_.size());
    keeper_.resize(block_size_.size());
    for (const Group& g : groups_) {
      signed_in_block_[g.block] = 0;
      keeper_[g.block] = k_no_state;
    }
    for (const Group& g : groups_) signed_in_block_[g.block] += g.count;
    for (uint32_t k = 0; k < groups_.size(); ++k) {
      const Group& g = groups_[k];
      const bool untouched_members = block_size_[g.block] > signed_in_block_[g.block];
      uint32_t& keeper = keeper_[g.block];
      if (untouched_members) {
        if (g.hash == block_hash_[g.block]) keeper = k;
      } else if (keeper == k_no_state || g.count > groups_[keeper].count) {
        keeper = k;
      }
    }
    for (uint32_t k = 0; k < groups_.size(); ++k) {
      Group& g = groups_[k];
      const uint32_t keeper = keeper_[g.block];
      if (keeper == k) {
        block_hash_[g.block] = g.hash;
      } else {
        // A new block (every group does when none carries the block's hash:
        // the members not re-signed keep the id and the hash).
        g.id = static_cast<uint32_t>(block_size_.size());
        block_size_.push_back(g.count);
        block_hash_.push_back(g.hash);
        block_size_[g.block] -= g.count;
      }
    }
    // 5. The moves, collected per range of dirty_ and joined in its order.
    std::vector<std::vector<uint32_t>> moved_in(static_cast<size_t>(threads));
#pragma omp parallel num_threads(threads)
    {
      const IndexRange share = thread_share(d);
      std::vector<uint32_t>& moved = moved_in[static_cast<size_t>(omp_get_thread_num())];
      for (uint64_t i = share.begin; i < share.end; ++i) {
        const Group& g = groups_[group_of_[i]];
        if (g.id != g.block) {
          block_[dirty_[i]] = g.id;
          moved.push_back(dirty_[i]);
        }
      }
    }
    std::vector<uint32_t> moved = std::move(moved_in[0]);
    for (size_t t = 1; t < moved_in.size(); ++t) moved.insert(moved.end(), moved_in[t].begin(), moved_in[t].end());
    return moved;
  }

  // The next round's dirty_: the predecessors of the unknowns that moved,
  // each once. Few: marked one by one in the order met. Many (past
  // n / 16 predecessor entries): marked on every core, then collected in
  // ascending order by a scan of the marks — either way an order that does
  // not depend on the threads.
  void mark_predecessors(const std::vector<uint32_t>& moved) {
    dirty_.clear();
    uint64_t entries = 0;
    for (const uint32_t t : moved) entries += pred_.offsets[t + 1] - pred_.offsets[t];
    if (entries < n_ / 16 || entries < k_parallel_split) {
      for (const uint32_t t : moved) {
        for (uint64_t i = pred_.offsets[t]; i < pred_.offsets[t + 1]; ++i) {
          const uint32_t s = pred_.states[i];
          if (!marked_[s]) {
            marked_[s] = 1;
            dirty_.push_back(s);
          }
        }
      }
      for (const uint32_t s : dirty_) marked_[s] = 0;
      return;
    }
    const auto count = static_cast<int64_t>(moved.size());
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 256)
    for (int64_t k = 0; k < count; ++k) {
      const uint32_t t = moved[static_cast<size_t>(k)];
      for (uint64_t i = pred_.offsets[t]; i < pred_.offsets[t + 1]; ++i) {
        std::atomic_ref<char>(marked_[pred_.states[i]]).store(1, std::memory_order_relaxed);
      }
    }
    std::vector<std::vector<uint32_t>> found(static_cast<size_t>(threads_));
#pragma omp parallel num_threads(threads_)
    {
      const IndexRange share = thread_share(n_);
      std::vector<uint32_t>& mine = found[static_cast<size_t>(omp_get_thread_num())];
      for (uint64_t s = share.begin; s < share.end; ++s) {
        if (marked_[s]) {
          marked_[s] = 0;
          mine.push_back(static_cast<uint32_t>(s));
        }
      }
    }
    for (const std::vector<uint32_t>& mine : found) dirty_.insert(dirty_.end(), mine.begin(), mine.end());
  }

  static constexpr uint32_t k_empty_slot = UINT32_MAX;
  // Fixed, so that block ids do not depend on the threads.
  static constexpr uint32_t k_split_parts = 64;
  static constexpr int k_part_shift = 58;  // the top 6 bits of a group's key
  // Fewer re-signed unknowns than this are grouped on one core.
  static constexpr size_t k_parallel_split = size_t{1} << 14;
  struct Group {
    uint32_t block;
    uint64_t hash;
    uint64_t count;
    uint32_t id;  // the block its members go to
  };

  const MinMaxProblem& p_;
  uint64_t n_;
  int threads_;
  std::vector<uint32_t> block_;
  std::vector<uint64_t> hash_;
  std::vector<uint64_t> block_size_;
  std::vector<uint64_t> block_hash_;
  std::vector<uint32_t> dirty_;
  Predecessors pred_;
  std::vector<char> marked_;
  uint64_t signatures_ = 0;
  // split()'s working data, kept across rounds (per block: indexed by id).
  std::vector<Group> groups_;
  std::array<std::vector<Group>, k_split_parts> part_groups_;
  std::vector<uint64_t> key_;
  std::vector<uint32_t> group_of_, by_part_, part_start_, group_base_;
  std::vector<uint64_t> signed_in_block_;
  std::vector<uint32_t> keeper_;
  uint64_t rounds_ = 0;
  double seconds_[3] = {0, 0, 0};  // signing, splitting, marking
};

// Block ids renumbered in the order of each block's first unknown (the
// quotient keeps the original's order, and with it its locality); each
// block's representative is that first unknown.
void renumber_by_first_member(std::vector<uint32_t>& block, uint64_t blocks, std::vector<uint32_t>& representative) {
  std::vector<uint32_t> id(blocks, k_no_state);
  representative.clear();
  for (uint64_t s = 0; s < block.size(); ++s) {
    if (id[block[s]] == k_no_state) {
      id[block[s]] = static_cast<uint32_t>(representative.size());
      representative.push_back(static_cast<uint32_t>(s));
    }
    block[s] = id[block[s]];
  }
}

// Every unknown's lifted rows equal its representative's, bit for bit.
bool partition_is_exact(const MinMaxProblem& p, const std::vector<uint32_t>& block,
                        const std::vector<uint32_t>& representative, int threads) {
  const auto n = static_cast<int64_t>(p.num_unknowns());
  bool exact = true;
#pragma omp parallel num_threads(threads) if (n > 4096) reduction(&& : exact)
  {
    LiftedRows mine(p, block), theirs(p, block);
#pragma omp for schedule(dynamic, 1024)
    for (int64_t s = 0; s < n; ++s) {
      const uint32_t rep = representative[block[s]];
      if (rep == static_cast<uint32_t>(s)) continue;
      mine.lift(static_cast<uint64_t>(s));
      theirs.lift(rep);
      exact = exact && mine.same_as(theirs);
    }
  }
  return exact;
}

MinMaxProblem quotient(const MinMaxProblem& p, const std::vector<uint32_t>& block,
                       const std::vector<uint32_t>& representative) {
  MinMaxProblem q;
  q.maximize = p.maximize;
  q.upper_bound = p.upper_bound;
  q.row_groups.assign(1, 0);
  q.a.row_offsets.assign(1, 0);
  LiftedRows rows(p, block);
  for (const uint32_t rep : representative) {
    rows.lift(rep);
    rows.for_each_row([&](double b, const std::vector<Entry>& entries) {
      q.b.push_back(b);
      for (const Entry& e : entries) {
        q.a.columns.push_back(e.block);
        q.a.values.push_back(e.value);
      }
      q.a.row_offsets.push_back(q.a.columns.size());
    });
    q.row_groups.push_back(q.b.size());
  }
  return q;
}

// The blocks-count limit for n unknowns.
uint64_t max_blocks(uint64_t n) { return static_cast<uint64_t>(k_lumping_max_fraction * static_cast<double>(n)); }

// A stable refinement's quotient, after the exact check.
bool quotient_of(const MinMaxProblem& p, const Refinement& refinement, int threads, Lumping& out) {
  out.block_of = refinement.blocks();
  out.rounds = refinement.rounds();
  std::vector<uint32_t> representative;
  renumber_by_first_member(out.block_of, refinement.num_blocks(), representative);
  if (!partition_is_exact(p, out.block_of, representative, threads)) return false;
  out.problem = quotient(p, out.block_of, representative);
  return true;
}

bool lumpable(const MinMaxProblem& p) { return p.steps == 0 && p.num_unknowns() > 0 && p.num_unknowns() < k_no_state; }

}  // namespace

bool lump(const MinMaxProblem& p, int threads, const std::atomic<bool>* cancel, Lumping& out) {
  if (!lumpable(p)) return false;
  if (threads <= 0) threads = solver_threads(SolverSettings{});
  Refinement refinement(p, threads);
  if (refinement.run(max_blocks(p.num_unknowns()), UINT64_MAX, cancel) != Refinement::Status::stable) return false;
  return quotient_of(p, refinement, threads, out);
}

SolveStats solve_lumped(const MinMaxProblem& p, MinMaxSolution& solution, const SolverSettings& settings,
                        const BudgetedMinMaxSolveFn& solve) {
  const Stopwatch clock;
  const uint64_t n = p.num_unknowns();
  const bool starts_fit = (solution.x.empty() || solution.x.size() == n) &&
                          (solution.upper.empty() || solution.upper.size() == n);
  bool finished = false;
  bool try_lumping = settings.lumping && n >= k_lumping_min_unknowns && lumpable(p) && starts_fit;
  const int threads = solver_threads(settings);
  std::unique_ptr<Refinement> refinement;
  uint64_t budget = k_lumping_budget_sweeps * n, work = 0;
  SolveStats stats;
  // Every solve's iterations and loop count, not only the last one's: the
  // budgeted attempts before lumping often do most of the sweeps.
  auto add = [&](const SolveStats& more) {
    const uint64_t iterations = stats.iterations + more.iterations;
    const double loop = stats.loop_seconds + more.loop_seconds, precompute = stats.precompute_seconds + more.precompute_seconds;
    stats = more;
    stats.iterations = iterations;
    stats.loop_seconds = loop;
    stats.precompute_seconds = precompute;
  };
  const bool print_times = std::getenv("PMC_LUMPING_TIMES") != nullptr;
  std::string outcome;
  for (;;) {
    // Each solve starts from the bounds the one before left (sound).
    add(solve(p, solution, settings, try_lumping ? budget : 0, finished));
    if (finished) {
      if (refinement && print_times) refinement->print_times("paused, the solve finished");
      break;
    }
    work += budget;
    // Where the attempt found no upper bound, the problem's own is one.
    for (double& u : solution.upper) u = std::min(u, p.upper_bound);
    if (!refinement) refinement = std::make_unique<Refinement>(p, threads);
    const uint64_t most_signatures = k_lumping_max_signatures_per_unknown * n;
    const uint64_t signature_limit = std::min(work / k_lumping_updates_per_signature, most_signatures);
    const Refinement::Status status = refinement->run(max_blocks(n), signature_limit, settings.cancel);
    if (status == Refinement::Status::paused && signature_limit < most_signatures) {
      budget *= 2;
      continue;
    }
    Lumping lumping;
    if (status == Refinement::Status::stable && quotient_of(p, *refinement, threads, lumping)) {
      const uint64_t m = lumping.problem.num_unknowns();
      MinMaxSolution inner;
      inner.x = restrict_values(lumping.block_of, m, solution.x, true);  // members share the value: the tightest
      if (!solution.upper.empty()) inner.upper = restrict_values(lumping.block_of, m, solution.upper, false);
      if (print_times) refinement->print_times("stable");
      add(solve(lumping.problem, inner, settings, 0, finished));
      std::vector<double> upper =
          inner.upper.empty() ? std::vector<double>{} : expand_values(lumping.block_of, inner.upper);
      store_bounds(p, expand_values(lumping.block_of, inner.x), std::move(upper), settings.epsilon, solution);
      outcome = fmt::format("+lumped {}→{} unknowns in {} rounds", n, m, lumping.rounds);
      break;
    }
    outcome = "+not lumpable";
    if (print_times) {
      refinement->print_times(status == Refinement::Status::stable    ? "not exact"
                              : status == Refinement::Status::paused ? "too many signatures"
                                                                     : "too many blocks");
    }
    refinement.reset();
    try_lumping = false;
  }
  stats.kernel += outcome;
  stats.seconds = clock.seconds();
  return stats;
}

}  // namespace pmc
