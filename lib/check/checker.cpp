// The model checker's entry point: parse, check that the property fits the
// model, evaluate state formulas bottom-up (nested operators become state
// sets through their bounds), and compute the top operator's values.
#include <algorithm>
#include <chrono>
#include <cmath>

#include "check/check.hpp"
#include "check/computations.hpp"
#include "check/conditional.hpp"
#include "check/exact_check.hpp"
#include "check/filters.hpp"
#include "check/memory_budget.hpp"
#include "check/reward_bounded.hpp"
#include "check/state_expressions.hpp"
#include "common/caller_language.hpp"
#include "common/error.hpp"
#include "common/memory_limit.hpp"
#include "common/stopwatch.hpp"
#include "model/model_memory.hpp"
#include "solver/registry.hpp"
#include "graph/bitset_ops.hpp"
#include "property/definitions.hpp"
#include "property/parser.hpp"
#include "common/cancellation.hpp"

namespace pmc {

namespace {

namespace bits = graph::bits;
using namespace property;

void require_checkable(const Model& model) {
  switch (model.type()) {
    case ModelType::dtmc:
    case ModelType::ctmc:
    case ModelType::mdp:
      return;
    case ModelType::pctmc:
      fail(ErrorCode::invalid_argument,
           "a parametric CTMC has no single value per state: give a value for each parameter ({}), or synthesise "
           "parameter regions (pmc synth)",
           setting_name(Setting::parameters));
  }
}

std::string label_list(const Model& model) {
  std::string names;
  for (const Label& l : model.labels()) names += (names.empty() ? "\"" : ", \"") + l.name + "\"";
  return names.empty() ? "none" : names;
}

// `name` empty: the first structure. `column`: of the R operator or the reward bound.
const RewardStructure& reward_structure(const Model& model, const std::string& name, size_t column) {
  if (model.rewards().empty()) {
    fail(ErrorCode::property, "column {}: the model has no reward structure (load its .srew/.trew files)", column);
  }
  const RewardStructure* r = model.find_rewards(name);
  if (r == nullptr) {
    std::string names;
    for (const RewardStructure& s : model.rewards()) names += (names.empty() ? "\"" : ", \"") + s.name + "\"";
    fail(ErrorCode::property, "column {}: unknown reward structure \"{}\" (the model has {})", column, name, names);
  }
  return *r;
}

// Whether an MDP operator maximises: Pmax/Rmax, or a bound that must hold
// for every scheduler (P>=p: the minimum must be >= p; P<=p: the maximum).
bool maximizes(const Operator& op) {
  if (op.optimisation != Optimisation::none) return op.optimisation == Optimisation::max;
  if (op.is_query()) {
    const char* letter = op.kind == OperatorKind::reward         ? "R"
                         : op.kind == OperatorKind::time         ? "T"
                         : op.kind == OperatorKind::steady_state ? "LRA"
                                                                 : "P";
    fail(ErrorCode::property, "column {}: an MDP has no single {}: ask for {}min=? or {}max=?", op.column,
         op.kind == OperatorKind::probability    ? "probability"
         : op.kind == OperatorKind::steady_state ? "long-run average"
                                                 : "expected value",
         letter, letter);
  }
  return op.comparison == Comparison::less || op.comparison == Comparison::less_equal;
}

// Time bounds must fit the model: integer steps on a DTMC or MDP.
void check_time_bound(const Model& model, const TimeBound& bound, size_t column) {
  if (model.type() != ModelType::dtmc && model.type() != ModelType::mdp) return;
  for (const auto& n : {bound.lower, bound.upper}) {
    if (n && !n->is_integer) {
      fail(ErrorCode::property,
           "column {}: time bound {} on a {}: discrete-time models take integer step bounds (F<=2.5 needs a CTMC)",
           column, to_string(*n), model.type() == ModelType::mdp ? "MDP" : "DTMC");
    }
  }
  if (bound.lower && bound.upper && bound.lower->value > bound.upper->value) {
    fail(ErrorCode::property, "column {}: empty time interval {}", column, to_string(bound));
  }
}

// Whether a state formula asks for an operator's or a filter's values:
// those are computed in doubles, so --exact refuses them.
bool reads_values(const StateFormula* f) {
  if (f == nullptr) return false;
  if (f->kind == StateKind::op || f->kind == StateKind::filter) return true;
  return reads_values(f->left.get()) || reads_values(f->right.get());
}

// The top-level operator --exact computes (a query, or a bound on it whose
// verdict it decides), or Error(unsupported) naming what it is not.
const Operator& exact_query(const Property& property) {
  const Operator* op = property.top_operator();
  const std::string computes = setting_name(Setting::exact) +
                              " computes P=? [ F ψ ], P=? [ φ U ψ ], R=? [ F ψ ] and T=? [ F ψ ] (min/max on MDPs) "
                              "and their bounds (P>=0.5 [ F ψ ]), unbounded, at the top of the property, with φ and ψ "
                              "free of nested operators";
  if (op == nullptr) fail(ErrorCode::unsupported, "{}; {} is not such a query", computes, to_string(property));
  bool fits = false;
  if (op->kind == OperatorKind::probability) {
    const PathFormula& path = *op->path;
    fits = !op->condition && !path.reward_bound && path.bound.unbounded() &&
           (path.kind == PathKind::eventually || path.kind == PathKind::until) && !reads_values(path.left.get()) &&
           !reads_values(path.right.get());
  } else if (op->kind == OperatorKind::reward || op->kind == OperatorKind::time) {
    fits = op->reward.kind == RewardKind::reachability && !reads_values(op->reward.target.get());
  }
  if (!fits) fail(ErrorCode::unsupported, "{}; column {}: {} is not one", computes, op->column, to_string(*op));
  return *op;
}

// Exact results come from cpu.exact-pi alone, and from the model's own
// numbers: another solver, or a parametric CTMC (whose instance at a point
// is computed in doubles), is refused before anything runs.
void require_exact_options(const Model& model, const CheckOptions& options) {
  const std::string& solver = options.solver;
  if (solver != "auto" && solver != "cpu" && solver != k_exact_solver) {
    fail(ErrorCode::invalid_argument, "{} computes with {}; the solver {} gives no exact results (leave the solver "
         "to auto)", setting_name(Setting::exact), k_exact_solver, quote_for_message(solver));
  }
  if (model.type() == ModelType::pctmc || !options.parameters.empty()) {
    fail(ErrorCode::unsupported, "{} does not check parametric CTMCs, at a parameter point or otherwise",
         setting_name(Setting::exact));
  }
}

uint64_t first_initial_state(const Model& model) {
  const Bitset* init = model.initial_states();
  return init == nullptr || init->count() == 0 ? 0 : init->find_next(0);
}

class PropertyChecker {
 public:
  PropertyChecker(const Model& model, const CheckOptions& options) : ctx_(model, options) {}

