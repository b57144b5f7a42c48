// The whole check on the GPU: a chain or MDP resident on the
// device, prob0/prob1 (Prob0A/0E/1A/1E) computed there, kept across
// properties, freed on release.
// Exit 77 (skipped) without a usable GPU (gpu_test_main.cpp).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "check/chain_matrices.hpp"
#include "check/check.hpp"
#include "solver/device/devices.hpp"
#include "solver/gpu/gpu_solvers.hpp"
#include "graph/bitset_ops.hpp"
#include "graph/dtmc_precomputation.hpp"
#include "graph/mdp_precomputation.hpp"
#include "graph/transpose.hpp"
#include "solver/device/device_selection.hpp"
#include "solver/minmax/lumping.hpp"
#include "support/manifest.hpp"

namespace pmc {
namespace {

using testing::ManifestRow;
namespace bits = graph::bits;

std::vector<ManifestRow> chains() {
  std::vector<ManifestRow> out;
  for (const ManifestRow& row : testing::manifest_instances(testing::max_test_transitions())) {
    if (row.type == "dtmc" || row.type == "ctmc") out.push_back(row);
  }
  return out;
}

ReachabilitySolution device_solve(const Model& model, const Bitset& left, const Bitset& right,
                                  const SolverSettings& settings = {}) {
  const CsrView p = probability_matrix(model);
  const ReachabilityProblem problem{.model = &model, .states = model.num_states(), .offsets = p.offsets,
                                    .columns = p.columns, .values = p.values, .left = &left.words(),
                                    .right = &right.words()};
  ReachabilitySolution solution;
  gpu_resident_reachability(problem, solution, settings);
  return solution;
}

std::vector<ManifestRow> mdps() {
  std::vector<ManifestRow> out;
  for (const ManifestRow& row : testing::manifest_instances(testing::max_test_transitions())) {
    if (row.type == "mdp") out.push_back(row);
  }
  return out;
}

ReachabilitySolution device_solve_mdp(const Model& model, const Bitset& left, const Bitset& right, bool maximize) {
  const ReachabilityProblem problem{.model = &model, .states = model.num_states(),
                                    .groups = model.row_groups().data(), .rows = model.num_rows(),
                                    .offsets = model.row_offsets().data(), .columns = model.columns().data(),
                                    .values = model.values().data(), .left = &left.words(),
                                    .right = &right.words(), .maximize = maximize};
  ReachabilitySolution solution;
  gpu_resident_reachability(problem, solution, {});
  return solution;
}

// The DTMC a scheduler induces (tests/integration/test_mdp_schedulers.cpp).
ModelPtr induced_chain(const Model& mdp, const std::vector<int64_t>& scheduler) {
  ModelParts p;
  p.type = ModelType::dtmc;
  p.num_states = mdp.num_states();
  p.row_offsets.push_back(0);
  for (uint64_t s = 0; s < mdp.num_states(); ++s) {
    const uint64_t row = mdp.row_groups()[s] + static_cast<uint64_t>(std::max<int64_t>(scheduler[s], 0));
    for (uint64_t k = mdp.row_offsets()[row]; k < mdp.row_offsets()[row + 1]; ++k) {
      p.columns.push_back(mdp.columns()[k]);
      p.values.push_back(mdp.values()[k]);
    }
    p.row_offsets.push_back(p.columns.size());
  }
  p.labels = mdp.labels();
  return Model::create(std::move(p));
}

uint64_t free_device_bytes() {
  uint64_t free_bytes = 0, total = 0;
  device_memory(0, free_bytes, total);
  return free_bytes;
}

// Bit for bit the CPU's sets, on every carried DTMC/CTMC, for ψ = each
// label and φ = true or the complement of another label.
TEST(GpuPrecomputation, EqualsTheCpusStateSets) {
  if (testing::models_root().empty()) GTEST_SKIP() << testing::missing_models_message();
  int compared = 0;
  for (const ManifestRow& row : chains()) {
    const Model& model = testing::cached_model(row);
    const graph::TransposedGraph t = graph::transpose(model);
    const auto& labels = model.labels();
    for (size_t i = 0; i < labels.size() && i < 6; ++i) {
      const Bitset& right = labels[i].states;
      for (int variant = 0; variant < 2; ++variant) {
        const Bitset left = variant == 0 ? bits::full(model.num_states())
                                         : bits::complement(labels[(i + 1) % labels.size()].states);
        const graph::Prob01 cpu = graph::prob01(t, left, right);
        const ReachabilitySolution gpu = device_solve(model, left, right);
        ASSERT_EQ(gpu.status.size(), model.num_states());
        uint64_t mismatches = 0;
        for (uint64_t s = 0; s < model.num_states(); ++s) {
          const uint8_t expected = cpu.prob0.test(s) ? k_reach_zero : (cpu.prob1.test(s) ? k_reach_one : k_reach_maybe);
          mismatches += gpu.status[s] != expected;
        }
        EXPECT_EQ(mismatches, 0u) << row.name() << " ψ = " << labels[i].name << " variant " << variant;
        ++compared;
      }
    }
    std::printf("  %s: %zu labels compared\n", row.name().c_str(), std::min<size_t>(labels.size(), 6));
  }
  EXPECT_GT(compared, 0);
}

// Bit for bit the CPU's Prob0A/Prob1E (max) and Prob0E/Prob1A (min) on
// every carried MDP, for ψ = each label and φ = true or the complement of
// another label.
TEST(GpuPrecomputation, EqualsTheCpusMdpStateSets) {
  if (testing::models_root().empty()) GTEST_SKIP() << testing::missing_models_message();
  int compared = 0;
  for (const ManifestRow& row : mdps()) {
    const Model& model = testing::cached_model(row);
    const graph::TransposedGraph t = graph::transpose(model);
    const auto& labels = model.labels();
    for (size_t i = 0; i < labels.size() && i < 6; ++i) {
      const Bitset& right = labels[i].states;
      for (int variant = 0; variant < 2; ++variant) {
        const Bitset left = variant == 0 ? bits::full(model.num_states())
                                         : bits::complement(labels[(i + 1) % labels.size()].states);
        for (const bool maximize : {true, false}) {
          const graph::Prob01 cpu = maximize ? graph::prob01_max(model, t, left, right)
                                             : graph::prob01_min(model, t, left, right);
          const ReachabilitySolution gpu = device_solve_mdp(model, left, right, maximize);
          ASSERT_EQ(gpu.status.size(), model.num_states());
          uint64_t mismatches = 0;
          for (uint64_t s = 0; s < model.num_states(); ++s) {
            const uint8_t expected =
                cpu.prob0.test(s) ? k_reach_zero : (cpu.prob1.test(s) ? k_reach_one : k_reach_maybe);
            mismatches += gpu.status[s] != expected;
          }
          EXPECT_EQ(mismatches, 0u) << row.name() << " ψ = " << labels[i].name << " variant " << variant
                                    << (maximize ? " max" : " min");
          ++compared;
        }
      }
    }
    std::printf("  %s: %zu labels compared\n", row.name().c_str(), std::min<size_t>(labels.size(), 6));
  }
  EXPECT_GT(compared, 0);
}

// The manifest's unbounded Pmax/Pmin properties with the GPU: PRISM's value
// within the tolerance, inside certified bounds; where the device solved
// the whole check, the scheduler it chose induces a chain that attains the
// value.
TEST(GpuResident, MdpAgreesWithPrism) {
  if (testing::models_root().empty()) GTEST_SKIP() << testing::missing_models_message();
  int checked = 0, on_device = 0;
  for (const ManifestRow& row : testing::manifest()) {
    if (row.type != "mdp" || row.transitions > testing::max_test_transitions()) continue;
    const std::string& p = row.property;
    if ((p.rfind("Pmax=?", 0) != 0 && p.rfind("Pmin=?", 0) != 0) || p.find("<=") != std::string::npos) continue;
    CheckOptions options;
    options.solver = "gpu";
    const Model& model = testing::cached_model(row);
    const CheckResult r = check(model, p, options);
    EXPECT_EQ(r.solver_names(), "gpu.interval-vi") << row.name() << " " << p;
    EXPECT_TRUE(r.sound && r.converged) << row.name() << " " << p;
    const double ref = row.reference_value;
    EXPECT_LE(std::fabs(r.initial_value - ref), 1e-6 * std::max(std::fabs(ref), 1e-9) + 1e-12)
        << row.name() << " " << p << " " << r.initial_value << " vs " << ref;
    EXPECT_LE(r.initial_lower, ref + 1e-12) << row.name() << " " << p;
    EXPECT_GE(r.initial_upper, ref - 1e-12) << row.name() << " " << p;
    // The device's kernel names the result only when it solved the whole
    // check (the host quotient's solve records its own otherwise).
    const bool whole = r.kernel.find("resident MDP") != std::string::npos;
    if (whole) {
      ++on_device;
      ASSERT_EQ(r.scheduler.size(), model.num_states()) << row.name() << " " << p;
      std::string chain_property = p;
      chain_property.replace(1, 3, "");  // "Pmax=?" -> "P=?"
      CheckOptions cpu;
      cpu.solver = "cpu";
      const CheckResult induced = check(*induced_chain(model, r.scheduler), chain_property, cpu);
      EXPECT_NEAR(induced.initial_value, r.initial_value, 1e-5 * std::max(1.0, std::fabs(ref)))
          << row.name() << " " << p << ": the device's scheduler";
    }
    std::printf("  %s %s: %.12g, %llu it, %s, kernel %s, timings: precompute %.4f build %.4f transfer %.4f solve "
                "%.4f s\n",
                row.name().c_str(), p.c_str(), r.initial_value, static_cast<unsigned long long>(r.iterations),
                whole ? "whole check on the device" : "host quotient", r.kernel.c_str(), r.timings.precompute,
                r.timings.build, r.timings.transfer, r.timings.solve);
    ++checked;
  }
  EXPECT_GT(checked, 0);
  EXPECT_GT(on_device, 0);
}

// The manifest's unbounded properties through the resident path: PRISM's
// value within the tolerance, inside certified bounds.
TEST(GpuResident, AgreesWithPrism) {
  if (testing::models_root().empty()) GTEST_SKIP() << testing::missing_models_message();
  int checked = 0;
  for (const ManifestRow& row : testing::manifest()) {
    if ((row.type != "dtmc" && row.type != "ctmc") || row.transitions > testing::max_test_transitions()) continue;
    const std::string& p = row.property;
    if (p.rfind("P=?", 0) != 0 || p.find("<=") != std::string::npos || p.find('[', 4) == std::string::npos ||
        p.find("F[") != std::string::npos || p.find("U[") != std::string::npos) {
      continue;
    }
    CheckOptions options;
    options.solver = "gpu";
    const CheckResult r = check(testing::cached_model(row), p, options);
    EXPECT_EQ(r.solver_names(), "gpu.interval-vi") << row.name() << " " << p;
    EXPECT_NE(r.kernel.find("resident"), std::string::npos) << row.name() << " " << p << ": " << r.kernel;
    EXPECT_TRUE(r.sound && r.converged) << row.name() << " " << p;
    const double ref = row.reference_value;
    EXPECT_LE(std::fabs(r.initial_value - ref), 1e-6 * std::max(std::fabs(ref), 1e-9) + 1e-12)
        << row.name() << " " << p << " " << r.initial_value << " vs " << ref;
    EXPECT_LE(r.initial_lower, ref + 1e-12) << row.name() << " " << p;
    EXPECT_GE(r.initial_upper, ref - 1e-12) << row.name() << " " << p;
    std::printf("  %s %s: %.12g, %llu it, timings: precompute %.4f build %.4f transfer %.4f solve %.4f s\n",
                row.name().c_str(), p.c_str(), r.initial_value, static_cast<unsigned long long>(r.iterations),
                r.timings.precompute, r.timings.build, r.timings.transfer, r.timings.solve);
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

const ManifestRow* largest_chain() {
  const ManifestRow* best = nullptr;
  for (const ManifestRow& row : testing::manifest()) {
    if ((row.type == "dtmc" || row.type == "ctmc") && row.transitions <= testing::max_test_transitions() &&
        (best == nullptr || row.transitions > best->transitions)) {
      best = &row;
    }
  }
  return best;
}

// A second property on the resident chain equals the same property on a
// fresh copy of the model (nothing of the first leaks into the second);
// the second pays no upload.
TEST(GpuResident, SecondPropertyMatchesAFreshModel) {
  if (testing::models_root().empty()) GTEST_SKIP() << testing::missing_models_message();
  const ManifestRow* row = largest_chain();
  ASSERT_NE(row, nullptr);
  const ModelPtr model = Model::create(testing::cached_model(*row).parts());
  const ModelPtr fresh = Model::create(testing::cached_model(*row).parts());
  const auto& labels = model->labels();
  ASSERT_GE(labels.size(), 2u);
  CheckOptions options;
  options.solver = "gpu";
  const std::string first = "P=? [ F \"" + labels[0].name + "\" ]";
  const std::string second = "P=? [ !\"" + labels[0].name + "\" U \"" + labels[1].name + "\" ]";
  const CheckResult a = check(*model, first, options);
  EXPECT_TRUE(model->has_derived(device_chain_key(0)));
  const CheckResult b = check(*model, second, options);
  const CheckResult c = check(*fresh, second, options);
  EXPECT_EQ(b.values, c.values) << row->name();
  EXPECT_EQ(b.lower, c.lower);
  EXPECT_EQ(b.upper, c.upper);
  std::printf("  %s: transfer first %.4f s, second %.4f s (fresh %.4f s)\n", row->name().c_str(), a.timings.transfer,
              b.timings.transfer, c.timings.transfer);
  EXPECT_LT(b.timings.transfer, c.timings.transfer);
}

// Releasing the model's device copies (or freeing the model) gives the
// memory back (cudaMemGetInfo through device_memory).
TEST(GpuResident, ReleaseFreesDeviceMemory) {
  if (testing::models_root().empty()) GTEST_SKIP() << testing::missing_models_message();
  const ManifestRow* row = largest_chain();
  ASSERT_NE(row, nullptr);
  CheckOptions options;
  options.solver = "gpu";
  const uint64_t chain_bytes = resident_chain_bytes(row->states, row->transitions);
  const uint64_t slack = 4u << 20;  // the allocator's granularity
  const uint64_t before = free_device_bytes();
  {
    const ModelPtr model = Model::create(testing::cached_model(*row).parts());
    check(*model, "P=? [ F \"" + model->labels().front().name + "\" ]", options);
    const uint64_t resident = free_device_bytes();
    EXPECT_GE(before + slack, resident + chain_bytes) << "the chain should occupy ~" << chain_bytes << " bytes";
    EXPECT_EQ(model->release_derived(k_device_key_prefix), 1u);
    EXPECT_GE(free_device_bytes() + slack, before) << "release must free the chain";
    check(*model, "P=? [ F \"" + model->labels().front().name + "\" ]", options);  // uploads again
    EXPECT_TRUE(model->has_derived(device_chain_key(0)));
  }
  EXPECT_GE(free_device_bytes() + slack, before) << "freeing the model must free the chain";
}

// k walkers on positions 0..m−1 and a trap: each choice moves one walker
// not yet at the end, which advances, falls into the trap (state
// `lost()`) or stays. "done" is every walker at m−1. The walkers are
// identical, so permutations of a tuple are bisimilar: the quotient has a
// state per multiset.
struct Walkers {
  int k, m;
  // Slow walkers: interval iteration needs ~1500 Gauss–Seidel sweeps.
  double adv(int i) const { return 0.05 + 0.01 * (i % 5); }
  double fall(int i) const { return 0.005 + 0.002 * (i % 3); }
  uint64_t tuples() const {
    uint64_t n = 1;
    for (int i = 0; i < k; ++i) n *= static_cast<uint64_t>(m);
    return n;
  }
  uint64_t lost() const { return tuples(); }
  uint64_t multisets() const {  // C(m + k − 1, k)
    uint64_t c = 1;
    for (int i = 1; i <= k; ++i) c = c * static_cast<uint64_t>(m + i - 1) / static_cast<uint64_t>(i);
    return c;
  }

  ModelPtr model() const {
    ModelParts p;
    p.type = ModelType::mdp;
    p.num_states = tuples() + 1;
    p.row_groups.push_back(0);
    p.row_offsets.push_back(0);
    const auto add_row = [&](std::vector<std::pair<uint64_t, double>> entries) {
      std::sort(entries.begin(), entries.end());
      for (const auto& [to, value] : entries) {
        p.columns.push_back(static_cast<uint32_t>(to));
        p.values.push_back(value);
      }
      p.row_offsets.push_back(p.columns.size());
    };
    Bitset init(p.num_states), done(p.num_states);
    init.set(0);
    for (uint64_t s = 0; s < tuples(); ++s) {
      std::vector<int> t(k);
      uint64_t rest = s;
      for (int w = k - 1; w >= 0; --w, rest /= m) t[w] = static_cast<int>(rest % m);
      uint64_t weight = 1;
      bool moved = false;
      for (int w = k - 1; w >= 0; --w, weight *= m) {
        if (t[w] == m - 1) continue;
        moved = true;
        add_row({{s + weight, adv(t[w])}, {lost(), fall(t[w])}, {s, 1.0 - adv(t[w]) - fall(t[w])}});
      }
      if (!moved) {
        done.set(s);
        add_row({{s, 1.0}});
      }
      p.row_groups.push_back(p.row_offsets.size() - 1);
    }
    add_row({{lost(), 1.0}});
    p.row_groups.push_back(p.row_offsets.size() - 1);
    p.labels = {Label{"init", init}, Label{"done", done}};
    return Model::create(std::move(p));
  }
};

// A resident solve that needs many iterations goes through the quotient by
// bisimulation, refined on the device: the kernel says so, with the
// multisets' count; the bounds certify the value cpu.interval-vi computes on
// the whole model, and the scheduler chosen on the original matrix is
// optimal there. Below the size lumping starts at, nothing is lumped.
TEST(GpuResident, ExpensiveMdpSolveIsLumped) {
  const Walkers walkers{4, 17};
  const ModelPtr model = walkers.model();
  const uint64_t maybe = walkers.tuples() - 1;  // all but "done"; the trap is decided zero
  ASSERT_GE(maybe, k_lumping_min_unknowns);
  for (const char* property : {"Pmax=? [ F \"done\" ]", "Pmin=? [ F \"done\" ]"}) {
    CheckOptions gpu;
    gpu.solver = "gpu";
    const CheckResult r = check(*model, property, gpu);
    CheckOptions whole;
    whole.solver = "cpu.interval-vi";
    const CheckResult reference = check(*model, property, whole);
    ASSERT_TRUE(reference.sound && reference.converged) << property;
    ASSERT_GT(reference.iterations, k_lumping_budget_sweeps) << property << ": the solve must be expensive";
    EXPECT_EQ(r.solver_names(), "gpu.interval-vi") << property;
    EXPECT_NE(r.kernel.find(fmt::format("+lumped {}→{} unknowns", maybe, walkers.multisets() - 1)),
              std::string::npos)
        << property << ": " << r.kernel;
    EXPECT_TRUE(r.sound && r.converged) << property;
    // Both certified: the intervals overlap, and each value is within 2ε
    // (relative) of the other's.
    EXPECT_LE(r.initial_lower, reference.initial_upper) << property;
    EXPECT_GE(r.initial_upper, reference.initial_lower) << property;
    EXPECT_NEAR(r.initial_value, reference.initial_value, 2e-6 * reference.initial_value) << property;
    for (uint64_t s = 0; s < model->num_states(); ++s) {
      ASSERT_LE(r.lower[s], reference.upper[s] + 1e-12) << property << " state " << s;
      ASSERT_GE(r.upper[s], reference.lower[s] - 1e-12) << property << " state " << s;
    }
    ASSERT_EQ(r.scheduler.size(), model->num_states());
    CheckOptions cpu;
    cpu.solver = "cpu";
    const CheckResult induced = check(*induced_chain(*model, r.scheduler), "P=? [ F \"done\" ]", cpu);
    EXPECT_NEAR(induced.initial_value, r.initial_value, 1e-5 * r.initial_value) << property << ": the scheduler";
    std::printf("  %s: %.12g [%.12g, %.12g], %llu it, kernel %s, solve %.4f s\n", property, r.initial_value,
                r.initial_lower, r.initial_upper, static_cast<unsigned long long>(r.iterations), r.kernel.c_str(),
                r.timings.solve);
  }
  const Walkers small{3, 17};  // 4912 maybe states
  const CheckResult r = check(*small.model(), "Pmax=? [ F \"done\" ]", [] {
    CheckOptions o;
    o.solver = "gpu";
    return o;
  }());
  EXPECT_EQ(r.kernel.find("lumped"), std::string::npos) << r.kernel;
  EXPECT_TRUE(r.sound && r.converged);
}

// A memory limit the chain does not fit: the copy is evicted and the
// property is still answered, on the host's system, with a note.
TEST(GpuResident, MemoryLimitEvictsAndStillAnswers) {
  if (testing::models_root().empty()) GTEST_SKIP() << testing::missing_models_message();
  const ManifestRow* row = largest_chain();
  ASSERT_NE(row, nullptr);
  const ModelPtr model = Model::create(testing::cached_model(*row).parts());
  const std::string property = "P=? [ F \"" + model->labels().front().name + "\" ]";
  CheckOptions options;
  options.solver = "gpu";
  const CheckResult resident = check(*model, property, options);
  ASSERT_TRUE(model->has_derived(device_chain_key(0)));
  options.settings.gpu_memory_limit = resident_chain_bytes(row->states, row->transitions) / 2;
  const CheckResult limited = check(*model, property, options);
  EXPECT_FALSE(model->has_derived(device_chain_key(0)));
  bool noted = false;
  for (const std::string& n : limited.notes) noted |= n.find("solved on the host's system instead") != std::string::npos;
  EXPECT_TRUE(noted) << limited.solver_reason;
  EXPECT_TRUE(limited.sound);
  for (uint64_t s = 0; s < model->num_states(); ++s) {
    ASSERT_NEAR(limited.values[s], resident.values[s], 2e-6) << "state " << s;
  }
}

}  // namespace
}  // namespace pmc
