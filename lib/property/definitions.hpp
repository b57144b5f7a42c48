// What a property's names mean beyond the model's labels and state
// variables: constants (a properties file's, or given with --const), and a
// properties file's formulas and labels (PRISM's `formula f = ...;`,
// `label "x" = ...;`). bind_definitions puts them into a parsed property and
// evaluates every bound and threshold written as an expression (`F<=T`,
// `C<=(T*3600)`, `P>=p`), so that the checker sees numbers where the user
// wrote names.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "expression/expression.hpp"
#include "model/model.hpp"
#include "property/ast.hpp"

namespace pmc::property {

// One constant as properties see it. Ints hold integers (exact in a double
// up to 2^53), bools 0 or 1.
struct ConstantValue {
  std::string name;
  expression::ValueType type = expression::ValueType::integer;
  std::optional<double> value;  // none: declared without a value, and none given
  // Where it comes from, for messages: "p.props:3" or "--const".
  std::string origin;
  // No value because another constant has none: that constant's name
  // (`const double T2 = T/2;` with T undefined); empty otherwise.
  std::string needs;
};

// The constant's value as PRISM writes it: "4", "0.5", "2.0", "true".
std::string value_text(const ConstantValue& constant);
// "T=10, p=0.5": the constants with a value, for messages and results.
std::string describe_constants(const std::vector<ConstantValue>& constants);

struct Definitions {
  std::vector<ConstantValue> constants;
  // A properties file's formulas and labels, parsed (each body a state
  // formula or expression; names bound when a property uses them, so a
  // formula over a constant follows the constant's value).
  std::vector<std::pair<std::string, StatePtr>> formulas;
  std::vector<std::pair<std::string, StatePtr>> labels;

  const ConstantValue* find_constant(std::string_view name) const;
  bool empty() const { return constants.empty() && formulas.empty() && labels.empty(); }
};

// `property` with the definitions put in, names of constants replaced by
// their values and of formulas and labels by their bodies. Names it does not
// define are left for the checker (state variables, the model's constants
// and formulas). Throws Error(property), "column N: ...", for a constant
// without a value (naming it and saying to give it with --const), a formula
// that is a state formula where an expression is needed, or an expansion
// nested deeper than k_max_depth or larger than a million nodes.
Property substitute_definitions(const Property& property, const Definitions& definitions);

// substitute_definitions, then every bound and threshold written as an
// expression evaluated with lib/expression (PRISM's types: `T/2` is a
// double, an int constant an int), reading the constants of `model` (a
// PRISM-language source's) too. The values must be valid where they stand:
// time and reward bounds non-negative and finite, integers when
// `discrete_time` (a DTMC's or MDP's steps), intervals not empty,
// probability bounds in [0,1], reward bounds non-negative. Throws
// Error(property), "column N: ...", naming the expression and its value,
// or the name that is no constant.
Property bind_definitions(const Property& property, const Definitions& definitions, const SourceDefinitions& model,
                          bool discrete_time);

// The constants of a model's source (name, literal text: "4", "0.5", "true")
// as values; origin "the model". Throws Error(property) for text that is no
// literal (possible only in a .pmcb not written by pmc).
std::vector<ConstantValue> model_constant_values(const SourceDefinitions& model);

}  // namespace pmc::property
