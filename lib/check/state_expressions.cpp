// Typing and evaluation of expressions over state variables. The tree is
// compiled once into postfix code (variables resolved to columns of the
// valuations, a source's constants to their values and its formulas to
// their bound expressions), then run per state on a small stack of doubles,
// in parallel.
// Every value an int or bool can take in a model (32-bit valuations, and
// literals below 2^53) is exact in a double.
#include "check/state_expressions.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "common/error.hpp"
#include "expression/source_scope.hpp"
#include "expression/syntax_tree.hpp"
#include "solver/parallel.hpp"

namespace pmc {

namespace {

using property::Expression;
using property::ExprKind;

enum class Type : uint8_t { boolean, integer, real };

bool numeric(Type t) { return t != Type::boolean; }

std::string_view type_name(Type t) {
  switch (t) {
    case Type::boolean: return "a boolean";
    case Type::integer: return "an integer";
    case Type::real: return "a number";
  }
  return "a value";
}

// One instruction of the postfix code.
struct Instruction {
  ExprKind kind = ExprKind::number;
  double constant = 0.0;        // number, boolean
  uint32_t variable = 0;        // variable: its column in the valuations
  uint32_t arguments = 0;       // call: how many values it pops
  // call: which function, resolved once at compile time so that no state
  // compares names.
  expression::NodeKind function = expression::NodeKind::function_min;
  bool integer_power = false;   // call of pow on two integers: a negative exponent is undefined
  int32_t formula = -1;         // a source's formula: its index in ConditionCode::formulas (`kind` unused)
  const Expression* source = nullptr;  // for run-time errors (mod by zero)
};

struct ConditionCode {
  std::vector<Instruction> code;
  size_t max_stack = 0;
  std::vector<expression::Expression> formulas;  // bound by lib/expression, as in the source
};

class ConditionCompiler {
 public:
  ConditionCompiler(const StateValuations& valuations, const SourceDefinitions& definitions)
      : valuations_(valuations), definitions_(definitions) {
    for (size_t i = 0; i < valuations.variables.size(); ++i) columns_.emplace(valuations.variables[i], i);
  }

  ConditionCode compile_condition(const Expression& e) {
    const Type type = compile(e);
    if (type != Type::boolean) {
      const std::string text = property::to_string(e);
      fail(ErrorCode::property, "column {}: {} is {}, not a condition (compare it, as {}=1)", e.column,
           quote_for_message(text), type_name(type), text.size() <= 40 ? text : "x");
    }
    return std::move(program_);
  }

  // Code for an expression of any type; `is_boolean` says which it has.
  ConditionCode compile_any(const Expression& e, bool& is_boolean) {
    is_boolean = compile(e) == Type::boolean;
    return std::move(program_);
  }

 private:
  const StateValuations& valuations_;
  const SourceDefinitions& definitions_;
  std::optional<expression::SourceScope> scope_;  // parsed at the first name it defines
  std::unordered_map<std::string, size_t> columns_;
  ConditionCode program_;
  size_t depth_ = 0;  // stack depth after the code so far

  void emit(Instruction instruction, size_t pops, size_t pushes = 1) {
    depth_ = depth_ - pops + pushes;
    program_.max_stack = std::max(program_.max_stack, depth_);
    program_.code.push_back(instruction);
  }

  std::string variable_list() const {
    std::string names;
    for (const std::string& v : valuations_.variables) names += (names.empty() ? "" : ", ") + v;
    return names;
  }

  std::string definition_list() const {
    std::string names;
    for (const auto& [name, value] : definitions_.constants) names += (names.empty() ? "" : ", ") + name + "=" + value;
    for (const auto& [name, text] : definitions_.formulas) names += (names.empty() ? "" : ", ") + name;
    return names;
  }

