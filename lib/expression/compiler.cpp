// Checked expression trees → postfix code (code.hpp). Constant subtrees
// are folded first, so a guard like `s=N-1` costs one load, one push and one compare per state.
#include <algorithm>
#include <limits>
#include <optional>

#include "common/error.hpp"
#include "expression/code.hpp"
#include "expression/compiler.hpp"

namespace pmc::expression {

namespace {

class Compiler {
 public:
  explicit Compiler(Expression::Representation& r) : r_(r) {}

  void emit(const Node& n, ValueType want) {
    switch (n.kind) {
      case NodeKind::boolean:
      case NodeKind::integer: push_integer(n.int_value); break;
      case NodeKind::real: {
        Value v;
        v.d = n.real_value;
        add(Op::push, 1, 0, v);
        break;
      }
      case NodeKind::variable:
        add(Op::load, 1, n.variable);
        r_.constant = false;
        r_.state_size = std::max(r_.state_size, n.variable + 1);
        break;
      case NodeKind::identifier:
        fail(ErrorCode::internal, "unbound identifier {} reached the expression compiler", n.name);
      case NodeKind::negate:
        emit(n.children[0], n.type);
        add(n.type == ValueType::real ? Op::negate_real : Op::negate_integer, 0);
        break;
      case NodeKind::logical_not:
        emit(n.children[0], ValueType::boolean);
        add(Op::logical_not, 0);
        break;
      case NodeKind::multiply: arithmetic(n, Op::multiply_integer, Op::multiply_real); break;
      case NodeKind::add: arithmetic(n, Op::add_integer, Op::add_real); break;
      case NodeKind::subtract: arithmetic(n, Op::subtract_integer, Op::subtract_real); break;
      case NodeKind::divide: arithmetic(n, Op::divide_real, Op::divide_real, ValueType::real); break;
      case NodeKind::less: compare(n, Op::less_integer, Op::less_real); break;
      case NodeKind::less_equal: compare(n, Op::less_equal_integer, Op::less_equal_real); break;
      case NodeKind::greater: compare(n, Op::greater_integer, Op::greater_real); break;
      case NodeKind::greater_equal: compare(n, Op::greater_equal_integer, Op::greater_equal_real); break;
      case NodeKind::equal: compare(n, Op::equal_integer, Op::equal_real); break;
      case NodeKind::not_equal: compare(n, Op::not_equal_integer, Op::not_equal_real); break;
      case NodeKind::iff:
        arithmetic(n, Op::equal_integer, Op::equal_integer, ValueType::boolean);
        break;
      case NodeKind::logical_and:
      case NodeKind::logical_or:
      case NodeKind::implies: {
        // Short-circuit, as PRISM's Java evaluation: `false & 1/0>1` is false.
        emit(n.children[0], ValueType::boolean);
        if (n.kind == NodeKind::implies) add(Op::logical_not, 0);
        const size_t jump = add(n.kind == NodeKind::logical_and ? Op::and_jump : Op::or_jump, -1);
        emit(n.children[1], ValueType::boolean);
        r_.code[jump].arg = static_cast<uint32_t>(r_.code.size());
        break;
      }
      case NodeKind::conditional: {
        emit(n.children[0], ValueType::boolean);
        const size_t to_else = add(Op::jump_if_false, -1);
        emit(n.children[1], n.type);
        const size_t to_end = add(Op::jump, -1);  // the other branch pushes it again
        r_.code[to_else].arg = static_cast<uint32_t>(r_.code.size());
        emit(n.children[2], n.type);
        r_.code[to_end].arg = static_cast<uint32_t>(r_.code.size());
        break;
      }
      case NodeKind::function_min:
      case NodeKind::function_max: {
        const bool real = n.type == ValueType::real;
        emit(n.children[0], n.type);
        for (size_t i = 1; i < n.children.size(); ++i) {
          emit(n.children[i], n.type);
          if (n.kind == NodeKind::function_min) add(real ? Op::min_real : Op::min_integer, -1);
          else add(real ? Op::max_real : Op::max_integer, -1);
        }
        break;
      }
      case NodeKind::function_floor:
      case NodeKind::function_ceil:
      case NodeKind::function_round:
        emit(n.children[0], ValueType::real);
        add(n.kind == NodeKind::function_floor  ? Op::floor
            : n.kind == NodeKind::function_ceil ? Op::ceil
                                                : Op::round,
            0);
        break;
      case NodeKind::function_pow: arithmetic(n, Op::power_integer, Op::power_real); break;
      case NodeKind::function_mod:
        arithmetic(n, Op::modulo_integer, Op::modulo_integer, ValueType::integer);
        break;
      case NodeKind::function_log: arithmetic(n, Op::log_real, Op::log_real, ValueType::real); break;
    }
    if (want == ValueType::real && n.type != ValueType::real) add(Op::to_real, 0);
  }