  CheckContext& context() { return ctx_; }

  Bitset states(const StateFormula& f) {
    const uint64_t n = ctx_.model().num_states();
    switch (f.kind) {
      case StateKind::constant:
        return f.value ? bits::full(n) : Bitset(n);
      case StateKind::label: {
        const Label* label = ctx_.model().find_label(f.label);
        if (label == nullptr) {
          fail(ErrorCode::property, "column {}: unknown label \"{}\" (the model has {})", f.column, f.label,
               label_list(ctx_.model()));
        }
        return label->states;
      }
      case StateKind::expression: {
        const std::vector<uint8_t> holds = expression_states(ctx_.model(), *f.expression, ctx_.options().settings.threads);
        Bitset set(n);
        for (uint64_t s = 0; s < n; ++s) {
          if (holds[s]) set.set(s);
        }
        return set;
      }
      case StateKind::negation:
        return bits::complement(states(*f.left));
      case StateKind::conjunction:
        return bits::intersection(states(*f.left), states(*f.right));
      case StateKind::disjunction:
        return bits::set_union(states(*f.left), states(*f.right));
      case StateKind::implication:
        return bits::set_union(bits::complement(states(*f.left)), states(*f.right));
      case StateKind::op: {
        ResultExtras extras;
        const std::vector<double> values = operator_values(*f.op, &extras);
        return bound_states(*f.op, values, extras);
      }
      case StateKind::filter: {
        const FilterValue value = filter_value(*f.filter);
        if (!value.values.boolean) {
          fail(ErrorCode::property, "column {}: filter({}, ...) gives a number here, but a truth value is needed (only "
               "the whole property or a filter's operand may be a number)",
               f.column, f.filter->written);
        }
        Bitset set(n);
        for (uint64_t s = 0; s < n; ++s) {
          if (value.values.values[s] != 0) set.set(s);
        }
        return set;
      }
    }
    fail(ErrorCode::internal, "unknown state formula");
  }

