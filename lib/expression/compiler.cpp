// Checked expression trees → postfix code (code.hpp). Constant subtrees
// are folded first, so a guard like `s=N-1` costs one load, one push and one compare per state.
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
    value = run_code(r, {}, stack.data());
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

}  // namespace

Expression compile_expression(const Node& checked, const SourceLocation& location) {
  auto r = std::make_unique<Expression::Representation>();
  r->type = checked.type;
  r->location = location;
  r->text = node_to_string(checked);
  r->stack_size = 0;
  const Node folded = fold(checked);
  Compiler(*r).emit(folded, checked.type);
  return Expression(std::move(r));
}

}  // namespace pmc::expression
