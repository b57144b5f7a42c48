#include "check/exact_check.hpp"

#include "common/caller_language.hpp"
#include "common/cancellation.hpp"
#include "common/error.hpp"

#ifdef PMC_HAVE_GMP
#include <chrono>

#include <fmt/format.h>

#include "expression/exact_evaluator.hpp"
#include "graph/bitset_ops.hpp"
#include "graph/dtmc_precomputation.hpp"
#include "graph/mdp_precomputation.hpp"
#include "graph/reachability.hpp"
#include "model/exact_source.hpp"
#include "solver/linear/rationals.hpp"
#include "solver/linear/state_elimination.hpp"
#endif

namespace pmc {

#ifndef PMC_HAVE_GMP

bool exact_arithmetic_available() { return false; }

std::vector<double> exact_query_values(CheckContext&, const property::Operator&, const Bitset&, const Bitset&, size_t,
                                       uint64_t, ResultExtras&, std::string&, Bitset*) {
  fail(ErrorCode::unsupported, "{} needs rational arithmetic, and this pmc was built without GMP (libgmp-dev)",
       setting_name(Setting::exact));
}

#else

bool exact_arithmetic_available() { return true; }

namespace {

namespace bits = graph::bits;
using property::OperatorKind;
using property::Optimisation;
using Phase = CheckContext::Phase;
using expression::rational_from_text;
using expression::rational_text;

// Elimination steps (rational operations, weighted by the numbers' sizes)
// one solve may take: about 13 s on one core (herman N=13's 8166 unknowns
// reach it), seconds for the models exact answers are wanted for. Beyond
// it the check gives up and says so instead of running on for hours.
constexpr uint64_t k_exact_work_budget = uint64_t{1} << 28;

// A file's double as the decimal it prints as (the shortest that reads
// back as it): 0.7 read from a file is 7/10, as written.
mpq_class decimal_of(double value) {
  if (!std::isfinite(value)) fail(ErrorCode::model, "{}: the model holds the number {}", setting_name(Setting::exact), value);
  return rational_from_text(fmt::format("{}", value));
}

std::vector<mpq_class> decimals_of(const std::vector<double>& values) {
  std::vector<mpq_class> out;
  out.reserve(values.size());
  for (double v : values) out.push_back(decimal_of(v));
  return out;
}

// The model's numbers as rationals, as the chain or MDP steps: a CTMC's
// rates become its embedded chain's R(s,t)/E(s), E counting self-loops as
// the double path does (chain_matrices.hpp).
struct ExactNumbers {
  std::vector<mpq_class> probability;  // per entry
  std::vector<mpq_class> exit_rate;    // CTMC only, per state
};

ExactNumbers exact_numbers(CheckContext& ctx) {
  const Model& model = ctx.model();
  ExactNumbers out;
  const ExactValueSource* source = model.exact_source();
  if (source != nullptr) {
    out.probability = source->transition_values(model);
  } else {
    out.probability = decimals_of(model.values());
    ctx.add_note("exact: the model's numbers are the doubles of a file, each taken as the shortest decimal that reads "
                 "back as it (0.7 as 7/10)");
  }
  const auto& groups = model.row_groups();
  const auto& offsets = model.row_offsets();
  for (uint64_t s = 0; s < model.num_states(); ++s) {
    for (uint64_t row = groups[s]; row < groups[s + 1]; ++row) {
      mpq_class sum = 0;
      for (uint64_t k = offsets[row]; k < offsets[row + 1]; ++k) sum += out.probability[k];
      if (model.type() == ModelType::ctmc) {
        out.exit_rate.push_back(sum);
        for (uint64_t k = offsets[row]; k < offsets[row + 1]; ++k) out.probability[k] /= sum;
      } else if (sum != 1) {
        fail(ErrorCode::model, "{}: in {}, the probabilities sum to {}, not exactly 1", setting_name(Setting::exact),
             model.describe_row(row), rational_text(sum));
      }
    }
  }
  return out;
}

// The reward earned per step of each row (an MDP's choice, a chain's
// state): the state reward (CTMC: over the exit rate, the time per
// embedded step) and the expected transition reward (a CTMC's self-loops
// earn none), as the double path (chain_matrices.cpp, mdp_properties.cpp).
// `reward_index` SIZE_MAX: one per time unit (T=?).
std::vector<mpq_class> step_rewards(const CheckContext& ctx, const ExactNumbers& numbers, size_t reward_index) {
  const Model& model = ctx.model();
  const bool ctmc = model.type() == ModelType::ctmc;
  ExactRewards rewards;
  std::optional<ExactRewards> from_source;
  if (reward_index != SIZE_MAX && model.exact_source() != nullptr) {
    from_source = model.exact_source()->rewards(model, reward_index);
  }
  if (reward_index == SIZE_MAX) {
    rewards.state_rewards.assign(model.num_states(), 1);
  } else if (from_source) {
    rewards = std::move(*from_source);
  } else {
    rewards.state_rewards = decimals_of(model.rewards()[reward_index].state_rewards);
    rewards.transition_rewards = decimals_of(model.rewards()[reward_index].transition_rewards);
  }
  std::vector<mpq_class> out(model.num_rows(), 0);
  const auto& groups = model.row_groups();
  const auto& offsets = model.row_offsets();
  for (uint64_t s = 0; s < model.num_states(); ++s) {
    for (uint64_t row = groups[s]; row < groups[s + 1]; ++row) {
      mpq_class& r = out[row];
      if (!rewards.state_rewards.empty()) r = ctmc ? mpq_class(rewards.state_rewards[s] / numbers.exit_rate[s])
                                                   : rewards.state_rewards[s];
      if (rewards.transition_rewards.empty()) continue;
      for (uint64_t k = offsets[row]; k < offsets[row + 1]; ++k) {
        if (ctmc && model.columns()[k] == s) continue;
        r += numbers.probability[k] * rewards.transition_rewards[k];
      }
    }
  }
  return out;
}

// One policy's (a chain's) values on the unknown states: x_s = Σ_t p·x_t
// + b over row `row_of[s]` of each unknown s, where a known state t
// contributes p·known[t] and the row's reward adds to b.
class PolicySolver {
 public:
  PolicySolver(CheckContext& ctx, const ExactNumbers& numbers, const Bitset& unknown, const std::vector<mpq_class>& known,
               const std::vector<mpq_class>* rewards)
      : ctx_(ctx), numbers_(numbers), known_(known), rewards_(rewards), local_(ctx.model().num_states(), UINT32_MAX) {
    bits::for_each_set(unknown, [&](uint64_t s) {
      local_[s] = static_cast<uint32_t>(states_.size());
      states_.push_back(s);
    });
  }

