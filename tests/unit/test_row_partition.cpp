// The multi-GPU row partition (solver/device/row_partition.hpp) on the CPU: slices
// balanced by non-zeros, interior states first, and — the property the GPU
// code relies on — one iteration computed slice by slice on the padded
// iterate equals one iteration on the whole problem, for Jacobi and for
// Bellman updates. The device plan's errors without a GPU are tested too.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "common/error_code.hpp"
#include "solver/device/devices.hpp"
#include "solver/device/device_selection.hpp"
#include "solver/device/row_partition.hpp"
#include "support/expect_error.hpp"

namespace pmc {
namespace {

// A substochastic system with a diagonal in most rows; `spread` bounds how
// far a row's columns lie from the row (small: mostly interior rows).
LinearSystem random_system(uint64_t n, uint64_t spread, std::mt19937_64& rng) {
  LinearSystem s;
  std::uniform_int_distribution<uint64_t> length(0, 6);
  std::uniform_real_distribution<double> weight(0.01, 1.0);
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t k = length(rng);
    std::vector<double> w;
    for (uint64_t e = 0; e < k; ++e) {
      const uint64_t lo = i > spread ? i - spread : 0, hi = std::min(n - 1, i + spread);
      s.a.columns.push_back(static_cast<uint32_t>(std::uniform_int_distribution<uint64_t>(lo, hi)(rng)));
      w.push_back(weight(rng));
    }
    if (k > 0 && i % 3 == 0) s.a.columns.back() = static_cast<uint32_t>(i);  // a diagonal entry
    const double total = std::accumulate(w.begin(), w.end(), 0.0) * 1.25;    // row sums < 1
    for (double v : w) s.a.values.push_back(v / total);
    s.a.row_offsets.push_back(s.a.columns.size());
    s.b.push_back(weight(rng) * 0.2);
  }
  return s;
}

std::vector<double> random_vector(uint64_t n, std::mt19937_64& rng) {
  std::vector<double> x(n);
  std::uniform_real_distribution<double> value(0.0, 1.0);
  for (double& v : x) v = value(rng);
  return x;
}

// y_i = (b_i + Σ_{j≠i} a_ij x_j) / (1 − a_ii), on the whole system.
std::vector<double> jacobi_step(const LinearSystem& s, const std::vector<double>& x) {
  std::vector<double> y(x.size());
  for (uint64_t i = 0; i < x.size(); ++i) {
    double sum = s.b[i], diagonal = 0;
    for (uint64_t k = s.a.row_offsets[i]; k < s.a.row_offsets[i + 1]; ++k) {
      if (s.a.columns[k] == i) {
        diagonal += s.a.values[k];
      } else {
        sum += s.a.values[k] * x[s.a.columns[k]];
      }
    }
    y[i] = sum / (1.0 - diagonal);
  }
  return y;
}

// The same step as the GPU's row_update over each slice, interior rows and
// boundary rows as two ranges, on the padded iterate.
std::vector<double> sliced_jacobi_step(const LinearSystem& s, const PartitionLayout& layout,
                                       const std::vector<double>& x) {
  const std::vector<double> padded = to_padded(x, layout);
  std::vector<double> next(padded.size(), -1.0);
  for (uint64_t p = 0; p < layout.slices(); ++p) {
    const MatrixSlice slice = slice_linear_system(s, layout, p);
    const uint64_t base = p * layout.stride;
    for (uint64_t i = 0; i < slice.a.num_rows(); ++i) {
      double sum = 0;
      for (uint64_t k = slice.a.row_offsets[i]; k < slice.a.row_offsets[i + 1]; ++k) {
        const uint32_t slot = slice.a.columns[k];
        if (i < layout.interior[p]) {  // interior rows read only the slice's own slots
          EXPECT_GE(slot, base);
          EXPECT_LT(slot, base + slice.a.num_rows());
        }
        sum += slice.a.values[k] * padded[slot];
      }
      next[base + i] = (sum + slice.b[i]) * slice.scale[i];
    }
  }
  std::vector<double> y;
  from_padded(next, layout, y);
  return y;
}

TEST(RowPartition, BalancesNonZerosAndCoversEveryState) {
  std::mt19937_64 rng(7);
  const LinearSystem s = random_system(1000, 1000, rng);
  for (uint64_t slices : {1, 2, 3, 4, 7}) {
    const std::vector<uint64_t> bounds = balance_by_entries(s.a.row_offsets, slices);
    ASSERT_EQ(bounds.size(), slices + 1);
    EXPECT_EQ(bounds.front(), 0u);
    EXPECT_EQ(bounds.back(), 1000u);
    const double share = (s.a.num_entries() + 1000.0) / slices;
    for (uint64_t p = 0; p < slices; ++p) {
      ASSERT_LE(bounds[p], bounds[p + 1]);
      const double weight = s.a.row_offsets[bounds[p + 1]] - s.a.row_offsets[bounds[p]] + (bounds[p + 1] - bounds[p]);
      EXPECT_NEAR(weight, share, 8.0) << slices << " slices, slice " << p;  // within one row's weight
    }
  }
}

TEST(RowPartition, FewerStatesThanSlicesLeavesEmptySlices) {
  const std::vector<uint64_t> offsets = {0, 2, 3};  // 2 states
  const std::vector<uint64_t> bounds = balance_by_entries(offsets, 4);
  ASSERT_EQ(bounds.size(), 5u);
  EXPECT_EQ(bounds.back(), 2u);
  EXPECT_TRUE(std::is_sorted(bounds.begin(), bounds.end()));
  const std::vector<uint64_t> none = balance_by_entries({0}, 3);
  EXPECT_EQ(none, (std::vector<uint64_t>{0, 0, 0, 0}));
  testing::expect_error("zero slices", ErrorCode::invalid_argument, [&] { balance_by_entries(offsets, 0); });
}

TEST(RowPartition, LayoutPutsInteriorStatesFirstAndNumbersSlotsOnce) {
  std::mt19937_64 rng(11);
  const LinearSystem s = random_system(500, 20, rng);
  const PartitionLayout layout = make_partition_layout(balance_by_entries(s.a.row_offsets, 3), {}, s.a);
  std::vector<uint64_t> seen;
  uint64_t interior = 0;
  for (uint64_t p = 0; p < 3; ++p) {
    EXPECT_LE(layout.states[p].size(), layout.stride);
    interior += layout.interior[p];
    for (uint64_t k = 0; k < layout.states[p].size(); ++k) {
      const uint64_t state = layout.states[p][k];
      EXPECT_EQ(layout.slot[state], p * layout.stride + k);
      seen.push_back(state);
    }
  }
  std::sort(seen.begin(), seen.end());
  std::vector<uint64_t> all(500);
  std::iota(all.begin(), all.end(), 0);
  EXPECT_EQ(seen, all);
  // Columns within ±20 of the row: all but the rows near the two cuts are interior.
  EXPECT_GT(interior, 400u);
  EXPECT_LT(interior, 500u);
  testing::expect_error("bad bounds", ErrorCode::invalid_argument,
                        [&] { make_partition_layout({0, 10}, {}, s.a); });
}

TEST(RowPartition, SlicedJacobiStepEqualsWholeStep) {
  std::mt19937_64 rng(3);
  // 250 000 rows: slices large enough to be cut on several threads.
  for (const auto& [n, spread] : std::vector<std::pair<uint64_t, uint64_t>>{{700, 5}, {700, 1000}, {250000, 5000}}) {
    const LinearSystem s = random_system(n, spread, rng);
    const std::vector<double> x = random_vector(n, rng);
    const std::vector<double> expected = jacobi_step(s, x);
    for (uint64_t slices : {1, 2, 3, 5, 8}) {
      const PartitionLayout layout = make_partition_layout(balance_by_entries(s.a.row_offsets, slices), {}, s.a);
      const std::vector<double> y = sliced_jacobi_step(s, layout, x);
      for (uint64_t i = 0; i < x.size(); ++i) {
        ASSERT_NEAR(y[i], expected[i], 1e-15) << "row " << i << ", " << slices << " slices, spread " << spread;
      }
    }
  }
}

// An MDP with 1–3 choices per state (some states none) over the same rows.
MinMaxProblem random_mdp(uint64_t n, std::mt19937_64& rng) {
  const LinearSystem rows = random_system(3 * n, 3 * n, rng);
  MinMaxProblem p;
  p.maximize = true;
  std::uniform_int_distribution<uint64_t> choices(0, 3);
  uint64_t r = 0;
  for (uint64_t s = 0; s < n; ++s) {
    const uint64_t c = s % 17 == 0 ? 0 : std::max<uint64_t>(1, choices(rng));
    for (uint64_t k = 0; k < c; ++k, ++r) {
      for (uint64_t e = rows.a.row_offsets[r]; e < rows.a.row_offsets[r + 1]; ++e) {
        p.a.columns.push_back(rows.a.columns[e] % n);
        p.a.values.push_back(rows.a.values[e]);
      }
      p.a.row_offsets.push_back(p.a.columns.size());
      p.b.push_back(rows.b[r]);
    }
    p.row_groups.push_back(r);
  }
  return p;
}

TEST(RowPartition, SlicedBellmanStepEqualsWholeStepWithTheSameChoices) {
  std::mt19937_64 rng(5);
  for (const uint64_t n : {400, 230000}) {  // the larger: slices cut on several threads
    const MinMaxProblem p = random_mdp(n, rng);
    const std::vector<double> x = random_vector(n, rng);
    std::vector<uint64_t> state_entries;
    for (uint64_t s = 0; s <= n; ++s) state_entries.push_back(p.a.row_offsets[p.row_groups[s]]);
    auto bellman = [](const std::vector<uint64_t>& groups, const SparseMatrix& a, const std::vector<double>& b,
                      uint64_t s, auto value_of, double keep, uint32_t& best_choice) {
      double best = -1e300;
      best_choice = 0;
      if (groups[s] == groups[s + 1]) return keep;
      for (uint64_t r = groups[s]; r < groups[s + 1]; ++r) {
        double v = b[r];
        for (uint64_t k = a.row_offsets[r]; k < a.row_offsets[r + 1]; ++k) v += a.values[k] * value_of(a.columns[k]);
        if (v > best) {
          best = v;
          best_choice = static_cast<uint32_t>(r - groups[s]);
        }
      }
      return best;
    };
    for (uint64_t slices : {1, 2, 4, 6}) {
      const PartitionLayout layout = make_partition_layout(balance_by_entries(state_entries, slices), p.row_groups, p.a);
      const std::vector<double> padded = to_padded(x, layout);
      for (uint64_t q = 0; q < slices; ++q) {
        const MatrixSlice slice = slice_minmax_problem(p, layout, q);
        ASSERT_EQ(slice.groups.size(), layout.states[q].size() + 1);
        for (uint64_t k = 0; k < layout.states[q].size(); ++k) {
          const uint64_t s = layout.states[q][k];
          uint32_t whole_choice = 0, sliced_choice = 0;
          const double whole = bellman(p.row_groups, p.a, p.b, s, [&](uint64_t j) { return x[j]; }, x[s], whole_choice);
          const double sliced = bellman(slice.groups, slice.a, slice.b, k, [&](uint64_t slot) { return padded[slot]; },
                                        padded[layout.slot[s]], sliced_choice);
          ASSERT_NEAR(sliced, whole, 1e-15) << "state " << s << ", " << slices << " slices";
          ASSERT_EQ(sliced_choice, whole_choice) << "state " << s;
        }
      }
    }
  }
}

// reads[q][p]: from the first to the last position of slice p's values
// that rows of slice q read, as found one entry at a time — for narrow
// bands (a slice reads a few values of its neighbours), wide ones and
// random MDPs, serial and parallel.
TEST(RowPartition, ReadsSpanExactlyTheValuesARowReads) {
  std::mt19937_64 rng(11);
  auto expect_reads = [](const PartitionLayout& layout, const std::vector<uint64_t>& bounds,
                         const std::vector<uint64_t>& groups, const SparseMatrix& a, const char* what) {
    const uint64_t slices = bounds.size() - 1;
    ASSERT_EQ(layout.reads.size(), slices) << what;
    for (uint64_t q = 0; q < slices; ++q) {
      std::vector<IndexRange> expected(slices);
      for (uint64_t s = bounds[q]; s < bounds[q + 1]; ++s) {
        const uint64_t first = groups.empty() ? s : groups[s], end = groups.empty() ? s + 1 : groups[s + 1];
        for (uint64_t k = a.row_offsets[first]; k < a.row_offsets[end]; ++k) {
          const uint64_t c = a.columns[k];
          const uint64_t p = static_cast<uint64_t>(std::upper_bound(bounds.begin(), bounds.end(), c) - bounds.begin()) - 1;
          const uint64_t position = layout.slot[c] - p * layout.stride;
          IndexRange& range = expected[p];
          range = range.empty() ? IndexRange{position, position + 1}
                                : IndexRange{std::min(range.begin, position), std::max(range.end, position + 1)};
        }
      }
      expected[q] = {0, bounds[q + 1] - bounds[q]};
      for (uint64_t p = 0; p < slices; ++p) {
        EXPECT_EQ(layout.reads[q][p].begin, expected[p].begin) << what << ", slice " << q << " reading " << p;
        EXPECT_EQ(layout.reads[q][p].end, expected[p].end) << what << ", slice " << q << " reading " << p;
      }
    }
  };
  for (const auto& [n, spread] : std::vector<std::pair<uint64_t, uint64_t>>{{600, 1}, {600, 600}, {300000, 3}, {250000, 250000}}) {
    const LinearSystem s = random_system(n, spread, rng);
    for (uint64_t slices : {1, 2, 4, 7}) {
      const std::vector<uint64_t> bounds = balance_by_entries(s.a.row_offsets, slices);
      expect_reads(make_partition_layout(bounds, {}, s.a), bounds, {}, s.a, "linear system");
    }
  }
  const MinMaxProblem p = random_mdp(500, rng);
  std::vector<uint64_t> state_entries;
  for (uint64_t s = 0; s <= 500; ++s) state_entries.push_back(p.a.row_offsets[p.row_groups[s]]);
  for (uint64_t slices : {2, 3}) {
    const std::vector<uint64_t> bounds = balance_by_entries(state_entries, slices);
    expect_reads(make_partition_layout(bounds, p.row_groups, p.a), bounds, p.row_groups, p.a, "MDP");
  }
  // More slices than states: empty slices read nothing and are read by no one.
  LinearSystem tiny;
  tiny.a.row_offsets = {0, 1, 2};
  tiny.a.columns = {1, 0};
  tiny.a.values = {0.5, 0.5};
  tiny.b = {0.5, 0.25};
  const std::vector<uint64_t> bounds = balance_by_entries(tiny.a.row_offsets, 4);
  expect_reads(make_partition_layout(bounds, {}, tiny.a), bounds, {}, tiny.a, "more slices than states");
  // A band of width 3 cut in two: each half reads at most 3 values of the other.
  const LinearSystem band = random_system(300000, 3, rng);
  const std::vector<uint64_t> halves = balance_by_entries(band.a.row_offsets, 2);
  const PartitionLayout layout = make_partition_layout(halves, {}, band.a);
  EXPECT_LE(layout.reads[0][1].size(), 3u);
  EXPECT_LE(layout.reads[1][0].size(), 3u);
  EXPECT_EQ(layout.reads[0][0].size(), halves[1]);
}

TEST(DevicePlan, ListedDevicesAreCheckedAndNeedAGpu) {
  SolverSettings settings;
  EXPECT_EQ(primary_device(settings), 0);
  settings.device = 2;
  EXPECT_EQ(primary_device(settings), 2);
  settings.devices = {1, 0};
  EXPECT_EQ(primary_device(settings), 1);
  EXPECT_EQ(gpu_bytes_needed(1000, 10), 12u * 1000 + 48u * 10);
  // Without a GPU (CI) every plan is no_device; with one (the device
  // machine) a repeated or missing index is invalid_argument.
  const bool gpu = !discover_devices().devices.empty();
  const ErrorCode expected = gpu ? ErrorCode::invalid_argument : ErrorCode::no_device;
  settings.devices = {0, 0};
  const std::string twice = testing::expect_error("repeated device", expected, [&] { plan_devices(settings, 10, 10); });
  if (gpu) {
    EXPECT_NE(twice.find("listed twice"), std::string::npos) << twice;
  }
  settings.devices = {4096};
  const std::string missing = testing::expect_error("missing device", expected, [&] { plan_devices(settings, 10, 10); });
  EXPECT_NE(missing.find(gpu ? "GPU 4096 does not exist" : "no usable GPU"), std::string::npos) << missing;
}

}  // namespace
}  // namespace pmc
