// Binding identifiers and typing expressions with PRISM's rules (PRISM
// manual, "Expressions"; PRISM's TypeCheck visitor): ints promote to
// doubles, booleans never mix with numbers, `/` is always a double.
#include "expression/binder.hpp"

#include <charconv>

#include "common/error.hpp"
#include "expression/compiler.hpp"
#include "expression/exact_evaluator.hpp"

namespace pmc::expression {

namespace {

// Large enough for any hand-written model; small enough that a formula
// doubling itself twenty times is refused instead of exhausting memory.
constexpr uint64_t k_max_nodes = 1u << 20;
constexpr uint32_t k_max_bound_depth = 2000;

bool numeric(ValueType t) { return t != ValueType::boolean; }

std::string chain_text(const std::vector<std::string>& chain, const std::string& back_to) {
  std::string text;
  bool on = false;
  for (const std::string& name : chain) {
    if (name == back_to) on = true;
    if (on) text += name + " -> ";
  }
  return text + back_to;
}

Node literal_node(ValueType type, int64_t i, double d, const Node& at) {
  Node n;
  n.type = type;
  n.line = at.line;
  n.column = at.column;
  n.kind = type == ValueType::boolean ? NodeKind::boolean : type == ValueType::integer ? NodeKind::integer : NodeKind::real;
  n.int_value = i;
  n.real_value = d;
  return n;
}

// A constant's exact value ("7/10") where the tree has one (no log, no
// real exponent, no division by zero), else empty; --exact reads it.
std::string exact_text(const Node& bound) {
#ifdef PMC_HAVE_GMP
  try {
    return rational_text(evaluate_exact(bound, {}));
  } catch (const Error&) {
    return {};
  }
#else
  (void)bound;
  return {};
#endif
}

}  // namespace

const char* type_name(ValueType type) {
  switch (type) {
    case ValueType::boolean: return "bool";
    case ValueType::integer: return "int";
    case ValueType::real: return "double";
  }
  return "?";
}

Binder::Binder(const Declarations& declarations, const std::string& file)
    : declarations_(declarations),
      file_(file),
      constants_(declarations.constants.size()),
      expanding_(declarations.formulas.size()) {
  for (size_t i = 0; i < declarations.constants.size(); ++i) constant_index.emplace(declarations.constants[i].name, i);
  for (size_t i = 0; i < declarations.formulas.size(); ++i) formula_index.emplace(declarations.formulas[i].name, i);
}

void Binder::declare_variable(const std::string& name, uint32_t index, ValueType type) {
  variables_[name] = {index, type};
}

void Binder::give_constant(size_t index, const std::string& text) {
  const ConstantDeclaration& c = declarations_.constants[index];
  Node at;
  at.line = c.position.line;
  at.column = c.position.column;
  const char* begin = text.data();
  const char* end = begin + text.size();
  switch (c.type) {
    case ValueType::integer: {
      int64_t value = 0;
      const auto [stop, error] = std::from_chars(begin, end, value);
      if (error != std::errc() || stop != end || value < -2147483648LL || value > 2147483647LL) {
        fail(ErrorCode::invalid_argument, "constant {}={} given: {} is an int constant (declared at {}); expected an "
             "integer from -2147483648 to 2147483647, found {}", c.name, text, c.name,
             location(c.position).to_string(), quote_for_message(text));
      }
      constants_[index].value = literal_node(ValueType::integer, value, 0, at);
      break;
    }
    case ValueType::real: {
      double value = 0;
      const auto [stop, error] = std::from_chars(begin, end, value);
      if (error != std::errc() || stop != end) {
        fail(ErrorCode::invalid_argument, "constant {}={} given: {} is a double constant (declared at {}); expected a "
             "number, found {}", c.name, text, c.name, location(c.position).to_string(), quote_for_message(text));
      }
      constants_[index].value = literal_node(ValueType::real, 0, value, at);
      constants_[index].value->exact = text;  // the decimal as given
      break;
    }
    case ValueType::boolean:
      if (text != "true" && text != "false") {
        fail(ErrorCode::invalid_argument, "constant {}={} given: {} is a bool constant (declared at {}); expected true "
             "or false, found {}", c.name, text, c.name, location(c.position).to_string(), quote_for_message(text));
      }
      constants_[index].value = literal_node(ValueType::boolean, text == "true", 0, at);
      break;
  }
  constants_[index].given = text;
}

const Node& Binder::constant_value(size_t index) {
  ConstantState& state = constants_[index];
  if (state.value) return *state.value;
  const ConstantDeclaration& c = declarations_.constants[index];
  if (state.evaluating) {
    fail(ErrorCode::parse, "{}: constant '{}' is defined in terms of itself ({})", location(c.position).to_string(),
         c.name, chain_text(chain_, c.name));
  }
  if (!c.value) {  // parse_program lists every undefined constant before any is used
    fail(ErrorCode::internal, "constant {} has no value", c.name);
  }
  state.evaluating = true;
  chain_.push_back(c.name);
  BindContext context;
  context.constants_only = true;
  context.what = fmt::format("the value of constant {}", c.name);
  Node value = evaluate_constant(*c.value, context, c.type);
  chain_.pop_back();
  constants_[index].evaluating = false;
  constants_[index].value = std::move(value);
  return *constants_[index].value;
}

Node Binder::evaluate_constant(const Node& n, BindContext& context, ValueType type) {
  Node bound = bind_typed(n, context, type);
  const Expression e = compile_expression(bound, location(n.line, n.column));
  switch (type) {
    case ValueType::boolean: return literal_node(type, e.evaluate_bool({}), 0, n);
    case ValueType::integer: return literal_node(type, e.evaluate_int({}), 0, n);
    case ValueType::real: {
      Node literal = literal_node(type, 0, e.evaluate_real({}), n);
      literal.exact = exact_text(bound);
      return literal;
    }
  }
  return bound;
}

Node Binder::bind_typed(const Node& n, BindContext& context, ValueType type, bool numeric_ok) {
  Node bound = bind(n, context);
  const bool fits = bound.type == type || (type == ValueType::real && bound.type == ValueType::integer) ||
                    (numeric_ok && numeric(type) && numeric(bound.type));
  if (!fits) {
    const char* wanted = numeric_ok ? "a number" : type == ValueType::boolean ? "a bool" : type == ValueType::integer ? "an int" : "a number";
    fail(ErrorCode::parse, "{}: type error: {} must be {}, found {} '{}'", location(n.line, n.column).to_string(),
         context.what, wanted, type_name(bound.type), node_to_string(n));
  }
  return bound;
}

Node Binder::bind(const Node& n, BindContext& context, uint32_t depth) {
  if (depth > k_max_bound_depth) {
    fail(ErrorCode::parse, "{}: expression nested too deeply after expanding formulas (more than {} levels)",
         location(n.line, n.column).to_string(), k_max_bound_depth);
  }
  if (++context.nodes > k_max_nodes) {
    fail(ErrorCode::parse, "{}: expression too large after expanding formulas (more than {} nodes)",
         location(n.line, n.column).to_string(), k_max_nodes);
  }
  if (n.kind == NodeKind::identifier) return bind_identifier(n, context, depth);
  Node out = with_mapped_children(n, [&](const Node& c) { return bind(c, context, depth + 1); });
  type_node(out);
  return out;
}

Node Binder::bind_identifier(const Node& n, BindContext& context, uint32_t depth) {
  // Formulas first, by their own name: PRISM expands them before renaming.
  if (auto f = formula_index.find(n.name); f != formula_index.end()) {
    const FormulaDeclaration& formula = declarations_.formulas[f->second];
    if (expanding_[f->second]) {
      fail(ErrorCode::parse, "{}: formula '{}' is defined in terms of itself ({})",
           location(formula.position).to_string(), formula.name, chain_text(chain_, formula.name));
    }
    expanding_[f->second] = true;
    chain_.push_back(formula.name);
    Node body = bind(formula.value, context, depth + 1);
    chain_.pop_back();
    expanding_[f->second] = false;
    return body;
  }
  std::string name = n.name;
  if (context.renames) {
    if (auto r = context.renames->find(name); r != context.renames->end()) name = r->second;
  }
  if (auto c = constant_index.find(name); c != constant_index.end()) {
    Node value = constant_value(c->second);
    value.line = n.line;
    value.column = n.column;
    return value;
  }
  if (auto v = variables_.find(name); v != variables_.end()) {
    if (context.constants_only) {
      fail(ErrorCode::parse, "{}: {} must be constant, but it reads variable '{}'",
           location(n.line, n.column).to_string(), context.what, name);
    }
    Node out;
    out.kind = NodeKind::variable;
    out.type = v->second.type;
    out.variable = v->second.index;
    out.name = name;
    out.line = n.line;
    out.column = n.column;
    return out;
  }
  if (context.constants_only && variable_names.count(name)) {
    fail(ErrorCode::parse, "{}: {} must be constant, but it reads variable '{}'",
         location(n.line, n.column).to_string(), context.what, name);
  }
  if (name != n.name) {
    fail(ErrorCode::parse, "{}: unknown identifier '{}' (renamed from '{}')", location(n.line, n.column).to_string(),
         name, n.name);
  }
  fail(ErrorCode::parse, "{}: unknown identifier '{}'", location(n.line, n.column).to_string(), name);
}

void Binder::type_node(Node& n) const {
  auto operand_error = [&](const Node& operand, const char* wanted) {
    const std::string op = is_function(n.kind) ? fmt::format("function '{}'", function_name(n.kind))
                           : n.kind == NodeKind::negate      ? std::string("unary '-'")
                           : n.kind == NodeKind::logical_not ? std::string("'!'")
                           : n.kind == NodeKind::conditional ? std::string("'? :'")
                                                             : fmt::format("'{}'", operator_text(n.kind));
    fail(ErrorCode::parse, "{}: type error: {} needs {}, found {} '{}'",
         location(operand.line, operand.column).to_string(), op, wanted, type_name(operand.type),
         node_to_string(operand));
  };
  auto need_numbers = [&]() {
    for (const Node& c : n.children) {
      if (!numeric(c.type)) operand_error(c, "numbers");
    }
  };
  auto need_booleans = [&]() {
    for (const Node& c : n.children) {
      if (c.type != ValueType::boolean) operand_error(c, "booleans");
    }
  };
  auto widest = [&](size_t from) {
    ValueType t = ValueType::integer;
    for (size_t i = from; i < n.children.size(); ++i) {
      if (n.children[i].type == ValueType::real) t = ValueType::real;
    }
    return t;
  };
  switch (n.kind) {
    case NodeKind::boolean: n.type = ValueType::boolean; return;
    case NodeKind::integer: n.type = ValueType::integer; return;
    case NodeKind::real: n.type = ValueType::real; return;
    case NodeKind::identifier:
    case NodeKind::variable: return;
    case NodeKind::negate:
    case NodeKind::multiply:
    case NodeKind::add:
    case NodeKind::subtract:
    case NodeKind::function_min:
    case NodeKind::function_max:
    case NodeKind::function_pow:
      need_numbers();
      n.type = widest(0);
      return;
    case NodeKind::divide:
    case NodeKind::function_log:
      need_numbers();
      n.type = ValueType::real;
      return;
    case NodeKind::function_floor:
    case NodeKind::function_ceil:
    case NodeKind::function_round:
      need_numbers();
      n.type = ValueType::integer;
      return;
    case NodeKind::function_mod:
      for (const Node& c : n.children) {
        if (c.type != ValueType::integer) operand_error(c, "ints");
      }
      n.type = ValueType::integer;
      return;
    case NodeKind::less:
    case NodeKind::less_equal:
    case NodeKind::greater:
    case NodeKind::greater_equal:
      need_numbers();
      n.type = ValueType::boolean;
      return;
    case NodeKind::equal:
    case NodeKind::not_equal:
      if (numeric(n.children[0].type) != numeric(n.children[1].type)) {
        operand_error(n.children[1], numeric(n.children[0].type) ? "two numbers" : "two booleans");
      }
      n.type = ValueType::boolean;
      return;
    case NodeKind::logical_not:
    case NodeKind::logical_and:
    case NodeKind::logical_or:
    case NodeKind::implies:
    case NodeKind::iff:
      need_booleans();
      n.type = ValueType::boolean;
      return;
    case NodeKind::conditional: {
      if (n.children[0].type != ValueType::boolean) operand_error(n.children[0], "a boolean condition");
      const Node& a = n.children[1];
      const Node& b = n.children[2];
      if (numeric(a.type) != numeric(b.type)) {
        operand_error(b, numeric(a.type) ? "two numeric branches" : "two boolean branches");
      }
      n.type = numeric(a.type) ? widest(1) : ValueType::boolean;
      return;
    }
  }
}

}  // namespace pmc::expression