  const std::vector<uint64_t>& states() const { return states_; }
  bool is_unknown(uint64_t s) const { return local_[s] != UINT32_MAX; }

  // The unknowns' values under the rows `row_of` (indexed by state).
  std::vector<mpq_class> solve(const std::vector<uint64_t>& row_of) {
    const Model& model = ctx_.model();
    const auto& offsets = model.row_offsets();
    StateElimination<mpq_class> system(static_cast<uint32_t>(states_.size()), 1);
    for (uint32_t i = 0; i < states_.size(); ++i) {
      const uint64_t row = row_of[states_[i]];
      mpq_class& b = system.rhs(i, 0);
      if (rewards_ != nullptr) b = (*rewards_)[row];
      for (uint64_t k = offsets[row]; k < offsets[row + 1]; ++k) {
        const uint32_t t = model.columns()[k];
        if (local_[t] != UINT32_MAX) {
          system.add(i, local_[t], numbers_.probability[k]);
        } else {
          b += numbers_.probability[k] * known_[t];
        }
      }
    }
    const auto outcome = system.eliminate(k_exact_work_budget);
    if (outcome == StateElimination<mpq_class>::Outcome::over_budget) {
      fail(ErrorCode::unsupported, "{}: solving the {} unknown states exactly passed its budget of {} elimination "
           "steps (the rationals or the fill grew too large); without it pmc gives certified bounds",
           setting_name(Setting::exact), states_.size(), k_exact_work_budget);
    }
    if (outcome != StateElimination<mpq_class>::Outcome::eliminated) {
      fail(ErrorCode::internal, "exact: a policy's system over {} unknown states is singular", states_.size());
    }
    ++solves_;
    return system.solution(0);
  }

