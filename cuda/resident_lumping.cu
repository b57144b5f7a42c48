// resident_lumping.hpp: signature refinement of a resident MDP's maybe
// states, its exact check, the quotient's rows and the lifting of its
// bounds, a thread per maybe state (or block) each.
#include <cstdint>
#include <vector>

#include <cub/device/device_radix_sort.cuh>

#include "cuda/check.cuh"
#include "cuda/device_buffer.hpp"
#include "cuda/device_scan.cuh"
#include "cuda/launch.hpp"
#include "cuda/resident_kernels.hpp"
#include "cuda/resident_lumping.hpp"

namespace pmc::cuda {

namespace {

constexpr uint32_t k_zero_block = 0, k_one_block = 1, k_first_maybe_block = 2;

__device__ inline uint64_t mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
__device__ inline uint64_t combine(uint64_t h, uint64_t v) {
  return mix(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)));
}
__device__ inline uint64_t bits_of(double x) { return static_cast<uint64_t>(__double_as_longlong(x == 0.0 ? 0.0 : x)); }

struct LiftedEntry {
  uint32_t block;
  double value;
};

using Lifted = LiftedEntry[ResidentLumping::k_max_row_entries];

// Row r's entries lifted to blocks into `out` (blocks ascending, each sum
// over its entries in ascending value order); returns how many blocks.
// The caller has made sure the row fits.
__device__ int lift_row(const CsrView& a, uint64_t r, const uint32_t* block, Lifted& out) {
  int len = 0;
  for (uint64_t k = a.offsets[r]; k < a.offsets[r + 1]; ++k, ++len) {
    const LiftedEntry x{block[a.columns[k]], a.values[k]};
    int j = len;
    for (; j > 0 && (x.block < out[j - 1].block || (x.block == out[j - 1].block && x.value < out[j - 1].value)); --j) {
      out[j] = out[j - 1];
    }
    out[j] = x;
  }
  int count = 0;
  for (int i = 0; i < len;) {
    const uint32_t c = out[i].block;
    double sum = 0.0;
    for (; i < len && out[i].block == c; ++i) sum += out[i].value;
    out[count++] = {c, sum};
  }
  return count;
}

__device__ bool same_lifted(const Lifted& x, int nx, const Lifted& y, int ny) {
  if (nx != ny) return false;
  for (int i = 0; i < nx; ++i) {
    if (x[i].block != y[i].block || bits_of(x[i].value) != bits_of(y[i].value)) return false;
  }
  return true;
}

// The maybe states in ascending order: flags, then their exclusive scan's
// places.
__global__ void flag_maybe(uint64_t n, const uint8_t* status, uint32_t* flags, uint32_t* block) {
  const uint64_t s = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (s > n) return;
  if (s == n) {
    flags[s] = 0;
    return;
  }
  const uint8_t st = status[s];
  flags[s] = st == k_reach_maybe ? 1u : 0u;
  block[s] = st == k_reach_maybe ? k_first_maybe_block : (st == k_reach_one ? k_one_block : k_zero_block);
}
__global__ void gather_maybe(uint64_t n, const uint32_t* flags, const uint32_t* places, uint32_t* maybe) {
  const uint64_t s = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (s < n && flags[s] != 0) maybe[places[s]] = static_cast<uint32_t>(s);
}

struct SignatureView {
  uint64_t m;
  const uint32_t* maybe;
  const uint64_t* groups;
  CsrView a;
  const uint32_t* block;
  uint64_t* keys;
  unsigned* unlumpable;
};

// A maybe state's key: its block and the multiset of its lifted rows'
// hashes (a commutative sum of mixed hashes).
__global__ void signatures(SignatureView v) {
  const uint64_t i = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (i >= v.m) return;
  const uint32_t s = v.maybe[i];
  const uint64_t first = v.groups[s], last = v.groups[s + 1];
  if (last - first > ResidentLumping::k_max_state_rows) {
    atomicOr(v.unlumpable, 1u);
    return;
  }
  Lifted lifted;
  uint64_t signature = 0;
  for (uint64_t r = first; r < last; ++r) {
    if (v.a.offsets[r + 1] - v.a.offsets[r] > ResidentLumping::k_max_row_entries) {
      atomicOr(v.unlumpable, 1u);
      return;
    }
    const int count = lift_row(v.a, r, v.block, lifted);
    uint64_t h = mix(static_cast<uint64_t>(count) + 1);
    for (int k = 0; k < count; ++k) h = combine(combine(h, lifted[k].block), bits_of(lifted[k].value));
    signature += mix(h ^ 0x5851f42d4c957f2dULL);
  }
  v.keys[i] = combine(combine(0x2545f4914f6cdd1dULL, v.block[s]), signature);
}

