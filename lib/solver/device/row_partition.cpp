#include "solver/device/row_partition.hpp"

#include <algorithm>

#include "common/error.hpp"

namespace pmc {

namespace {

// Rows of state s: [first_row(s), first_row(s + 1)).
uint64_t first_row(const std::vector<uint64_t>& row_groups, uint64_t s) {
  return row_groups.empty() ? s : row_groups[s];
}

uint64_t num_states(const std::vector<uint64_t>& row_groups, const SparseMatrix& a) {
  return row_groups.empty() ? a.num_rows() : row_groups.size() - 1;
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
  layout.interior.assign(slices, 0);
  layout.slot.assign(n, 0);
  for (uint64_t p = 0; p < slices; ++p) {
    layout.stride = std::max(layout.stride, bounds[p + 1] - bounds[p]);
  }
  for (uint64_t p = 0; p < slices; ++p) {
    const uint64_t lo = bounds[p], hi = bounds[p + 1];
    std::vector<uint64_t> interior, boundary;
    for (uint64_t s = lo; s < hi; ++s) {
      bool inside = true;
      for (uint64_t r = first_row(row_groups, s); r < first_row(row_groups, s + 1) && inside; ++r) {
        for (uint64_t k = a.row_offsets[r]; k < a.row_offsets[r + 1]; ++k) {
          if (a.columns[k] < lo || a.columns[k] >= hi) {
            inside = false;
            break;
          }
        }
      }
      (inside ? interior : boundary).push_back(s);
    }
    layout.interior[p] = interior.size();
    std::vector<uint64_t>& states = layout.states[p];
    states = std::move(interior);
    states.insert(states.end(), boundary.begin(), boundary.end());
    for (uint64_t k = 0; k < states.size(); ++k) layout.slot[states[k]] = p * layout.stride + k;
  }
  return layout;
}

namespace {

// Copies the rows of the slice's states in slot order, columns renamed to
// slots. `drop_diagonal` (linear systems): a_ii goes into scale instead.
MatrixSlice slice_rows(const std::vector<uint64_t>& row_groups, const SparseMatrix& a, const std::vector<double>& b,
                       const PartitionLayout& layout, uint64_t p, bool drop_diagonal) {
  if (p >= layout.slices()) fail(ErrorCode::invalid_argument, "slice {} of {}", p, layout.slices());
  MatrixSlice slice;
  const std::vector<uint64_t>& states = layout.states[p];
  if (!row_groups.empty()) slice.groups.assign(1, 0);
  for (const uint64_t s : states) {
    double diagonal = 0;
    for (uint64_t r = first_row(row_groups, s); r < first_row(row_groups, s + 1); ++r) {
      for (uint64_t k = a.row_offsets[r]; k < a.row_offsets[r + 1]; ++k) {
        if (drop_diagonal && a.columns[k] == s) {
          diagonal += a.values[k];
          continue;
        }
        slice.a.columns.push_back(static_cast<uint32_t>(layout.slot[a.columns[k]]));
        slice.a.values.push_back(a.values[k]);
      }
      slice.a.row_offsets.push_back(slice.a.columns.size());
      slice.b.push_back(b.empty() ? 0.0 : b[r]);
    }
    if (!row_groups.empty()) slice.groups.push_back(slice.a.num_rows());
    if (drop_diagonal) slice.scale.push_back(1.0 / (1.0 - diagonal));
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
  for (uint64_t s = 0; s < x.size(); ++s) padded[layout.slot[s]] = x[s];
  return padded;
}

void from_padded(const std::vector<double>& padded, const PartitionLayout& layout, std::vector<double>& x) {
  x.resize(layout.slot.size());
  for (uint64_t s = 0; s < x.size(); ++s) x[s] = padded[layout.slot[s]];
}

}  // namespace pmc
