#include "property/properties_file.hpp"

#include <cctype>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "common/error.hpp"
#include "common/text.hpp"
#include "expression/constant_assignments.hpp"

namespace pmc::property {

namespace {

using Constants = std::map<std::string, std::string>;  // name -> literal value

bool is_identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// One statement: a property or a declaration, with the line it starts on.
struct Statement {
  std::string text;
  int line;
};

// Splits on ';' and on line breaks outside brackets, dropping comments;
// quoted text ("label") is kept whole. One pass, each character looked at a
// bounded number of times: a statement of a million characters (a property
// padded with spaces, a million parentheses) is split in milliseconds.
std::vector<Statement> split_statements(std::string_view content, const std::string& file_name) {
  std::vector<Statement> out;
  std::string current;
  bool blank = true;  // current holds only white space
  int line = 1, start_line = 1, depth = 0;
  auto finish = [&] {
    std::string t(trim(current));
    if (!t.empty()) out.push_back({t, start_line});
    current.clear();
    blank = true;
    depth = 0;
  };
  auto append = [&](std::string_view text) {
    if (blank && text.find_first_not_of(" \t\r\f\v") != std::string_view::npos) blank = false;
    current.append(text);
  };
  for (size_t i = 0; i < content.size(); ++i) {
    const char c = content[i];
    if (blank) start_line = line;
    if (c == '"') {
      const size_t close = content.find('"', i + 1);
      const std::string_view quoted = content.substr(i, close == std::string_view::npos ? std::string_view::npos : close - i + 1);
      if (close == std::string_view::npos || quoted.find('\n') != std::string_view::npos) {
        fail(ErrorCode::parse, "{}:{}: unterminated string (a '\"' without its closing '\"')", file_name, line);
      }
      append(quoted);
      i = close;
    } else if ((c == '/' && i + 1 < content.size() && content[i + 1] == '/') || (c == '#' && blank)) {
      // `//` comments, and lines starting with '#' (pmc's older property files)
      while (i + 1 < content.size() && content[i + 1] != '\n') ++i;
    } else if (c == '/' && i + 1 < content.size() && content[i + 1] == '*') {
      const size_t close = content.find("*/", i + 2);
      if (close == std::string_view::npos) fail(ErrorCode::parse, "{}:{}: unterminated comment '/*'", file_name, line);
      for (size_t k = i; k < close; ++k) line += content[k] == '\n';
      current += ' ';
      i = close + 1;
    } else if (c == ';') {
      finish();
    } else if (c == '\n') {
      if (depth > 0)
        current += ' ';
      else
        finish();
      ++line;
    } else {
      if (c == '(' || c == '[' || c == '{') ++depth;
      if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
      append(std::string_view(&content[i], 1));
    }
  }
  finish();
  return out;
}

// Replaces whole-word identifiers outside quotes by their values.
std::string substitute(const std::string& text, const Constants& constants) {
  if (constants.empty()) return text;
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '"') {
      const size_t close = text.find('"', i + 1);
      const size_t end = close == std::string::npos ? text.size() : close + 1;
      out.append(text, i, end - i);
      i = end;
    } else if (is_identifier_start(text[i]) && (i == 0 || !is_identifier_char(text[i - 1]))) {
      size_t e = i;
      while (e < text.size() && is_identifier_char(text[e])) ++e;
      const std::string word = text.substr(i, e - i);
      auto it = constants.find(word);
      out += it == constants.end() ? word : it->second;
      i = e;
    } else {
      out += text[i++];
    }
  }
  return out;
}

bool starts_with_word(const std::string& text, std::string_view word) {
  return text.size() > word.size() && text.compare(0, word.size(), word) == 0 && !is_identifier_char(text[word.size()]);
}

bool is_literal(const std::string& value) {
  if (value == "true" || value == "false") return true;
  if (value.empty()) return false;
  size_t i = value[0] == '-' ? 1 : 0;
  bool digits = false;
  for (; i < value.size(); ++i) {
    const char c = value[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      digits = true;
    } else if (!(c == '.' || c == 'e' || c == 'E' || ((c == '-' || c == '+') && (value[i - 1] == 'e' || value[i - 1] == 'E')))) {
      return false;
    }
  }
  return digits;
}

// "N=3,K=2": the values a caller gives for constants a file leaves without
// one, in the syntax of a source's --const; here each value must be a literal.
Constants parse_constant_definitions(std::string_view text) {
  Constants out;
  for (expression::ConstantAssignment& a : expression::parse_constant_assignments(text)) {
    if (!is_literal(a.value)) {
      fail(ErrorCode::invalid_argument, "constants: {}: the value must be a number, true or false",
           quote_for_message(a.name + "=" + a.value));
    }
    out.emplace(std::move(a.name), std::move(a.value));
  }
  return out;
}

