// Putting constants, formulas and labels into a parsed property, and
// evaluating its bounds. The tree is rebuilt node by node (nodes are
// immutable and shared); a formula's or label's body is bound once per
// property and shared wherever it is used, so binding is linear in the
// property and the definitions, and a size count (memoised per node) keeps
// an expansion such as `f2 = f1 & f1` repeated from growing exponentially.
// Bounds are typed and evaluated by lib/expression's binder and compiler,
// the same rules (int, double, `/` always a double) as a model's constants.
#include "property/definitions.hpp"

#include <cmath>
#include <map>
#include <set>
#include <unordered_map>

#include <fmt/format.h>

#include "common/error.hpp"
#include "expression/binder.hpp"
#include "expression/compiler.hpp"
#include "expression/source_scope.hpp"
#include "expression/syntax_tree.hpp"

namespace pmc::property {

namespace {

using expression::Node;
using expression::NodeKind;
using expression::ValueType;

// A property's expansion may not exceed this many nodes (counted as a tree):
// far beyond any written property, small enough to check in moments.
constexpr uint64_t k_max_expanded_nodes = 1u << 20;

std::string type_word(ValueType type) { return expression::type_name(type); }

std::string how_to_give(const ConstantValue& c) {
  return fmt::format("give it with --const {}=... (pmc_options_set_constants in the C ABI)", c.name);
}

[[noreturn]] void no_value(const ConstantValue& c, size_t column) {
  if (!c.needs.empty()) {
    fail(ErrorCode::property, "column {}: constant '{}' ({}, {}) has no value because constant '{}' has none: give {} "
         "with --const {}=...",
         column, c.name, type_word(c.type), c.origin, c.needs, c.needs, c.needs);
  }
  fail(ErrorCode::property, "column {}: constant '{}' ({}, {}) has no value: {}", column, c.name, type_word(c.type),
       c.origin, how_to_give(c));
}

// ---- bounds ----

Node to_node(const Expression& e) {
  Node n;
  n.line = 1;
  n.column = static_cast<uint32_t>(e.column);
  switch (e.kind) {
    case ExprKind::number:
      if (e.number.is_integer) {
        n.kind = NodeKind::integer;
        n.int_value = static_cast<int64_t>(e.number.value);
      } else {
        n.kind = NodeKind::real;
        n.real_value = e.number.value;
      }
      return n;
    case ExprKind::boolean:
      n.kind = NodeKind::boolean;
      n.int_value = e.value ? 1 : 0;
      return n;
    case ExprKind::variable:
      n.kind = NodeKind::identifier;
      n.name = e.name;
      return n;
    case ExprKind::negate: n.kind = NodeKind::negate; break;
    case ExprKind::add: n.kind = NodeKind::add; break;
    case ExprKind::subtract: n.kind = NodeKind::subtract; break;
    case ExprKind::multiply: n.kind = NodeKind::multiply; break;
    case ExprKind::divide: n.kind = NodeKind::divide; break;
    case ExprKind::equal: n.kind = NodeKind::equal; break;
    case ExprKind::not_equal: n.kind = NodeKind::not_equal; break;
    case ExprKind::less: n.kind = NodeKind::less; break;
    case ExprKind::less_equal: n.kind = NodeKind::less_equal; break;
    case ExprKind::greater: n.kind = NodeKind::greater; break;
    case ExprKind::greater_equal: n.kind = NodeKind::greater_equal; break;
    case ExprKind::call: n.kind = expression::find_function(e.name)->kind; break;  // the parser admits only functions
  }
  uint32_t depth = 0;
  for (const ExprPtr& arg : e.args) {
    n.children.push_back(to_node(*arg));
    depth = std::max(depth, n.children.back().depth);
  }
  n.depth = depth + 1;
  return n;
}

void collect_names(const Expression& e, std::set<std::string>& names) {
  if (e.kind == ExprKind::variable) names.insert(e.name);
  for (const ExprPtr& arg : e.args) collect_names(*arg, names);
}

constexpr std::string_view k_where = "<property>";

// The binder's "<property>:1:COLUMN: message" as "column COLUMN: message".
[[noreturn]] void rethrow_at_column(const Error& error, size_t column) {
  std::string_view message = error.what();
  if (message.starts_with(k_where)) {
    message.remove_prefix(k_where.size());
    for (int colons = 0; colons < 3 && !message.empty(); message.remove_prefix(1)) {
      if (message.front() == ':') ++colons;
      if (colons == 3) break;
    }
    if (!message.empty() && message.front() == ':') message.remove_prefix(1);
    while (!message.empty() && message.front() == ' ') message.remove_prefix(1);
  }
  fail(ErrorCode::property, "column {}: {}", column, message);
}

struct Evaluated {
  double value = 0;
  bool is_integer = false;
};

class BoundEvaluator {
 public:
  BoundEvaluator(const Definitions& definitions, const SourceDefinitions& model, bool discrete_time)
      : definitions_(definitions), model_definitions_(model), discrete_time_(discrete_time) {}

