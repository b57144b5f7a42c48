#include "expression/constant_assignments.hpp"

#include <algorithm>
#include <charconv>
#include <cctype>
#include <cmath>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/text.hpp"

namespace pmc::expression {
namespace {

bool is_identifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// Ranges longer than this are surely a typo (a step of 1e-9), and would
// run for ever.
constexpr size_t k_max_range_values = 100000;

struct RangeBound {
  double value = 0;
  bool integer = false;
};

std::optional<RangeBound> parse_bound(std::string_view text) {
  RangeBound b;
  const char* begin = text.data();
  const char* end = begin + text.size();
  int64_t i = 0;
  if (auto [stop, error] = std::from_chars(begin, end, i); error == std::errc() && stop == end) {
    return RangeBound{static_cast<double>(i), true};
  }
  if (auto [stop, error] = std::from_chars(begin, end, b.value); error == std::errc() && stop == end && std::isfinite(b.value)) {
    return b;
  }
  return std::nullopt;
}

}  // namespace

bool is_range(const ConstantAssignment& assignment) { return assignment.value.find(':') != std::string::npos; }

std::vector<std::string> range_values(const ConstantAssignment& a) {
  const std::string pair = quote_for_message(a.name + "=" + a.value);
  std::vector<std::string_view> parts;
  std::string_view rest = a.value;
  for (size_t colon = rest.find(':');; colon = rest.find(':')) {
    parts.push_back(trim(rest.substr(0, colon)));
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  if (parts.size() != 2 && parts.size() != 3) {
    fail(ErrorCode::invalid_argument, "constants: {}: a range is lo:step:hi or lo:hi", pair);
  }
  std::vector<RangeBound> bounds;
  for (std::string_view part : parts) {
    const std::optional<RangeBound> b = parse_bound(part);
    if (!b) fail(ErrorCode::invalid_argument, "constants: {}: {} in the range is no number", pair, quote_for_message(part));
    bounds.push_back(*b);
  }
  const RangeBound lo = bounds.front(), hi = bounds.back();
  const RangeBound step = bounds.size() == 3 ? bounds[1] : RangeBound{1, true};
  if (step.value == 0) fail(ErrorCode::invalid_argument, "constants: {}: the step of a range cannot be 0", pair);
  if ((hi.value - lo.value) * step.value < 0) {
    fail(ErrorCode::invalid_argument, "constants: {}: the step leads away from the range's end", pair);
  }
  const bool integers = lo.integer && step.integer;
  // A bound reached up to rounding counts (0:0.1:0.3 ends at 0.3).
  const double count = std::floor((hi.value - lo.value) / step.value + 1e-9) + 1;
  if (count > static_cast<double>(k_max_range_values)) {
    fail(ErrorCode::invalid_argument, "constants: {}: the range has {} values; at most {} are run", pair, count,
         k_max_range_values);
  }
  std::vector<std::string> values;
  for (size_t i = 0; i < static_cast<size_t>(count); ++i) {
    const double v = lo.value + static_cast<double>(i) * step.value;
    if (integers) {
      values.push_back(fmt::format("{}", static_cast<int64_t>(v)));
    } else {
      std::string text = fmt::format("{}", std::stod(fmt::format("{:.12g}", v)));
      if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
      values.push_back(std::move(text));
    }
  }
  return values;
}

std::vector<ConstantAssignment> parse_constant_assignments(std::string_view text, bool allow_ranges) {
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
    if (!allow_ranges && a.value.find(':') != std::string::npos) {
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
