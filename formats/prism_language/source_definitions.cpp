// The source's definitions are printed back as PRISM text (constants with
// their final values) and parsed and bound as the checker does a source:
// one grammar, one binder, one set of types for formulas wherever they are used.
#include "formats/prism_language/source_definitions.hpp"

#include <fmt/format.h>

#include "common/error.hpp"
#include "formats/prism_language/binder.hpp"
#include "formats/prism_language/expression_tree.hpp"

namespace pmc::prism_language {

namespace {

constexpr const char* k_file = "the model's source definitions";

// The declared type a constant's final value was printed from ("4", "0.5", "true").
const char* constant_type(const std::string& value) {
  if (value == "true" || value == "false") return "bool";
  return value.find_first_of(".eEin") == std::string::npos ? "int" : "double";
}

}  // namespace

Expression source_formula(const std::string& name, const SourceDefinitions& definitions,
                          const StateValuations& valuations) {
  std::string text;
  for (const auto& [constant, value] : definitions.constants) {
    text += fmt::format("const {} {} = {};\n", constant_type(value), constant, value);
  }
  for (const auto& [formula, body] : definitions.formulas) text += fmt::format("formula {} = {};\n", formula, body);
  try {
    const SyntaxProgram syntax = parse_syntax(text, k_file);
    Binder binder(syntax, k_file);
    for (size_t i = 0; i < valuations.variables.size(); ++i) {
      binder.declare_variable(valuations.variables[i], static_cast<uint32_t>(i),
                              valuations.is_bool[i] ? ValueType::boolean : ValueType::integer);
      binder.variable_names.insert(valuations.variables[i]);
    }
    const auto it = binder.formula_index.find(name);
    if (it == binder.formula_index.end()) fail(ErrorCode::internal, "no formula '{}'", name);
    BindContext context;
    const Node bound = binder.bind(syntax.formulas[it->second].value, context);
    return compile_expression(bound, SourceLocation{});
  } catch (const Error& error) {
    fail(ErrorCode::property, "formula '{}' of the model's source cannot be used: {}", name, error.what());
  }
}

}  // namespace pmc::prism_language
