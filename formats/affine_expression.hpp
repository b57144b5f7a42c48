// Rate expressions of parametric models, c + Σ_k a_k·p_k.
// The parser accepts what Storm writes for polynomials (+ - * / ^, numbers,
// parameter names, parentheses) and rejects anything that is not affine,
// naming the offending term.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pmc {

struct AffineExpression {
  double constant = 0.0;
  std::vector<double> coefficients;  // one per parameter
};

// Throws Error(parse) with a message that does not include the file position
// (the caller adds it).
AffineExpression parse_affine_expression(std::string_view text, const std::vector<std::string>& parameters);

// The expression in the syntax parse_affine_expression reads, e.g. "475*ki+5*kr".
std::string format_affine_expression(double constant, const double* coefficients,
                                     const std::vector<std::string>& parameters);

}  // namespace pmc
