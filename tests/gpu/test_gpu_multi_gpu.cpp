// gpu.jacobi and gpu.vi with the rows split over several GPUs
// (lib/solver/gpu/partitioned_solve.cpp). Exit 77 without a GPU. With one GPU, the
// slices run on that GPU (peer-copy exchange) and NCCL runs as one rank;
// with two or more, every manifest model is also solved over 2 GPUs (NCCL
// and copies) and over all of them. Every run must agree with PRISM's
// reference and with the single-GPU solver in every state.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <random>
#include <set>

#include "check/check.hpp"
#include "common/error.hpp"
#include "solver/device/device_selection.hpp"
#include "solver/device/devices.hpp"
#include "solver/gpu/gpu_solvers.hpp"
#include "formats/model_files.hpp"
#include "support/expect_error.hpp"
#include "support/manifest.hpp"

namespace pmc {
namespace {

using testing::ManifestRow;
using testing::cached_model;

struct Split {
  std::string name;
  std::vector<int> devices;
  GpuExchange exchange;
};

uint64_t gpu_count() { return discover_devices().devices.size(); }

// The splits this machine can run.
std::vector<Split> splits() {
  std::vector<Split> out = {{"one_gpu_2_slices", {0, 0}, GpuExchange::copies},
                            {"one_gpu_3_slices", {0, 0, 0}, GpuExchange::copies}};
  if (gpu_count() >= 2) {
    out.push_back({"two_gpus_nccl", {0, 1}, GpuExchange::nccl});
    out.push_back({"two_gpus_copies", {0, 1}, GpuExchange::copies});
  }
  if (gpu_count() >= 3) {
    std::vector<int> all;
    for (int d = 0; d < static_cast<int>(gpu_count()); ++d) all.push_back(d);
    out.push_back({"all_gpus_nccl", all, GpuExchange::nccl});
  }
  return out;
}

bool time_bounded(const std::string& p) {
  return p.find("<=") != std::string::npos || p.find("F[") != std::string::npos || p.find("I=") != std::string::npos;
}

uint64_t max_transitions() { return testing::max_test_transitions(); }

struct Case {
  ManifestRow row;
  std::string solver;
  Split split;
};
void PrintTo(const Case& c, std::ostream* out) {
  *out << c.row.name() << " " << c.row.property << " " << c.solver << " " << c.split.name;
}

// Every manifest property that is a linear system (gpu.jacobi) or a min/max
// problem, bounded or not (gpu.vi), under every split.
std::vector<Case> cases() {
  std::vector<Case> out;
  for (const ManifestRow& row : testing::manifest()) {
    if (row.transitions > max_transitions()) continue;
    const bool steady = row.property.rfind("S=?", 0) == 0 || row.property.find("[ S ]") != std::string::npos;
    std::string solver;
    if (row.type == "mdp") {
      solver = "gpu.vi";
    } else if (!steady && !time_bounded(row.property)) {
      solver = "gpu.jacobi";
    } else {
      continue;
    }
    for (const Split& split : splits()) out.push_back({row, solver, split});
  }
  return out;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  std::string name = info.param.row.model + "_" + info.param.row.instance + "_" + std::to_string(info.index) + "_" +
                     info.param.split.name;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

class MultiGpuReference : public ::testing::TestWithParam<Case> {};

TEST_P(MultiGpuReference, AgreesWithPrismAndWithOneGpu) {
  const Case& c = GetParam();
  const Model& model = cached_model(c.row);
  CheckOptions options;
  options.solver = c.solver;
  options.settings.epsilon = 1e-10;
  const CheckResult single = check(model, c.row.property, options);
  options.settings.devices = c.split.devices;
  options.settings.gpu_exchange = c.split.exchange;
  const CheckResult split = check(model, c.row.property, options);
  ASSERT_TRUE(split.converged);
  // Bounded MDP properties of a few steps never reach the GPU (the checker
  // precomputes them away) — but where a solver ran, it ran split.
  if (!split.solvers.empty() && split.iterations > 0) {
    const std::set<int> gpus(c.split.devices.begin(), c.split.devices.end());
    const std::string where = gpus.size() == c.split.devices.size()
                                  ? fmt::format("on {} GPUs", gpus.size())
                                  : fmt::format("in {} slices on {} GPU", c.split.devices.size(), gpus.size());
    EXPECT_NE(split.kernel.find(where), std::string::npos) << split.kernel;
    const char* exchange = c.split.exchange == GpuExchange::nccl ? "NCCL exchange" : "peer copies exchange";
    EXPECT_NE(split.kernel.find(exchange), std::string::npos) << split.kernel;
  }
  const double ref = c.row.reference_value;
  if (std::isinf(ref)) {
    EXPECT_EQ(split.initial_value, ref);
  } else {
    const double tol = (c.row.type == "ctmc" && time_bounded(c.row.property)) ? 1e-5 : 1e-6;
    EXPECT_LE(std::fabs(split.initial_value - ref), tol * std::max(std::fabs(ref), 1e-9))
        << "split " << split.initial_value << " reference " << ref;
  }
  // The same arithmetic per row as on one GPU: the same iterations and values.
  EXPECT_EQ(split.iterations, single.iterations);
  ASSERT_EQ(split.values.size(), single.values.size());
  double worst = 0;
  for (size_t s = 0; s < single.values.size(); ++s) {
    if (std::isinf(single.values[s]) || std::isinf(split.values[s])) {
      EXPECT_EQ(single.values[s], split.values[s]) << "state " << s;
      continue;
    }
    worst = std::max(worst, std::fabs(single.values[s] - split.values[s]) / std::max(std::fabs(single.values[s]), 1e-9));
  }
  EXPECT_LE(worst, 1e-12) << "largest relative difference to one GPU over all states";
  EXPECT_EQ(split.scheduler, single.scheduler) << "the optimal choices differ from one GPU's";
}

INSTANTIATE_TEST_SUITE_P(Manifest, MultiGpuReference, ::testing::ValuesIn(cases()), case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(MultiGpuReference);

// x = A·x + b with row sums ≤ 0.8 and some diagonal entries.
LinearSystem random_system(uint64_t n, std::mt19937_64& rng) {
  LinearSystem s;
  std::uniform_int_distribution<uint64_t> column(0, n - 1), length(0, 40);
  std::uniform_real_distribution<double> weight(0.05, 1.0);
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t k = i % 50 == 0 ? 40 : length(rng) % 6;  // a few long rows: warp-per-row territory
    std::vector<double> w;
    for (uint64_t e = 0; e < k; ++e) {
      s.a.columns.push_back(static_cast<uint32_t>(e == 0 && i % 4 == 0 ? i : column(rng)));
      w.push_back(weight(rng));
    }
    double total = 0;
    for (double v : w) total += v;
    for (double v : w) s.a.values.push_back(0.8 * v / total);
    s.a.row_offsets.push_back(s.a.columns.size());
    s.b.push_back(weight(rng) * 0.2);
  }
  return s;
}

using DeviceSplit = std::pair<std::vector<int>, GpuExchange>;

// The given one-GPU splits and, on a machine with two or more GPUs, the
// same problem over two: NCCL, peer copies, and slices interleaved over the
// GPUs (copies within a GPU and across them in one exchange).
std::vector<DeviceSplit> random_splits(std::vector<DeviceSplit> one_gpu) {
  if (gpu_count() >= 2) {
    one_gpu.push_back({{0, 1}, GpuExchange::nccl});
    one_gpu.push_back({{0, 1}, GpuExchange::copies});
    one_gpu.push_back({{1, 0}, GpuExchange::copies});
    one_gpu.push_back({{0, 1, 0, 1}, GpuExchange::copies});
    one_gpu.push_back({{0, 1}, GpuExchange::automatic});
  }
  return one_gpu;
}

TEST(MultiGpuJacobi, NcclAsOneRankAndCopiesMatchOneGpu) {
  std::mt19937_64 rng(42);
  const LinearSystem system = random_system(200000, rng);
  SolverSettings settings;
  settings.epsilon = 1e-12;
  std::vector<double> expected(system.b.size(), 0.0);
  const SolveStats one = gpu_jacobi_linear(system, expected, settings);
  ASSERT_TRUE(one.converged);
  for (const auto& [devices, exchange] : random_splits({{{0}, GpuExchange::nccl},
                                                        {{0, 0}, GpuExchange::copies},
                                                        {{0, 0, 0, 0, 0}, GpuExchange::copies}})) {
    std::vector<double> x(system.b.size(), 0.0);
#ifndef PMC_HAVE_NCCL
    if (exchange == GpuExchange::nccl) {
      testing::expect_error("NCCL in a build without it", ErrorCode::unsupported,
                            [&] { gpu_jacobi_partitioned(system, x, settings, devices, exchange); });
      continue;
    }
#endif
    const SolveStats stats = gpu_jacobi_partitioned(system, x, settings, devices, exchange);
    EXPECT_TRUE(stats.converged) << stats.kernel;
    EXPECT_EQ(stats.iterations, one.iterations) << stats.kernel;
    for (size_t i = 0; i < x.size(); ++i) ASSERT_NEAR(x[i], expected[i], 1e-13 * std::fabs(expected[i])) << i;
    std::printf("%s: %llu iterations, %.3f ms/iteration (one GPU %.3f)\n", stats.kernel.c_str(),
                static_cast<unsigned long long>(stats.iterations), 1e3 * stats.loop_seconds / stats.iterations,
                1e3 * one.loop_seconds / one.iterations);
  }
}

// Values are sent only where read. Two copies of one random system side
// by side (equal entries: the balanced cut falls exactly between them) send
// nothing; when rows of the second read the first, one slice travels by
// peer copies (NCCL's all-gather then sends both).
TEST(MultiGpuJacobi, SendsASliceOnlyWhereItIsRead) {
  std::mt19937_64 rng(9);
  const uint64_t half = 100000;
  const LinearSystem first = random_system(half, rng);
  for (const bool second_reads_first : {false, true}) {
    LinearSystem s = first;
    for (uint64_t r = 0; r < half; ++r) {
      for (uint64_t k = first.a.row_offsets[r]; k < first.a.row_offsets[r + 1]; ++k) {
        // One row in 7 of the second half reads the first half in its first entry.
        const bool across = second_reads_first && r % 7 == 0 && k == first.a.row_offsets[r];
        s.a.columns.push_back(static_cast<uint32_t>(across ? first.a.columns[k] : first.a.columns[k] + half));
        s.a.values.push_back(first.a.values[k]);
      }
      s.a.row_offsets.push_back(s.a.columns.size());
      s.b.push_back(first.b[r]);
    }
    SolverSettings settings;
    settings.epsilon = 1e-12;
    std::vector<double> expected(s.b.size(), 0.0);
    ASSERT_TRUE(gpu_jacobi_linear(s, expected, settings).converged);
    for (const auto& [devices, exchange] : random_splits({{{0, 0}, GpuExchange::copies}})) {
      if (devices.size() != 2) continue;
#ifndef PMC_HAVE_NCCL
      if (exchange == GpuExchange::nccl) continue;
#endif
      std::vector<double> x(s.b.size(), 0.0);
      const SolveStats stats = gpu_jacobi_partitioned(s, x, settings, devices, exchange);
      const bool nccl = stats.kernel.find("NCCL exchange") != std::string::npos;
      const std::string transfers = !second_reads_first ? "0 of 2 slice transfers (0% of the iterate)"
                                    : nccl              ? "2 of 2 slice transfers (100% of the iterate)"
                                                        : "1 of 2 slice transfers";
      EXPECT_NE(stats.kernel.find(transfers), std::string::npos) << stats.kernel;
      for (size_t i = 0; i < x.size(); ++i) ASSERT_NEAR(x[i], expected[i], 1e-13 * std::fabs(expected[i])) << i;
    }
  }
}

// An MDP over the rows of a random system: 1–3 choices per state.
MinMaxProblem random_mdp(uint64_t n, bool maximize, std::mt19937_64& rng) {
  const LinearSystem rows = random_system(3 * n, rng);
  MinMaxProblem p;
  p.maximize = maximize;
  uint64_t r = 0;
  for (uint64_t s = 0; s < n; ++s) {
    const uint64_t choices = 1 + s % 3;
    for (uint64_t c = 0; c < choices; ++c, ++r) {
      for (uint64_t k = rows.a.row_offsets[r]; k < rows.a.row_offsets[r + 1]; ++k) {
        p.a.columns.push_back(rows.a.columns[k] % n);
        p.a.values.push_back(rows.a.values[k]);
      }
      p.a.row_offsets.push_back(p.a.columns.size());
      p.b.push_back(rows.b[r]);
    }
    p.row_groups.push_back(r);
  }
  return p;
}

TEST(MultiGpuValueIteration, NcclAsOneRankAndCopiesMatchOneGpu) {
  std::mt19937_64 rng(7);
  for (const bool maximize : {true, false}) {
    MinMaxProblem p = random_mdp(50000, maximize, rng);
    SolverSettings settings;
    settings.epsilon = 1e-12;
    MinMaxSolution expected;
    ASSERT_TRUE(gpu_value_iteration_without_collapse(p, expected, settings).converged);
    for (const auto& [devices, exchange] :
         random_splits({{{0}, GpuExchange::nccl}, {{0, 0, 0}, GpuExchange::copies}})) {
#ifndef PMC_HAVE_NCCL
      if (exchange == GpuExchange::nccl) continue;  // the Jacobi test checks the error
#endif
      MinMaxSolution solution;
      const SolveStats stats = gpu_value_iteration_partitioned(p, solution, settings, devices, exchange, false);
      EXPECT_TRUE(stats.converged) << stats.kernel;
      ASSERT_EQ(solution.x.size(), expected.x.size());
      for (size_t s = 0; s < solution.x.size(); ++s) {
        ASSERT_NEAR(solution.x[s], expected.x[s], 1e-13 * std::fabs(expected.x[s])) << s;
      }
      EXPECT_EQ(solution.choice, expected.choice) << stats.kernel;
    }
    // Exactly `steps` iterations for bounded properties.
    p.steps = 17;
    MinMaxSolution bounded_one;
    const SolveStats one = gpu_value_iteration_steps(p, bounded_one, settings);
    EXPECT_EQ(one.iterations, 17u);
    for (const std::vector<int>& devices : gpu_count() >= 2 ? std::vector<std::vector<int>>{{0, 0}, {0, 1}}
                                                            : std::vector<std::vector<int>>{{0, 0}}) {
      MinMaxSolution bounded_split;
      const SolveStats split =
          gpu_value_iteration_partitioned(p, bounded_split, settings, devices, GpuExchange::copies, true);
      EXPECT_EQ(split.iterations, 17u);
      EXPECT_EQ(bounded_split.x, bounded_one.x);
    }
  }
}

TEST(MultiGpuEdges, MoreSlicesThanRowsAndEmptySystems) {
  LinearSystem tiny;
  tiny.a.row_offsets = {0, 1, 2};
  tiny.a.columns = {1, 0};
  tiny.a.values = {0.5, 0.5};
  tiny.b = {0.5, 0.25};
  std::vector<double> x(2, 0.0);
  SolverSettings settings;
  settings.epsilon = 1e-14;
  // x0 = 0.5·x1 + 0.5, x1 = 0.5·x0 + 0.25: x0 = 5/6, x1 = 2/3.
  for (const std::vector<int>& devices : gpu_count() >= 2 ? std::vector<std::vector<int>>{{0, 0, 0, 0}, {0, 1, 0, 1}}
                                                          : std::vector<std::vector<int>>{{0, 0, 0, 0}}) {
    std::fill(x.begin(), x.end(), 0.0);
    gpu_jacobi_partitioned(tiny, x, settings, devices, GpuExchange::copies);
    EXPECT_NEAR(x[0], 5.0 / 6.0, 1e-12);
    EXPECT_NEAR(x[1], 2.0 / 3.0, 1e-12);
  }
  LinearSystem empty;
  std::vector<double> none;
  EXPECT_TRUE(gpu_jacobi_partitioned(empty, none, settings, {0, 0}, GpuExchange::copies).converged);
}

// Automatic device plans under a memory budget: a problem too large for
// one GPU is split over all of them only where each holds its share (a
// slice and the whole iterate twice); a listed split that does not fit
// says so. 1M non-zeros, 100K rows: ~16.8 MB on one GPU, ~10 MB per share of two.
TEST(MultiGpuPlan, SplitsOnlyWhereEveryShareFits) {
  const uint64_t entries = 1000000, rows = 100000;
  ASSERT_LT(gpu_bytes_per_share(entries, rows, 2), gpu_bytes_needed(entries, rows));
  SolverSettings settings;
  settings.gpu_memory_limit = gpu_bytes_needed(entries, rows);
  EXPECT_EQ(plan_devices(settings, entries, rows).devices, std::vector<int>{0});  // fits one GPU
  settings.gpu_memory_limit = gpu_bytes_per_share(entries, rows, 2) + 1000;
  const DevicePlan split = plan_devices(settings, entries, rows);
  if (gpu_count() < 2) {
    EXPECT_EQ(split.devices, std::vector<int>{0}) << split.reason;  // nowhere to split to
    return;
  }
  EXPECT_EQ(split.devices.size(), gpu_count()) << split.reason;
  EXPECT_NE(split.reason.find("split over all"), std::string::npos) << split.reason;
  settings.gpu_memory_limit = gpu_bytes_per_share(entries, rows, gpu_count()) / 2;
  const DevicePlan none = plan_devices(settings, entries, rows);
  EXPECT_EQ(none.devices, std::vector<int>{0}) << none.reason;
  EXPECT_NE(none.reason.find("does not fit GPU"), std::string::npos) << none.reason;
  settings.devices = {0, 1};
  const std::string message = testing::expect_error("a listed split too large", ErrorCode::out_of_memory, [&] {
    require_device_memory("gpu.vi", entries, rows, settings);
  });
  EXPECT_NE(message.find("on each"), std::string::npos) << message;
}

TEST(MultiGpuErrors, BadDevicesLayoutsAndCancellation) {
  std::mt19937_64 rng(1);
  const LinearSystem system = random_system(5000, rng);
  std::vector<double> x(system.b.size(), 0.0);
  SolverSettings settings;
  testing::expect_error("GPU 99", ErrorCode::invalid_argument,
                        [&] { gpu_jacobi_partitioned(system, x, settings, {0, 99}, GpuExchange::copies); });
  testing::expect_error("no devices", ErrorCode::invalid_argument,
                        [&] { gpu_jacobi_partitioned(system, x, settings, {}, GpuExchange::copies); });
  const std::string twice = testing::expect_error("NCCL on one GPU twice", ErrorCode::unsupported, [&] {
    gpu_jacobi_partitioned(system, x, settings, {0, 0}, GpuExchange::nccl);
  });
  EXPECT_FALSE(twice.empty());
  settings.gpu_layout = GpuLayout::ell;
  testing::expect_error("ELL split", ErrorCode::unsupported,
                        [&] { gpu_jacobi_partitioned(system, x, settings, {0, 0}, GpuExchange::copies); });
  settings.gpu_layout = GpuLayout::automatic;
  std::vector<double> short_x(3, 0.0);
  testing::expect_error("short start vector", ErrorCode::invalid_argument,
                        [&] { gpu_jacobi_partitioned(system, short_x, settings, {0, 0}, GpuExchange::copies); });
  // Listing a GPU twice through the settings needs the copy exchange.
  settings.devices = {0, 0};
  testing::expect_error("repeated device, automatic exchange", ErrorCode::invalid_argument,
                        [&] { gpu_jacobi_linear(system, x, settings); });
  settings.devices.clear();
  std::atomic<bool> cancel{true};
  settings.cancel = &cancel;
  testing::expect_error("cancelled", ErrorCode::cancelled,
                        [&] { gpu_jacobi_partitioned(system, x, settings, {0, 0}, GpuExchange::copies); });
  // The GPU is fine afterwards.
  settings.cancel = nullptr;
  std::fill(x.begin(), x.end(), 0.0);
  EXPECT_TRUE(gpu_jacobi_partitioned(system, x, settings, {0, 0}, GpuExchange::copies).converged);
#ifdef PMC_HAVE_NCCL
  if (gpu_count() >= 2) {
    // A cancelled NCCL solve destroys its communicators; the next solves
    // make new ones, then reuse them.
    settings.cancel = &cancel;
    testing::expect_error("cancelled over NCCL", ErrorCode::cancelled,
                          [&] { gpu_jacobi_partitioned(system, x, settings, {0, 1}, GpuExchange::nccl); });
    settings.cancel = nullptr;
    std::vector<double> expected(system.b.size(), 0.0);
    ASSERT_TRUE(gpu_jacobi_linear(system, expected, settings).converged);
    for (int run = 0; run < 2; ++run) {
      std::fill(x.begin(), x.end(), 0.0);
      EXPECT_TRUE(gpu_jacobi_partitioned(system, x, settings, {0, 1}, GpuExchange::nccl).converged);
      for (size_t i = 0; i < x.size(); ++i) ASSERT_NEAR(x[i], expected[i], 1e-13 * std::fabs(expected[i])) << i;
    }
  }
#endif
}

}  // namespace
}  // namespace pmc
