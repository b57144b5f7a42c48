// Exact evaluation: a tree walk over GMP rationals. --exact evaluates a
// model's weights and rewards once per state and command, so clarity wins
// over the interpreter's speed (evaluator.cpp).
#include "expression/exact_evaluator.hpp"

#ifdef PMC_HAVE_GMP
#include <cctype>
#include <cstdlib>

#include "common/error.hpp"
#include "expression/code.hpp"

namespace pmc::expression {

namespace {

constexpr long k_max_exponent = 10000;

[[noreturn]] void not_rational(const Node& n, std::string_view why) {
  fail(ErrorCode::model, "{} has no exact rational value: {}", node_to_string(n), why);
}

mpq_class power(const mpq_class& base, long exponent) {
  mpz_class num, den;
  mpz_pow_ui(num.get_mpz_t(), base.get_num_mpz_t(), static_cast<unsigned long>(exponent < 0 ? -exponent : exponent));
  mpz_pow_ui(den.get_mpz_t(), base.get_den_mpz_t(), static_cast<unsigned long>(exponent < 0 ? -exponent : exponent));
  mpq_class q = exponent < 0 ? mpq_class(den, num) : mpq_class(num, den);
  q.canonicalize();
  return q;
}

mpz_class floor_of(const mpq_class& q) {
  mpz_class f;
  mpz_fdiv_q(f.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
  return f;
}

class ExactEvaluator {
 public:
  explicit ExactEvaluator(std::span<const int32_t> state) : state_(state) {}

  mpq_class operator()(const Node& n) const {
    const auto& c = n.children;
    switch (n.kind) {
      case NodeKind::boolean:
      case NodeKind::integer: return mpq_class(mpz_class(static_cast<long>(n.int_value)));
      case NodeKind::real:
        if (n.exact.empty()) not_rational(n, "the literal's exact value is not known");
        return rational_from_text(n.exact);
      case NodeKind::identifier: fail(ErrorCode::internal, "unbound identifier {} in an exact evaluation", n.name);
      case NodeKind::variable:
        if (n.variable >= state_.size()) fail(ErrorCode::internal, "variable {} outside the state", n.name);
        return mpq_class(static_cast<long>(state_[n.variable]));
      case NodeKind::negate: return -(*this)(c[0]);
      case NodeKind::logical_not: return truth(!holds(c[0]));
      case NodeKind::multiply: return (*this)(c[0]) * (*this)(c[1]);
      case NodeKind::divide: {
        const mpq_class divisor = (*this)(c[1]);
        if (divisor == 0) not_rational(n, "division by zero");
        return (*this)(c[0]) / divisor;
      }
      case NodeKind::add: return (*this)(c[0]) + (*this)(c[1]);
      case NodeKind::subtract: return (*this)(c[0]) - (*this)(c[1]);
      case NodeKind::less: return truth((*this)(c[0]) < (*this)(c[1]));
      case NodeKind::less_equal: return truth((*this)(c[0]) <= (*this)(c[1]));
      case NodeKind::greater: return truth((*this)(c[0]) > (*this)(c[1]));
      case NodeKind::greater_equal: return truth((*this)(c[0]) >= (*this)(c[1]));
      case NodeKind::equal: return truth((*this)(c[0]) == (*this)(c[1]));
      case NodeKind::not_equal: return truth((*this)(c[0]) != (*this)(c[1]));
      case NodeKind::logical_and: return truth(holds(c[0]) && holds(c[1]));
      case NodeKind::logical_or: return truth(holds(c[0]) || holds(c[1]));
      case NodeKind::implies: return truth(!holds(c[0]) || holds(c[1]));
      case NodeKind::iff: return truth(holds(c[0]) == holds(c[1]));
      case NodeKind::conditional: return holds(c[0]) ? (*this)(c[1]) : (*this)(c[2]);
      case NodeKind::function_min:
      case NodeKind::function_max: {
        mpq_class best = (*this)(c[0]);
        for (size_t i = 1; i < c.size(); ++i) {
          const mpq_class v = (*this)(c[i]);
          if (n.kind == NodeKind::function_min ? v < best : v > best) best = v;
        }
        return best;
      }
      case NodeKind::function_floor: return mpq_class(floor_of((*this)(c[0])));
      case NodeKind::function_ceil: return mpq_class(-floor_of(-(*this)(c[0])));
      case NodeKind::function_round: return mpq_class(floor_of((*this)(c[0]) + mpq_class(1, 2)));  // Java's Math.round
      case NodeKind::function_pow: {
        const mpq_class base = (*this)(c[0]);
        const mpq_class exponent = (*this)(c[1]);
        if (exponent.get_den() != 1 || abs(exponent) > k_max_exponent) {
          not_rational(n, "the exponent is not an integer of at most 10000 in size");
        }
        const long e = exponent.get_num().get_si();
        if (e < 0 && base == 0) not_rational(n, "zero to a negative power");
        if (e < 0 && n.type == ValueType::integer) not_rational(n, "a negative exponent in an integer pow");
        return power(base, e);
      }
      case NodeKind::function_mod: {
        const mpq_class a = (*this)(c[0]);
        const mpq_class b = (*this)(c[1]);
        if (b == 0) not_rational(n, "modulo zero");
        // PRISM's mod of integers: the remainder made non-negative by adding the divisor.
        mpz_class rem = a.get_num() % b.get_num();
        if (rem < 0) rem += b.get_num();
        return mpq_class(rem);
      }
      case NodeKind::function_log: not_rational(n, "a logarithm");
    }
    fail(ErrorCode::internal, "unknown expression node in an exact evaluation");
  }

 private:
  static mpq_class truth(bool b) { return mpq_class(b ? 1 : 0); }
  bool holds(const Node& n) const { return (*this)(n) != 0; }

  std::span<const int32_t> state_;
};

}  // namespace

mpq_class rational_from_text(std::string_view text) {
  auto malformed = [&]() -> mpq_class {
    fail(ErrorCode::model, "the number {} has no exact rational value", text);
  };
  if (const size_t slash = text.find('/'); slash != std::string_view::npos) {
    mpq_class q;
    if (q.set_str(std::string(text), 10) != 0 || q.get_den() == 0) return malformed();
    q.canonicalize();
    return q;
  }
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  std::string digits;
  long scale = 0;  // value = digits · 10^scale
  bool any = false;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i, any = true) digits += text[i];
  if (i < text.size() && text[i] == '.') {
    for (++i; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i, any = true) {
      digits += text[i];
      --scale;
    }
  }
  if (!any) return malformed();
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exponent_negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) exponent_negative = text[i++] == '-';
    long exponent = 0;
    bool exponent_digits = false;
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i, exponent_digits = true) {
      exponent = exponent * 10 + (text[i] - '0');
      if (exponent > k_max_exponent) return malformed();
    }
    if (!exponent_digits) return malformed();
    scale += exponent_negative ? -exponent : exponent;
  }
  if (i != text.size() || scale > k_max_exponent || scale < -2 * k_max_exponent) return malformed();
  mpz_class value(digits, 10);
  mpz_class ten_power;
  mpz_ui_pow_ui(ten_power.get_mpz_t(), 10, static_cast<unsigned long>(scale < 0 ? -scale : scale));
  mpq_class q = scale < 0 ? mpq_class(value, ten_power) : mpq_class(value * ten_power);
  q.canonicalize();
  return negative ? mpq_class(-q) : q;
}

std::string rational_text(const mpq_class& q) {
  mpq_class canonical = q;
  canonical.canonicalize();
  return canonical.get_str(10);
}

mpq_class evaluate_exact(const Node& checked, std::span<const int32_t> state) {
  return ExactEvaluator(state)(checked);
}

mpq_class evaluate_exact(const Expression& e, std::span<const int32_t> state) {
  const Expression::Representation& r = e.representation();
  if (!r.tree) fail(ErrorCode::internal, "{} was not compiled from a tree", r.text);
  try {
    return evaluate_exact(*r.tree, state);
  } catch (const Error& error) {
    if (error.code() != ErrorCode::model || r.location.file.empty()) throw;
    fail(ErrorCode::model, "{}: {}", r.location.to_string(), error.what());
  }
}

}  // namespace pmc::expression
#endif
