// Properties files (PRISM's .props/.pctl layout) read into the property
// texts the checker parses. The library owns the reader so that the shell
// (`pmc check --property-file F`) and the C ABI (pmc_properties_*) read a
// file the same way.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pmc::property {

struct FileProperty {
  std::string name;  // "" when unnamed; from `"name": P=? [...]`
  std::string text;  // the property, constants substituted
  int line = 0;      // where it starts, for messages
};

// One property per line or several separated by ';' (a line break inside
// (), [] or {} continues the property); `//` comments to the end of the
// line, `/* */` comments and lines starting with '#'; `const int|double|bool NAME = VALUE;`
// declarations whose literal value (or an earlier such constant) replaces
// NAME in the properties after them; `"name": ...` names a property.
// `constant_definitions` ("N=3,K=2", may be empty) gives the values of
// constants the file declares without one (`const int N;`); definitions of
// constants the file does not declare are ignored, so that the definitions
// given for a model may be passed as they are.
// Throws pmc::Error naming file:line: io when unreadable, parse for an
// undefined or non-literal constant, a `label`/`formula` definition (not
// supported), a duplicate name or an empty file; invalid_argument for
// malformed `constant_definitions`.
std::vector<FileProperty> parse_properties_file(std::string_view content, const std::string& file_name,
                                                std::string_view constant_definitions = {});
// `"name": P=? [...]` as the name and the property (line 0); any other text
// as it is, unnamed. `where` prefixes the error for a name without a formula.
FileProperty split_property_name(const std::string& text, const std::string& where);
// Reads the file at `path` (its name in messages) and parses it as above.
std::vector<FileProperty> read_properties_file(const std::string& path, std::string_view constant_definitions = {});

}  // namespace pmc::property
