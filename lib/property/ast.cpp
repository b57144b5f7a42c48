#include "property/ast.hpp"

#include <cmath>
#include <unordered_set>

#include <fmt/format.h>

#include "expression/syntax_tree.hpp"

namespace pmc::property {

namespace {

// Binding strength in PRISM: => (right-assoc) < | < & < ! < atoms.
int precedence(const StateFormula& f) {
  switch (f.kind) {
    case StateKind::implication: return 1;
    case StateKind::disjunction: return 2;
    case StateKind::conjunction: return 3;
    case StateKind::negation: return 4;
    case StateKind::constant:
    case StateKind::label:
    case StateKind::expression:  // comparisons bind tighter than '!' (PRISM's precedence)
    case StateKind::op:
    case StateKind::filter: return 5;
  }
  return 5;
}

void append(std::string& out, const StateFormula& f);

// Binding strength of expressions: comparisons < + - < * / < unary - < operands.
int precedence(const Expression& e) {
  switch (e.kind) {
    case ExprKind::equal:
    case ExprKind::not_equal:
    case ExprKind::less:
    case ExprKind::less_equal:
    case ExprKind::greater:
    case ExprKind::greater_equal: return 1;
    case ExprKind::add:
    case ExprKind::subtract: return 2;
    case ExprKind::multiply:
    case ExprKind::divide: return 3;
    case ExprKind::negate: return 4;
    case ExprKind::number:
    case ExprKind::boolean:
    case ExprKind::variable:
    case ExprKind::call: return 5;
  }
  return 5;
}

std::string_view symbol(ExprKind kind) {
  switch (kind) {
    case ExprKind::add: return " + ";
    case ExprKind::subtract: return " - ";
    case ExprKind::multiply: return "*";
    case ExprKind::divide: return "/";
    case ExprKind::equal: return "=";
    case ExprKind::not_equal: return "!=";
    case ExprKind::less: return "<";
    case ExprKind::less_equal: return "<=";
    case ExprKind::greater: return ">";
    case ExprKind::greater_equal: return ">=";
    default: return "";
  }
}

void append(std::string& out, const Expression& e);

// `child` as an operand where its parent needs at least `min_precedence`:
// parenthesised when it binds more loosely (state formulas and expressions).
template <typename Formula>
void append_operand(std::string& out, const Formula& child, int min_precedence) {
  const bool parenthesise = precedence(child) < min_precedence;
  if (parenthesise) out += '(';
  append(out, child);
  if (parenthesise) out += ')';
}

void append(std::string& out, const Expression& e) {
  switch (e.kind) {
    case ExprKind::number: out += to_string(e.number); return;
    case ExprKind::boolean: out += e.value ? "true" : "false"; return;
    case ExprKind::variable: out += e.name; return;
    case ExprKind::negate:
      out += '-';
      append_operand(out, *e.args[0], 4);
      return;
    case ExprKind::call:
      out += e.name;
      out += '(';
      for (size_t i = 0; i < e.args.size(); ++i) {
        if (i > 0) out += ',';
        append(out, *e.args[i]);
      }
      out += ')';
      return;
    default: {
      // Arithmetic associates to the left, so a right operand of the same
      // strength keeps its parentheses; comparisons do not chain, so a
      // comparison inside one is always parenthesised.
      const int p = precedence(e);
      append_operand(out, *e.args[0], p == 1 ? 2 : p);
      out += symbol(e.kind);
      append_operand(out, *e.args[1], p + 1);
      return;
    }
  }
}

void append_binary(std::string& out, const StateFormula& f, std::string_view symbol, int left_min,
                   int right_min) {
  append_operand(out, *f.left, left_min);
  out += symbol;
  append_operand(out, *f.right, right_min);
}

void append(std::string& out, const StateFormula& f) {
  switch (f.kind) {
    case StateKind::constant: out += f.value ? "true" : "false"; return;
    case StateKind::label:
      out += '"';
      out += f.label;
      out += '"';
      return;
    case StateKind::negation:
      out += '!';
      append_operand(out, *f.left, 4);
      return;
    // & and | associate to the left: a right operand of the same kind
    // needs parentheses to keep its shape; => associates to the right.
    case StateKind::conjunction: append_binary(out, f, " & ", 3, 4); return;
    case StateKind::disjunction: append_binary(out, f, " | ", 2, 3); return;
    case StateKind::implication: append_binary(out, f, " => ", 2, 1); return;
    case StateKind::op: out += to_string(*f.op); return;
    case StateKind::filter: out += to_string(*f.filter); return;
    case StateKind::expression: append(out, *f.expression); return;
  }
}

std::string_view optimisation_suffix(Optimisation o) {
  switch (o) {
    case Optimisation::none: return "";
    case Optimisation::min: return "min";
    case Optimisation::max: return "max";
  }
  return "";
}

}  // namespace

bool Operator::holds(double value) const {
  switch (comparison) {
    case Comparison::query: return false;
    case Comparison::less: return value < threshold;
    case Comparison::less_equal: return value <= threshold;
    case Comparison::greater: return value > threshold;
    case Comparison::greater_equal: return value >= threshold;
  }
  return false;
}

namespace {

bool needs_unbounded_reachability(const StateFormula& formula);

bool needs_unbounded_reachability(const PathFormula& path) {
  // A reward bound solves one unbounded problem per epoch.
  if (path.kind != PathKind::next && path.bound.unbounded()) return true;
  return (path.left && needs_unbounded_reachability(*path.left)) || (path.right && needs_unbounded_reachability(*path.right));
}

bool needs_unbounded_reachability(const StateFormula& formula) {
  if (formula.kind == StateKind::filter && formula.filter) {
    const Filter& filter = *formula.filter;
    return needs_unbounded_reachability(*filter.operand) ||
           (filter.states && needs_unbounded_reachability(*filter.states));
  }
  if (formula.kind == StateKind::op && formula.op) {
    const Operator& op = *formula.op;
    if (op.kind == OperatorKind::time) return true;  // T[F ψ] is R[F ψ]
    if (op.kind == OperatorKind::reward) {
      if (op.reward.kind == RewardKind::reachability) return true;
      return op.reward.target && needs_unbounded_reachability(*op.reward.target);
    }
    if (op.kind == OperatorKind::steady_state) return op.state && needs_unbounded_reachability(*op.state);
    return (op.path && needs_unbounded_reachability(*op.path)) || (op.condition && needs_unbounded_reachability(*op.condition));
  }
  return (formula.left && needs_unbounded_reachability(*formula.left)) || (formula.right && needs_unbounded_reachability(*formula.right));
}

}  // namespace

bool Property::needs_unbounded_reachability() const { return root && property::needs_unbounded_reachability(*root); }

const Operator* Property::top_operator() const {
  return root && root->kind == StateKind::op ? root->op.get() : nullptr;
}

const Filter* Property::top_filter() const {
  return root && root->kind == StateKind::filter ? root->filter.get() : nullptr;
}

bool Property::is_query() const {
  if (const Filter* filter = top_filter()) {
    return filter_result_kind(filter->op, value_kind(*filter->operand)) == ValueKind::number;
  }
  const Operator* op = top_operator();
  return op != nullptr && op->is_query();
}

namespace {

// A bound or threshold written as an expression: bare where it is one
// operand (`T`, `max(a,b)`), else parenthesised as PRISM's manual asks
// (`F<=(T/2) "a"`), so that the printed property reads back the same.
std::string bound_expression_text(const Expression& e) {
  const std::string text = to_string(e);
  if (e.kind == ExprKind::variable || e.kind == ExprKind::call) return text;
  return "(" + text + ")";
}

struct FilterName {
  std::string_view name;
  FilterOp op;
};
constexpr FilterName k_filter_names[] = {
    {"min", FilterOp::min},       {"max", FilterOp::max},     {"argmin", FilterOp::argmin},
    {"argmax", FilterOp::argmax}, {"count", FilterOp::count}, {"sum", FilterOp::sum},
    {"avg", FilterOp::avg},       {"first", FilterOp::first}, {"range", FilterOp::range},
    {"forall", FilterOp::forall}, {"exists", FilterOp::exists}, {"print", FilterOp::print},
    {"printall", FilterOp::printall}, {"state", FilterOp::state},
    // PRISM's shorthands.
    {"+", FilterOp::sum},         {"&", FilterOp::forall},    {"|", FilterOp::exists},
};

}  // namespace

std::optional<FilterOp> filter_op_from_name(std::string_view name) {
  for (const FilterName& entry : k_filter_names) {
    if (entry.name == name) return entry.op;
  }
  return std::nullopt;
}

std::string_view to_string(FilterOp op) {
  for (const FilterName& entry : k_filter_names) {
    if (entry.op == op) return entry.name;
  }
  return "?";
}

ValueKind value_kind(const Expression& e) {
  switch (e.kind) {
    case ExprKind::boolean:
    case ExprKind::equal:
    case ExprKind::not_equal:
    case ExprKind::less:
    case ExprKind::less_equal:
    case ExprKind::greater:
    case ExprKind::greater_equal: return ValueKind::boolean;
    case ExprKind::number:
    case ExprKind::negate:
    case ExprKind::add:
    case ExprKind::subtract:
    case ExprKind::multiply:
    case ExprKind::divide: return ValueKind::number;
    case ExprKind::call:  // every function of the property language gives a number
      return ValueKind::number;
    case ExprKind::variable: return ValueKind::unknown;  // a bool or int variable, a constant, a formula
  }
  return ValueKind::unknown;
}

ValueKind value_kind(const StateFormula& f) {
  switch (f.kind) {
    case StateKind::expression: return value_kind(*f.expression);
    case StateKind::op: return f.op->is_query() ? ValueKind::number : ValueKind::boolean;
    case StateKind::filter: return filter_result_kind(f.filter->op, value_kind(*f.filter->operand));
    default: return ValueKind::boolean;
  }
}

ValueKind operand_kind_needed(FilterOp op) {
  switch (op) {
    case FilterOp::min:
    case FilterOp::max:
    case FilterOp::argmin:
    case FilterOp::argmax:
    case FilterOp::sum:
    case FilterOp::avg:
    case FilterOp::range: return ValueKind::number;
    case FilterOp::count:
    case FilterOp::forall:
    case FilterOp::exists: return ValueKind::boolean;
    case FilterOp::first:
    case FilterOp::print:
    case FilterOp::printall:
    case FilterOp::state: return ValueKind::unknown;
  }
  return ValueKind::unknown;
}

ValueKind filter_result_kind(FilterOp op, ValueKind operand) {
  switch (op) {
    case FilterOp::min:
    case FilterOp::max:
    case FilterOp::sum:
    case FilterOp::avg:
    case FilterOp::count:
    case FilterOp::range: return ValueKind::number;
    case FilterOp::argmin:
    case FilterOp::argmax:
    case FilterOp::forall:
    case FilterOp::exists: return ValueKind::boolean;
    case FilterOp::first:
    case FilterOp::print:
    case FilterOp::printall:
    case FilterOp::state: return operand;
  }
  return ValueKind::unknown;
}

bool operator==(const Number& a, const Number& b) {
  if (a.expression || b.expression) {
    return a.expression && b.expression && to_string(*a.expression) == to_string(*b.expression);
  }
  return a.value == b.value && a.is_integer == b.is_integer;
}

std::string to_string(const Number& number) {
  if (number.expression) return bound_expression_text(*number.expression);
  if (number.is_integer) return fmt::format("{}", static_cast<uint64_t>(number.value));
  std::string text = fmt::format("{}", number.value);
  // A real literal must not print as an integer one, or a round trip would
  // turn `F<=2.0` into a valid DTMC step bound.
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
  return text;
}

std::string to_string(const TimeBound& bound) {
  if (bound.is_interval()) return fmt::format("[{},{}]", to_string(*bound.lower), to_string(*bound.upper));
  if (bound.upper) return "<=" + to_string(*bound.upper);
  if (bound.lower) return ">=" + to_string(*bound.lower);
  return "";
}

std::string to_string(const RewardBound& bound) {
  const std::string comparison = fmt::format("{}{}", to_string(bound.comparison), to_string(bound.bound));
  if (bound.written_short) return fmt::format("{{\"{}\"}}{}", bound.reward_name, comparison);
  if (bound.reward_name.empty()) return "^{rew" + comparison + "}";
  return fmt::format("^{{rew{{\"{}\"}}{}}}", bound.reward_name, comparison);
}

std::string_view to_string(Comparison comparison) {
  switch (comparison) {
    case Comparison::query: return "=?";
    case Comparison::less: return "<";
    case Comparison::less_equal: return "<=";
    case Comparison::greater: return ">";
    case Comparison::greater_equal: return ">=";
  }
  return "?";
}

std::string to_string(const Expression& expression) {
  std::string out;
  append(out, expression);
  return out;
}

int function_arity(std::string_view name) {
  const expression::BuiltinFunction* f = expression::find_function(name);
  return f ? static_cast<int>(f->arguments) : -1;
}

std::string to_string(const StateFormula& formula) {
  std::string out;
  append(out, formula);
  return out;
}

std::string to_string(const PathFormula& formula) {
  std::string out;
  const std::string bound = formula.reward_bound ? to_string(*formula.reward_bound) : to_string(formula.bound);
  switch (formula.kind) {
    case PathKind::next: out = "X "; break;
    case PathKind::eventually: out = "F" + bound + " "; break;
    case PathKind::globally: out = "G" + bound + " "; break;
    case PathKind::until:
      // U binds more loosely than every boolean operator, so neither
      // operand needs parentheses.
      append(out, *formula.left);
      out += " U" + bound + " ";
      break;
  }
  append(out, *formula.right);
  return out;
}

std::string to_string(const RewardFormula& formula) {
  switch (formula.kind) {
    case RewardKind::reachability: return "F " + to_string(*formula.target);
    case RewardKind::cumulative: return "C<=" + to_string(formula.bound);
    case RewardKind::instantaneous: return "I=" + to_string(formula.bound);
    case RewardKind::long_run: return formula.written_lra ? "LRA" : "S";
  }
  return "";
}

std::string to_string(const Operator& op) {
  std::string out;
  switch (op.kind) {
    case OperatorKind::probability: out = "P"; break;
    case OperatorKind::steady_state: out = op.written_lra ? "LRA" : "S"; break;
    case OperatorKind::reward:
      out = "R";
      if (!op.reward_name.empty()) out += "{\"" + op.reward_name + "\"}";
      break;
    case OperatorKind::time: out = "T"; break;
  }
  out += optimisation_suffix(op.optimisation);
  out += to_string(op.comparison);
  if (!op.is_query()) {
    out += op.threshold_expression ? bound_expression_text(*op.threshold_expression) : fmt::format("{}", op.threshold);
  }
  out += " [ ";
  switch (op.kind) {
    case OperatorKind::probability:
      out += to_string(*op.path);
      if (op.condition) out += " || " + to_string(*op.condition);
      break;
    case OperatorKind::steady_state: out += to_string(*op.state); break;
    case OperatorKind::reward:
    case OperatorKind::time: out += to_string(op.reward); break;
  }
  out += " ]";
  return out;
}

std::string to_string(const Filter& filter) {
  // The operands are whole state formulas between commas: none needs
  // parentheses (',' and ')' end a state formula).
  std::string out = "filter(" + filter.written + ", " + to_string(*filter.operand);
  if (filter.states) out += ", " + to_string(*filter.states);
  out += ")";
  return out;
}

std::string to_string(const Property& property) {
  return property.root ? to_string(*property.root) : std::string();
}

namespace {

void collect(const StateFormula& f, std::vector<std::string>& out, std::unordered_set<std::string>& seen) {
  auto visit = [&](const StatePtr& child) {
    if (child) collect(*child, out, seen);
  };
  if (f.kind == StateKind::label) {
    if (seen.insert(f.label).second) out.push_back(f.label);
    return;
  }
  visit(f.left);
  visit(f.right);
  if (f.kind == StateKind::filter) {
    visit(f.filter->operand);
    visit(f.filter->states);
    return;
  }
  if (f.kind != StateKind::op) return;
  const Operator& op = *f.op;
  for (const PathPtr& path : {op.path, op.condition}) {
    if (path) {
      visit(path->left);
      visit(path->right);
    }
  }
  visit(op.reward.target);
  visit(op.state);
}

}  // namespace

std::vector<std::string> collect_labels(const StateFormula& formula) {
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;
  collect(formula, out, seen);
  return out;
}

}  // namespace pmc::property
