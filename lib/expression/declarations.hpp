// The constants and formulas names are resolved against (binder.hpp): a
// PRISM-language source's declarations, or a built model's source
// definitions re-read for a property (source_scope.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "expression/syntax_tree.hpp"

namespace pmc::expression {

struct ConstantDeclaration {
  std::string name;
  ValueType type = ValueType::integer;
  std::optional<Node> value;  // nothing: undefined, set with --const
  Position position;
};

struct FormulaDeclaration {
  std::string name;
  Node value;
  Position position;
};

struct Declarations {
  std::vector<ConstantDeclaration> constants;
  std::vector<FormulaDeclaration> formulas;
};

}  // namespace pmc::expression
