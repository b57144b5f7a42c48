#include "common/text.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "common/error.hpp"

namespace pmc {

std::string_view trim(std::string_view text, std::string_view blanks) {
  const size_t begin = text.find_first_not_of(blanks);
  if (begin == std::string_view::npos) return {};
  const size_t end = text.find_last_not_of(blanks);
  return text.substr(begin, end - begin + 1);
}

std::vector<std::string> split_words(std::string_view text, std::string_view blanks) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < text.size()) {
    i = text.find_first_not_of(blanks, i);
    if (i == std::string_view::npos) break;
    const size_t end = std::min(text.find_first_of(blanks, i), text.size());
    words.emplace_back(text.substr(i, end - i));
    i = end;
  }
  return words;
}

std::string strip_suffix(std::string text, std::string_view suffix) {
  if (text.ends_with(suffix)) text.resize(text.size() - suffix.size());
  return text;
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string read_file_content(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(ErrorCode::io, "{}: cannot open the file", path);
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) fail(ErrorCode::io, "{}: read error", path);
  return content.str();
}

std::optional<double> parse_finite_double(const std::string& text) {
  size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    return std::nullopt;  // no number, or out of the range of a double
  }
  if (text.empty() || used != text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace pmc
