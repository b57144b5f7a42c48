#include "check/parametric.hpp"

#include <cmath>

#include "check/state_expressions.hpp"
#include "common/error.hpp"
#include "property/definitions.hpp"
#include "property/parser.hpp"

namespace pmc {

namespace {

using namespace property;

[[noreturn]] void unsupported(size_t column, std::string_view what) {
  fail(ErrorCode::unsupported,
       "column {}: {}; parameter synthesis supports P[ φ U I ψ ], P[ F I ψ ] with I = <=t or [t1,t2], and "
       "R[ C<=t ], φ and ψ made of labels, expressions over state variables, true, false, !, &, |, =>",
       column, what);
}

std::vector<uint8_t> states(const Model& model, const StateFormula& f) {
  const uint64_t n = model.num_states();
  switch (f.kind) {
    case StateKind::constant:
      return std::vector<uint8_t>(n, f.value ? 1 : 0);
    case StateKind::label: {
      const Label* label = model.find_label(f.label);
      if (label == nullptr) {
        std::string names;
        for (const Label& l : model.labels()) names += (names.empty() ? "\"" : ", \"") + l.name + "\"";
        fail(ErrorCode::property, "column {}: unknown label \"{}\" (the model has {})", f.column, f.label,
             names.empty() ? "none" : names);
      }
      std::vector<uint8_t> set(n, 0);
      for (uint64_t s = 0; s < n; ++s) set[s] = label->states.test(s) ? 1 : 0;
      return set;
    }
    case StateKind::expression:
      return expression_states(model, *f.expression, 0);
    case StateKind::negation: {
      std::vector<uint8_t> set = states(model, *f.left);
      for (uint8_t& b : set) b = !b;
      return set;
    }
    case StateKind::conjunction:
    case StateKind::disjunction:
    case StateKind::implication: {
      std::vector<uint8_t> a = states(model, *f.left);
      const std::vector<uint8_t> b = states(model, *f.right);
      for (uint64_t s = 0; s < n; ++s) {
        a[s] = f.kind == StateKind::conjunction   ? (a[s] && b[s])
               : f.kind == StateKind::disjunction ? (a[s] || b[s])
                                                  : (!a[s] || b[s]);
      }
      return a;
    }
    case StateKind::op:
      unsupported(f.column, "nested P, R, S or T operators are not supported");
    case StateKind::filter:
      unsupported(f.column, "filters are not supported");
  }
  fail(ErrorCode::internal, "unknown state formula");
}

void copy_matrix(const Model& model, ParamBoundsProblem& p) {
  const uint64_t n = model.num_states();
  const uint32_t k = static_cast<uint32_t>(model.parameters().size());
  p.num_states = n;
  p.num_parameters = k;
  p.row_offsets.assign(1, 0);
  p.row_offsets.reserve(n + 1);
  const auto& off = model.row_offsets();
  for (uint64_t s = 0; s < n; ++s) {
    for (uint64_t e = off[s]; e < off[s + 1]; ++e) {
      if (model.columns()[e] == s) continue;  // a self-loop changes nothing in continuous time
      p.columns.push_back(model.columns()[e]);
      p.constants.push_back(model.values()[e]);
      p.coefficients.insert(p.coefficients.end(), model.coefficients().begin() + static_cast<int64_t>(e * k),
                            model.coefficients().begin() + static_cast<int64_t>((e + 1) * k));
    }
    p.row_offsets.push_back(p.columns.size());
  }
}

double time_value(const Number& n, size_t column) {
  if (!(n.value >= 0) || !std::isfinite(n.value)) fail(ErrorCode::property, "column {}: bad time bound", column);
  return n.value;
}

}  // namespace

ParametricQuery parametric_query(const Model& model, std::string_view property_text) {
  const Property written = parse_property(property_text);
  if (model.type() != ModelType::pctmc) {
    fail(ErrorCode::unsupported, "parameter synthesis needs a parametric CTMC (pctmc), but this model is a {}",
         to_string(model.type()));
  }
  // Bounds over the model's constants (`F<=T`) become numbers; a pCTMC is continuous-time.
  const Property property = bind_definitions(written, {}, model.definitions(), false);
  const Operator* op = property.top_operator();
  if (op == nullptr) unsupported(1, "the property must be a single P or R operator");
  if (op->optimisation != Optimisation::none) {
    unsupported(op->column, "Pmin/Pmax/Rmin/Rmax are for MDPs; use `pmc synth --min/--max` with P=?");
  }
  ParametricQuery q;
  q.property = to_string(written);
  if (!op->is_query()) {
    q.comparison = op->comparison;
    q.threshold = op->threshold;
  }
  ParamBoundsProblem& p = q.problem;
  copy_matrix(model, p);
  const uint64_t n = model.num_states();
  if (op->kind == OperatorKind::probability) {
    const PathFormula& path = *op->path;
    if (path.kind != PathKind::until && path.kind != PathKind::eventually) {
      unsupported(path.column, "only U and F path formulas are supported");
    }
    if (path.reward_bound) unsupported(path.reward_bound->column, "reward bounds are not supported for parametric CTMCs");
    const TimeBound& bound = path.bound;
    if (!bound.upper) unsupported(path.column, "the path formula needs an upper time bound (<=t or [t1,t2])");
    const std::vector<uint8_t> right = states(model, *path.right);
    const std::vector<uint8_t> left = path.left ? states(model, *path.left) : std::vector<uint8_t>(n, 1);
    const double t2 = time_value(*bound.upper, path.column);
    const double t1 = bound.lower ? time_value(*bound.lower, path.column) : 0.0;
    if (t1 > t2) fail(ErrorCode::property, "column {}: empty time interval {}", path.column, to_string(bound));
    p.x0.assign(n, 0.0);
    ParamPhase until;
    until.time = t2 - t1;
    until.active.assign(n, 0);
    for (uint64_t s = 0; s < n; ++s) {
      p.x0[s] = right[s] ? 1.0 : 0.0;
      until.active[s] = left[s] && !right[s];
    }
    p.phases.push_back(std::move(until));
    if (bound.lower) {
      // [t1,t2]: the probability of φ U<=t2−t1 ψ from the state reached at
      // t1 without leaving φ (as pmc's CTMC checker, path_probabilities.cpp).
      ParamPhase stay;
      stay.time = t1;
      stay.active = left;
      stay.zero_inactive_start = true;
      p.phases.push_back(std::move(stay));
    }
    return q;
  }
  if (op->kind == OperatorKind::reward) {
    const RewardFormula& formula = op->reward;
    if (formula.kind != RewardKind::cumulative) unsupported(formula.column, "only the reward C<=t is supported");
    if (model.rewards().empty()) fail(ErrorCode::property, "column {}: the model has no reward structure", op->column);
    const RewardStructure* rewards = model.find_rewards(op->reward_name);
    if (rewards == nullptr) {
      fail(ErrorCode::property, "column {}: unknown reward structure \"{}\"", op->column, op->reward_name);
    }
    for (double r : rewards->transition_rewards) {
      if (r != 0) unsupported(formula.column, "transition rewards of a pCTMC are not supported (state rewards are)");
    }
    q.reward = true;
    p.probability = false;
    p.x0 = rewards->state_rewards.empty() ? std::vector<double>(n, 0.0) : rewards->state_rewards;
    ParamPhase cumulative;
    cumulative.time = time_value(formula.bound, formula.column);
    cumulative.cumulative = true;
    cumulative.active.assign(n, 1);
    p.phases.push_back(std::move(cumulative));
    return q;
  }
  if (op->kind == OperatorKind::time) unsupported(op->column, "expected-time (T) properties are not supported");
  unsupported(op->column, "steady-state (S) properties are not supported");
}

}  // namespace pmc
