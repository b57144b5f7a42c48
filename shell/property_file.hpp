// Properties files (`pmc check --property-file F`): PRISM's .props/.pctl
// layout read into the property texts the checker parses.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pmc::shell {

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
// Throws pmc::Error naming file:line: io when unreadable, parse for an
// undefined or non-literal constant, a `label`/`formula` definition (not
// supported), a duplicate name or an empty file.
std::vector<FileProperty> parse_property_file(std::string_view content, const std::string& file_name);
// `"name": P=? [...]` as the name and the property (line 0); any other text
// as it is, unnamed. `where` prefixes the error for a name without a formula.
FileProperty split_property_name(const std::string& text, const std::string& where);
std::vector<FileProperty> read_property_file(const std::string& path);

}  // namespace pmc::shell