  // A filter's operand in every state: a query's numbers (with their
  // certified bounds while the check is sound), an expression's numbers or
  // truth values, or any other state formula's truth values.
  StateValues evaluate(const StateFormula& f) {
    StateValues out;
    if (f.kind == StateKind::filter) return filter_value(*f.filter).values;
    if (f.kind == StateKind::op && f.op->is_query()) {
      ResultExtras extras;
      out.values = operator_values(*f.op, &extras);
      if (!ctx_.sound()) return out;
      if (!extras.lower.empty()) {
        out.lower = std::move(extras.lower);
        out.upper = std::move(extras.upper);
      } else {
        // Exact steps: exact up to uniformisation's error, as certify() widens.
        const double error = ctx_.absolute_error();
        out.lower = out.values;
        out.upper = out.values;
        for (double& v : out.lower) v -= error;
        for (double& v : out.upper) v += error;
      }
      return out;
    }
    if (f.kind == StateKind::expression) {
      ExpressionValues e = expression_values(ctx_.model(), *f.expression, ctx_.options().settings.threads);
      out.boolean = e.is_boolean;
      out.values = std::move(e.values);
    } else {
      out.boolean = true;
      out.values.assign(ctx_.model().num_states(), 0.0);
      bits::for_each_set(states(f), [&](uint64_t s) { out.values[s] = 1.0; });
    }
    if (ctx_.sound()) {
      out.lower = out.values;
      out.upper = out.values;
    }
    return out;
  }

  FilterValue filter_value(const Filter& filter) {
    const StateValues operand = evaluate(*filter.operand);
    const Bitset within = filter.states ? states(*filter.states) : bits::full(ctx_.model().num_states());
    // Without certified bounds, values this close to the extreme count as
    // attaining it (argmin/argmax), as PRISM takes its accuracy.
    const SolverSettings& settings = ctx_.options().settings;
    double scale = 1.0;
    if (settings.relative) {
      for (double v : operand.values) {
        if (std::isfinite(v)) scale = std::max(scale, std::fabs(v));
      }
    }
    const double tolerance = std::max(ctx_.absolute_error(), settings.epsilon * scale);
    return apply_filter(filter, operand, within, tolerance);
  }

  // The states where the operator's bound holds, given its values: certified
  // only where the whole interval [lower, upper] is on one side of the bound.
  Bitset bound_states(const Operator& op, const std::vector<double>& values, const ResultExtras& extras) {
    const uint64_t n = values.size();
    Bitset set(n);
    uint64_t undecided = 0;
    const double error = ctx_.absolute_error();
    for (uint64_t s = 0; s < n; ++s) {
      if (op.holds(values[s])) set.set(s);
      const double lower = extras.lower.empty() ? values[s] - error : extras.lower[s];
      const double upper = extras.upper.empty() ? values[s] + error : extras.upper[s];
      if (op.holds(lower) != op.holds(upper)) ++undecided;
    }
    if (undecided > 0) {
      ctx_.mark_unsound(fmt::format("column {}: in {} states the bounds of the operator straddle its threshold (a "
                                    "smaller epsilon, {}, may decide them)",
                                    op.column, undecided, setting_name(Setting::epsilon)));
    }
    return set;
  }

