// A typed, compiled expression over a state's variables (booleans as 0/1):
// what the PRISM-language front end builds for guards, weights and updates,
// and what properties use for a source's formulas. Names are bound and
// constants folded before (binder.hpp, compiler.hpp); only variables remain.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace pmc::expression {

// Where something is written. A text source (PRISM language) has lines and
// columns; a JSON source (JANI) has no useful lines, so its translator
// numbers the places it translates ("automata[0] \"main\", edges[3],
// guard") and `line` indexes `places` instead.
struct SourceLocation {
  std::string file;  // as the user named it
  uint32_t line = 0;    // 1-based
  uint32_t column = 0;  // 1-based
  std::shared_ptr<const std::vector<std::string>> places;  // JSON sources only
  // "file:line:column" (or "file:line" when column is 0); for a JSON
  // source "file: place".
  std::string to_string() const;
};

enum class ValueType : uint8_t { boolean, integer, real };

// Variable `variable` lies in [lower, upper]: one part of a necessary
// condition for a boolean expression to hold (Expression::necessary_ranges).
struct VariableRange {
  uint32_t variable = 0;
  int64_t lower = 0;
  int64_t upper = 0;
};

// A typed expression over a state's variables; all constants and formulas
// are already folded in. A state is the value of each variable in the order
// the expression was bound against (booleans as 0/1). The representation
// (code.hpp) is a flat, allocation-free form: exploration evaluates it for
// every state × command.
class Expression {
 public:
  Expression();  // the literal `true`
  ~Expression();
  Expression(const Expression&);
  Expression(Expression&&) noexcept;
  Expression& operator=(const Expression&);
  Expression& operator=(Expression&&) noexcept;

  ValueType type() const;
  const SourceLocation& location() const;
  // Whether it contains no variables (then any state gives the same value).
  bool is_constant() const;

  // Evaluation with PRISM's semantics (integer division is real division,
  // `mod` as PRISM, pow of ints is an int, ...). Throws pmc::Error (code
  // model) naming location() on a run-time error such as division by zero
  // in an integer context or an integer overflow.
  // The constant and `variable + constant` forms (most weights and
  // updates) are answered inline, without a call.
  bool evaluate_bool(std::span<const int32_t> state) const {
    if (type_ == ValueType::boolean) {
      if (form_ == Form::constant) return integer_ != 0;
      if (form_ == Form::variable_plus && variable_ < state.size()) return state[variable_] + integer_ != 0;
    }
    return evaluate_bool_by_code(state);
  }
  int64_t evaluate_int(std::span<const int32_t> state) const {
    if (type_ != ValueType::real) {
      if (form_ == Form::constant) return integer_;
      if (form_ == Form::variable_plus && variable_ < state.size()) return state[variable_] + integer_;
    }
    return evaluate_int_by_code(state);
  }
  double evaluate_real(std::span<const int32_t> state) const {  // ints and bools promoted
    if (form_ == Form::constant) return real_;
    if (form_ == Form::variable_plus && variable_ < state.size()) return static_cast<double>(state[variable_] + integer_);
    return evaluate_real_by_code(state);
  }

  // For a boolean expression: ranges its variables must lie in for it to
  // be true, read off its leading conjuncts (`x=1 & y>=2 & ...`), at most
  // one per variable. Outside them the expression is false, and evaluating
  // it could not have failed (no conjunct before the ones read can throw),
  // so an explorer may skip it. Empty: no such condition known.
  const std::vector<VariableRange>& necessary_ranges() const;

  // PRISM syntax, for messages.
  std::string to_string() const;

  // Whether `other` computes the same thing the same way: the same type and
  // the same compiled code (so the same value in every state, and the same
  // errors). Commands of several actions often share their guards.
  bool same_code(const Expression& other) const;

  // For tests and for code that builds programs by hand.
  static Expression boolean(bool value);
  static Expression integer(int64_t value);
  static Expression real(double value);
  static Expression variable(uint32_t index, ValueType type, std::string name);

  struct Representation;  // code.hpp
  explicit Expression(std::unique_ptr<Representation> representation);
  const Representation& representation() const { return *representation_; }

 private:
  // What the inline evaluation needs, copied from the representation.
  enum class Form : uint8_t { general, constant, variable_plus };
  void read_form();
  bool evaluate_bool_by_code(std::span<const int32_t> state) const;
  int64_t evaluate_int_by_code(std::span<const int32_t> state) const;
  double evaluate_real_by_code(std::span<const int32_t> state) const;

  std::unique_ptr<Representation> representation_;
  ValueType type_ = ValueType::boolean;
  Form form_ = Form::general;
  uint32_t variable_ = 0;  // variable_plus
  int64_t integer_ = 0;    // constant (integers, booleans), variable_plus's offset
  double real_ = 0;        // constant, promoted
};

}  // namespace pmc::expression