  // A name that is no state variable: the source's constant (a literal) or
  // formula (its expression, bound as when the source was built).
  Type compile_definition(const Expression& e, Instruction in) {
    if (!definitions_.defines(e.name)) unknown_variable(e);
    expression::Expression bound;
    Type type = Type::real;
    try {
      if (!scope_) scope_.emplace(definitions_, valuations_);
      bound = scope_->bind(e.name);
      type = bound.type() == expression::ValueType::boolean   ? Type::boolean
             : bound.type() == expression::ValueType::integer ? Type::integer
                                                                  : Type::real;
      if (bound.is_constant()) {
        in.kind = type == Type::boolean ? ExprKind::boolean : ExprKind::number;
        in.constant = type == Type::boolean ? (bound.evaluate_bool({}) ? 1.0 : 0.0) : bound.evaluate_real({});
        emit(in, 0);
        return type;
      }
    } catch (const Error& error) {
      fail(ErrorCode::property, "column {}: {}", e.column, error.what());
    }
    program_.formulas.push_back(std::move(bound));
    in.formula = static_cast<int32_t>(program_.formulas.size() - 1);
    emit(in, 0);
    return type;
  }

  [[noreturn]] void unknown_variable(const Expression& e) const {
    if (!definitions_.empty()) {
      fail(ErrorCode::property,
           "column {}: unknown name {} (the model's variables: {}; its source's constants and formulas: {}); labels "
           "are written in double quotes, as \"{}\"",
           e.column, quote_for_message(e.name), valuations_.empty() ? "none" : variable_list(), definition_list(),
           e.name);
    }
    if (valuations_.empty()) {
      fail(ErrorCode::property,
           "column {}: {} is no label and the model has no state variables to look it up in (they come with its "
           ".sta file or its PRISM-language source); labels are written in double quotes, as \"{}\"",
           e.column, quote_for_message(e.name), e.name);
    }
    fail(ErrorCode::property,
         "column {}: unknown variable {} (the model's variables: {}); labels are written in double quotes, as "
         "\"{}\" (a source's constants and formulas are known to a model built from the source)",
         e.column, quote_for_message(e.name), variable_list(), e.name);
  }

  // The operands' types must be numbers for `what` ('+', 'floor', ...).
  void require_numbers(const Expression& e, std::string_view what, const std::vector<Type>& types) const {
    for (size_t i = 0; i < types.size(); ++i) {
      if (!numeric(types[i])) {
        fail(ErrorCode::property, "column {}: {} takes numbers, but {} is a boolean", e.column, what,
             quote_for_message(property::to_string(*e.args[i])));
      }
    }
  }

  Type compile(const Expression& e) {
    Instruction in;
    in.kind = e.kind;
    in.source = &e;
    switch (e.kind) {
      case ExprKind::number:
        in.constant = e.number.value;
        emit(in, 0);
        return e.number.is_integer ? Type::integer : Type::real;
      case ExprKind::boolean:
        in.constant = e.value ? 1.0 : 0.0;
        emit(in, 0);
        return Type::boolean;
      case ExprKind::variable: {
        const auto it = columns_.find(e.name);
        if (it == columns_.end()) return compile_definition(e, in);
        in.variable = static_cast<uint32_t>(it->second);
        emit(in, 0);
        return valuations_.is_bool[it->second] ? Type::boolean : Type::integer;
      }
      case ExprKind::negate: {
        const Type t = compile(*e.args[0]);
        require_numbers(e, "'-'", {t});
        emit(in, 1);
        return t;
      }
      case ExprKind::call: return compile_call(e, in);
      default: break;
    }
    // Binary operators.
    const Type left = compile(*e.args[0]);
    const Type right = compile(*e.args[1]);
    emit(in, 2);
    switch (e.kind) {
      case ExprKind::add:
      case ExprKind::subtract:
      case ExprKind::multiply:
        require_numbers(e, operator_name(e.kind), {left, right});
        return left == Type::integer && right == Type::integer ? Type::integer : Type::real;
      case ExprKind::divide:
        require_numbers(e, "'/'", {left, right});
        return Type::real;  // PRISM's division is always real
      case ExprKind::equal:
      case ExprKind::not_equal:
        if (numeric(left) != numeric(right)) {
          fail(ErrorCode::property, "column {}: {} compares two booleans or two numbers, but {} is {} and {} {}",
               e.column, operator_name(e.kind), quote_for_message(property::to_string(*e.args[0])),
               type_name(left), quote_for_message(property::to_string(*e.args[1])), type_name(right));
        }
        return Type::boolean;
      default:  // < <= > >=
        require_numbers(e, operator_name(e.kind), {left, right});
        return Type::boolean;
    }
  }

