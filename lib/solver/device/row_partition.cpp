#include "solver/device/row_partition.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>

#include "common/error.hpp"

namespace pmc {

namespace {

// Below this many states a slice is cut on one thread (threads cost more).
constexpr uint64_t k_parallel_states = 100000;

// Rows of state s: [first_row(s), first_row(s + 1)).
uint64_t first_row(const std::vector<uint64_t>& row_groups, uint64_t s) {
  return row_groups.empty() ? s : row_groups[s];
}

uint64_t num_states(const std::vector<uint64_t>& row_groups, const SparseMatrix& a) {
  return row_groups.empty() ? a.num_rows() : row_groups.size() - 1;
}

// The slots slice q's boundary states (states[interior..]) read of each
// slice, once every state has its slot: per thread the lowest and highest
// position in each slice, merged.
std::vector<IndexRange> slots_read(const PartitionLayout& layout, const std::vector<uint64_t>& row_groups,
                                   const SparseMatrix& a, uint64_t q) {
  const uint64_t slices = layout.slices();
  const std::vector<uint64_t>& states = layout.states[q];
  std::vector<IndexRange> read(slices);
  const uint64_t interior = layout.interior[q], boundary = states.size() - interior;
#pragma omp parallel if (boundary > k_parallel_states)
  {
    std::vector<IndexRange> local(slices);
#pragma omp for schedule(static, 4096) nowait
    for (uint64_t k = interior; k < states.size(); ++k) {
      const uint64_t s = states[k];
      for (uint64_t r = first_row(row_groups, s); r < first_row(row_groups, s + 1); ++r) {
        for (uint64_t i = a.row_offsets[r]; i < a.row_offsets[r + 1]; ++i) {
          const uint64_t slot = layout.slot[a.columns[i]];
          const uint64_t p = slot / layout.stride, position = slot % layout.stride;
          IndexRange& range = local[p];
          if (range.empty()) {
            range = {position, position + 1};
          } else {
            range.begin = std::min(range.begin, position);
            range.end = std::max(range.end, position + 1);
          }
        }
      }
    }
#pragma omp critical
    for (uint64_t p = 0; p < slices; ++p) {
      if (local[p].empty()) continue;
      read[p] = read[p].empty() ? local[p]
                                : IndexRange{std::min(read[p].begin, local[p].begin), std::max(read[p].end, local[p].end)};
    }
  }
  read[q] = {0, states.size()};
  return read;
}

}  // namespace

std::vector<uint64_t> balance_by_entries(const std::vector<uint64_t>& state_entry_offsets, uint64_t slices) {
  if (slices == 0) fail(ErrorCode::invalid_argument, "a partition needs at least one slice");
  if (state_entry_offsets.empty()) fail(ErrorCode::invalid_argument, "state offsets need at least one entry");
  const uint64_t n = state_entry_offsets.size() - 1;
  auto weight_before = [&](uint64_t s) { return state_entry_offsets[s] - state_entry_offsets[0] + s; };
  const uint64_t total = weight_before(n);
  std::vector<uint64_t> bounds(slices + 1, n);
  bounds[0] = 0;
  uint64_t s = 0;
  for (uint64_t p = 1; p < slices; ++p) {
    // The first state whose preceding weight reaches p/slices of the total;
    // unsigned __int128 keeps total·p exact for any model size.
    const auto target = static_cast<uint64_t>(static_cast<unsigned __int128>(total) * p / slices);
    while (s < n && weight_before(s) < target) ++s;
    bounds[p] = s;
  }
  return bounds;
}

PartitionLayout make_partition_layout(const std::vector<uint64_t>& bounds, const std::vector<uint64_t>& row_groups,
                                      const SparseMatrix& a) {
  const uint64_t n = num_states(row_groups, a);
  if (bounds.size() < 2 || bounds.front() != 0 || bounds.back() != n || !std::is_sorted(bounds.begin(), bounds.end())) {
    fail(ErrorCode::invalid_argument, "slice bounds must rise from 0 to the {} states", n);
  }
  PartitionLayout layout;
  const uint64_t slices = bounds.size() - 1;
  layout.states.resize(slices);
  layout.reads.resize(slices);
  layout.interior.assign(slices, 0);
  layout.slot.assign(n, 0);
  for (uint64_t p = 0; p < slices; ++p) {
    layout.stride = std::max(layout.stride, bounds[p + 1] - bounds[p]);
  }
  // Which states read only their own slice (interior), and which are read
  // by another slice (exported); in parallel: tens of millions of entries.
  std::vector<uint8_t> inside(n, 1), exported(n, 0);
  for (uint64_t p = 0; p < slices; ++p) {
    const uint64_t lo = bounds[p], hi = bounds[p + 1];
#pragma omp parallel for if (hi - lo > k_parallel_states) schedule(static, 4096)
    for (uint64_t s = lo; s < hi; ++s) {
      for (uint64_t r = first_row(row_groups, s); r < first_row(row_groups, s + 1); ++r) {
        for (uint64_t k = a.row_offsets[r]; k < a.row_offsets[r + 1]; ++k) {
          const uint64_t c = a.columns[k];
          if (c >= lo && c < hi) continue;
          inside[s] = 0;
          std::atomic_ref<uint8_t>(exported[c]).store(1, std::memory_order_relaxed);
        }
      }
    }
  }
  // Each slice in four groups: interior states not read elsewhere, interior
  // ones read elsewhere, boundary ones read elsewhere, the other boundary
  // ones (each in state order). Interior first lets a GPU update them while
  // the other slices' values travel; the exported ones in one block keep
  // what another slice reads one short contiguous range.
  for (uint64_t p = 0; p < slices; ++p) {
    const uint64_t lo = bounds[p], hi = bounds[p + 1];
    auto group = [&](uint64_t s) { return inside[s] ? (exported[s] ? 1 : 0) : (exported[s] ? 2 : 3); };
    std::array<uint64_t, 5> start{};
    for (uint64_t s = lo; s < hi; ++s) ++start[group(s) + 1];
    for (size_t g = 1; g < start.size(); ++g) start[g] += start[g - 1];
    layout.interior[p] = start[2];
    std::vector<uint64_t>& states = layout.states[p];
    states.resize(hi - lo);
    for (uint64_t s = lo; s < hi; ++s) states[start[group(s)]++] = s;
#pragma omp parallel for if (hi - lo > k_parallel_states) schedule(static, 4096)
    for (uint64_t k = 0; k < states.size(); ++k) layout.slot[states[k]] = p * layout.stride + k;
  }
  for (uint64_t q = 0; q < slices; ++q) layout.reads[q] = slots_read(layout, row_groups, a, q);
  return layout;
}

namespace {

// Copies the rows of the slice's states in slot order, columns renamed to
// slots. `drop_diagonal` (linear systems): a_ii goes into scale instead.
// Two parallel passes: each state's rows and entries, then (at offsets from
// their prefix sums) the rows themselves.
MatrixSlice slice_rows(const std::vector<uint64_t>& row_groups, const SparseMatrix& a, const std::vector<double>& b,
                       const PartitionLayout& layout, uint64_t p, bool drop_diagonal) {
  if (p >= layout.slices()) fail(ErrorCode::invalid_argument, "slice {} of {}", p, layout.slices());
  const std::vector<uint64_t>& states = layout.states[p];
  const uint64_t count = states.size();
  const bool parallel = count > k_parallel_states;
  std::vector<uint64_t> row_base(count + 1, 0), entry_base(count + 1, 0);
#pragma omp parallel for if (parallel) schedule(static, 4096)
  for (uint64_t k = 0; k < count; ++k) {
    const uint64_t s = states[k], first = first_row(row_groups, s), end = first_row(row_groups, s + 1);
    uint64_t entries = a.row_offsets[end] - a.row_offsets[first];
    if (drop_diagonal) {
      for (uint64_t i = a.row_offsets[first]; i < a.row_offsets[end]; ++i) entries -= a.columns[i] == s ? 1 : 0;
    }
    row_base[k + 1] = end - first;
    entry_base[k + 1] = entries;
  }
  for (uint64_t k = 0; k < count; ++k) {
    row_base[k + 1] += row_base[k];
    entry_base[k + 1] += entry_base[k];
  }
  MatrixSlice slice;
  slice.a.row_offsets.assign(row_base[count] + 1, 0);
  slice.a.columns.resize(entry_base[count]);
  slice.a.values.resize(entry_base[count]);
  slice.b.resize(row_base[count]);
  if (!row_groups.empty()) slice.groups.assign(row_base.begin(), row_base.end());
  if (drop_diagonal) slice.scale.resize(count);
#pragma omp parallel for if (parallel) schedule(static, 4096)
  for (uint64_t k = 0; k < count; ++k) {
    const uint64_t s = states[k];
    uint64_t out = entry_base[k], row = row_base[k];
    double diagonal = 0;
    for (uint64_t r = first_row(row_groups, s); r < first_row(row_groups, s + 1); ++r, ++row) {
      for (uint64_t i = a.row_offsets[r]; i < a.row_offsets[r + 1]; ++i) {
        if (drop_diagonal && a.columns[i] == s) {
          diagonal += a.values[i];
          continue;
        }
        slice.a.columns[out] = static_cast<uint32_t>(layout.slot[a.columns[i]]);
        slice.a.values[out] = a.values[i];
        ++out;
      }
      slice.a.row_offsets[row + 1] = out;
      slice.b[row] = b.empty() ? 0.0 : b[r];
    }
    if (drop_diagonal) slice.scale[k] = 1.0 / (1.0 - diagonal);
  }
  return slice;
}

void require_32_bit_slots(const PartitionLayout& layout) {
  // Columns stay 32-bit on the device (as in the model store).
  if (layout.padded_size() > (uint64_t{1} << 32)) {
    fail(ErrorCode::unsupported, "the padded iterate of {} slots does not fit 32-bit columns", layout.padded_size());
  }
}

}  // namespace

MatrixSlice slice_linear_system(const LinearSystem& system, const PartitionLayout& layout, uint64_t slice) {
  require_32_bit_slots(layout);
  return slice_rows({}, system.a, system.b, layout, slice, true);
}

MatrixSlice slice_minmax_problem(const MinMaxProblem& problem, const PartitionLayout& layout, uint64_t slice) {
  require_32_bit_slots(layout);
  return slice_rows(problem.row_groups, problem.a, problem.b, layout, slice, false);
}

std::vector<double> to_padded(const std::vector<double>& x, const PartitionLayout& layout) {
  std::vector<double> padded(layout.padded_size(), 0.0);
  const uint64_t n = x.size();
#pragma omp parallel for if (n > k_parallel_states) schedule(static, 4096)
  for (uint64_t s = 0; s < n; ++s) padded[layout.slot[s]] = x[s];
  return padded;
}

void from_padded(const std::vector<double>& padded, const PartitionLayout& layout, std::vector<double>& x) {
  x.resize(layout.slot.size());
  const uint64_t n = x.size();
#pragma omp parallel for if (n > k_parallel_states) schedule(static, 4096)
  for (uint64_t s = 0; s < n; ++s) x[s] = padded[layout.slot[s]];
}

}  // namespace pmc
