// The source's definitions are printed back as PRISM text, one per line
// (constants with their final values), and parsed and bound as the checker
// does a source: one grammar, one binder, one set of types for formulas
// wherever they are used.
#include "formats/prism_language/source_definitions.hpp"

#include <cstdlib>

#include <fmt/format.h>

#include "common/error.hpp"
#include "formats/prism_language/binder.hpp"
#include "formats/prism_language/expression_tree.hpp"

namespace pmc::prism_language {

namespace {

constexpr std::string_view k_file = "the model's source definitions";

// The declared type a constant's final value was printed from ("4", "0.5",
// "2.0", "true"; checker.cpp keeps a double's '.0').
const char* constant_type(const std::string& value) {
  if (value == "true" || value == "false") return "bool";
  return value.find_first_of(".eEin") == std::string::npos ? "int" : "double";
}

// "constant 'N'" / "formula 'f'", in the order of the text's lines.
std::vector<std::string> definition_names(const SourceDefinitions& definitions) {
  std::vector<std::string> names;
  for (const auto& [name, value] : definitions.constants) names.push_back(fmt::format("constant '{}'", name));
  for (const auto& [name, text] : definitions.formulas) names.push_back(fmt::format("formula '{}'", name));
  return names;
}

SyntaxProgram parse_definitions(const SourceDefinitions& definitions) {
  std::string text;
  for (const auto& [name, value] : definitions.constants) {
    text += fmt::format("const {} {} = {};\n", constant_type(value), name, value);
  }
  for (const auto& [name, body] : definitions.formulas) text += fmt::format("formula {} = {};\n", name, body);
  try {
    return parse_syntax(text, std::string(k_file));
  } catch (const Error& error) {
    // "<k_file>:LINE:COLUMN: ..." names the line, hence the definition.
    std::string_view message = error.what();
    std::string culprit = "a definition";
    if (message.starts_with(k_file) && message.size() > k_file.size() + 1) {
      const unsigned long line = std::strtoul(message.data() + k_file.size() + 1, nullptr, 10);
      const std::vector<std::string> names = definition_names(definitions);
      if (line >= 1 && line <= names.size()) culprit = names[line - 1];
    }
    fail(ErrorCode::property, "{} of the model's source cannot be used: {}", culprit, message);
  }
}

// A literal, or a negated one: what checker.cpp prints a constant's value as.
bool is_literal(const Node& n) {
  if (n.kind == NodeKind::negate) return n.children.size() == 1 && is_literal(n.children[0]);
  return n.kind == NodeKind::boolean || n.kind == NodeKind::integer || n.kind == NodeKind::real;
}

}  // namespace

void check_source_definitions(const SourceDefinitions& definitions) {
  if (!definitions.empty()) parse_definitions(definitions);
}

struct SourceScope::State {
  SyntaxProgram syntax;
  Binder binder;  // refers to syntax
  State(SyntaxProgram parsed) : syntax(std::move(parsed)), binder(syntax, std::string(k_file)) {}
};

SourceScope::SourceScope(const SourceDefinitions& definitions, const StateValuations& valuations)
    : state_(std::make_unique<State>(parse_definitions(definitions))) {
  for (size_t i = 0; i < valuations.variables.size(); ++i) {
    state_->binder.declare_variable(valuations.variables[i], static_cast<uint32_t>(i),
                                    valuations.is_bool[i] ? ValueType::boolean : ValueType::integer);
    state_->binder.variable_names.insert(valuations.variables[i]);
  }
}

SourceScope::~SourceScope() = default;

Expression SourceScope::bind(const std::string& name) {
  Binder& binder = state_->binder;
  const auto constant = binder.constant_index.find(name);
  const bool is_constant = constant != binder.constant_index.end() && !binder.formula_index.count(name);
  if (is_constant) {
    const SyntaxConstant& c = state_->syntax.constants[constant->second];
    if (!c.value || !is_literal(*c.value)) {
      fail(ErrorCode::property, "constant '{}' has the value {}, which is no number, true or false", name,
           quote_for_message(c.value ? node_to_string(*c.value) : std::string()));
    }
  }
  Node identifier;
  identifier.kind = NodeKind::identifier;
  identifier.name = name;
  try {
    BindContext context;
    return compile_expression(binder.bind(identifier, context), SourceLocation{});
  } catch (const Error& error) {
    fail(ErrorCode::property, "{} '{}' of the model's source cannot be used: {}", is_constant ? "constant" : "formula",
         name, error.what());
  }
}

}  // namespace pmc::prism_language
