// The checker on small chains whose answers are known in closed form, and
// its errors for properties that do not fit the model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>

#include "check/check.hpp"
#include "common/error.hpp"
#include "solver/device/devices.hpp"
#include "formats/model_files.hpp"
#include "solver/convergence.hpp"
#include "solver/registry.hpp"

namespace pmc {
namespace {

const std::string k_die = std::string(PMC_TEST_DATA_DIR) + "/../../examples/die/die.tra";

ModelPtr die() { return load_model({k_die}, "", {}); }

Label label(const std::string& name, uint64_t n, std::initializer_list<uint64_t> states) {
  Bitset set(n);
  for (uint64_t s : states) set.set(s);
  return Label{name, set};
}

// Two states: 0 →(a) 1 →(b) 0, rewards "up" = 1 in state 0.
ModelPtr two_state_ctmc(double a, double b) {
  ModelParts p;
  p.type = ModelType::ctmc;
  p.num_states = 2;
  p.row_offsets = {0, 1, 2};
  p.columns = {1, 0};
  p.values = {a, b};
  p.labels = {label("init", 2, {0}), label("down", 2, {1})};
  p.rewards = {RewardStructure{"up", {1.0, 0.0}, {}}};
  return Model::create(std::move(p));
}

// 0 →(λ) 1, 1 absorbing.
ModelPtr decay_ctmc(double lambda) {
  ModelParts p;
  p.type = ModelType::ctmc;
  p.num_states = 2;
  p.row_offsets = {0, 1, 1};
  p.columns = {1};
  p.values = {lambda};
  p.labels = {label("init", 2, {0}), label("done", 2, {1})};
  p.rewards = {RewardStructure{"alive", {1.0, 0.0}, {}}};
  return Model::create(std::move(p));
}

CheckOptions tight(const std::string& solver = "auto") {
  CheckOptions o;
  o.solver = solver;
  o.settings.epsilon = 1e-12;
  return o;
}

std::string check_error(const Model& m, const std::string& property, ErrorCode code = ErrorCode::property) {
  try {
    check(m, property, tight());
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    return e.what();
  }
  return "(no error)";
}

TEST(CheckDtmc, KnuthDieWithEverySolver) {
  ModelPtr m = die();
  for (const SolverEntry& s : solver_registry()) {
    if (s.device != DeviceKind::cpu || !s.solves(ProblemKind::linear_system)) continue;
    CheckResult r = check(*m, "P=? [ F \"six\" ]", tight(s.name));
    EXPECT_NEAR(r.initial_value, 1.0 / 6, 1e-10) << s.name;
    EXPECT_EQ(r.solver_names(), s.name);
    EXPECT_GT(r.iterations, 0u);
    r = check(*m, "R{\"coin_flips\"}=? [ F \"done\" ]", tight(s.name));
    EXPECT_NEAR(r.initial_value, 11.0 / 3, 1e-9) << s.name;
  }
}

TEST(CheckDtmc, PathOperators) {
  ModelPtr m = die();
  EXPECT_NEAR(check(*m, "P=? [ X \"done\" ]").initial_value, 0.0, 0);
  EXPECT_NEAR(check(*m, "P=? [ F<=3 \"done\" ]").initial_value, 0.75, 1e-15);  // done after 3 flips w.p. 3/4
  EXPECT_NEAR(check(*m, "P=? [ F<=2 \"done\" ]").initial_value, 0.0, 1e-15);
  EXPECT_NEAR(check(*m, "P=? [ G !\"done\" ]", tight()).initial_value, 0.0, 1e-10);
  EXPECT_NEAR(check(*m, "P=? [ G<=3 !\"done\" ]").initial_value, 0.25, 1e-15);
  EXPECT_NEAR(check(*m, "P=? [ !\"two\" U \"one\" ]", tight()).initial_value, 1.0 / 6, 1e-10);
  EXPECT_NEAR(check(*m, "R{\"coin_flips\"}=? [ C<=3 ]").initial_value, 3.0, 1e-15);
  EXPECT_NEAR(check(*m, "R{\"coin_flips\"}=? [ I=3 ]").initial_value, 0.25, 1e-15);
  EXPECT_NEAR(check(*m, "S=? [ \"six\" ]", tight()).initial_value, 1.0 / 6, 1e-10);
  // Nested: P>0.3 [ F "one" ] holds in s=1 (1/3), s=3 (2/3) and "one"
  // itself, and from the start s=1 is the first flip's heads: 1/2.
  CheckResult nested = check(*m, "P=? [ F P>0.3 [ F \"one\" ] ]", tight());
  EXPECT_NEAR(nested.initial_value, 0.5, 1e-10);
}

TEST(CheckDtmc, BoundsGiveStateSets) {
  ModelPtr m = die();
  CheckResult r = check(*m, "P>=0.1 [ F \"six\" ]", tight());
  EXPECT_TRUE(r.is_boolean);
  EXPECT_EQ(r.initial_value, 1.0);
  EXPECT_TRUE(r.satisfying.test(0));
  EXPECT_FALSE(r.satisfying.test(7));  // "one": never six afterwards
  EXPECT_EQ(check(*m, "P<0.1 [ F \"six\" ]", tight()).initial_value, 0.0);
}

TEST(CheckDtmc, InfiniteRewardWhereTheGoalMayBeMissed) {
  ModelPtr m = die();
  // From the start, "one" is missed with probability 5/6: +∞ as PRISM.
  EXPECT_TRUE(std::isinf(check(*m, "R{\"coin_flips\"}=? [ F \"one\" ]", tight()).initial_value));
}

// The states of +∞ reward stay out of the equation system, so the SCC by
// SCC solver sees only finite ones: per state it agrees with whole-system
// interval iteration and the closed form, +∞ where the goal may be missed.
// 0 → 1 or the trap 4; the cycle 1 ⇄ 2 leaks to the goal 3; 5 → 1. One
// step costs 1: x1 = 1 + 0.9·x2, x2 = 1 + x1, so x1 = 19, x2 = x5 = 20.
TEST(CheckDtmc, InfiniteRewardStatesAsTheWholeSystemSolver) {
  ModelParts p;
  p.type = ModelType::dtmc;
  p.num_states = 6;
  p.row_offsets = {0, 2, 4, 5, 6, 7, 8};
  p.columns = {1, 4, 2, 3, 1, 3, 4, 1};
  p.values = {0.5, 0.5, 0.9, 0.1, 1.0, 1.0, 1.0, 1.0};
  p.labels = {label("init", 6, {0}), label("goal", 6, {3})};
  p.rewards = {RewardStructure{"steps", {1, 1, 1, 1, 1, 1}, {}}};
  ModelPtr m = Model::create(std::move(p));
  const std::string property = "R{\"steps\"}=? [ F \"goal\" ]";
  const CheckResult topo = check(*m, property, tight("cpu.topo-interval-vi"));
  const CheckResult whole = check(*m, property, tight("cpu.interval-vi"));
  EXPECT_EQ(topo.solver_names(), "cpu.topo-interval-vi");
  EXPECT_TRUE(topo.sound);
  EXPECT_TRUE(topo.converged);
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> exact = {inf, 19.0, 20.0, 0.0, inf, 20.0};
  ASSERT_EQ(topo.values.size(), exact.size());
  for (size_t s = 0; s < exact.size(); ++s) {
    EXPECT_EQ(std::isinf(topo.values[s]), std::isinf(exact[s])) << "state " << s;
    EXPECT_EQ(std::isinf(whole.values[s]), std::isinf(exact[s])) << "state " << s;
    if (std::isinf(exact[s])) continue;
    EXPECT_NEAR(topo.values[s], exact[s], 1e-10 * std::max(1.0, exact[s])) << "state " << s;
    EXPECT_NEAR(topo.values[s], whole.values[s], 1e-10 * std::max(1.0, exact[s])) << "state " << s;
    EXPECT_LE(topo.lower[s], exact[s] * (1 + 1e-12)) << "state " << s;
    EXPECT_GE(topo.upper[s], exact[s] * (1 - 1e-12)) << "state " << s;
  }
  EXPECT_TRUE(std::isinf(topo.initial_value));
}

TEST(CheckCtmc, ClosedForms) {
  const double lambda = 2.0, t = 0.7;
  ModelPtr m = decay_ctmc(lambda);
  EXPECT_NEAR(check(*m, "P=? [ F<=0.7 \"done\" ]", tight()).initial_value, 1 - std::exp(-lambda * t), 1e-12);
  EXPECT_NEAR(check(*m, "P=? [ F \"done\" ]", tight()).initial_value, 1.0, 1e-12);
  EXPECT_NEAR(check(*m, "R{\"alive\"}=? [ C<=0.7 ]", tight()).initial_value, (1 - std::exp(-lambda * t)) / lambda,
              1e-12);
  EXPECT_NEAR(check(*m, "R{\"alive\"}=? [ I=0.7 ]", tight()).initial_value, std::exp(-lambda * t), 1e-12);
  EXPECT_NEAR(check(*m, "R{\"alive\"}=? [ F \"done\" ]", tight()).initial_value, 1 / lambda, 1e-10);
  EXPECT_NEAR(check(*m, "P=? [ F[0.5,0.7] \"done\" ]", tight()).initial_value, 1 - std::exp(-lambda * 0.7), 1e-12);
  EXPECT_NEAR(check(*m, "P=? [ !\"done\" U[0.5,0.7] \"done\" ]", tight()).initial_value,
              std::exp(-lambda * 0.5) - std::exp(-lambda * 0.7), 1e-12);
  EXPECT_NEAR(check(*m, "P=? [ F<=0 \"done\" ]", tight()).initial_value, 0.0, 0);
}

// State 0 leaves at rate 1 into a birth–death chain A of 1500 states (up
// 2, down 3: π_i ∝ (2/3)^i) and at rate 3 into a ring B of 2000 states
// (π uniform): two bottom SCCs beyond the exact solver's 1024 states.
// "high" = A's states from 3 on and B's first 500: S=? is
// ¼·(2/3)^3 + ¾·¼ (A's tail mass is (2/3)^3 up to (2/3)^1500).
ModelPtr two_large_bsccs() {
  const uint32_t a = 1500, b = 2000, n = 1 + a + b;
  std::vector<std::vector<std::pair<uint32_t, double>>> rows(n);
  rows[0] = {{1, 1.0}, {1 + a, 3.0}};
  for (uint32_t i = 0; i < a; ++i) {
    if (i > 0) rows[1 + i].push_back({i, 3.0});
    if (i + 1 < a) rows[1 + i].push_back({2 + i, 2.0});
  }
  for (uint32_t i = 0; i < b; ++i) rows[1 + a + i].push_back({1 + a + (i + 1) % b, 5.0});
  ModelParts p;
  p.type = ModelType::ctmc;
  p.num_states = n;
  p.row_offsets = {0};
  for (const auto& row : rows) {
    for (const auto& [t, rate] : row) {
      p.columns.push_back(t);
      p.values.push_back(rate);
    }
    p.row_offsets.push_back(p.columns.size());
  }
  Bitset high(n), init(n);
  init.set(0);
  for (uint32_t i = 3; i < a; ++i) high.set(1 + i);
  for (uint32_t i = 0; i < 500; ++i) high.set(1 + a + i);
  p.labels = {Label{"init", init}, Label{"high", high}};
  return Model::create(std::move(p));
}

// Every bottom SCC past the exact solver is bounded by the bias sweeps: the
// default result is certified, the closed form inside its bounds, also at
// ε = 1e-10; --unsound iterates π only.
TEST(CheckCtmc, LargeBottomSccsAreCertified) {
  const ModelPtr m = two_large_bsccs();
  const double expected = 0.25 * std::pow(2.0 / 3, 3) + 0.75 * 0.25;
  // Certified, converged, the closed form inside, the bounds within ε.
  const auto certified_at = [&](double epsilon) {
    SCOPED_TRACE(testing::Message() << "epsilon " << epsilon);
    CheckOptions options;
    options.settings.epsilon = epsilon;
    const CheckResult result = check(*m, "S=? [ \"high\" ]", options);
    EXPECT_TRUE(result.sound);
    EXPECT_TRUE(result.converged);
    EXPECT_LE(result.initial_lower, expected + 1e-12);
    EXPECT_GE(result.initial_upper, expected - 1e-12);
    EXPECT_TRUE(bounds_close(result.initial_lower, result.initial_upper, epsilon, true));
    return result;
  };
  const CheckResult result = certified_at(CheckOptions{}.settings.epsilon);  // the default
  const auto note = std::find_if(result.notes.begin(), result.notes.end(),
                                 [](const std::string& n) { return n.find("2 bounded by the bias sweeps") != n.npos; });
  EXPECT_NE(note, result.notes.end()) << result.notes.front();
  // At ε = 1e-10 too. (Named, cpu.gauss-seidel would also solve the
  // transient states' linear system, without bounds; cpu.jacobi would take
  // ~10^6 sweeps around B's ring.)
  certified_at(1e-10);
  CheckOptions unsound;
  unsound.settings.sound = false;
  const CheckResult fast = check(*m, "S=? [ \"high\" ]", unsound);
  EXPECT_FALSE(fast.sound);
  EXPECT_NEAR(fast.initial_value, expected, 1e-5);
}

TEST(CheckCtmc, SteadyStateOfATwoStateChain) {
  const double a = 3.0, b = 0.5;
  ModelPtr m = two_state_ctmc(a, b);
  for (const SolverEntry& s : solver_registry()) {
    if (s.device != DeviceKind::cpu || !s.solves(ProblemKind::stationary)) continue;
    EXPECT_NEAR(check(*m, "S=? [ \"down\" ]", tight(s.name)).initial_value, a / (a + b), 1e-10) << s.name;
    EXPECT_NEAR(check(*m, "R{\"up\"}=? [ S ]", tight(s.name)).initial_value, b / (a + b), 1e-10) << s.name;
  }
  // Uniformisation against the closed form of the two-state chain.
  const double t = 1.3;
  const double p_down = a / (a + b) * (1 - std::exp(-(a + b) * t));
  EXPECT_NEAR(check(*m, "P=? [ F[1.3,1.3] \"down\" ]", tight()).initial_value, p_down, 1e-12);
}

TEST(CheckErrors, PropertiesThatDoNotFitTheModel) {
  ModelPtr m = die();
  EXPECT_NE(check_error(*m, "P=? [ F \"seven\" ]").find("column 9: unknown label \"seven\""), std::string::npos);
  EXPECT_NE(check_error(*m, "P=? [ F<=2.5 \"six\" ]").find("integer"), std::string::npos);
  EXPECT_NE(check_error(*m, "P=? [ F<=2.5 \"six\" ]").find("column"), std::string::npos);
  EXPECT_NE(check_error(*m, "R{\"time\"}=? [ F \"six\" ]").find("unknown reward structure \"time\""),
            std::string::npos);
  EXPECT_NE(check_error(*m, "R{\"coin_flips\"}=? [ C<=1.5 ]").find("integer"), std::string::npos);
  EXPECT_NE(check_error(*m, "P=? [ F \"six\"").find("column"), std::string::npos);
  ModelPtr ctmc = decay_ctmc(1.0);
  EXPECT_NE(check_error(*ctmc->with_label(label("x", 2, {0})), "P=? [ F \"six\" ]").find("unknown label"),
            std::string::npos);
  CheckOptions bad;
  bad.solver = "cpu.nope";
  EXPECT_THROW(check(*m, "P=? [ F \"six\" ]", bad), Error);
  bad.solver = "auto";
  bad.settings.epsilon = -1;
  EXPECT_THROW(check(*m, "P=? [ F \"six\" ]", bad), Error);
}

// "auto", "cpu" and "gpu" choose per problem and say why; a small model
// stays on the CPU under "auto" whether or not there is a GPU.
TEST(SolverChoice, AutomaticChoicesExplainThemselves) {
  ModelPtr m = die();
  // Sound by default: interval iteration, certified.
  const CheckResult automatic = check(*m, "P=? [ F \"six\" ]", tight("auto"));
  EXPECT_EQ(automatic.solver_names(), "cpu.topo-interval-vi");
  EXPECT_TRUE(automatic.sound);
  // The cost model decides before any device is looked at (discovery costs
  // ~0.2 s); where there is certainly no GPU, the reason says why instead.
  const char* expected = known_gpu_absence().empty() ? "predicted CPU" : "no GPU: ";
  EXPECT_NE(automatic.solver_reason.find(expected), std::string::npos) << automatic.solver_reason;
  const CheckResult cpu = check(*m, "P=? [ F \"six\" ]", tight("cpu"));
  EXPECT_EQ(cpu.solver_names(), "cpu.topo-interval-vi");
  EXPECT_EQ(cpu.solver_reason, "cpu: cpu.topo-interval-vi");
  // Unsound: the fastest, and the result says it is not certified.
  CheckOptions unsound = tight("cpu");
  unsound.settings.sound = false;
  const CheckResult fast = check(*m, "P=? [ F \"six\" ]", unsound);
  EXPECT_EQ(fast.solver_names(), "cpu.gauss-seidel");
  EXPECT_FALSE(fast.sound);
  EXPECT_TRUE(fast.lower.empty());
  if (discover_devices().devices.empty()) {
    try {
      check(*m, "P=? [ F \"six\" ]", tight("gpu"));
      ADD_FAILURE() << "solver gpu without a GPU must fail";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::no_device) << e.what();
    }
  }
  try {
    check(*m, "P=? [ F \"six\" ]", tight("gpux"));
    ADD_FAILURE() << "an unknown solver must fail";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("auto, cpu, gpu, cpu.jacobi"), std::string::npos) << e.what();
  }
}