__global__ void run_heads(uint64_t m, const uint64_t* sorted_keys, uint32_t* heads) {
  const uint64_t i = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (i < m) heads[i] = (i == 0 || sorted_keys[i] != sorted_keys[i - 1]) ? 1u : 0u;
}

// ids: the heads' inclusive scan (1-based run numbers). A run's first
// member (its least state: the sort is stable over ascending states) is the
// block's representative.
__global__ void assign_blocks(uint64_t m, const uint32_t* sorted_states, const uint32_t* heads, const uint32_t* ids,
                              uint32_t* block, uint32_t* representative) {
  const uint64_t i = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (i >= m) return;
  const uint32_t run = ids[i] - 1;
  block[sorted_states[i]] = k_first_maybe_block + run;
  if (heads[i] != 0) representative[run] = sorted_states[i];
}

struct CheckView {
  uint64_t m;
  const uint32_t* maybe;
  const uint64_t* groups;
  CsrView a;
  const uint32_t* block;
  const uint32_t* representative;
  unsigned* failed;
};

// Whether every row of `s` lifts to some row of `t`, exactly.
__device__ bool rows_within(const CheckView& v, uint32_t s, uint32_t t) {
  Lifted x, y;
  for (uint64_t r = v.groups[s]; r < v.groups[s + 1]; ++r) {
    const int nx = lift_row(v.a, r, v.block, x);
    bool found = false;
    for (uint64_t q = v.groups[t]; q < v.groups[t + 1] && !found; ++q) {
      found = same_lifted(x, nx, y, lift_row(v.a, q, v.block, y));
    }
    if (!found) return false;
  }
  return true;
}

// The same set of lifted rows as the block's representative, both ways.
__global__ void check_blocks(CheckView v) {
  const uint64_t i = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (i >= v.m) return;
  const uint32_t s = v.maybe[i];
  const uint32_t rep = v.representative[v.block[s] - k_first_maybe_block];
  if (rep == s) return;
  if (!rows_within(v, s, rep) || !rows_within(v, rep, s)) atomicOr(v.failed, 1u);
}

struct QuotientView {
  uint64_t k;  // maybe blocks
  const uint32_t* representative;
  const uint64_t* groups;
  CsrView a;
  const uint32_t* block;
  const uint64_t* q_groups;  // k + 1, once counted
  uint64_t* q_counts;        // rows per block, or entries per quotient row
  const uint64_t* q_offsets;
  uint32_t* q_columns;
  double* q_values;
  double* q_b;
};

__global__ void count_quotient_rows(QuotientView v) {
  const uint64_t q = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (q > v.k) return;
  if (q == v.k) {
    v.q_counts[q] = 0;
    return;
  }
  const uint32_t rep = v.representative[q];
  v.q_counts[q] = v.groups[rep + 1] - v.groups[rep];
}

// Entries of each quotient row: its lifted blocks among the maybe blocks.
__global__ void count_quotient_entries(QuotientView v) {
  const uint64_t q = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (q >= v.k) return;
  const uint32_t rep = v.representative[q];
  Lifted x;
  uint64_t out = v.q_groups[q];
  for (uint64_t r = v.groups[rep]; r < v.groups[rep + 1]; ++r, ++out) {
    const int count = lift_row(v.a, r, v.block, x);
    uint64_t entries = 0;
    for (int e = 0; e < count; ++e) entries += x[e].block >= k_first_maybe_block ? 1 : 0;
    v.q_counts[out] = entries;
  }
}

