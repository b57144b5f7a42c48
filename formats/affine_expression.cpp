#include "formats/affine_expression.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>

#include "common/error.hpp"
#include "formats/line_cursor.hpp"

namespace pmc {
namespace {

// A polynomial: monomial (sorted parameter indices, empty = constant) → coefficient.
using Monomial = std::vector<uint32_t>;
using Polynomial = std::map<Monomial, double>;

constexpr size_t k_max_terms = 4096;
// Nesting of '(' and unary signs: every level is five frames of recursive
// descent, and a DRN rate of 1000 '(' overflowed the stack under
// AddressSanitizer (found by fuzz_drn). Real rates nest a few levels.
constexpr int k_max_depth = 200;

class ExpressionParser : LineCursor {
 public:
  ExpressionParser(std::string_view text, const std::vector<std::string>& parameters)
      : LineCursor(text), parameters_(parameters) {}

  Polynomial parse() {
    Polynomial p = expression();
    if (!at_end()) error("unexpected {}", quote_for_message(text_.substr(pos_)));
    return p;
  }

 private:
  template <typename... Args>
  [[noreturn]] void error(fmt::format_string<Args...> format, Args&&... args) const {
    fail(ErrorCode::parse, "in expression {} at column {}: {}", quote_for_message(text_, 80), pos_ + 1,
         fmt::format(format, std::forward<Args>(args)...));
  }

  Polynomial expression() {
    Polynomial result = term();
    while (true) {
      if (accept_char('+')) add(result, term(), 1.0);
      else if (accept_char('-')) add(result, term(), -1.0);
      else return result;
    }
  }

  Polynomial term() {
    Polynomial result = unary();
    while (true) {
      if (accept_char('*')) {
        result = multiply(result, unary());
      } else if (accept_char('/')) {
        Polynomial divisor = unary();
        if (divisor.size() > 1 || (divisor.size() == 1 && !divisor.begin()->first.empty())) {
          error("division by an expression in the parameters: the rate is not affine");
        }
        const double d = divisor.empty() ? 0.0 : divisor.begin()->second;
        if (d == 0.0) error("division by zero");
        for (auto& [m, c] : result) c /= d;
      } else {
        return result;
      }
    }
  }

  // Counts a level of nesting for as long as it lives.
  struct DepthGuard {
    ExpressionParser& parser;
    explicit DepthGuard(ExpressionParser& p) : parser(p) {
      if (++parser.depth_ > k_max_depth) parser.error("nested too deeply (the limit is {} levels)", k_max_depth);
    }
    ~DepthGuard() { --parser.depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
  };

  Polynomial unary() {
    const DepthGuard guard(*this);
    if (accept_char('-')) {
      Polynomial p = unary();
      for (auto& [m, c] : p) c = -c;
      return p;
    }
    if (accept_char('+')) return unary();
    return power();
  }

  Polynomial power() {
    Polynomial base = primary();
    if (!accept_char('^')) return base;
    skip_blanks();
    const size_t start = pos_;
    unsigned exponent = 0;
    auto [ptr, ec] = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), exponent);
    if (ec != std::errc{} || exponent > 64) error("expected a small non-negative integer exponent");
    pos_ = static_cast<size_t>(ptr - text_.data());
    (void)start;
    Polynomial result{{Monomial{}, 1.0}};
    for (unsigned i = 0; i < exponent; ++i) result = multiply(result, base);
    return result;
  }

  Polynomial primary() {
    skip_blanks();
    if (pos_ >= text_.size()) error("expected a number, a parameter or '(', found the end");
    const char c = text_[pos_];
    if (accept_char('(')) {
      Polynomial p = expression();
      if (!accept_char(')')) error("expected ')'");
      return p;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      double value = 0.0;
      auto [ptr, ec] = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), value);
      if (ec != std::errc{}) error("malformed number");
      pos_ = static_cast<size_t>(ptr - text_.data());
      if (!std::isfinite(value)) error("number out of range");
      return value == 0.0 ? Polynomial{} : Polynomial{{Monomial{}, value}};
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const size_t start = pos_;
      while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
      std::string_view name = text_.substr(start, pos_ - start);
      auto it = std::find(parameters_.begin(), parameters_.end(), name);
      if (it == parameters_.end()) {
        pos_ = start;
        std::string declared;
        for (const auto& p : parameters_) declared += (declared.empty() ? "" : " ") + p;
        error("unknown parameter {} (declared: {})", quote_for_message(name), declared.empty() ? "none" : declared);
      }
      return Polynomial{{Monomial{static_cast<uint32_t>(it - parameters_.begin())}, 1.0}};
    }
    error("expected a number, a parameter or '(', found {}", quote_for_message(text_.substr(pos_, 1)));
  }

  void add(Polynomial& into, const Polynomial& p, double sign) {
    for (const auto& [m, c] : p) {
      double& slot = into[m];
      slot += sign * c;
      if (slot == 0.0) into.erase(m);
    }
    if (into.size() > k_max_terms) error("expression too large");
  }

  Polynomial multiply(const Polynomial& a, const Polynomial& b) {
    Polynomial result;
    for (const auto& [ma, ca] : a) {
      for (const auto& [mb, cb] : b) {
        Monomial m = ma;
        m.insert(m.end(), mb.begin(), mb.end());
        std::sort(m.begin(), m.end());
        double& slot = result[m];
        slot += ca * cb;
        if (slot == 0.0) result.erase(m);
        if (result.size() > k_max_terms) error("expression too large");
      }
    }
    return result;
  }

  const std::vector<std::string>& parameters_;
  int depth_ = 0;  // DepthGuard
};

}  // namespace

AffineExpression parse_affine_expression(std::string_view text, const std::vector<std::string>& parameters) {
  Polynomial p = ExpressionParser(text, parameters).parse();
  AffineExpression result;
  result.coefficients.assign(parameters.size(), 0.0);
  for (const auto& [monomial, c] : p) {
    if (monomial.empty()) {
      result.constant = c;
    } else if (monomial.size() == 1) {
      result.coefficients[monomial[0]] = c;
    } else {
      std::string term;
      for (uint32_t k : monomial) term += (term.empty() ? "" : "*") + parameters[k];
      fail(ErrorCode::parse, "rate {} is not affine in the parameters (it has the term {}); pmc supports rates c + a1*p1 + ... + an*pn",
           quote_for_message(text, 80), term);
    }
  }
  return result;
}

std::string format_affine_expression(double constant, const double* coefficients,
                                     const std::vector<std::string>& parameters) {
  std::string out;
  for (size_t k = 0; k < parameters.size(); ++k) {
    const double a = coefficients[k];
    if (a == 0.0) continue;
    if (!out.empty()) out += a < 0 ? "-" : "+";
    else if (a < 0) out += "-";
    out += std::fabs(a) == 1.0 ? parameters[k] : fmt::format("{}*{}", std::fabs(a), parameters[k]);
  }
  if (constant != 0.0 || out.empty()) {
    if (out.empty()) out = fmt::format("{}", constant);
    else out += fmt::format("{}{}", constant < 0 ? "-" : "+", std::fabs(constant));
  }
  return out;
}

}  // namespace pmc