  // Σ p·x over `row` (plus its reward), x the unknowns' values and known_ elsewhere.
  mpq_class row_value(uint64_t row, const std::vector<mpq_class>& x) const {
    const Model& model = ctx_.model();
    mpq_class sum = rewards_ != nullptr ? (*rewards_)[row] : mpq_class(0);
    for (uint64_t k = model.row_offsets()[row]; k < model.row_offsets()[row + 1]; ++k) {
      const uint32_t t = model.columns()[k];
      sum += numbers_.probability[k] * (local_[t] != UINT32_MAX ? x[local_[t]] : known_[t]);
    }
    return sum;
  }

  uint64_t solves() const { return solves_; }

 private:
  CheckContext& ctx_;
  const ExactNumbers& numbers_;
  const std::vector<mpq_class>& known_;
  const std::vector<mpq_class>* rewards_;
  std::vector<uint32_t> local_;
  std::vector<uint64_t> states_;
  uint64_t solves_ = 0;
};

// Policy iteration from `row_of` (each unknown state's first row must be a
// proper choice: see the header): improve where a row is strictly better,
// among `allowed` rows (null: all), until no row is.
std::vector<mpq_class> improve_policy(CheckContext& ctx, PolicySolver& solver, bool maximize,
                                      std::vector<uint64_t>& row_of, const std::vector<bool>* allowed,
                                      uint64_t& rounds) {
  const auto start = std::chrono::steady_clock::now();
  const Model& model = ctx.model();
  const auto& groups = model.row_groups();
  while (true) {
    throw_if_cancelled(ctx.options().settings.cancel);
    std::vector<mpq_class> x = solver.solve(row_of);
    ++rounds;
    bool changed = false;
    for (size_t i = 0; i < solver.states().size(); ++i) {
      const uint64_t s = solver.states()[i];
      mpq_class best = x[i];
      for (uint64_t row = groups[s]; row < groups[s + 1]; ++row) {
        if (row == row_of[s] || (allowed != nullptr && !(*allowed)[row])) continue;
        const mpq_class q = solver.row_value(row, x);
        if (maximize ? q > best : q < best) {
          best = q;
          row_of[s] = row;
          changed = true;
        }
      }
    }
    if (!changed || model.type() != ModelType::mdp) {
      ctx.record_direct_solve("cpu.exact-pi",
                              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      return x;
    }
  }
}

// For Pmax: a first policy under which every state of `unknown` leaves it
// almost surely: breadth-first from `exits` backwards, each state taking
// the row through which it joined, which has a successor already reached
// (so every state has a positive chance to come one step closer).
std::vector<uint64_t> attractor_rows(const Model& model, const graph::TransposedGraph& tg, const Bitset& unknown,
                                     const Bitset& exits) {
  std::vector<uint64_t> row_of(model.num_states(), UINT64_MAX);
  graph::backward_search(tg, exits, [&](uint32_t row, uint32_t s) {
    if (!unknown.test(s)) return false;
    row_of[s] = row;
    return true;
  });
  bits::for_each_set(unknown, [&](uint64_t s) {
    if (row_of[s] == UINT64_MAX) fail(ErrorCode::internal, "exact: state {} cannot leave the maybe states", s);
  });
  return row_of;
}

// For a Pmin = 0 state: a row all of whose successors keep Pmin = 0 (one
// exists: that is how prob0e finds it).
int64_t avoiding_choice(const Model& model, uint64_t s, const Bitset& zero) {
  const auto& groups = model.row_groups();
  for (uint64_t row = groups[s]; row < groups[s + 1]; ++row) {
    bool stays = true;
    for (uint64_t k = model.row_offsets()[row]; k < model.row_offsets()[row + 1] && stays; ++k) {
      stays = zero.test(model.columns()[k]);
    }
    if (stays) return static_cast<int64_t>(row - groups[s]);
  }
  return -1;
}

std::vector<uint64_t> first_rows(const Model& model) {
  std::vector<uint64_t> row_of(model.num_states());
  for (uint64_t s = 0; s < model.num_states(); ++s) row_of[s] = model.row_groups()[s];
  return row_of;
}

struct ExactValues {
  std::vector<mpq_class> value;  // per state
  Bitset infinite;               // rewards: +∞ here
};

ExactValues probabilities(CheckContext& ctx, const ExactNumbers& numbers, bool maximize, const Bitset& left,
                          const Bitset& right, std::vector<int64_t>& scheduler, uint64_t& rounds) {
  const Model& model = ctx.model();
  const uint64_t n = model.num_states();
  const bool mdp = model.type() == ModelType::mdp;
  const auto& tg = ctx.transposed();
  Bitset zero, one;
  ctx.timed(Phase::precompute, [&] {
    if (!mdp) {
      zero = graph::prob0(tg, left, right);
      one = right;
    } else if (maximize) {
      zero = graph::prob0a(model, tg, left, right);
      one = graph::prob1e(model, tg, left, right);
    } else {
      zero = graph::prob0e(model, tg, left, right);
      one = graph::prob1a(model, tg, left, right, zero);
    }
  });
  ExactValues out{std::vector<mpq_class>(n, 0), Bitset(n)};
  bits::for_each_set(one, [&](uint64_t s) { out.value[s] = 1; });
  const Bitset unknown = bits::complement(bits::set_union(zero, one));
  std::vector<uint64_t> row_of = first_rows(model);
  if (mdp) {
    scheduler.assign(n, -1);
    if (maximize) {
      // States with Pmax = 1 steer towards ψ (staying is not enough).
      const std::vector<uint64_t> progressing = graph::progressing_choices(model, tg, left, right, one);
      bits::for_each_set(bits::difference(one, right), [&](uint64_t s) {
        if (progressing[s] != graph::k_no_choice) scheduler[s] = static_cast<int64_t>(progressing[s] - model.row_groups()[s]);
      });
      if (unknown.count() > 0) row_of = attractor_rows(model, tg, unknown, bits::set_union(zero, one));
    } else {
      bits::for_each_set(bits::difference(zero, right), [&](uint64_t s) { scheduler[s] = avoiding_choice(model, s, zero); });
    }
  }
  if (unknown.count() == 0) return out;
  PolicySolver solver(ctx, numbers, unknown, out.value, nullptr);
  const std::vector<mpq_class> x = improve_policy(ctx, solver, maximize, row_of, nullptr, rounds);
  for (size_t i = 0; i < solver.states().size(); ++i) {
    const uint64_t s = solver.states()[i];
    out.value[s] = x[i];
    if (mdp) scheduler[s] = static_cast<int64_t>(row_of[s] - model.row_groups()[s]);
  }
  return out;
}

ExactValues reachability_rewards(CheckContext& ctx, const ExactNumbers& numbers, bool maximize, const Bitset& target,
                                 size_t reward_index, std::vector<int64_t>& scheduler, uint64_t& rounds) {
  const Model& model = ctx.model();
  const uint64_t n = model.num_states();
  const bool mdp = model.type() == ModelType::mdp;
  const auto& tg = ctx.transposed();
  const Bitset all = bits::full(n);
  // Finite where ψ is reached almost surely: by every scheduler for Rmax,
  // by some for Rmin (as the double path and PRISM).
  Bitset finite;
  ctx.timed(Phase::precompute, [&] {
    if (!mdp) finite = graph::prob1(tg, all, target);
    else finite = maximize ? graph::prob1a(model, tg, all, target) : graph::prob1e(model, tg, all, target);
  });
  ExactValues out{std::vector<mpq_class>(n, 0), bits::difference(bits::complement(finite), target)};
  const Bitset unknown = bits::difference(finite, target);
  std::vector<uint64_t> row_of = first_rows(model);
  std::vector<bool> allowed;
  if (mdp) {
    scheduler.assign(n, -1);
    if (!maximize) {
      // Rmin: only rows that stay where ψ is sure, from rows that also come closer to it.
      const std::vector<uint64_t> progressing = graph::progressing_choices(model, tg, all, target, finite);
      bits::for_each_set(unknown, [&](uint64_t s) { row_of[s] = progressing[s]; });
      allowed.assign(model.num_rows(), true);
      for (uint64_t row = 0; row < model.num_rows(); ++row) {
        for (uint64_t k = model.row_offsets()[row]; k < model.row_offsets()[row + 1]; ++k) {
          if (!finite.test(model.columns()[k])) allowed[row] = false;
        }
      }
    }
  }
  if (unknown.count() == 0) return out;
  const std::vector<mpq_class> rewards =
      ctx.timed(Phase::build, [&] { return step_rewards(ctx, numbers, reward_index); });
  PolicySolver solver(ctx, numbers, unknown, out.value, &rewards);
  const std::vector<mpq_class> x = improve_policy(ctx, solver, maximize, row_of, allowed.empty() ? nullptr : &allowed, rounds);
  for (size_t i = 0; i < solver.states().size(); ++i) {
    const uint64_t s = solver.states()[i];
    out.value[s] = x[i];
    if (mdp) scheduler[s] = static_cast<int64_t>(row_of[s] - model.row_groups()[s]);
  }
  return out;
}

// The double nearest q (ties to the lower).
double nearest(const mpq_class& q, double below, double above) {
  return q - mpq_class(below) <= mpq_class(above) - q ? below : above;
}

}  // namespace

// Whether `value` (+∞ when `infinite`) meets op's bound `threshold`.
static bool meets(const property::Operator& op, const mpq_class& value, bool infinite, const mpq_class& threshold) {
  const int order = infinite ? 1 : cmp(value, threshold);
  switch (op.comparison) {
    case property::Comparison::less: return order < 0;
    case property::Comparison::less_equal: return order <= 0;
    case property::Comparison::greater: return order > 0;
    case property::Comparison::greater_equal: return order >= 0;
    case property::Comparison::query: break;
  }
  return false;
}

std::vector<double> exact_query_values(CheckContext& ctx, const property::Operator& op, const Bitset& left,
                                       const Bitset& right, size_t reward_index, uint64_t initial_state,
                                       ResultExtras& extras, std::string& initial_text, Bitset* satisfying) {
  const Model& model = ctx.model();
  const bool maximize = op.optimisation == Optimisation::max;
  const ExactNumbers numbers = ctx.timed(Phase::build, [&] { return exact_numbers(ctx); });
  uint64_t rounds = 0;
  ExactValues exact = op.kind == OperatorKind::probability
                          ? probabilities(ctx, numbers, maximize, left, right, extras.scheduler, rounds)
                          : reachability_rewards(ctx, numbers, maximize, right, reward_index, extras.scheduler, rounds);
  const uint64_t n = model.num_states();
  std::vector<double> values(n);
  extras.lower.resize(n);
  extras.upper.resize(n);
  for (uint64_t s = 0; s < n; ++s) {
    if (exact.infinite.test(s)) {
      values[s] = extras.lower[s] = extras.upper[s] = k_infinity;
      continue;
    }
    extras.lower[s] = round_down(exact.value[s]);
    extras.upper[s] = round_up(exact.value[s]);
    values[s] = nearest(exact.value[s], extras.lower[s], extras.upper[s]);
  }
  initial_text = exact.infinite.test(initial_state) ? "Infinity" : rational_text(exact.value[initial_state]);
  if (satisfying != nullptr && !op.is_query()) {
    mpq_class threshold;
    if (!op.threshold_text.empty()) {
      threshold = rational_from_text(op.threshold_text);
    } else {
      threshold = mpq_class(op.threshold);
      ctx.add_note(fmt::format("exact: the bound {} comes from constants, evaluated in doubles; compared as {}",
                               op.threshold, rational_text(threshold)));
    }
    *satisfying = Bitset(n);
    for (uint64_t s = 0; s < n; ++s) {
      if (meets(op, exact.value[s], exact.infinite.test(s), threshold)) satisfying->set(s);
    }
  }
  if (model.type() != ModelType::mdp) extras.scheduler.clear();
  if (rounds == 0) ctx.record_direct_solve("cpu.exact-pi", 0.0);  // every state decided by the graph
  ctx.add_note(fmt::format("exact: rational arithmetic (GMP); {} {}", rounds,
                           model.type() == ModelType::mdp ? "policies evaluated" : "system solved"));
  return values;
}

#endif

}  // namespace pmc