__global__ void write_quotient(QuotientView v) {
  const uint64_t q = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (q >= v.k) return;
  const uint32_t rep = v.representative[q];
  Lifted x;
  uint64_t out = v.q_groups[q];
  for (uint64_t r = v.groups[rep]; r < v.groups[rep + 1]; ++r, ++out) {
    const int count = lift_row(v.a, r, v.block, x);
    uint64_t place = v.q_offsets[out];
    double b = 0.0;
    for (int e = 0; e < count; ++e) {
      if (x[e].block == k_one_block) b = x[e].value;
      if (x[e].block < k_first_maybe_block) continue;
      v.q_columns[place] = x[e].block - k_first_maybe_block;
      v.q_values[place] = x[e].value;
      ++place;
    }
    v.q_b[out] = b;
  }
}

__global__ void lift_bounds(uint64_t m, const uint32_t* maybe, const uint32_t* block, const double2* bounds,
                            double2* v, double2* w) {
  const uint64_t i = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (i >= m) return;
  const uint32_t s = maybe[i];
  const double2 x = bounds[block[s] - k_first_maybe_block];
  v[s] = x;
  w[s] = x;
}

unsigned read_flag(const DeviceBuffer<unsigned>& flag) {
  unsigned value = 0;
  copy_to_host(&value, flag.data(), sizeof value, nullptr);
  return value;
}

template <typename T>
T read_value(const DeviceBuffer<T>& from, uint64_t at) {
  T value{};
  copy_to_host(&value, from.data() + at, sizeof value, nullptr);
  return value;
}

}  // namespace

struct ResidentLumping::Impl {
  const ResidentChain& chain;
  uint64_t m;
  DeviceBuffer<uint32_t> block, maybe, sorted_states, heads, ids, representative;
  DeviceBuffer<uint64_t> keys, sorted_keys;
  DeviceBuffer<unsigned> flag;
  DeviceBuffer<unsigned char> scratch;
  uint64_t blocks = 1, rounds = 0;
  bool stable = false;

  Impl(const ResidentChain& c, const uint8_t* status, uint64_t maybe_count)
      : chain(c), m(maybe_count), block(c.states), maybe(maybe_count), flag(1) {
    const uint64_t n = c.states;
    {
      DeviceBuffer<uint32_t> flags(n + 1), places(n + 1);
      flag_maybe<<<blocks_for_threads(n + 1), k_block_threads>>>(n, status, flags.data(), block.data());
      PMC_CUDA_CHECK_LAUNCH("flag_maybe");
      exclusive_sum(flags.data(), places.data(), n + 1, scratch);
      gather_maybe<<<blocks_for_threads(n), k_block_threads>>>(n, flags.data(), places.data(), maybe.data());
      PMC_CUDA_CHECK_LAUNCH("gather_maybe");
    }
    sorted_states.allocate(m);
    heads.allocate(m);
    ids.allocate(m);
    representative.allocate(m);
    keys.allocate(m);
    sorted_keys.allocate(m);
  }

  // One round; false when a row or state is too long.
  bool round() {
    flag.fill_zero();
    signatures<<<blocks_for_threads(m), k_block_threads>>>(
        {m, maybe.data(), chain.groups.data(), chain.matrix(), block.data(), keys.data(), flag.data()});
    PMC_CUDA_CHECK_LAUNCH("signatures");
    size_t bytes = 0;
    const int items = static_cast<int>(m);
    PMC_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys.data(), sorted_keys.data(), maybe.data(),
                                                   sorted_states.data(), items));
    if (bytes > scratch.size()) scratch.allocate(bytes);
    PMC_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(scratch.data(), bytes, keys.data(), sorted_keys.data(),
                                                   maybe.data(), sorted_states.data(), items));
    run_heads<<<blocks_for_threads(m), k_block_threads>>>(m, sorted_keys.data(), heads.data());
    PMC_CUDA_CHECK_LAUNCH("run_heads");
    inclusive_sum(heads.data(), ids.data(), items, scratch);
    assign_blocks<<<blocks_for_threads(m), k_block_threads>>>(m, sorted_states.data(), heads.data(), ids.data(),
                                                              block.data(), representative.data());
    PMC_CUDA_CHECK_LAUNCH("assign_blocks");
    if (read_flag(flag) != 0) return false;
    const uint64_t now = read_value(ids, m - 1);
    ++rounds;
    stable = now == blocks;
    blocks = now;
    return true;
  }
};