// `const [int|double|bool] NAME = VALUE`, or `const [type] NAME` whose value
// comes from the caller's `defined` constants.
void declare_constant(const Statement& s, const std::string& file_name, const Constants& defined,
                      Constants& constants) {
  std::string rest = std::string(trim(std::string_view(s.text).substr(5)));
  for (std::string_view type : {"int", "double", "bool"}) {
    if (starts_with_word(rest, type)) {
      rest = std::string(trim(std::string_view(rest).substr(type.size())));
      break;
    }
  }
  size_t e = 0;
  while (e < rest.size() && is_identifier_char(rest[e])) ++e;
  const std::string name = rest.substr(0, e);
  if (name.empty() || !is_identifier_start(name[0])) {
    fail(ErrorCode::parse, "{}:{}: expected a constant's name after 'const' in {}", file_name, s.line,
         quote_for_message(s.text, 60));
  }
  const std::string after = std::string(trim(std::string_view(rest).substr(e)));
  if (after.empty() && defined.count(name) != 0) {
    if (!constants.emplace(name, defined.at(name)).second) {
      fail(ErrorCode::parse, "{}:{}: constant '{}' defined twice", file_name, s.line, name);
    }
    return;
  }
  if (after.empty()) {
    fail(ErrorCode::parse,
         "{}:{}: constant '{}' has no value; a properties file's constants must be defined in it "
         "(const int {} = 10;)",
         file_name, s.line, name, name);
  }
  if (after[0] != '=') {
    fail(ErrorCode::parse, "{}:{}: expected '=' after constant '{}', found {}", file_name, s.line, name,
         quote_for_message(after, 40));
  }
  const std::string value = substitute(std::string(trim(std::string_view(after).substr(1))), constants);
  if (!is_literal(value)) {
    fail(ErrorCode::parse,
         "{}:{}: constant '{}' = {}: pmc takes only a number, true or false (or an earlier constant) as a "
         "properties file's constant's value",
         file_name, s.line, name, quote_for_message(value, 40));
  }
  if (!constants.emplace(name, value).second) fail(ErrorCode::parse, "{}:{}: constant '{}' defined twice", file_name, s.line, name);
}

}  // namespace

FileProperty split_property_name(const std::string& text, const std::string& where) {
  FileProperty p;
  p.text = text;
  if (!text.empty() && text[0] == '"') {
    const size_t close = text.find('"', 1);
    if (close == std::string::npos) return p;  // the property parser reports the unterminated name
    const std::string after = std::string(trim(std::string_view(text).substr(close + 1)));
    if (!after.empty() && after[0] == ':') {
      p.name = text.substr(1, close - 1);
      p.text = std::string(trim(std::string_view(after).substr(1)));
      if (p.text.empty()) fail(ErrorCode::parse, "{}: property \"{}\" has no formula after ':'", where, p.name);
    }
  }
  return p;
}

std::vector<FileProperty> parse_properties_file(std::string_view content, const std::string& file_name,
                                                std::string_view constant_definitions) {
  const Constants defined = parse_constant_definitions(constant_definitions);
  std::vector<FileProperty> out;
  Constants constants;
  std::set<std::string> names;
  for (const Statement& s : split_statements(content, file_name)) {
    if (starts_with_word(s.text, "const")) {
      declare_constant(s, file_name, defined, constants);
      continue;
    }
    if (starts_with_word(s.text, "label") || starts_with_word(s.text, "formula")) {
      fail(ErrorCode::unsupported,
           "{}:{}: {} definitions in a properties file are not supported; define them in the model", file_name, s.line,
           s.text.substr(0, s.text.find_first_of(" \t")));
    }
    FileProperty p = split_property_name(s.text, fmt::format("{}:{}", file_name, s.line));
    p.line = s.line;
    if (!p.name.empty() && !names.insert(p.name).second) {
      fail(ErrorCode::parse, "{}:{}: two properties are named \"{}\"", file_name, s.line, p.name);
    }
    p.text = substitute(p.text, constants);
    out.push_back(std::move(p));
  }
  if (out.empty()) fail(ErrorCode::parse, "{}: no property in the file", file_name);
  return out;
}

std::vector<FileProperty> read_properties_file(const std::string& path, std::string_view constant_definitions) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(ErrorCode::io, "{}: cannot open the properties file", path);
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) fail(ErrorCode::io, "{}: read failed", path);
  return parse_properties_file(content.str(), path, constant_definitions);
}

}  // namespace pmc::property
