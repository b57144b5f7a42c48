// Expected rewards of DTMCs and CTMCs: R[F ψ] (infinite where ψ is missed
// with positive probability, as PRISM), R[C<=k], R[I=k] and R[S].
#include "check/chain_matrices.hpp"
#include "check/computations.hpp"
#include "common/error.hpp"
#include "graph/bitset_ops.hpp"
#include "graph/dtmc_precomputation.hpp"

namespace pmc {

namespace {

namespace bits = graph::bits;
using Phase = CheckContext::Phase;
using property::RewardFormula;
using property::RewardKind;

std::vector<double> reachability_reward(CheckContext& ctx, const RewardStructure& rewards, const Bitset& target,
                                        ResultExtras& extras) {
  const Model& model = ctx.model();
  const uint64_t n = model.num_states();
  // States that reach ψ with probability 1 have a finite expected reward;
  // every other state (that is not in ψ) has reward +∞.
  const Bitset sure = ctx.timed(Phase::precompute, [&] { return graph::prob1(ctx.transposed(), bits::full(n), target); });
  const Bitset maybe = bits::difference(sure, target);
  std::vector<double> values(n, k_infinity);
  bits::for_each_set(target, [&](uint64_t s) { values[s] = 0.0; });
  if (maybe.count() == 0) return values;
  ctx.require_problem_memory(Computation::reachability, maybe);
  std::vector<uint32_t> index;
  LinearSystem system = ctx.timed(Phase::build, [&] {
    const std::vector<double> per_step =
        model.type() == ModelType::ctmc ? embedded_rewards(model, rewards) : reward_rates(model, rewards);
    return restrict_linear(probability_matrix(model), maybe, {}, per_step, index);
  });
  std::vector<double> x(system.b.size(), 0.0), lower, upper;
  ctx.solve_linear(system, x, &lower, &upper);
  scatter_solution(maybe, index, x, lower, upper, values, extras);
  return values;
}

uint64_t step_count(const RewardFormula& formula) {
  if (!formula.bound.is_integer) {
    fail(ErrorCode::property, "column {}: a DTMC has discrete time: the bound {} must be an integer number of steps",
         formula.column, property::to_string(formula.bound));
  }
  return static_cast<uint64_t>(formula.bound.value);
}

std::vector<double> state_rewards_of(const Model& model, const RewardStructure& rewards) {
  return rewards.state_rewards.empty() ? std::vector<double>(model.num_states(), 0.0) : rewards.state_rewards;
}

}  // namespace

std::vector<double> reward_values(CheckContext& ctx, const RewardFormula& formula, const RewardStructure& rewards,
                                  const Bitset& target, ResultExtras& extras) {
  const Model& model = ctx.model();
  const bool ctmc = model.type() == ModelType::ctmc;
  switch (formula.kind) {
    case RewardKind::reachability:
      return reachability_reward(ctx, rewards, target, extras);
    case RewardKind::long_run:
      return long_run_values(ctx, reward_rates(model, rewards), extras);
    case RewardKind::cumulative:
      if (ctmc) return ctmc_cumulative_reward(ctx, reward_rates(model, rewards), formula.bound.value);
      // v_0 = 0, v_{j+1} = r + P·v_j: the reward of the first k steps.
      return dtmc_steps(ctx, bits::full(model.num_states()), reward_rates(model, rewards),
                        std::vector<double>(model.num_states(), 0.0), step_count(formula));
    case RewardKind::instantaneous:
      if (ctmc) return ctmc_instantaneous_reward(ctx, state_rewards_of(model, rewards), formula.bound.value);
      // v_0 = the state rewards, v_{j+1} = P·v_j: their expectation after k steps.
      return dtmc_steps(ctx, bits::full(model.num_states()), {}, state_rewards_of(model, rewards),
                        step_count(formula));
  }
  fail(ErrorCode::internal, "unknown reward formula");
}

}  // namespace pmc