  void path(PathFormula& p) {
    // Rewards are integers (the checker requires it), so any non-negative
    // number bounds them: `<=2.5` means `<=2`.
    if (p.reward_bound) p.reward_bound->bound = time(p.reward_bound->bound, "reward bound", false);
    if (p.bound.unbounded()) return;
    const std::string written = to_string(p.bound);
    if (p.bound.lower) *p.bound.lower = time(*p.bound.lower, "time bound");
    if (p.bound.upper) *p.bound.upper = time(*p.bound.upper, "time bound");
    if (p.bound.is_interval() && p.bound.lower->value > p.bound.upper->value) {
      fail(ErrorCode::property, "column {}: empty time interval {} = {}: its start exceeds its end", p.column, written,
           to_string(p.bound));
    }
  }

  void reward(RewardFormula& r) {
    if (r.kind == RewardKind::cumulative || r.kind == RewardKind::instantaneous) {
      r.bound = time(r.bound, r.kind == RewardKind::cumulative ? "reward bound C<=" : "instant I=");
    }
  }

  void threshold(Operator& op) {
    if (!op.threshold_expression) return;
    const Expression& e = *op.threshold_expression;
    const Evaluated v = evaluate(e, "the threshold");
    const std::string text = to_string(e);
    // T's threshold is a time, R's a reward: neither is a probability.
    if (op.kind == OperatorKind::reward || op.kind == OperatorKind::time) {
      if (!(v.value >= 0) || !std::isfinite(v.value)) {
        fail(ErrorCode::property, "column {}: {} bound {} = {} must be a non-negative number", e.column,
             op.kind == OperatorKind::time ? "time" : "reward", text, v.value);
      }
    } else if (!(v.value >= 0 && v.value <= 1)) {
      fail(ErrorCode::property, "column {}: probability bound {} = {} must be in [0,1]", e.column, text, v.value);
    }
    op.threshold = v.value;
    op.threshold_expression = nullptr;
  }

 private:
  const Definitions& definitions_;
  const SourceDefinitions& model_definitions_;
  // The model's constants, converted at the first bound that reads one (a
  // property without such bounds never looks at them).
  std::optional<std::vector<ConstantValue>> model_;
  bool discrete_time_;

  const std::vector<ConstantValue>& model_constants() {
    if (!model_) model_ = model_constant_values(model_definitions_);
    return *model_;
  }

  // `counts_steps`: a DTMC's or MDP's steps, an integer there.
  Number time(const Number& n, std::string_view what, bool counts_steps = true) {
    if (!n.expression) return n;
    const Expression& e = *n.expression;
    const Evaluated v = evaluate(e, what);
    const std::string text = to_string(e);
    if (!std::isfinite(v.value) || v.value < 0) {
      fail(ErrorCode::property, "column {}: {} {} = {} must be a non-negative number", e.column, what, text, v.value);
    }
    if (counts_steps && discrete_time_ && !v.is_integer) {
      fail(ErrorCode::property, "column {}: {} {} = {} is a double, but discrete-time models (DTMC, MDP) take integer "
           "step bounds", e.column, what, text, v.value);
    }
    return Number{v.value, v.is_integer, nullptr};
  }

  const ConstantValue* find(const std::string& name) {
    if (const ConstantValue* c = definitions_.find_constant(name)) return c;
    for (const ConstantValue& c : model_constants()) {
      if (c.name == name) return &c;
    }
    return nullptr;
  }