 private:
  size_t add(Op op, int stack_change, uint32_t arg = 0, Value value = Value{0}) {
    Instruction in;
    in.op = op;
    in.arg = arg;
    in.value = value;
    r_.code.push_back(in);
    depth_ += stack_change;
    r_.stack_size = std::max<uint32_t>(r_.stack_size, static_cast<uint32_t>(std::max(depth_, 0)));
    return r_.code.size() - 1;
  }

  void push_integer(int64_t value) {
    Value v;
    v.i = value;
    add(Op::push, 1, 0, v);
  }

  // Both operands as `operands` (default: the node's own type).
  void arithmetic(const Node& n, Op integer_op, Op real_op, std::optional<ValueType> operands = {}) {
    const ValueType t = operands.value_or(n.type);
    emit(n.children[0], t);
    emit(n.children[1], t);
    add(t == ValueType::real ? real_op : integer_op, -1);
  }

  // Integers (and booleans) compare exactly; a real on either side makes it real.
  void compare(const Node& n, Op integer_op, Op real_op) {
    const bool real = n.children[0].type == ValueType::real || n.children[1].type == ValueType::real;
    arithmetic(n, integer_op, real_op, real ? ValueType::real : ValueType::integer);
  }

  Expression::Representation& r_;
  int depth_ = 0;
};

bool is_literal(const Node& n) {
  return n.kind == NodeKind::boolean || n.kind == NodeKind::integer || n.kind == NodeKind::real;
}

// Evaluates a node whose children are literals; nothing when that fails
// (the failure then happens, with its message, in the states that reach it).
std::optional<Node> evaluate_literal(const Node& n) {
  Expression::Representation r;
  r.type = n.type;
  r.stack_size = 0;
  Compiler(r).emit(n, n.type);
  std::vector<Value> stack(r.stack_size + 1);
  Value value;
  try {
    value = run_code(r, r.code, {}, stack.data());
  } catch (const Error&) {
    return std::nullopt;
  }
  Node out;
  out.type = n.type;
  out.line = n.line;
  out.column = n.column;
  switch (n.type) {
    case ValueType::boolean: out.kind = NodeKind::boolean; out.int_value = value.i; break;
    case ValueType::integer: out.kind = NodeKind::integer; out.int_value = value.i; break;
    case ValueType::real: out.kind = NodeKind::real; out.real_value = value.d; break;
  }
  return out;
}

Node fold(const Node& n) {
  if (n.children.empty()) return n;
  Node out = with_mapped_children(n, fold);
  const Node& first = out.children[0];
  // A known condition picks its branch; a known left side of & | can decide alone.
  if (n.kind == NodeKind::conditional && is_literal(first)) {
    Node branch = std::move(out.children[first.int_value ? 1 : 2]);
    return branch;  // may be an integer where the node was real: parents convert
  }
  if ((n.kind == NodeKind::logical_and || n.kind == NodeKind::logical_or) && is_literal(first)) {
    const bool decides = (n.kind == NodeKind::logical_and) == (first.int_value == 0);
    if (decides) return first;
    Node second = std::move(out.children[1]);
    return second;
  }
  for (const Node& c : out.children) {
    if (!is_literal(c)) return out;
  }
  if (auto literal = evaluate_literal(out)) return *literal;
  return out;
}

// Whether evaluating `n` can never throw: no integer arithmetic (overflow),
// no conversion to an integer, no integer pow or mod.
bool cannot_fail(const Node& n) {
  switch (n.kind) {
    case NodeKind::negate:
    case NodeKind::multiply:
    case NodeKind::add:
    case NodeKind::subtract:
    case NodeKind::function_pow:
      if (n.type != ValueType::real) return false;
      break;
    case NodeKind::function_floor:
    case NodeKind::function_ceil:
    case NodeKind::function_round:
    case NodeKind::function_mod:
    case NodeKind::identifier:
      return false;
    default: break;
  }
  for (const Node& c : n.children) {
    if (!cannot_fail(c)) return false;
  }
  return true;
}

bool is_integer_literal(const Node& n) { return n.kind == NodeKind::integer || n.kind == NodeKind::boolean; }
bool is_integer_variable(const Node& n) { return n.kind == NodeKind::variable && n.type != ValueType::real; }

// The range a conjunct like `x = 3`, `x >= 2`, `4 > x`, `b`, `!b` puts on
// one integer or boolean variable; nothing for other forms.
std::optional<VariableRange> conjunct_range(const Node& n) {
  constexpr int64_t lowest = std::numeric_limits<int64_t>::min(), highest = std::numeric_limits<int64_t>::max();
  if (is_integer_variable(n) && n.type == ValueType::boolean) return VariableRange{n.variable, 1, 1};
  if (n.kind == NodeKind::logical_not && is_integer_variable(n.children[0]) &&
      n.children[0].type == ValueType::boolean) {
    return VariableRange{n.children[0].variable, 0, 0};
  }
  NodeKind kind = n.kind;
  if (kind != NodeKind::equal && kind != NodeKind::less && kind != NodeKind::less_equal &&
      kind != NodeKind::greater && kind != NodeKind::greater_equal) {
    return std::nullopt;
  }
  const Node *variable = &n.children[0], *literal = &n.children[1];
  if (!is_integer_variable(*variable)) {
    std::swap(variable, literal);  // `3 < x` is `x > 3`
    if (kind == NodeKind::less) kind = NodeKind::greater;
    else if (kind == NodeKind::less_equal) kind = NodeKind::greater_equal;
    else if (kind == NodeKind::greater) kind = NodeKind::less;
    else if (kind == NodeKind::greater_equal) kind = NodeKind::less_equal;
  }
  if (!is_integer_variable(*variable) || !is_integer_literal(*literal)) return std::nullopt;
  const int64_t k = literal->int_value;
  switch (kind) {
    case NodeKind::equal: return VariableRange{variable->variable, k, k};
    case NodeKind::less: return k == lowest ? std::nullopt : std::optional(VariableRange{variable->variable, lowest, k - 1});
    case NodeKind::less_equal: return VariableRange{variable->variable, lowest, k};
    case NodeKind::greater: return k == highest ? std::nullopt : std::optional(VariableRange{variable->variable, k + 1, highest});
    case NodeKind::greater_equal: return VariableRange{variable->variable, k, highest};
    default: return std::nullopt;
  }
}

// The conjuncts of a left-nested `a & b & c`, in evaluation order.
void conjuncts(const Node& n, std::vector<const Node*>& out) {
  if (n.kind == NodeKind::logical_and) {
    conjuncts(n.children[0], out);
    conjuncts(n.children[1], out);
  } else {
    out.push_back(&n);
  }
}

// Expression::necessary_ranges: the ranges of the leading conjuncts, up to
// the first one whose evaluation might throw (a later conjunct's range must
// not hide an error PRISM's left-to-right evaluation would report).
// `exact`: every conjunct is a range, so the ranges are the whole expression.
// `decided`: which of `parts` (the conjuncts) the ranges decide: once the
// ranges hold, each of those is true, and the expression is the others.
std::vector<VariableRange> necessary_ranges(const std::vector<const Node*>& parts, bool& exact,
                                            std::vector<bool>& decided) {
  std::vector<VariableRange> out;
  exact = true;
  decided.assign(parts.size(), false);
  for (size_t i = 0; i < parts.size(); ++i) {
    const Node* part = parts[i];
    if (!conjunct_range(*part)) exact = false;
    if (const std::optional<VariableRange> range = conjunct_range(*part)) {
      decided[i] = true;
      auto same = std::find_if(out.begin(), out.end(), [&](const VariableRange& r) { return r.variable == range->variable; });
      if (same == out.end()) {
        out.push_back(*range);
      } else {
        same->lower = std::max(same->lower, range->lower);
        same->upper = std::min(same->upper, range->upper);
      }
    } else if (!cannot_fail(*part)) {
      break;
    }
  }
  return out;
}

// The conjunction of the conjuncts the ranges leave, left-nested as parsed.
Node remaining_conjunction(const std::vector<const Node*>& parts, const std::vector<bool>& decided) {
  std::optional<Node> rest;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (decided[i]) continue;
    if (!rest) {
      rest = *parts[i];
      continue;
    }
    Node both;
    both.kind = NodeKind::logical_and;
    both.type = ValueType::boolean;
    both.line = rest->line;
    both.column = rest->column;
    both.children.push_back(std::move(*rest));
    both.children.push_back(*parts[i]);
    rest = std::move(both);
  }
  return *rest;
}

// Recognises the forms code.hpp's Shape names, from the code itself.
void set_shape(Expression::Representation& r, bool exact_ranges) {
  const std::vector<Instruction>& code = r.code;
  if (exact_ranges && !r.necessary.empty() && r.type == ValueType::boolean) {
    r.shape = Shape::ranges;
  } else if (code.size() == 1 && code[0].op == Op::load && r.type != ValueType::real) {
    r.shape = Shape::load;
    r.variable = code[0].arg;
  } else if (code.size() == 3 && code[0].op == Op::load && code[1].op == Op::push && r.type == ValueType::integer &&
             (code[2].op == Op::add_integer ||
              (code[2].op == Op::subtract_integer && code[1].value.i != std::numeric_limits<int64_t>::min()))) {
    // A variable is an int32: adding any int64 within ±2^62 cannot overflow.
    const int64_t k = code[2].op == Op::add_integer ? code[1].value.i : -code[1].value.i;
    if (k > -(int64_t{1} << 62) && k < (int64_t{1} << 62)) {
      r.shape = Shape::load_plus;
      r.variable = code[0].arg;
      r.offset = k;
    }
  }
}

}  // namespace

