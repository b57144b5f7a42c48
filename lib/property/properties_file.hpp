// Properties files (PRISM's .props/.pctl layout). The library owns the
// reader so that the shell (`pmc check --property-file F`) and the C ABI
// (pmc_properties_*) read a file the same way.
//
// Two steps: read_properties/parse_properties give the file as written
// (its properties, its constants with their value expressions, its
// formulas and labels); file_definitions (property/file_definitions.hpp)
// evaluates the constants once their undefined ones are given, into the
// Definitions the checker binds a property with.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "expression/syntax_tree.hpp"
#include "property/ast.hpp"

namespace pmc::property {

struct FileProperty {
  std::string name;  // "" when unnamed; from `"name": P=? [...]`
  std::string text;  // the property as written (parse_properties_file: constants put in)
  int line = 0;      // where it starts, for messages
  // Non-empty: it cannot be checked, and this says why (a JANI model's
  // property that pmc cannot translate); its check fails with it.
  std::string error;
};

// `const [int|double|bool] NAME [= EXPRESSION];` (no type: int, as PRISM).
struct FileConstant {
  std::string name;
  expression::ValueType type = expression::ValueType::integer;
  std::optional<expression::Node> value;  // none: given with --const; lines and columns of the file
  int line = 0, column = 0;  // of the name
};

// `formula NAME = BODY;` and `label "NAME" = BODY;`: the body parsed as a
// property (a state formula, or an expression over state variables).
struct FileDefinition {
  std::string name;
  StatePtr body;
  int line = 0;
};

struct PropertiesFile {
  std::string file_name;  // as named by the caller, for messages
  std::vector<FileConstant> constants;
  std::vector<FileDefinition> formulas;
  std::vector<FileDefinition> labels;
  std::vector<FileProperty> properties;

  // "T (double), N (int)": the constants declared without a value; "" when none.
  std::string undefined_constants() const;
  // The constant called `name`, or nullptr.
  const FileConstant* find_constant(std::string_view name) const;
};

// One property per line or several separated by ';' (a line break inside
// (), [] or {} continues the property); `//` comments to the end of the
// line, `/* */` comments and lines starting with '#'; constant, formula and
// label declarations; `"name": ...` names a property. Throws pmc::Error
// naming file:line (and the column, for an expression): parse for a
// malformed declaration, a name declared twice, two properties of one name,
// an unterminated string or comment, or a file without a property.
PropertiesFile parse_properties(std::string_view content, const std::string& file_name);
// Reads the file at `path` (its name in messages; io error when unreadable)
// and parses it as above.
PropertiesFile read_properties(const std::string& path);

// `"name": P=? [...]` as the name and the property (line 0); any other text
// as it is, unnamed. `where` prefixes the error for a name without a formula.
FileProperty split_property_name(const std::string& text, const std::string& where);

// The file's properties ready for a check without further definitions (the
// C ABI's pmc_properties_text): `constant_definitions` ("N=3,K=2", may be
// empty) gives the constants the file declares without a value; the others
// it names are values the file's constant expressions may read (the
// model's constants, given as they are), and otherwise ignored. Each
// property that uses the file's constants, formulas or labels has them put
// in (printed in canonical form); the others keep their text. Throws as
// parse_properties, and file_definitions' errors; a property using a
// constant without a value is an error naming its line.
std::vector<FileProperty> parse_properties_file(std::string_view content, const std::string& file_name,
                                                std::string_view constant_definitions = {});
// The same for a file already parsed (or made: a JANI model's properties).
std::vector<FileProperty> ready_properties(const PropertiesFile& file, std::string_view constant_definitions = {});
std::vector<FileProperty> read_properties_file(const std::string& path, std::string_view constant_definitions = {});

}  // namespace pmc::property