  std::string known_constants() {
    std::string names;
    for (const auto* list : {&definitions_.constants, &model_constants()}) {
      for (const ConstantValue& c : *list) names += (names.empty() ? "" : ", ") + c.name;
    }
    return names.empty() ? "none" : names;
  }

  Evaluated evaluate(const Expression& e, std::string_view what) {
    std::set<std::string> names;
    collect_names(e, names);
    expression::Declarations declarations;
    for (const std::string& name : names) {
      const ConstantValue* c = find(name);
      if (c == nullptr) {
        fail(ErrorCode::property, "column {}: {} {} reads '{}', which is no constant (the constants known here: {}); "
             "declare it in the properties file (const double {};) and give it with --const {}=... "
             "(pmc_options_set_constants in the C ABI)",
             e.column, what, to_string(e), name, known_constants(), name, name);
      }
      if (!c->value) no_value(*c, e.column);
      expression::ConstantDeclaration d;
      d.name = name;
      d.type = c->type;
      Node literal;
      literal.type = c->type;
      literal.kind = c->type == ValueType::boolean ? NodeKind::boolean
                     : c->type == ValueType::integer ? NodeKind::integer
                                                     : NodeKind::real;
      if (c->type == ValueType::real) {
        literal.real_value = *c->value;
      } else {
        literal.int_value = static_cast<int64_t>(*c->value);  // an int's or bool's value: exact
      }
      d.value = literal;
      declarations.constants.push_back(std::move(d));
    }
    try {
      expression::Binder binder(declarations, std::string(k_where));
      expression::BindContext context;
      context.constants_only = true;
      context.what = fmt::format("{} {}", what, to_string(e));
      const Node bound = binder.bind(to_node(e), context);
      if (bound.type == ValueType::boolean) {
        fail(ErrorCode::property, "column {}: {} {} is a bool, not a number", e.column, what, to_string(e));
      }
      const expression::Expression code = expression::compile_expression(bound, {});
      return {code.evaluate_real({}), bound.type == ValueType::integer};
    } catch (const Error& error) {
      if (error.code() == ErrorCode::property) throw;
      rethrow_at_column(error, e.column);
    }
  }
};

class Substitution {
 public:
  // With `evaluator`, every bound and threshold is evaluated as it is rebuilt.
  Substitution(const Definitions& definitions, BoundEvaluator* evaluator)
      : definitions_(definitions), evaluator_(evaluator) {}

  StatePtr state(const StatePtr& f) {
    if (!f) return f;
    StateFormula node = *f;
    switch (f->kind) {
      case StateKind::constant: return f;
      case StateKind::label:
        if (const int index = find(definitions_.labels, f->label, label_limit_); index >= 0) return label(index);
        return f;
      case StateKind::expression:
        // A formula's name standing alone: its body, whatever it is.
        if (f->expression->kind == ExprKind::variable && definitions_.find_constant(f->expression->name) == nullptr) {
          if (const int index = find(definitions_.formulas, f->expression->name, formula_limit_); index >= 0) {
            return formula(index);
          }
        }
        node.expression = expression(f->expression);
        return finish(std::move(node));
      case StateKind::op: node.op = op(*f->op); return finish(std::move(node));
      case StateKind::filter: node.filter = filter(*f->filter); return finish(std::move(node));
      default:
        node.left = state(f->left);
        node.right = state(f->right);
        return finish(std::move(node));
    }
  }

