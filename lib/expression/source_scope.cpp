// The source's definitions are printed back as PRISM text, one per line, and
// parsed and bound as a source's are: one grammar, one binder, one
// set of types for formulas wherever they are used. Constants are declared
// there without values and given their final values as literal nodes: a
// value computed in 64 bits (2147483647 * 4) is no literal PRISM's lexer takes.
#include "expression/source_scope.hpp"

#include <charconv>
#include <cstdlib>
#include <optional>

#include <fmt/format.h>

#include "common/error.hpp"
#include "expression/binder.hpp"
#include "expression/compiler.hpp"
#include "expression/grammar.hpp"
#include "expression/lexer.hpp"
#include "expression/syntax_tree.hpp"
#include "expression/token_cursor.hpp"

namespace pmc::expression {

namespace {

constexpr std::string_view k_file = "the model's source definitions";

// The declared type a constant's final value was printed from ("4", "0.5",
// "2.0", "true"; source_validator.cpp keeps a double's '.0').
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

// The printed definitions' own small grammar: `const TYPE NAME;` and
// `formula NAME = EXPRESSION;`, with the messages of the PRISM-language
// parser (formats/prism_language/parser.cpp) for the same text.
Declarations parse_definitions_text(std::string_view text, const std::string& file) {
  TokenCursor in(tokenize(text, file), file);
  Declarations declarations;
  while (in.peek().kind != TokenKind::end) {
    const Token& keyword = in.peek();
    const Position position{keyword.line, keyword.column};
    if (keyword.is("const")) {
      in.next();
      ConstantDeclaration c;
      c.position = position;
      if (in.accept("double")) {
        c.type = ValueType::real;
      } else if (in.accept("bool")) {
        c.type = ValueType::boolean;
      } else {
        in.accept("int");
      }
      c.name = in.name("a constant name");
      if (in.accept("=")) c.value = parse_expression(in);
      in.expect(";");
      declarations.constants.push_back(std::move(c));
    } else if (keyword.is("formula")) {
      in.next();
      FormulaDeclaration f;
      f.position = position;
      f.name = in.name("a formula name");
      in.expect("=");
      f.value = parse_expression(in);
      in.expect(";");
      declarations.formulas.push_back(std::move(f));
    } else {
      in.error(keyword, "'const' or 'formula'");
    }
  }
  return declarations;
}

Declarations parse_definitions(const SourceDefinitions& definitions) {
  std::string text;
  for (const auto& [name, value] : definitions.constants) text += fmt::format("const {} {};\n", constant_type(value), name);
  for (const auto& [name, body] : definitions.formulas) text += fmt::format("formula {} = {};\n", name, body);
  try {
    return parse_definitions_text(text, std::string(k_file));
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

}  // namespace

// A constant's final value as source_validator.cpp prints it (an int64, a
// double, true or false).
std::optional<Node> constant_literal(const std::string& text) {
  Node n;
  if (text == "true" || text == "false") {
    n.kind = NodeKind::boolean;
    n.type = ValueType::boolean;
    n.int_value = text == "true" ? 1 : 0;
    return n;
  }
  const char* end = text.data() + text.size();
  if (std::string_view(constant_type(text)) == "int") {
    const auto [stop, error] = std::from_chars(text.data(), end, n.int_value);
    if (error != std::errc() || stop != end) return std::nullopt;
    n.kind = NodeKind::integer;
    n.type = ValueType::integer;
    return n;
  }
  const auto [stop, error] = std::from_chars(text.data(), end, n.real_value);
  if (error != std::errc() || stop != end) return std::nullopt;
  n.kind = NodeKind::real;
  n.type = ValueType::real;
  n.exact = std::string(text);
  return n;
}

namespace {

[[noreturn]] void not_a_value(const std::string& name, const std::string& value) {
  fail(ErrorCode::property, "constant '{}' has the value {}, which is no number, true or false", name,
       quote_for_message(value));
}

}  // namespace

void check_source_definitions(const SourceDefinitions& definitions) {
  if (definitions.empty()) return;
  parse_definitions(definitions);
  for (const auto& [name, value] : definitions.constants) {
    if (!constant_literal(value)) not_a_value(name, value);
  }
}

struct SourceScope::State {
  Declarations declarations;
  Binder binder;  // refers to declarations
  std::vector<std::string> values;  // each constant's text, for messages
  State(Declarations parsed) : declarations(std::move(parsed)), binder(declarations, std::string(k_file)) {}
};

SourceScope::SourceScope(const SourceDefinitions& definitions, const StateValuations& valuations)
    : state_(std::make_unique<State>(parse_definitions(definitions))) {
  // Before anything is bound: the binder reads a constant's value at its first use.
  for (size_t i = 0; i < definitions.constants.size(); ++i) {
    state_->declarations.constants[i].value = constant_literal(definitions.constants[i].second);
    state_->values.push_back(definitions.constants[i].second);
  }
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
    if (!state_->declarations.constants[constant->second].value) not_a_value(name, state_->values[constant->second]);
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

}  // namespace pmc::expression
