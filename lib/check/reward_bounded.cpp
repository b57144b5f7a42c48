// Epoch unfolding for one reward bound (reward_bounded.hpp): the bound as
// integers, the unknowns each kind of bound solves, and the loop over the
// epochs with a window of the last ones.
#include "check/reward_bounded.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

#include "check/epoch_problem.hpp"
#include "common/caller_language.hpp"
#include "common/cancellation.hpp"
#include "common/error.hpp"
#include "graph/bitset_ops.hpp"
#include "graph/dtmc_precomputation.hpp"
#include "graph/mdp_precomputation.hpp"
#include "solver/convergence.hpp"
#include "solver/parallel.hpp"

namespace pmc {

namespace {

namespace bits = graph::bits;
using Phase = CheckContext::Phase;
using property::Comparison;
using property::PathFormula;
using property::PathKind;
using property::RewardBound;

// Beyond this many epochs the rewards would not fit the exits' 32 bits;
// long before it the epochs' solves take longer than anyone waits.
constexpr int64_t k_max_epochs = int64_t{1} << 31;
// Below this a solve's own rounding dominates: tightening further gains nothing.
constexpr double k_min_solve_epsilon = 1e-14;
// An epoch without zero-reward cycles is solved by this many exact Bellman
// steps at most; a deeper one by the unbounded solvers, whose preparation
// (SCCs, end components) costs tens of sweeps per epoch (measured on
// firewire delay=36, 212266 unknowns, 9 steps deep: 0.22 s per epoch with
// cpu.topo-interval-vi, 0.06 s with the exact steps, about 6 ms a sweep).
constexpr uint64_t k_max_exact_steps = 32;

// The bound over integer rewards: `<=limit` (upper; -1 when nothing
// qualifies) or `>=limit` (lower; ≤ 0 when every run qualifies).
struct IntegerBound {
  bool upper = true;
  int64_t limit = 0;
};

IntegerBound integer_bound(const RewardBound& bound) {
  const double b = bound.bound.value;
  const bool upper = bound.comparison == Comparison::less || bound.comparison == Comparison::less_equal;
  const double limit = bound.comparison == Comparison::less_equal ? std::floor(b)
                       : bound.comparison == Comparison::less     ? std::ceil(b) - 1
                       : bound.comparison == Comparison::greater_equal ? std::ceil(b)
                                                                       : std::floor(b) + 1;
  if (!(limit < static_cast<double>(k_max_epochs))) {
    fail(ErrorCode::unsupported, "column {}: reward bound {} needs {} epochs; pmc unfolds at most {}", bound.column,
         property::to_string(bound.bound), limit, k_max_epochs);
  }
  return {upper, static_cast<int64_t>(limit)};
}

struct Bounds {
  std::vector<double> lower, upper;
};

// The bounds of the last `depth` epochs over the unknowns, epoch e in slot
// e mod depth.
class EpochWindow {
 public:
  EpochWindow(uint64_t depth, uint64_t unknowns)
      : depth_(depth), unknowns_(unknowns), lower_(depth * unknowns), upper_(depth * unknowns) {}
  double* lower(uint64_t epoch) { return lower_.data() + (epoch % depth_) * unknowns_; }
  double* upper(uint64_t epoch) { return upper_.data() + (epoch % depth_) * unknowns_; }
  const double* lower(uint64_t epoch) const { return lower_.data() + (epoch % depth_) * unknowns_; }
  const double* upper(uint64_t epoch) const { return upper_.data() + (epoch % depth_) * unknowns_; }