  ExprPtr expression(const ExprPtr& e) {
    if (e->kind == ExprKind::variable) {
      if (const ConstantValue* c = definitions_.find_constant(e->name)) {
        if (!c->value) no_value(*c, e->column);
        Expression literal;
        literal.column = e->column;
        if (c->type == ValueType::boolean) {
          literal.kind = ExprKind::boolean;
          literal.value = *c->value != 0;
          return std::make_shared<const Expression>(std::move(literal));
        }
        // Literals are unsigned, as the parser reads them: -2 is -(2).
        literal.kind = ExprKind::number;
        literal.number = Number{std::fabs(*c->value), c->type == ValueType::integer, nullptr};
        auto number = std::make_shared<const Expression>(std::move(literal));
        if (!std::signbit(*c->value)) return number;
        Expression negated;
        negated.kind = ExprKind::negate;
        negated.column = e->column;
        negated.args = {std::move(number)};
        negated.height = 2;
        return std::make_shared<const Expression>(std::move(negated));
      }
      if (const int index = find(definitions_.formulas, e->name, formula_limit_); index >= 0) {
        const StatePtr body = formula(index);
        if (body->kind != StateKind::expression) {
          fail(ErrorCode::property, "column {}: formula '{}' is a state formula ({}), which cannot stand inside an "
               "expression", e->column, e->name, quote_for_message(to_string(*body), 60));
        }
        return body->expression;
      }
      return e;
    }
    if (e->args.empty()) return e;
    Expression node = *e;
    int below = 0;
    for (ExprPtr& arg : node.args) {
      arg = expression(arg);
      below = std::max(below, arg->height);
    }
    node.height = below + 1;
    if (node.height > k_max_depth) too_deep(e->column);
    return std::make_shared<const Expression>(std::move(node));
  }

 private:
  const Definitions& definitions_;
  BoundEvaluator* evaluator_;
  // Bodies already bound, by index; a body sees only the definitions before it.
  std::map<size_t, StatePtr> formulas_, labels_;
  size_t formula_limit_ = SIZE_MAX, label_limit_ = SIZE_MAX;
  std::unordered_map<const StateFormula*, uint64_t> sizes_;

  static int find(const std::vector<std::pair<std::string, StatePtr>>& list, std::string_view name, size_t limit) {
    for (size_t i = 0; i < list.size() && i < limit; ++i) {
      if (list[i].first == name) return static_cast<int>(i);
    }
    return -1;
  }

  StatePtr formula(size_t index) {
    if (auto it = formulas_.find(index); it != formulas_.end()) return it->second;
    const size_t saved = formula_limit_;
    formula_limit_ = index;
    StatePtr body = state(definitions_.formulas[index].second);
    formula_limit_ = saved;
    return formulas_[index] = std::move(body);
  }

  StatePtr label(size_t index) {
    if (auto it = labels_.find(index); it != labels_.end()) return it->second;
    const size_t saved = label_limit_;
    label_limit_ = index;
    StatePtr body = state(definitions_.labels[index].second);
    label_limit_ = saved;
    return labels_[index] = std::move(body);
  }

  // A bound's constants are left to the evaluator, which reads them itself
  // so that its messages show the bound as written (`T/2 = -1.5`).
  Number number(const Number& n) {
    if (!n.expression || evaluator_ != nullptr) return n;
    Number out = n;
    out.expression = expression(n.expression);
    // A constant's value alone prints as the literal it is: F<=20, not F<=(20).
    if (out.expression->kind == ExprKind::number && out.expression->number.value >= 0) return out.expression->number;
    return out;
  }

  PathPtr path(const PathPtr& p) {
    if (!p) return p;
    auto out = std::make_shared<PathFormula>(*p);
    out->left = state(p->left);
    out->right = state(p->right);
    if (out->bound.lower) out->bound.lower = number(*out->bound.lower);
    if (out->bound.upper) out->bound.upper = number(*out->bound.upper);
    if (out->reward_bound) out->reward_bound->bound = number(out->reward_bound->bound);
    if (evaluator_ != nullptr) evaluator_->path(*out);
    return out;
  }

  // A filter's operand and states are state formulas like any other.
  FilterPtr filter(const Filter& f) {
    auto out = std::make_shared<Filter>(f);
    out->operand = state(f.operand);
    out->states = state(f.states);
    return out;
  }

  OperatorPtr op(const Operator& o) {
    auto out = std::make_shared<Operator>(o);
    out->path = path(o.path);
    out->condition = path(o.condition);
    out->reward.target = state(o.reward.target);
    out->reward.bound = number(o.reward.bound);
    out->state = state(o.state);
    if (o.threshold_expression && evaluator_ == nullptr) {
      out->threshold_expression = expression(o.threshold_expression);
      if (out->threshold_expression->kind == ExprKind::number && out->threshold_expression->number.value >= 0) {
        out->threshold = out->threshold_expression->number.value;
        out->threshold_expression = nullptr;
      }
    }
    if (evaluator_ != nullptr) {
      evaluator_->reward(out->reward);
      evaluator_->threshold(*out);
    }
    return out;
  }