ResidentLumping::ResidentLumping(const ResidentChain& chain, const uint8_t* status, uint64_t maybe_count)
    : impl_(std::make_unique<Impl>(chain, status, maybe_count)) {}

ResidentLumping::~ResidentLumping() = default;

uint64_t ResidentLumping::blocks() const { return impl_->blocks; }
uint64_t ResidentLumping::rounds() const { return impl_->rounds; }

ResidentLumping::Refined ResidentLumping::refine(uint64_t rounds, uint64_t max_blocks) {
  Impl& d = *impl_;
  if (d.m == 0 || d.m > static_cast<uint64_t>(INT32_MAX)) return Refined::unlumpable;
  for (uint64_t r = 0; r < rounds && !d.stable; ++r) {
    if (!d.round()) return Refined::unlumpable;
    if (d.blocks > max_blocks) return Refined::too_many_blocks;
  }
  return d.stable ? Refined::stable : Refined::going;
}

bool ResidentLumping::quotient(QuotientArrays& out) {
  Impl& d = *impl_;
  const uint64_t k = d.blocks;
  d.flag.fill_zero();
  check_blocks<<<blocks_for_threads(d.m), k_block_threads>>>({d.m, d.maybe.data(), d.chain.groups.data(),
                                                              d.chain.matrix(), d.block.data(),
                                                              d.representative.data(), d.flag.data()});
  PMC_CUDA_CHECK_LAUNCH("check_blocks");
  if (read_flag(d.flag) != 0) return false;

  DeviceBuffer<uint64_t> q_groups(k + 1), row_counts(k + 1);
  QuotientView v{k, d.representative.data(), d.chain.groups.data(), d.chain.matrix(), d.block.data(), q_groups.data(),
                 row_counts.data(), nullptr, nullptr, nullptr, nullptr};
  count_quotient_rows<<<blocks_for_threads(k + 1), k_block_threads>>>(v);
  PMC_CUDA_CHECK_LAUNCH("count_quotient_rows");
  exclusive_sum(row_counts.data(), q_groups.data(), k + 1, d.scratch);
  const uint64_t rows = read_value(q_groups, k);

  DeviceBuffer<uint64_t> entry_counts(rows + 1), q_offsets(rows + 1);
  entry_counts.fill_zero();
  v.q_counts = entry_counts.data();
  count_quotient_entries<<<blocks_for_threads(k), k_block_threads>>>(v);
  PMC_CUDA_CHECK_LAUNCH("count_quotient_entries");
  exclusive_sum(entry_counts.data(), q_offsets.data(), rows + 1, d.scratch);
  const uint64_t entries = read_value(q_offsets, rows);

  DeviceBuffer<uint32_t> q_columns(entries);
  DeviceBuffer<double> q_values(entries), q_b(rows);
  v.q_offsets = q_offsets.data();
  v.q_columns = q_columns.data();
  v.q_values = q_values.data();
  v.q_b = q_b.data();
  write_quotient<<<blocks_for_threads(k), k_block_threads>>>(v);
  PMC_CUDA_CHECK_LAUNCH("write_quotient");
  q_groups.download(out.groups);
  q_offsets.download(out.offsets);
  q_columns.download(out.columns);
  q_values.download(out.values);
  q_b.download(out.b);
  return true;
}

void ResidentLumping::lift(const std::vector<BoundPair>& bounds, BoundPair* v, BoundPair* w) {
  Impl& d = *impl_;
  if (d.m == 0) return;
  const DeviceBuffer<BoundPair> on_device(bounds);
  lift_bounds<<<blocks_for_threads(d.m), k_block_threads>>>(d.m, d.maybe.data(), d.block.data(),
                                                            reinterpret_cast<const double2*>(on_device.data()),
                                                            reinterpret_cast<double2*>(v),
                                                            reinterpret_cast<double2*>(w));
  PMC_CUDA_CHECK_LAUNCH("lift_bounds");
  synchronize(nullptr);  // `on_device` is freed on return
}

}  // namespace pmc::cuda