 private:
  uint64_t depth_, unknowns_;
  std::vector<double> lower_, upper_;
};

// Whether `steps` exact Bellman steps may solve the epochs: few enough, and
// a solver the options allow solves them (a named solver is not replaced).
bool exact_steps_allowed(const CheckOptions& options, std::optional<uint64_t> steps, bool mdp) {
  if (!steps || *steps > k_max_exact_steps) return false;
  if (is_automatic_choice(options.solver)) return true;
  return find_solver(options.solver).solves(mdp ? ProblemKind::min_max_steps : ProblemKind::bounded_steps);
}

// One epoch's equation system: `stay` as the matrix of a linear system
// (DTMC) or of a min/max problem (MDP), built once; b per solve. With
// `steps`, the epochs have no zero-reward cycle and that many Bellman steps
// from 0 solve them exactly (a step-bounded problem, like F<=k).
class EpochSolver {
 public:
  EpochSolver(CheckContext& ctx, EpochProblem& problem, bool mdp, bool maximize, uint64_t steps)
      : ctx_(ctx), mdp_(mdp), steps_(steps) {
    if (mdp) {
      minmax_.row_groups = std::move(problem.row_groups);
      minmax_.a = std::move(problem.stay);
      minmax_.maximize = maximize;
      minmax_.upper_bound = 1.0;
      minmax_.steps = steps;
    } else if (steps > 0) {
      steps_problem_.a = std::move(problem.stay);
      steps_problem_.steps = steps;
    } else {
      linear_.a = std::move(problem.stay);
      linear_.upper_bound = 1.0;
    }
  }

  // Solves with right-hand side `b` (per row). False when the solver
  // certified nothing (the context is then unsound): lower = upper = its values.
  bool solve(std::vector<double>& b, double* lower, double* upper) {
    std::vector<double> x, low, high;
    if (mdp_) {
      minmax_.b.swap(b);
      MinMaxSolution solution;
      solution.x.assign(minmax_.num_unknowns(), 0.0);
      ctx_.solve_min_max(minmax_, solution);
      minmax_.b.swap(b);
      x = std::move(solution.x);
      high = std::move(solution.upper);
      if (!high.empty()) low = x;
    } else if (steps_ > 0) {
      steps_problem_.b.swap(b);
      steps_problem_.x0.assign(steps_problem_.b.size(), 0.0);
      ctx_.solve_steps(steps_problem_, x);
      steps_problem_.b.swap(b);
    } else {
      linear_.b.swap(b);
      x.assign(linear_.b.size(), 0.0);
      ctx_.solve_linear(linear_, x, &low, &high);
      linear_.b.swap(b);
    }
    const bool bounds = !high.empty();
    const std::vector<double>& l = bounds ? low : x;
    const std::vector<double>& u = bounds ? high : x;
    std::copy(l.begin(), l.end(), lower);
    std::copy(u.begin(), u.end(), upper);
    // Exact steps are certified as they are (the context says when the
    // iteration limit cut them short).
    return bounds || steps_ > 0;
  }

  uint64_t rows() const {
    return mdp_ ? minmax_.a.num_rows() : steps_ > 0 ? steps_problem_.a.num_rows() : linear_.a.num_rows();
  }

