#include "expression/constant_assignments.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "common/error.hpp"
#include "common/text.hpp"

namespace pmc::expression {
namespace {

bool is_identifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

}  // namespace

std::vector<ConstantAssignment> parse_constant_assignments(std::string_view text) {
  std::vector<ConstantAssignment> out;
  // Blanks around names and values: spaces, tabs and line breaks.
  constexpr std::string_view blanks = " \t\r\n";
  if (trim(text, blanks).empty()) return out;
  std::set<std::string> seen;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view pair = text.substr(start, end - start);
    const size_t equals = pair.find('=');
    ConstantAssignment a;
    if (equals != std::string_view::npos) {
      a.name = trim(pair.substr(0, equals), blanks);
      a.value = trim(pair.substr(equals + 1), blanks);
    }
    if (equals == std::string_view::npos || !is_identifier(a.name) || a.value.empty()) {
      fail(ErrorCode::invalid_argument, "constants: expected NAME=VALUE, found {}", quote_for_message(pair));
    }
    if (a.value.find(':') != std::string::npos) {
      fail(ErrorCode::invalid_argument, "constants: {}: ranges (NAME=lo:step:hi) are not supported yet; give one value",
           quote_for_message(pair));
    }
    if (!seen.insert(a.name).second) fail(ErrorCode::invalid_argument, "constants: constant '{}' given twice", a.name);
    out.push_back(std::move(a));
    start = end + 1;
  }
  return out;
}

}  // namespace pmc::expression
