// The postfix code's interpreter, and Expression's typed evaluation on it.
// Exploration evaluates every guard, weight
// and assignment once per state and command, so evaluation allocates
// nothing, dispatches one switch per instruction and runs the fused fast
// code (fusion.cpp), inlined into each typed entry point; constants are
// folded before (compiler.cpp).
#include <cmath>
#include <limits>
#include <vector>

#include "common/error.hpp"
#include "expression/code.hpp"

namespace pmc::expression {

namespace {

[[noreturn]] void runtime_error(const Expression::Representation& r, std::string_view what) {
  const std::string where = r.location.file.empty() ? std::string("expression") : r.location.to_string();
  fail(ErrorCode::model, "{}: {} while evaluating {}", where, what, r.text);
}

int64_t to_integer(const Expression::Representation& r, double value) {
  // 2^63 is exactly representable; anything at or beyond it (or NaN) is not an int64.
  if (!(value >= -9223372036854775808.0 && value < 9223372036854775808.0)) {
    runtime_error(r, fmt::format("the value {} is not an integer PRISM can represent", value));
  }
  return static_cast<int64_t>(value);
}

int64_t integer_power(const Expression::Representation& r, int64_t base, int64_t exponent) {
  // PRISM: "Negative exponent not allowed for integer power".
  if (exponent < 0) runtime_error(r, fmt::format("negative exponent {} in an integer pow", exponent));
  int64_t result = 1;
  while (exponent > 0) {
    if (exponent & 1) {
      if (__builtin_mul_overflow(result, base, &result)) runtime_error(r, "integer overflow in pow");
    }
    exponent >>= 1;
    if (exponent > 0 && __builtin_mul_overflow(base, base, &base)) runtime_error(r, "integer overflow in pow");
  }
  return result;
}

[[noreturn]] void state_too_short(const Expression::Representation& r, size_t size) {
  fail(ErrorCode::internal, "expression {} needs {} variables, the state has {}", r.text, r.state_size, size);
}

// The interpreter; the caller has checked that `state` holds r.state_size values.
[[gnu::always_inline]] inline Value interpret(const Expression::Representation& r,
                                              const std::vector<Instruction>& program,
                                              std::span<const int32_t> state, Value* stack) {
  const Instruction* code = program.data();
  const size_t size = program.size();
  const int32_t* values = state.data();
  Value* top = stack - 1;  // the top element; the code is balanced, so it ends at stack[0]
  for (size_t pc = 0; pc < size; ++pc) {
    const Instruction& in = code[pc];
    switch (in.op) {
      case Op::push: *++top = in.value; break;
      case Op::load: (++top)->i = values[in.arg]; break;
      case Op::to_real: top->d = static_cast<double>(top->i); break;
      case Op::negate_integer:
        if (top->i == std::numeric_limits<int64_t>::min()) runtime_error(r, "integer overflow");
        top->i = -top->i;
        break;
      case Op::negate_real: top->d = -top->d; break;
      case Op::logical_not: top->i = top->i == 0; break;
#define PMC_BINARY(OP, FIELD, EXPR)     \
  case Op::OP: {                        \
    const auto b = top->FIELD;          \
    --top;                              \
    const auto a = top->FIELD;          \
    EXPR;                               \
    break;                              \
  }
#define PMC_CHECKED(OP, BUILTIN) \
  PMC_BINARY(OP, i, if (BUILTIN(a, b, &top->i)) runtime_error(r, "integer overflow"))
      PMC_CHECKED(add_integer, __builtin_add_overflow)
      PMC_CHECKED(subtract_integer, __builtin_sub_overflow)
      PMC_CHECKED(multiply_integer, __builtin_mul_overflow)
      PMC_BINARY(add_real, d, top->d = a + b)
      PMC_BINARY(subtract_real, d, top->d = a - b)
      PMC_BINARY(multiply_real, d, top->d = a * b)
      PMC_BINARY(divide_real, d, top->d = a / b)
      // Each comparison on integers and on doubles; the result is 0 or 1.
#define PMC_COMPARE(NAME, OPERATOR)                    \
  PMC_BINARY(NAME##_integer, i, top->i = a OPERATOR b) \
  PMC_BINARY(NAME##_real, d, top->i = a OPERATOR b)
      PMC_COMPARE(less, <)
      PMC_COMPARE(less_equal, <=)
      PMC_COMPARE(greater, >)
      PMC_COMPARE(greater_equal, >=)
      PMC_COMPARE(equal, ==)
      PMC_COMPARE(not_equal, !=)
      PMC_BINARY(min_integer, i, top->i = b < a ? b : a)
      PMC_BINARY(max_integer, i, top->i = b > a ? b : a)
      // Java's Math.min/max, which PRISM calls: NaN wins.
      PMC_BINARY(min_real, d, top->d = std::isnan(a) || std::isnan(b) ? std::nan("") : (b < a ? b : a))
      PMC_BINARY(max_real, d, top->d = std::isnan(a) || std::isnan(b) ? std::nan("") : (b > a ? b : a))
      PMC_BINARY(power_integer, i, top->i = integer_power(r, a, b))
      PMC_BINARY(power_real, d, top->d = std::pow(a, b))
      // PRISM's mod: the remainder made non-negative by adding the divisor.
      PMC_BINARY(modulo_integer, i,
                 if (b == 0) runtime_error(r, "modulo zero");
                 const int64_t rem = b == -1 ? 0 : a % b; top->i = rem < 0 ? rem + b : rem)
      PMC_BINARY(log_real, d, top->d = std::log(a) / std::log(b))
#undef PMC_COMPARE
#undef PMC_CHECKED
#undef PMC_BINARY
      case Op::floor: top->i = to_integer(r, std::floor(top->d)); break;
      case Op::ceil: top->i = to_integer(r, std::ceil(top->d)); break;
      // Java's Math.round: floor(x + 1/2).
      case Op::round: top->i = to_integer(r, std::floor(top->d + 0.5)); break;
      case Op::jump: pc = in.arg - 1; break;
      case Op::jump_if_false: {
        const bool condition = top->i != 0;
        --top;
        if (!condition) pc = in.arg - 1;
        break;
      }
      case Op::and_jump:  // `a & b`: a false is the answer, else b is
        if (top->i == 0) pc = in.arg - 1; else --top;
        break;
      case Op::or_jump:
        if (top->i != 0) pc = in.arg - 1; else --top;
        break;
#define PMC_FUSED(NAME, OPERATOR)                                                              \
  case Op::NAME##_variable_constant: (++top)->i = values[in.arg] OPERATOR in.value.i; break;   \
  case Op::NAME##_variable_variable: (++top)->i = values[in.arg] OPERATOR values[in.value.i]; break;
      PMC_FUSED(less, <)
      PMC_FUSED(less_equal, <=)
      PMC_FUSED(greater, >)
      PMC_FUSED(greater_equal, >=)
      PMC_FUSED(equal, ==)
      PMC_FUSED(not_equal, !=)
#undef PMC_FUSED
    }
  }
  return *top;
}

}  // namespace

Value run_code(const Expression::Representation& r, const std::vector<Instruction>& code,
               std::span<const int32_t> state, Value* stack) {
  if (state.size() < r.state_size) state_too_short(r, state.size());
  return interpret(r, code, state, stack);
}

namespace {

// Most expressions need a handful of slots; deeper right-nested ones fall
// back to the heap.
constexpr uint32_t k_stack_slots = 32;

[[gnu::always_inline]] inline bool within(const std::vector<VariableRange>& ranges, std::span<const int32_t> state) {
  for (const VariableRange& range : ranges) {
    const int64_t x = state[range.variable];
    if (x < range.lower || x > range.upper) return false;
  }
  return true;
}

[[gnu::always_inline]] inline Value evaluate(const Expression::Representation& r, std::span<const int32_t> state) {
  Value v;
  if (r.code.size() == 1 && r.code[0].op == Op::push) return r.code[0].value;
  if (state.size() < r.state_size) state_too_short(r, state.size());
  switch (r.shape) {
    case Shape::ranges: v.i = within(r.necessary, state); return v;
    case Shape::ranges_then_fast:
      if (!within(r.necessary, state)) {
        v.i = 0;
        return v;
      }
      break;
    case Shape::load: v.i = state[r.variable]; return v;
    case Shape::load_plus: v.i = state[r.variable] + r.offset; return v;
    case Shape::general: break;
  }
  if (r.fast_stack_size <= k_stack_slots) {
    Value stack[k_stack_slots];
    return interpret(r, r.fast, state, stack);
  }
  std::vector<Value> stack(r.fast_stack_size);
  return interpret(r, r.fast, state, stack.data());
}

}  // namespace

bool Expression::evaluate_bool_by_code(std::span<const int32_t> state) const {
  const Representation& r = *representation_;
  if (r.type != ValueType::boolean) fail(ErrorCode::internal, "{} is not a boolean expression", r.text);
  return evaluate(r, state).i != 0;
}

int64_t Expression::evaluate_int_by_code(std::span<const int32_t> state) const {
  const Representation& r = *representation_;
  if (r.type == ValueType::real) fail(ErrorCode::internal, "{} is not an integer expression", r.text);
  return evaluate(r, state).i;
}

double Expression::evaluate_real_by_code(std::span<const int32_t> state) const {
  const Representation& r = *representation_;
  const Value value = evaluate(r, state);
  return r.type == ValueType::real ? value.d : static_cast<double>(value.i);
}

}  // namespace pmc::expression