  // `extras` (top-level MDP operators only) receives the scheduler and bounds.
  std::vector<double> operator_values(const Operator& op, ResultExtras* extras) {
    const Model& model = ctx_.model();
    const bool mdp = model.type() == ModelType::mdp;
    // What this operator's computation will hold, against the memory limit,
    // before any of it is built (its nested operators were estimated as they ran).
    const CheckOptions& options = ctx_.options();
    require_estimate(estimate_operator(model, op, options.solver, options.settings), options.settings,
                     fmt::format("checking {}", property::to_string(op)));
    ResultExtras ignored;
    if (extras == nullptr) extras = &ignored;
    switch (op.kind) {
      case OperatorKind::probability: {
        const PathFormula& path = *op.path;
        if (op.condition) {  // Storm's P[ F φ || F ψ ]
          require_conditional_shape(op);
          const bool maximize = mdp && maximizes(op);
          return conditional_probabilities(ctx_, op, maximize, states(*path.right), states(*op.condition->right),
                                           *extras);
        }
        check_time_bound(model, path.bound, path.column);
        const Bitset right = states(*path.right);
        const Bitset left = path.left ? states(*path.left) : bits::full(model.num_states());
        if (path.reward_bound) {
          const RewardBound& bound = *path.reward_bound;
          const RewardStructure& rewards = reward_structure(model, bound.reward_name, bound.column);
          return reward_bounded_probabilities(ctx_, path, rewards, mdp && maximizes(op), left, right, *extras);
        }
        if (mdp) return mdp_path_probabilities(ctx_, path, maximizes(op), left, right, *extras);
        return path_probabilities(ctx_, path, left, right, *extras);
      }
      case OperatorKind::steady_state: {
        const Bitset set = states(*op.state);
        if (mdp) {
          // The fraction of steps spent in the set: a reward of 1 on its states' choices.
          const bool maximize = maximizes(op);
          std::vector<double> row_rewards(model.num_rows(), 0.0);
          bits::for_each_set(set, [&](uint64_t s) {
            for (uint64_t r = model.row_groups()[s]; r < model.row_groups()[s + 1]; ++r) row_rewards[r] = 1.0;
          });
          return mdp_long_run_values(ctx_, row_rewards, maximize, *extras);
        }
        std::vector<double> indicator(model.num_states(), 0.0);
        bits::for_each_set(set, [&](uint64_t s) { indicator[s] = 1.0; });
        return long_run_values(ctx_, indicator, *extras);
      }
      case OperatorKind::reward: {
        const RewardStructure& rewards = reward_structure(model, op.reward_name, op.column);
        const RewardFormula& formula = op.reward;
        if (formula.kind == RewardKind::cumulative || formula.kind == RewardKind::instantaneous) {
          TimeBound bound;
          bound.upper = formula.bound;
          check_time_bound(model, bound, formula.column);
        }
        Bitset target = formula.target ? states(*formula.target) : Bitset(model.num_states());
        if (mdp) return mdp_reward_values(ctx_, formula, maximizes(op), rewards, target, *extras);
        return reward_values(ctx_, formula, rewards, target, *extras);
      }
      case OperatorKind::time: {
        // Storm's T[F ψ] is R[F ψ] of one unit per time unit: a CTMC earns
        // it at rate 1 (1/E(s) per visit of the embedded chain), a DTMC or
        // MDP one per step.
        RewardStructure time;
        time.name = "time";
        time.state_rewards.assign(model.num_states(), 1.0);
        const Bitset target = states(*op.reward.target);
        if (mdp) return mdp_reward_values(ctx_, op.reward, maximizes(op), time, target, *extras);
        return reward_values(ctx_, op.reward, time, target, *extras);
      }
    }
    fail(ErrorCode::internal, "unknown operator");
  }