  static std::string operator_name(ExprKind kind) {
    switch (kind) {
      case ExprKind::add: return "'+'";
      case ExprKind::subtract: return "'-'";
      case ExprKind::multiply: return "'*'";
      case ExprKind::equal: return "'='";
      case ExprKind::not_equal: return "'!='";
      case ExprKind::less: return "'<'";
      case ExprKind::less_equal: return "'<='";
      case ExprKind::greater: return "'>'";
      case ExprKind::greater_equal: return "'>='";
      default: return "the operator";
    }
  }

  Type compile_call(const Expression& e, Instruction in) {
    std::vector<Type> types;
    for (const auto& arg : e.args) types.push_back(compile(*arg));
    require_numbers(e, e.name, types);
    const bool all_integers = std::all_of(types.begin(), types.end(), [](Type t) { return t == Type::integer; });
    in.arguments = static_cast<uint32_t>(e.args.size());
    // The parser admits only the built-in functions' names.
    in.function = expression::find_function(e.name)->kind;
    in.integer_power = e.name == "pow" && all_integers;
    emit(in, e.args.size());
    if (e.name == "floor" || e.name == "ceil" || e.name == "round") return Type::integer;
    if (e.name == "log") return Type::real;
    if (e.name == "mod" && !all_integers) {
      fail(ErrorCode::property, "column {}: mod takes integers, but {} is a number", e.column,
           quote_for_message(property::to_string(*e.args[types[0] == Type::integer ? 1 : 0])));
    }
    return all_integers ? Type::integer : Type::real;  // min, max, pow, mod
  }
};

// Why a state has no value: mod by zero or a negative integer exponent (as in PRISM).
struct RunError {
  const Expression* where = nullptr;
  std::string what;
};

// Runs `program` on one state's valuation row; false with `error` set on an
// undefined operation.
bool run(const ConditionCode& program, std::span<const int32_t> row, double* stack, RunError& error) {
  size_t top = 0;  // number of values on the stack
  for (const Instruction& in : program.code) {
    if (in.formula >= 0) {
      const expression::Expression& formula = program.formulas[static_cast<size_t>(in.formula)];
      try {
        stack[top++] = formula.type() == expression::ValueType::boolean ? (formula.evaluate_bool(row) ? 1.0 : 0.0)
                                                                           : formula.evaluate_real(row);
      } catch (const Error& e) {  // "expression: division by zero while evaluating ..."
        std::string_view what = e.what();
        if (what.starts_with("expression: ")) what.remove_prefix(12);
        error = {in.source, std::string(what)};
        return false;
      }
      continue;
    }
    switch (in.kind) {
      case ExprKind::number:
      case ExprKind::boolean: stack[top++] = in.constant; break;
      case ExprKind::variable: stack[top++] = row[in.variable]; break;
      case ExprKind::negate: stack[top - 1] = -stack[top - 1]; break;
      case ExprKind::call: {
        double* args = stack + top - in.arguments;
        double result = args[0];
        switch (in.function) {
          case expression::NodeKind::function_min:
            for (uint32_t i = 1; i < in.arguments; ++i) result = std::fmin(result, args[i]);
            break;
          case expression::NodeKind::function_max:
            for (uint32_t i = 1; i < in.arguments; ++i) result = std::fmax(result, args[i]);
            break;
          case expression::NodeKind::function_floor: result = std::floor(args[0]); break;
          case expression::NodeKind::function_ceil: result = std::ceil(args[0]); break;
          case expression::NodeKind::function_round:
            result = std::floor(args[0] + 0.5);  // Java's Math.round, as PRISM
            break;
          case expression::NodeKind::function_pow:
            if (in.integer_power && args[1] < 0) {
              error = {in.source, "a negative exponent of an integer power"};
              return false;
            }
            result = std::pow(args[0], args[1]);
            break;
          case expression::NodeKind::function_log: result = std::log(args[0]) / std::log(args[1]); break;
          default:  // mod, with Java's remainder made non-negative as PRISM does
            if (args[1] == 0) {
              error = {in.source, "mod by zero"};
              return false;
            }
            result = std::fmod(args[0], args[1]);
            if (result < 0) result += args[1];
        }
        top -= in.arguments;
        stack[top++] = result;
        break;
      }
      default: {
        const double b = stack[--top];
        double& a = stack[top - 1];
        switch (in.kind) {
          case ExprKind::add: a = a + b; break;
          case ExprKind::subtract: a = a - b; break;
          case ExprKind::multiply: a = a * b; break;
          case ExprKind::divide: a = a / b; break;
          case ExprKind::equal: a = a == b ? 1.0 : 0.0; break;
          case ExprKind::not_equal: a = a != b ? 1.0 : 0.0; break;
          case ExprKind::less: a = a < b ? 1.0 : 0.0; break;
          case ExprKind::less_equal: a = a <= b ? 1.0 : 0.0; break;
          case ExprKind::greater: a = a > b ? 1.0 : 0.0; break;
          case ExprKind::greater_equal: a = a >= b ? 1.0 : 0.0; break;
          default: break;
        }
      }
    }
  }
  return true;
}

std::string describe_state(const StateValuations& valuations, uint64_t state) {
  std::string text;
  const size_t n = valuations.variables.size();
  for (size_t i = 0; i < n; ++i) {
    const int32_t v = valuations.value(state, i);
    text += fmt::format("{}{}={}", i == 0 ? "" : ",", valuations.variables[i],
                        valuations.is_bool[i] ? (v != 0 ? "true" : "false") : std::to_string(v));
  }
  return text;
}

}  // namespace

namespace {

// Runs the program in every state, in parallel, and passes each value to
// `store(state, value)` (a condition keeps one byte per state, not a
// double); the first state where it is undefined (mod by zero, ...) is
// reported.
template <typename Store>
void run_everywhere(const Model& model, const ConditionCode& program, int threads, Store store) {
  const StateValuations& valuations = model.valuations();
  const auto n = static_cast<int64_t>(model.num_states());
  const size_t width = valuations.variables.size();
  // The first state (lowest index) where the expression is undefined.
  std::atomic<int64_t> first_bad{n};
  RunError bad_error;
  if (threads <= 0) threads = solver_threads(SolverSettings{});
#pragma omp parallel num_threads(threads) if (n > k_parallel_rows)
  {
    std::vector<double> stack(program.max_stack + 1);
    std::vector<int32_t> row(width);
#pragma omp for schedule(static, 4096)
    for (int64_t s = 0; s < n; ++s) {
      RunError error;
      if (width != 0) valuations.unpack(static_cast<uint64_t>(s), row);
      if (run(program, row, stack.data(), error)) {
        store(static_cast<size_t>(s), stack[0]);
      } else {
#pragma omp critical(pmc_expression_error)
        if (s < first_bad.load()) {
          first_bad.store(s);
          bad_error = error;
        }
      }
    }
  }
  if (first_bad.load() < n) {
    const auto s = static_cast<uint64_t>(first_bad.load());
    fail(ErrorCode::property, "column {}: {} is undefined in state {} ({}): {}", bad_error.where->column,
         quote_for_message(property::to_string(*bad_error.where)), s, describe_state(valuations, s), bad_error.what);
  }
}

}  // namespace

std::vector<uint8_t> expression_states(const Model& model, const property::Expression& expression, int threads) {
  const ConditionCode program = ConditionCompiler(model.valuations(), model.definitions()).compile_condition(expression);
  std::vector<uint8_t> holds(model.num_states(), 0);
  run_everywhere(model, program, threads, [&](size_t s, double value) { holds[s] = value != 0.0 ? 1 : 0; });
  return holds;
}

ExpressionValues expression_values(const Model& model, const property::Expression& expression, int threads) {
  ExpressionValues out;
  const ConditionCode program =
      ConditionCompiler(model.valuations(), model.definitions()).compile_any(expression, out.is_boolean);
  out.values.assign(model.num_states(), 0.0);
  const bool boolean = out.is_boolean;
  run_everywhere(model, program, threads,
                 [&](size_t s, double value) { out.values[s] = boolean ? (value != 0.0 ? 1.0 : 0.0) : value; });
  return out;
}

}  // namespace pmc