Expression compile_expression(const Node& checked, const SourceLocation& location) {
  auto r = std::make_unique<Expression::Representation>();
  r->type = checked.type;
  r->location = location;
  r->text = node_to_string(checked);
  r->tree = std::make_shared<const Node>(checked);
  r->stack_size = 0;
  const Node folded = fold(checked);
  Compiler(*r).emit(folded, checked.type);
  bool exact = false;
  std::vector<const Node*> parts;
  std::vector<bool> decided;
  if (folded.type == ValueType::boolean) {
    conjuncts(folded, parts);
    r->necessary = necessary_ranges(parts, exact, decided);
  }
  set_shape(*r, exact);
  if (r->shape == Shape::general && !r->necessary.empty()) {
    // The ranges first, then only what they leave: `x=3 & y=1 & x<z` runs `x<z`.
    Expression::Representation rest;
    rest.stack_size = 0;
    Compiler(rest).emit(remaining_conjunction(parts, decided), ValueType::boolean);
    r->shape = Shape::ranges_then_fast;
    r->fast = fuse_instructions(rest.code);
    r->fast_stack_size = std::max<uint32_t>(rest.stack_size, 1);
  } else {
    r->fast = fuse_instructions(r->code);
    r->fast_stack_size = std::max<uint32_t>(r->stack_size, 1);
  }
  return Expression(std::move(r));
}

}  // namespace pmc::expression