 private:
  CheckContext ctx_;
};

// The result's bounds: a sound solve's, or the values themselves
// widened by the absolute error of uniformisation where only exact steps
// made them; none when any step of the check certified nothing.
void certify(const CheckContext& ctx, ResultExtras extras, CheckResult& result) {
  result.sound = ctx.sound();
  if (!result.sound) return;
  if (!extras.lower.empty()) {
    result.lower = std::move(extras.lower);
    result.upper = std::move(extras.upper);
    return;
  }
  const double error = result.is_boolean ? 0.0 : ctx.absolute_error();
  result.lower = result.values;
  result.upper = result.values;
  for (double& v : result.lower) v -= error;
  for (double& v : result.upper) v += error;
}

// A check that ended uncertified (a later step certified nothing) keeps
// no bounds of what its filter reduced either.
void forget_filter_bounds(FilterSummary& filter) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  filter.bounds_rule.clear();
  filter.low_lower = filter.low_upper = filter.high_lower = filter.high_upper = nan;
  filter.listed_lower.clear();
  filter.listed_upper.clear();
}

void fill_initial_values(const Model& model, CheckResult& result) {
  const Bitset* init = model.initial_states();
  Bitset fallback(model.num_states());
  if (init == nullptr || init->count() == 0) {
    // PRISM treats state 0 as initial when a model says nothing.
    fallback.set(0);
    init = &fallback;
    result.notes.push_back("the model has no \"init\" label: state 0 is taken as the initial state");
  }
  result.num_initial = init->count();
  const uint64_t first = init->find_next(0);
  result.initial_value = result.values[first];
  if (result.sound) {
    result.initial_lower = result.lower[first];
    result.initial_upper = result.upper[first];
  }
  if (!result.operator_values.empty()) {
    result.initial_operator_value = result.operator_values[first];
    if (!result.operator_lower.empty()) {
      result.initial_operator_lower = result.operator_lower[first];
      result.initial_operator_upper = result.operator_upper[first];
    }
  }
  result.min_initial = result.max_initial = result.initial_value;
  bits::for_each_set(*init, [&](uint64_t s) {
    result.min_initial = std::min(result.min_initial, result.values[s]);
    result.max_initial = std::max(result.max_initial, result.values[s]);
  });
}

// A bound's verdict: 1 in the `satisfying` states, 0 elsewhere, beside the
// operator's certified value it rests on (`measured`, taken); the verdict
// itself is exact where the bound decided every state.
void set_verdict(const CheckContext& context, uint64_t states, Bitset satisfying, CheckResult& measured, CheckResult& result) {
  result.is_boolean = true;
  result.satisfying = std::move(satisfying);
  result.values.assign(states, 0.0);
  bits::for_each_set(result.satisfying, [&](uint64_t s) { result.values[s] = 1.0; });
  result.operator_values = std::move(measured.values);
  result.operator_lower = std::move(measured.lower);
  result.operator_upper = std::move(measured.upper);
  certify(context, {}, result);
}

}  // namespace

CheckResult::Reported CheckResult::reported_initial() const {
  if (!operator_values.empty()) {
    return {initial_operator_value, initial_operator_lower, initial_operator_upper,
            !std::isnan(initial_operator_lower)};
  }
  return {initial_value, initial_lower, initial_upper, sound};
}

std::string CheckResult::solver_names() const {
  std::string names;
  for (const std::string& s : solvers) names += (names.empty() ? "" : "+") + s;
  return names.empty() ? "none" : names;
}