TEST(CheckErrors, NonConvergenceIsReported) {
  ModelPtr m = die();
  CheckOptions o = tight("cpu.jacobi");
  o.settings.max_iterations = 2;
  CheckResult r = check(*m, "P=? [ F \"six\" ]", o);
  EXPECT_FALSE(r.converged);
  ASSERT_FALSE(r.notes.empty());
  EXPECT_TRUE(std::any_of(r.notes.begin(), r.notes.end(),
                          [](const std::string& n) { return n.find("did not converge") != std::string::npos; }));
}

// A BSCC past the threshold of the parallel transposition: the stationary
// system is the same on 1 and 4 threads, so the sequential Gauss–Seidel
// gives the same bits. The chain walks a weighted undirected graph on Z_N
// (edges x–x+1 of weight 1 + x mod 3, x–7x+3 of weight 1 + x mod 2; 17143 =
// 7⁻¹ mod N), leaving x along an edge at its weight over c_x = 1 + x mod 5:
// reversible (π_x·w/c_x = π_y·w/c_y), so π_x is proportional to c_x; the
// jumps mix it in a few dozen sweeps.
TEST(LongRun, LargeBsccIsTheSameOnEveryThreadCount) {
  constexpr int n = 20000;
  const std::string path = ::testing::TempDir() + "/pmc_test_long_run_graph.sm";
  {
    std::ofstream out(path);
    out << "ctmc\nconst int N = " << n << ";\nformula down = mod(x-1+N, N);\nformula back = mod(17143*(x-3+N), N);\n"
        << "formula c = 1 + mod(x, 5);\n"
        << "module walk\n  x : [0..N-1] init 0;\n"
        << "  [] true -> (1 + mod(x, 3)) / c : (x'=mod(x+1, N));\n"
        << "  [] true -> (1 + mod(down, 3)) / c : (x'=down);\n"
        << "  [] true -> (1 + mod(x, 2)) / c : (x'=mod(7*x+3, N));\n"
        << "  [] true -> (1 + mod(back, 2)) / c : (x'=back);\nendmodule\n"
        << "rewards \"x\"\n  true : x;\nendrewards\n";
  }
  ModelPtr walk = load_model({path}, "", {});
  std::remove(path.c_str());
  ASSERT_EQ(walk->num_states(), static_cast<uint64_t>(n));
  double total = 0, lower_half = 0, mean = 0;
  for (int x = 0; x < n; ++x) {
    const double weight = 1 + x % 5;
    total += weight;
    if (x < n / 2) lower_half += weight;
    mean += weight * x;
  }
  CheckOptions options;
  options.solver = "cpu.gauss-seidel";
  options.settings.epsilon = 1e-12;
  for (const char* property : {"S=? [ x < N/2 ]", "R{\"x\"}=? [ S ]"}) {
    options.settings.threads = 1;
    const CheckResult one = check(*walk, property, options);
    options.settings.threads = 4;
    const CheckResult four = check(*walk, property, options);
    EXPECT_EQ(one.initial_value, four.initial_value) << property;
    EXPECT_EQ(one.iterations, four.iterations) << property;
    EXPECT_GT(one.iterations, 5u) << property;
    const double exact = std::string(property)[0] == 'S' ? lower_half / total : mean / total;
    EXPECT_NEAR(one.initial_value, exact, 1e-9 * exact) << property;
  }
}

}  // namespace
}  // namespace pmc