  [[noreturn]] static void too_deep(size_t column) {
    fail(ErrorCode::property, "column {}: the property with its formulas and labels put in is nested too deeply (the "
         "limit is {} levels)", column, k_max_depth);
  }

  uint64_t size(const StatePtr& f) {
    if (!f) return 0;
    if (auto it = sizes_.find(f.get()); it != sizes_.end()) return it->second;
    uint64_t total = 1;
    for (const StatePtr& child : children(*f)) total = std::min(total + size(child), k_max_expanded_nodes + 1);
    sizes_[f.get()] = total;
    return total;
  }

  static std::vector<StatePtr> children(const StateFormula& f) {
    std::vector<StatePtr> out{f.left, f.right};
    if (f.op) {
      for (const PathPtr& p : {f.op->path, f.op->condition}) {
        if (p) {
          out.push_back(p->left);
          out.push_back(p->right);
        }
      }
      out.push_back(f.op->reward.target);
      out.push_back(f.op->state);
    }
    if (f.filter) {
      out.push_back(f.filter->operand);
      out.push_back(f.filter->states);
    }
    return out;
  }

  // The height and size of a rebuilt node, as the parser bounds them.
  StatePtr finish(StateFormula node) {
    int below = 0;
    for (const StatePtr& child : {node.left, node.right}) {
      if (child) below = std::max(below, child->height);
    }
    if (node.op) {
      for (const StatePtr& child : children(node)) {
        if (child && child != node.left && child != node.right) below = std::max(below, child->height + 1);
      }
    }
    if (node.expression) below = std::max(below, node.expression->height);
    if (node.filter) {
      for (const StatePtr& child : {node.filter->operand, node.filter->states}) {
        if (child) below = std::max(below, child->height);
      }
    }
    node.height = below + 1;
    if (node.height > k_max_depth) too_deep(node.column);
    auto out = std::make_shared<const StateFormula>(std::move(node));
    if (size(out) > k_max_expanded_nodes) {
      fail(ErrorCode::property, "column {}: the property with its formulas and labels put in has more than {} nodes",
           out->column, k_max_expanded_nodes);
    }
    return out;
  }
};

}  // namespace

const ConstantValue* Definitions::find_constant(std::string_view name) const {
  for (const ConstantValue& c : constants) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

std::string value_text(const ConstantValue& constant) {
  if (!constant.value) return "?";
  const double v = *constant.value;
  switch (constant.type) {
    case ValueType::boolean: return v != 0 ? "true" : "false";
    case ValueType::integer: return fmt::format("{}", static_cast<int64_t>(v));
    case ValueType::real: return expression::real_literal_text(v);
  }
  return "?";
}

std::string describe_constants(const std::vector<ConstantValue>& constants) {
  std::string text;
  for (const ConstantValue& c : constants) {
    if (c.value) text += fmt::format("{}{}={}", text.empty() ? "" : ", ", c.name, value_text(c));
  }
  return text;
}

std::vector<ConstantValue> model_constant_values(const SourceDefinitions& model) {
  std::vector<ConstantValue> out;
  for (const auto& [name, text] : model.constants) {
    const std::optional<Node> literal = expression::constant_literal(text);
    if (!literal) {
      fail(ErrorCode::property, "the model's constant '{}' has the value {}, which is no number, true or false", name,
           quote_for_message(text));
    }
    ConstantValue c;
    c.name = name;
    c.type = literal->type;
    c.value = literal->type == ValueType::real ? literal->real_value : static_cast<double>(literal->int_value);
    c.origin = "the model";
    out.push_back(std::move(c));
  }
  return out;
}

Property substitute_definitions(const Property& property, const Definitions& definitions) {
  Property out = property;
  out.root = Substitution(definitions, nullptr).state(property.root);
  return out;
}

Property bind_definitions(const Property& property, const Definitions& definitions, const SourceDefinitions& model,
                          bool discrete_time) {
  BoundEvaluator evaluator(definitions, model, discrete_time);
  Property out = property;
  out.root = Substitution(definitions, &evaluator).state(property.root);
  return out;
}

}  // namespace pmc::property