CheckResult check(const Model& model, std::string_view property_text, const CheckOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const Property written = parse_property(property_text);
  const bool exact = options.exact || options.solver == k_exact_solver;
  if (exact) require_exact_options(model, options);
  if (!options.parameters.empty()) {
    // A pCTMC at a point is a CTMC; instantiating costs one pass
    // over the entries, small beside any solve, so it is not cached.
    // The instance is a copy of the model's matrix (counted against the
    // memory limit first).
    require_memory(2 * model_bytes(model), options.settings.memory_limit,
                   fmt::format("instantiating the parametric CTMC at {}", describe_point(options.parameters)));
    const ModelPtr instance = instantiate_parameters(model, options.parameters);
    CheckOptions at_point = options;
    at_point.parameters.clear();
    CheckResult result = check(*instance, property_text, at_point);
    result.notes.push_back("parameters " + describe_point(options.parameters));
    const double instantiation = seconds_since(start) - result.seconds;
    result.seconds += std::max(0.0, instantiation);
    result.timings.other += std::max(0.0, instantiation);
    return result;
  }
  require_checkable(model);
  validate_solver_choice(options.solver);  // reject unknown names early
  throw_if_cancelled(options.settings.cancel);  // a cancel requested before the check started
  validate_epsilon(options.settings.epsilon);
  // Names become values (`F<=T` a step or time bound); the result shows
  // the property as written.
  const bool discrete_time = model.type() == ModelType::dtmc || model.type() == ModelType::mdp;
  const Property property = bind_definitions(written, options.definitions, model.definitions(), discrete_time);

  PropertyChecker checker(model, options);
  CheckResult result;
  result.property = to_string(written);
  const Operator* top = property.top_operator();
  if (exact) {
    const Operator& query = exact_query(property);
    ResultExtras extras;
    Bitset left = bits::full(model.num_states()), right;
    size_t reward_index = SIZE_MAX;
    if (query.kind == OperatorKind::probability) {
      right = checker.states(*query.path->right);
      if (query.path->left) left = checker.states(*query.path->left);
    } else {
      right = checker.states(*query.reward.target);
      if (query.kind == OperatorKind::reward) {
        reward_index = static_cast<size_t>(&reward_structure(model, query.reward_name, query.column) - model.rewards().data());
      }
    }
    if (model.type() == ModelType::mdp) (void)maximizes(query);  // an MDP's query must name min or max
    Bitset satisfying;
    std::vector<double> values = exact_query_values(checker.context(), query, left, right, reward_index,
                                                    first_initial_state(model), extras, result.exact,
                                                    query.is_query() ? nullptr : &satisfying);
    result.scheduler = std::move(extras.scheduler);
    if (query.is_query()) {
      result.values = std::move(values);
      certify(checker.context(), std::move(extras), result);
    } else {
      // The verdict, decided on the rationals; the value it rests on beside it.
      CheckResult measured;
      measured.values = std::move(values);
      certify(checker.context(), std::move(extras), measured);
      set_verdict(checker.context(), model.num_states(), std::move(satisfying), measured, result);
    }
  } else if (top != nullptr && top->is_query()) {
    ResultExtras extras;
    result.values = checker.operator_values(*top, &extras);
    result.scheduler = std::move(extras.scheduler);
    certify(checker.context(), std::move(extras), result);  // the bounds move, not copy
  } else if (top != nullptr) {
    // A bound on the outermost operator: the verdict, and the value (with
    // its bounds) it rests on, which users read beside it.
    ResultExtras extras;
    std::vector<double> quantity = checker.operator_values(*top, &extras);
    result.scheduler = std::move(extras.scheduler);
    // The value's bounds first: a verdict the bounds straddle makes the
    // check unsound, not the value.
    CheckResult measured;
    measured.values = quantity;
    certify(checker.context(), extras, measured);
    set_verdict(checker.context(), model.num_states(), checker.bound_states(*top, quantity, extras), measured,
                result);
  } else if (const Filter* filter = property.top_filter()) {
    FilterValue value = checker.filter_value(*filter);
    result.is_boolean = value.values.boolean;
    result.values = std::move(value.values.values);
    if (result.is_boolean) {
      result.satisfying = Bitset(model.num_states());
      for (uint64_t s = 0; s < model.num_states(); ++s) {
        if (result.values[s] != 0) result.satisfying.set(s);
      }
    }
    ResultExtras extras;
    extras.lower = std::move(value.values.lower);
    extras.upper = std::move(value.values.upper);
    certify(checker.context(), std::move(extras), result);
    result.filter = std::move(value.summary);
    if (!result.sound) forget_filter_bounds(*result.filter);
  } else {
    result.is_boolean = true;
    result.satisfying = checker.states(*property.root);
    result.values.assign(model.num_states(), 0.0);
    bits::for_each_set(result.satisfying, [&](uint64_t s) { result.values[s] = 1.0; });
    certify(checker.context(), {}, result);  // exact where every nested bound decided its states
  }
  fill_initial_values(model, result);
  checker.context().fill(result);
  result.seconds = seconds_since(start);
  PhaseTimings& t = result.timings;
  t.other = std::max(0.0, result.seconds - (t.gpu_startup + t.precompute + t.build + t.transfer + t.solve));
  return result;
}

}  // namespace pmc
