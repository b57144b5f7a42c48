// Bounded iteration (cpu.steps, cpu.vi's steps, uniformisation)
// stops at a stationary iterate with the exact answer of all the steps,
// honours the iteration limit, and a huge q·t is answered fast or refused.
// Every test here runs in milliseconds: a regression shows as a hang (the
// meson timeout) or as a failed iteration count.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "check/check.hpp"
#include "common/error.hpp"
#include "common/stopwatch.hpp"
#include "formats/model_files.hpp"
#include "solver/linear/cpu_solvers.hpp"
#include "solver/minmax/mdp_solvers.hpp"
#include "solver/registry.hpp"

namespace pmc {
namespace {

const std::string k_die = std::string(PMC_TEST_DATA_DIR) + "/../../examples/die/die.tra";

bool has_note(const std::vector<std::string>& notes, const std::string& text) {
  return std::any_of(notes.begin(), notes.end(), [&](const std::string& n) { return n.find(text) != std::string::npos; });
}

double seconds_of(const std::function<void()>& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return seconds_since(start);
}

// 0 → ½ to 1, ½ stays; 1 absorbing with reward 1 (b): v_k(0) = 1 − 2^−k
// reaches 1.0 exactly after 53 steps, then stays.
StepProblem halving(uint64_t steps) {
  StepProblem p;
  p.a.row_offsets = {0, 1, 1};
  p.a.columns = {0};
  p.a.values = {0.5};
  p.b = {0.5, 1.0};
  p.x0 = {0.0, 1.0};
  p.steps = steps;
  return p;
}

TEST(BoundedSteps, StationaryIterateEndsTheLoopWithTheExactValue) {
  StepProblem p = halving(99999999999910ull);
  std::vector<double> result;
  SolveStats stats;
  const double seconds = seconds_of([&] { stats = steps_cpu(p, result, SolverSettings{}); });
  EXPECT_LT(seconds, 0.5);
  EXPECT_TRUE(stats.converged);
  EXPECT_LT(stats.iterations, 100u);
  EXPECT_EQ(result, (std::vector<double>{1.0, 1.0}));
  EXPECT_TRUE(has_note(stats.notes, "stationary after " + std::to_string(stats.iterations) + " of 99999999999910 steps"))
      << (stats.notes.empty() ? "" : stats.notes[0]);
  // The same bits as running just past the stationary point.
  std::vector<double> exact;
  steps_cpu(halving(stats.iterations + 5), exact, SolverSettings{});
  EXPECT_EQ(result, exact);
}

TEST(BoundedSteps, IterationLimitGivesThePartialResult) {
  SolverSettings settings;
  settings.max_iterations = 10;
  std::vector<double> result;
  const SolveStats stats = steps_cpu(halving(1000), result, settings);
  EXPECT_FALSE(stats.converged);
  EXPECT_EQ(stats.iterations, 10u);
  EXPECT_EQ(result[0], 1.0 - std::ldexp(1.0, -10));
  EXPECT_TRUE(has_note(stats.notes, "iteration limit after 10 of 1000 steps"));
  // The limit does not count against a bound it covers.
  settings.max_iterations = 1000;
  EXPECT_TRUE(steps_cpu(halving(1000), result, settings).converged);
}

// Σ_k c_k·v_k by hand, c_k from the StepProblem's window description.
std::vector<double> weighted_by_hand(const StepProblem& p) {
  std::vector<double> v = p.x0, sum(v.size(), 0.0);
  for (uint64_t k = 0; k <= p.steps; ++k) {
    if (k > 0) {
      std::vector<double> next(v.size());
      for (uint64_t i = 0; i < v.size(); ++i) {
        double s = p.b.empty() ? 0.0 : p.b[i];
        for (uint64_t e = p.a.row_offsets[i]; e < p.a.row_offsets[i + 1]; ++e) s += p.a.values[e] * v[p.a.columns[e]];
        next[i] = s;
      }
      v = next;
    }
    for (uint64_t i = 0; i < v.size(); ++i) sum[i] += p.coefficient(k) * v[i];
  }
  return sum;
}

TEST(BoundedSteps, WeightWindowAndRemainingWeight) {
  StepProblem p = halving(200);
  p.coefficient_before = 0.25;
  p.coefficients_first = 120;
  p.coefficients = {0.5, 0.25, 0.125};
  EXPECT_EQ(p.coefficient(119), 0.25);
  EXPECT_EQ(p.coefficient(121), 0.25);
  EXPECT_EQ(p.coefficient(123), 0.0);
  EXPECT_DOUBLE_EQ(steps_weight_after(p, 100), 19 * 0.25 + 0.875);
  EXPECT_DOUBLE_EQ(steps_weight_after(p, 120), 0.375);
  EXPECT_EQ(steps_weight_after(p, 122), 0.0);
  EXPECT_EQ(steps_weight_after(p, 200), 0.0);
  // Stationary long before the window: the rest is added at once.
  std::vector<double> result;
  const SolveStats stats = steps_cpu(p, result, SolverSettings{});
  EXPECT_LT(stats.iterations, 100u);
  const std::vector<double> expected = weighted_by_hand(p);
  for (int i = 0; i < 2; ++i) EXPECT_NEAR(result[i], expected[i], 1e-13 * expected[i]);
  // Not stationary (a rotation): every step runs, the window as given.
  StepProblem r;
  r.a.row_offsets = {0, 1, 2};
  r.a.columns = {1, 0};
  r.a.values = {1.0, 1.0};
  r.x0 = {1.0, 0.0};
  r.steps = 9;
  r.coefficient_before = 1.0;
  r.coefficients_first = 5;
  r.coefficients = {0.5, 0.25};
  const SolveStats rs = steps_cpu(r, result, SolverSettings{});
  EXPECT_EQ(rs.iterations, 9u);
  EXPECT_EQ(result, weighted_by_hand(r));
}

TEST(BoundedSteps, MinMaxStepsStopWhenStationary) {
  // State 0: A to the goal w.p. ½ (else stay), B to the goal w.p. ¼;
  // Pmax = 1 − 2^−k reaches 1 exactly; the optimal first choice is A.
  MinMaxProblem p;
  p.row_groups = {0, 2};
  p.a.row_offsets = {0, 1, 2};
  p.a.columns = {0, 0};
  p.a.values = {0.5, 0.75};
  p.b = {0.5, 0.25};
  p.maximize = true;
  p.steps = 99999999999910ull;
  MinMaxSolution solution;
  SolveStats stats = value_iteration_steps(p, solution, SolverSettings{});
  EXPECT_TRUE(stats.converged);
  EXPECT_LT(stats.iterations, 100u);
  EXPECT_EQ(solution.x, (std::vector<double>{1.0}));
  EXPECT_EQ(solution.choice, (std::vector<uint32_t>{0}));
  EXPECT_TRUE(has_note(stats.notes, "of 99999999999910 steps"));
  SolverSettings settings;
  settings.max_iterations = 3;
  stats = value_iteration_steps(p, solution = {}, settings);
  EXPECT_FALSE(stats.converged);
  EXPECT_EQ(stats.iterations, 3u);
  EXPECT_EQ(solution.x, (std::vector<double>{0.875}));
}

TEST(BoundedSteps, DieWithHugeStepBoundsIsFastAndExact) {
  ModelPtr die = load_model({k_die}, "", {});
  CheckResult r;
  double seconds = seconds_of([&] { r = check(*die, "P=? [ !\"one\" U<=99999999999910 (\"six\" | \"done\") ]"); });
  EXPECT_LT(seconds, 1.0);
  EXPECT_TRUE(r.converged);
  EXPECT_TRUE(r.sound);
  EXPECT_EQ(r.initial_value, check(*die, "P=? [ !\"one\" U<=1000 (\"six\" | \"done\") ]").initial_value);
  EXPECT_TRUE(has_note(r.notes, "of 99999999999910 steps")) << r.notes.size();
  EXPECT_LT(r.iterations, 1000u);

  seconds = seconds_of([&] { r = check(*die, "P=? [ F<=10000000 \"six\" ]"); });
  EXPECT_LT(seconds, 1.0);
  EXPECT_EQ(r.initial_value, check(*die, "P=? [ F<=1000 \"six\" ]").initial_value);
  EXPECT_NEAR(r.initial_value, 1.0 / 6, 1e-15);
  EXPECT_TRUE(has_note(r.notes, "of 10000000 steps"));
  // Instantaneous reward: zero once every path is done.
  r = check(*die, "R{\"coin_flips\"}=? [ I=100000000000 ]");
  EXPECT_EQ(r.initial_value, 0.0);
  EXPECT_LT(r.iterations, 2000u);  // 0.5^k down through the subnormals
}

TEST(BoundedSteps, IterationLimitAppliesToPropertiesAndDropsTheBounds) {
  ModelPtr die = load_model({k_die}, "", {});
  CheckOptions o;
  o.settings.max_iterations = 2;
  const CheckResult r = check(*die, "P=? [ F<=10000000 \"six\" ]", o);
  EXPECT_FALSE(r.converged);
  EXPECT_FALSE(r.sound);
  EXPECT_EQ(r.iterations, 2u);
  EXPECT_EQ(r.initial_value, check(*die, "P=? [ F<=2 \"six\" ]").initial_value);  // the partial result
  EXPECT_TRUE(has_note(r.notes, "iteration limit after 2 of 10000000 steps"));
  // C<=k grows every step: never stationary, so the limit is what stops it.
  const CheckResult c = check(*die, "R{\"coin_flips\"}=? [ C<=100000000000000 ]", o);
  EXPECT_FALSE(c.converged);
}

Label label(const std::string& name, uint64_t n, std::initializer_list<uint64_t> states) {
  Bitset set(n);
  for (uint64_t s : states) set.set(s);
  return Label{name, set};
}

// 0 →(λ) 1, 1 absorbing; reward "alive" 1 in state 0.
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

TEST(BoundedSteps, CtmcWithAHugeTimeBoundIsAnsweredFast) {
  ModelPtr m = decay_ctmc(2.0);
  // 1e308: q·t overflows to infinity (fuzzing found it: NaN turned into a
  // step count, and C<= gave NaN).
  for (const char* bound : {"1e6", "1e12", "1e15", "1e308"}) {
    CheckResult r;
    const double seconds = seconds_of([&] { r = check(*m, fmt::format("P=? [ F<={} \"done\" ]", bound)); });
    EXPECT_LT(seconds, 1.0) << bound;
    EXPECT_EQ(r.initial_value, 1.0) << bound;
    EXPECT_TRUE(r.converged) << bound;
    EXPECT_TRUE(r.sound) << bound;
    EXPECT_TRUE(has_note(r.notes, "stationary after")) << bound;
    EXPECT_LE(r.initial_lower, 1.0);
    EXPECT_GE(r.initial_upper, 1.0);
    // Expected time alive up to t: 1/λ for any t ≫ 1/λ.
    const CheckResult c = check(*m, fmt::format("R{{\"alive\"}}=? [ C<={} ]", bound));
    EXPECT_NEAR(c.initial_value, 0.5, 1e-9) << bound;
    EXPECT_TRUE(c.converged) << bound;
    EXPECT_LE(c.initial_lower, 0.5 + 1e-12) << bound;
    EXPECT_GE(c.initial_upper, 0.5 - 1e-12) << bound;
    const CheckResult i = check(*m, fmt::format("R{{\"alive\"}}=? [ I={} ]", bound));
    EXPECT_NEAR(i.initial_value, 0.0, 1e-12) << bound;
  }
}

TEST(BoundedSteps, CtmcThatNeverSettlesIsRefusedClearly) {
  // A two-state cycle whose uniformised iterate oscillates (period 2 up to
  // 1.02): with q·t = 1e15 either the iterate settles bit for bit (a fast
  // answer, the steady state 1/2) or the property is refused, in well under
  // a second either way.
  ModelParts p;
  p.type = ModelType::ctmc;
  p.num_states = 2;
  p.row_offsets = {0, 1, 2};
  p.columns = {1, 0};
  p.values = {1.0, 1.0};
  p.labels = {label("init", 2, {0}), label("down", 2, {1})};
  ModelPtr m = Model::create(std::move(p));
  CheckOptions o;
  o.settings.max_iterations = 100000;
  const double seconds = seconds_of([&] {
    try {
      const CheckResult r = check(*m, "P=? [ F<=1e15 \"down\" ]", o);
      EXPECT_NEAR(r.initial_value, 1.0, 1e-9);
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("iteration limit"), std::string::npos) << e.what();
    }
    try {
      const CheckResult r = check(*m, "S=? [ \"down\" ]", o);
      const CheckResult t = check(*m, "P=? [ true U[1e15,1e15] \"down\" ]", o);
      EXPECT_NEAR(t.initial_value, r.initial_value, 1e-6);
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("iteration limit"), std::string::npos) << e.what();
    }
  });
  EXPECT_LT(seconds, 2.0);
}

}  // namespace
}  // namespace pmc