 private:
  CheckContext& ctx_;
  bool mdp_;
  uint64_t steps_;
  LinearSystem linear_;
  StepProblem steps_problem_;
  MinMaxProblem minmax_;
};

// The value of an exit in the current epoch, as bounds.
struct ExitValue {
  double lower, upper;
};

// How one kind of bound reads its exits: `value(exit, epoch, window)`.
// Epochs run from `first` to `last`.
template <typename Value>
struct EpochRange {
  uint64_t first, last;
  Value value;
};

// Solves epochs first..last and returns the last one's bounds over the
// unknowns, within `epsilon` (relative or absolute as the options say):
// each solve runs at epsilon/(2·epochs) in a context of its own, absorbed
// into `ctx`.
template <typename Value>
Bounds unfold(CheckContext& ctx, EpochProblem problem, bool maximize, const EpochRange<Value>& range,
              double epsilon) {
  const Model& model = ctx.model();
  const bool mdp = model.type() == ModelType::mdp;
  const uint64_t m = problem.num_unknowns();
  const uint64_t epochs = range.last - range.first + 1;
  // The window: the last largest_reward epochs and the current one (two at
  // least, so that an epoch can be compared with the one before).
  const uint64_t depth = std::max<uint64_t>(std::min<uint64_t>(problem.largest_reward, epochs) + 1, 2);
  {
    // The equation system as for unbounded reachability, plus the exits,
    // the window and the right-hand sides' bounds.
    const ProblemShape shape{m, problem.num_rows(), problem.stay.num_entries()};
    MemoryEstimate estimate = estimate_computation(mdp ? Computation::mdp_reachability : Computation::reachability,
                                                   model, shape, ctx.options().solver, ctx.options().settings);
    estimate.problem += 16 * depth * m + 24 * problem.num_rows() + sizeof(EpochExit) * problem.exits.size();
    require_estimate(estimate, ctx.options().settings,
                     fmt::format("unfolding {} epochs of {} unknowns (a window of {})", epochs, m, depth));
  }
  CheckOptions options = ctx.options();
  options.settings.epsilon = std::max(k_min_solve_epsilon, epsilon / (2.0 * epochs));
  CheckContext inner(model, options);
  const std::optional<uint64_t> depth_steps = ctx.timed(Phase::precompute, [&] { return zero_reward_depth(problem); });
  const uint64_t steps = exact_steps_allowed(options, depth_steps, mdp) ? *depth_steps : 0;

  const std::vector<uint64_t> exit_offsets = std::move(problem.exit_offsets);
  const std::vector<EpochExit> exits = std::move(problem.exits);
  const std::vector<uint32_t> index = std::move(problem.index);
  const uint32_t largest_reward = problem.largest_reward;
  EpochSolver solver(inner, problem, mdp, maximize, steps);
  const uint64_t rows = solver.rows();
  EpochWindow window(depth, m);
  std::vector<double> b_lower(rows), b_upper(rows), scratch(m);
  const int threads = solver_threads(ctx.options().settings);
  bool certified = true;
  uint64_t solves = 0, same_run = 0, last = range.last;
  for (uint64_t e = range.first; e <= range.last; ++e) {
    throw_if_cancelled(ctx.options().settings.cancel);
    const auto r_end = static_cast<int64_t>(rows);
    bool any = false;
#pragma omp parallel for if (r_end > k_parallel_rows) num_threads(threads) schedule(static, 1024) reduction(|| : any)
    for (int64_t r = 0; r < r_end; ++r) {
      double lo = 0.0, hi = 0.0;
      for (uint64_t k = exit_offsets[r]; k < exit_offsets[r + 1]; ++k) {
        const ExitValue v = range.value(exits[k], e, index, window);
        lo += exits[k].probability * v.lower;
        hi += exits[k].probability * v.upper;
      }
      b_lower[r] = lo;
      b_upper[r] = hi;
      any = any || hi != 0.0;
    }
    double* lower = window.lower(e);
    double* upper = window.upper(e);
    if (!any) {
      // No exit is worth anything yet: the epoch's value is exactly 0.
      std::fill(lower, lower + m, 0.0);
      std::fill(upper, upper + m, 0.0);
    } else {
      const bool same = b_lower == b_upper;
      certified = solver.solve(b_lower, lower, same ? upper : scratch.data()) && certified;
      ++solves;
      if (!same) {
        certified = solver.solve(b_upper, scratch.data(), upper) && certified;
        ++solves;
      }
    }
    // Once the last largest_reward + 1 epochs are equal (and every exit
    // reads a window epoch), the next epoch's problem is this one's again:
    // so is every later one, and their bounds are these.
    const bool equal = e > range.first && std::memcmp(lower, window.lower(e - 1), m * sizeof(double)) == 0 &&
                       std::memcmp(upper, window.upper(e - 1), m * sizeof(double)) == 0;
    same_run = equal ? same_run + 1 : 1;
    if (e < range.last && same_run >= uint64_t{largest_reward} + 1 && e >= range.first + largest_reward + 1) {
      inner.add_note(fmt::format("the reward bound's epochs are stationary after {} of {}", e - range.first + 1,
                                 epochs));
      last = e;
      break;
    }
  }
  // Exact steps stop where an epoch's iterate stops changing, which each
  // of them would note.
  inner.forget_notes(k_stationary_note_start);
  inner.add_note(fmt::format("reward bound: {} epochs of {} unknowns ({} solves{}, rewards up to {})",
                             last - range.first + 1, m, solves,
                             steps > 0 ? fmt::format(" of {} exact steps", steps) : std::string(), largest_reward));
  ctx.absorb(inner);
  Bounds out;
  out.lower.assign(window.lower(last), window.lower(last) + m);
  out.upper.assign(window.upper(last), window.upper(last) + m);
  if (!certified) out.upper = out.lower;  // the context says why it is unsound
  return out;
}

// The epochs' unknowns less the states that can stay among them on
// zero-reward steps forever (value 0 there), where no scheduler would leave:
// in a DTMC, and for a minimum. A maximum leaves such a trap when leaving
// pays; the solvers collapse its end components.
EpochProblem problem_without_traps(const CheckContext& ctx, const RewardStructure& rewards, Bitset unknowns,
                                   EpochProblemSpec spec, bool maximize) {
  const Model& model = ctx.model();
  spec.unknowns = &unknowns;
  EpochProblem problem = ctx.timed(Phase::build, [&] { return build_epoch_problem(model, rewards, spec); });
  if (model.type() == ModelType::mdp && maximize) return problem;
  const Bitset traps = ctx.timed(Phase::precompute, [&] { return zero_reward_traps(problem, model.num_states()); });
  if (traps.count() == 0) return problem;
  unknowns = bits::difference(unknowns, traps);
  return ctx.timed(Phase::build, [&] { return build_epoch_problem(model, rewards, spec); });
}

std::vector<double> unbounded(CheckContext& ctx, const PathFormula& path, bool maximize, const Bitset& left,
                              const Bitset& right, ResultExtras& extras) {
  if (ctx.model().type() != ModelType::mdp) return unbounded_until(ctx, left, right, extras);
  PathFormula plain;
  plain.kind = PathKind::until;
  plain.column = path.column;
  return mdp_path_probabilities(ctx, plain, maximize, left, right, extras);
}

// Values and bounds per state: `known` (lower = upper) where the epochs did
// not solve, their bounds' midpoint where they did.
std::vector<double> scatter(const std::vector<uint32_t>& states, const Bounds& solved, std::vector<double> known,
                            ResultExtras& extras) {
  extras.lower = known;
  extras.upper = known;
  for (uint64_t u = 0; u < states.size(); ++u) {
    const uint32_t s = states[u];
    extras.lower[s] = solved.lower[u];
    extras.upper[s] = std::max(solved.lower[u], solved.upper[u]);
    known[s] = bounds_midpoint(extras.lower[s], extras.upper[s]);
  }
  return known;
}

// `<=K`: epochs 0..K of the reward still allowed.
std::vector<double> upper_bounded(CheckContext& ctx, const PathFormula& path, const RewardStructure& rewards,
                                  bool maximize, const Bitset& left, const Bitset& right, uint64_t limit,
                                  ResultExtras& extras) {
  const Model& model = ctx.model();
  const bool mdp = model.type() == ModelType::mdp;
  // No (optimal) scheduler reaches φ from `zero` even without a bound.
  const Bitset zero = ctx.timed(Phase::precompute, [&] {
    const auto& tg = ctx.transposed();
    if (!mdp) return graph::prob0(tg, left, right);
    return maximize ? graph::prob0a(model, tg, left, right) : graph::prob0e(model, tg, left, right);
  });
  EpochProblemSpec spec;
  spec.exit_targets = &right;
  spec.zero_reward_exits = true;
  spec.reward_cap = limit + 1;
  spec.column = path.reward_bound->column;
  const Bitset unknowns = bits::difference(bits::difference(left, right), zero);
  ctx.require_problem_memory(mdp ? Computation::mdp_reachability : Computation::reachability, unknowns);
  EpochProblem problem = problem_without_traps(ctx, rewards, unknowns, spec, maximize);
  std::vector<double> known(model.num_states(), 0.0);
  bits::for_each_set(right, [&](uint64_t s) { known[s] = 1.0; });
  const std::vector<uint32_t> states = problem.states;
  if (states.empty()) return known;
  auto value = [](const EpochExit& exit, uint64_t epoch, const std::vector<uint32_t>& index,
                  const EpochWindow& window) -> ExitValue {
    if (exit.reward > epoch) return {0.0, 0.0};
    const uint32_t u = index[exit.target];
    if (u == EpochProblem::k_not_unknown) return {1.0, 1.0};  // φ (right: the only exit targets besides unknowns)
    return {window.lower(epoch - exit.reward)[u], window.upper(epoch - exit.reward)[u]};
  };
  const Bounds solved = unfold(ctx, std::move(problem), maximize, EpochRange<decltype(value)>{0, limit, value},
                               ctx.options().settings.epsilon);
  return scatter(states, solved, std::move(known), extras);
}

// `>=N`, N ≥ 1: epochs 1..N of the reward still needed, over the unbounded
// values once it is earned.
std::vector<double> lower_bounded(CheckContext& ctx, const PathFormula& path, const RewardStructure& rewards,
                                  bool maximize, const Bitset& left, const Bitset& right, uint64_t limit,
                                  ResultExtras& extras) {
  const Model& model = ctx.model();
  const bool mdp = model.type() == ModelType::mdp;
  // Half of ε for the values once the reward is earned, half for the epochs
  // that read them.
  const double epsilon = ctx.options().settings.epsilon / 2;
  CheckOptions half = ctx.options();
  half.settings.epsilon = epsilon;
  CheckContext reaching(model, half);
  ResultExtras reached_extras;
  const std::vector<double> reached_values = unbounded(reaching, path, maximize, left, right, reached_extras);
  ctx.absorb(reaching);
  const Bounds reached{reached_extras.lower.empty() ? reached_values : reached_extras.lower,
                       reached_extras.upper.empty() ? reached_values : reached_extras.upper};
  // Where even the unbounded value is 0, every epoch's is.
  Bitset positive(model.num_states());
  for (uint64_t s = 0; s < model.num_states(); ++s) {
    if (reached.upper[s] > 0.0) positive.set(s);
  }
  EpochProblemSpec spec;
  spec.exit_targets = &positive;
  spec.zero_reward_exits = false;
  spec.reward_cap = limit;
  spec.column = path.reward_bound->column;
  const Bitset unknowns = bits::intersection(left, positive);
  ctx.require_problem_memory(mdp ? Computation::mdp_reachability : Computation::reachability, unknowns);
  EpochProblem problem = problem_without_traps(ctx, rewards, unknowns, spec, maximize);
  const std::vector<uint32_t> states = problem.states;
  std::vector<double> known(model.num_states(), 0.0);
  if (states.empty()) return known;
  auto value = [&reached](const EpochExit& exit, uint64_t epoch, const std::vector<uint32_t>& index,
                          const EpochWindow& window) -> ExitValue {
    if (exit.reward >= epoch) return {reached.lower[exit.target], reached.upper[exit.target]};
    const uint32_t u = index[exit.target];
    if (u == EpochProblem::k_not_unknown) return {0.0, 0.0};
    return {window.lower(epoch - exit.reward)[u], window.upper(epoch - exit.reward)[u]};
  };
  const Bounds solved =
      unfold(ctx, std::move(problem), maximize, EpochRange<decltype(value)>{1, limit, value}, epsilon);
  return scatter(states, solved, std::move(known), extras);
}

}  // namespace

std::vector<double> reward_bounded_probabilities(CheckContext& ctx, const PathFormula& path,
                                                 const RewardStructure& rewards, bool maximize, const Bitset& left,
                                                 const Bitset& right, ResultExtras& extras) {
  const Model& model = ctx.model();
  const RewardBound& bound = *path.reward_bound;
  if (model.type() != ModelType::dtmc && model.type() != ModelType::mdp) {
    fail(ErrorCode::unsupported,
         "column {}: reward bounds ({}) on a CTMC are not supported; pmc checks them on DTMCs and MDPs", bound.column,
         property::to_string(bound));
  }
  const IntegerBound b = integer_bound(bound);
  // Each epoch is a step of the unfolding: the iteration limit bounds their
  // number as it bounds a step bound's (a cut unfolding would answer a
  // smaller bound, so it is an error).
  const uint64_t max_epochs = ctx.options().settings.max_iterations;
  const int64_t epochs = b.upper ? b.limit + 1 : b.limit;
  if (epochs > 0 && static_cast<uint64_t>(epochs) > max_epochs) {
    fail(ErrorCode::unsupported,
         "column {}: reward bound {} needs {} epochs, more than the iteration limit {} (raise it with {})",
         bound.column, property::to_string(bound.bound), epochs, max_epochs,
         setting_usage(Setting::max_iterations, std::to_string(epochs)));
  }
  if (b.upper && b.limit < 0) return std::vector<double>(model.num_states(), 0.0);  // no run earns less than 0
  if (!b.upper && b.limit <= 0) return unbounded(ctx, path, maximize, left, right, extras);  // every run earns 0
  const auto limit = static_cast<uint64_t>(b.limit);
  return b.upper ? upper_bounded(ctx, path, rewards, maximize, left, right, limit, extras)
                 : lower_bounded(ctx, path, rewards, maximize, left, right, limit, extras);
}

}  // namespace pmc
