#include "property/properties_file.hpp"

#include <cctype>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <optional>

#include "common/error.hpp"
#include "common/text.hpp"
#include "expression/binder.hpp"
#include "expression/constant_assignments.hpp"
#include "expression/grammar.hpp"
#include "expression/lexer.hpp"
#include "expression/token_cursor.hpp"
#include "property/definitions.hpp"
#include "property/file_definitions.hpp"
#include "property/parser.hpp"

namespace pmc::property {

namespace {

bool is_identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// One statement: a property or a declaration, with the line and column of
// its first character.
struct Statement {
  std::string text;
  int line;
  int column = 1;
};

// Splits on ';' and on line breaks outside brackets, dropping comments;
// quoted text ("label") is kept whole. One pass, each character looked at a
// bounded number of times: a statement of a million characters (a property
// padded with spaces, a million parentheses) is split in milliseconds.
std::vector<Statement> split_statements(std::string_view content, const std::string& file_name) {
  std::vector<Statement> out;
  std::string current;
  bool blank = true;  // current holds only white space
  int line = 1, start_line = 1, start_column = 1, depth = 0;
  size_t line_start = 0;  // offset of the current line's first character
  auto finish = [&] {
    std::string t(trim(current));
    if (!t.empty()) out.push_back({t, start_line, start_column});
    current.clear();
    blank = true;
    depth = 0;
  };
  // `text` starts at offset `at` of the content.
  auto append = [&](std::string_view text, size_t at) {
    const size_t first = text.find_first_not_of(" \t\r\f\v");
    if (blank && first != std::string_view::npos) {
      blank = false;
      start_column = static_cast<int>(at + first - line_start) + 1;
    }
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
      append(quoted, i);
      i = close;
    } else if ((c == '/' && i + 1 < content.size() && content[i + 1] == '/') || (c == '#' && blank)) {
      // `//` comments, and lines starting with '#' (pmc's older property files)
      while (i + 1 < content.size() && content[i + 1] != '\n') ++i;
    } else if (c == '/' && i + 1 < content.size() && content[i + 1] == '*') {
      const size_t close = content.find("*/", i + 2);
      if (close == std::string_view::npos) fail(ErrorCode::parse, "{}:{}: unterminated comment '/*'", file_name, line);
      for (size_t k = i; k < close; ++k) {
        if (content[k] == '\n') {
          ++line;
          line_start = k + 1;
        }
      }
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
      line_start = i + 1;
    } else {
      if (c == '(' || c == '[' || c == '{') ++depth;
      if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
      append(std::string_view(&content[i], 1), i);
    }
  }
  finish();
  return out;
}

bool starts_with_word(const std::string& text, std::string_view word) {
  return text.size() > word.size() && text.compare(0, word.size(), word) == 0 && !is_identifier_char(text[word.size()]);
}

// The statement's text padded to its place in the file, so that the
// lexer's lines and columns are the file's (a statement split over lines
// was joined into one, so its later lines count as its first).
std::string placed_text(const Statement& s) {
  std::string placed(static_cast<size_t>(s.line - 1), '\n');
  placed.append(static_cast<size_t>(s.column - 1), ' ');
  return placed + s.text;
}

// `const [int|double|bool] NAME [= EXPRESSION]`, with PRISM's expression
// grammar (lib/expression) for the value.
FileConstant parse_constant(const Statement& s, const std::string& file_name) {
  const std::string text = placed_text(s);  // the tokens point into it
  expression::TokenCursor in(expression::tokenize(text, file_name), file_name);
  in.expect("const");
  FileConstant c;
  c.line = s.line;
  if (in.accept("double")) {
    c.type = expression::ValueType::real;
  } else if (in.accept("bool")) {
    c.type = expression::ValueType::boolean;
  } else {
    in.accept("int");
  }
  c.column = static_cast<int>(in.peek().column);
  c.name = in.name("a constant's name");
  if (in.accept("=")) c.value = expression::parse_expression(in);
  if (in.peek().kind != expression::TokenKind::end) {
    in.error(in.peek(), c.value ? "';' after the constant's value" : "'=' or ';' after the constant's name");
  }
  return c;
}

// `formula NAME = BODY` or `label "NAME" = BODY`: the body is parsed as a
// property (a state formula or an expression over state variables).
FileDefinition parse_definition(const Statement& s, const std::string& file_name, std::string_view keyword) {
  const std::string_view text = s.text;
  size_t i = text.find_first_not_of(" \t", keyword.size());
  FileDefinition d;
  d.line = s.line;
  const bool label = keyword == "label";
  const std::string where = fmt::format("{}:{}", file_name, s.line);
  if (label) {
    const size_t close = i == std::string_view::npos || text[i] != '"' ? std::string_view::npos : text.find('"', i + 1);
    if (close == std::string_view::npos || close == i + 1) {
      fail(ErrorCode::parse, "{}: expected a label's name in double quotes after 'label' in {}", where,
           quote_for_message(text, 60));
    }
    d.name = std::string(text.substr(i + 1, close - i - 1));
    i = close + 1;
  } else {
    size_t e = i;
    while (e < text.size() && is_identifier_char(text[e])) ++e;
    if (i == std::string_view::npos || e == i || !is_identifier_start(text[i])) {
      fail(ErrorCode::parse, "{}: expected a formula's name after 'formula' in {}", where, quote_for_message(text, 60));
    }
    d.name = std::string(text.substr(i, e - i));
    if (expression::is_reserved_word(d.name)) {
      fail(ErrorCode::parse, "{}: formula name '{}' is a keyword (reserved in PRISM)", where, d.name);
    }
    i = e;
  }
  i = text.find_first_not_of(" \t", i);
  if (i == std::string_view::npos || text[i] != '=') {
    fail(ErrorCode::parse, "{}: expected '=' after {} {}", where, keyword, label ? "\"" + d.name + "\"" : d.name);
  }
  const std::string body(trim(text.substr(i + 1)));
  if (body.empty()) fail(ErrorCode::parse, "{}: {} {} has no body after '='", where, keyword, d.name);
  try {
    d.body = parse_property(body).root;
  } catch (const Error& e) {
    fail(e.code(), "{}: {} {}: {}", where, keyword, label ? "\"" + d.name + "\"" : "'" + d.name + "'", e.what());
  }
  if (d.body->kind == StateKind::op && d.body->op->is_query()) {
    fail(ErrorCode::parse, "{}: {} {} asks for a value (=?); a {} is a state formula or an expression", where, keyword,
         d.name, keyword);
  }
  return d;
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

std::string PropertiesFile::undefined_constants() const {
  std::string text;
  for (const FileConstant& c : constants) {
    if (!c.value) text += fmt::format("{}{} ({})", text.empty() ? "" : ", ", c.name, expression::type_name(c.type));
  }
  return text;
}

const FileConstant* PropertiesFile::find_constant(std::string_view name) const {
  for (const FileConstant& c : constants) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

PropertiesFile parse_properties(std::string_view content, const std::string& file_name) {
  PropertiesFile file;
  file.file_name = file_name;
  // Constants and formulas share PRISM's one space of names; labels and
  // property names have their own.
  std::map<std::string, int> names, labels, property_names;
  auto claim = [&](std::map<std::string, int>& space, const std::string& name, int line, std::string_view what) {
    const auto [it, fresh] = space.emplace(name, line);
    if (!fresh) {
      fail(ErrorCode::parse, "{}:{}: {} '{}' is declared twice (first at line {})", file_name, line, what, name,
           it->second);
    }
  };
  for (const Statement& s : split_statements(content, file_name)) {
    if (starts_with_word(s.text, "const")) {
      FileConstant c = parse_constant(s, file_name);
      claim(names, c.name, s.line, "constant");
      file.constants.push_back(std::move(c));
      continue;
    }
    if (starts_with_word(s.text, "formula")) {
      FileDefinition f = parse_definition(s, file_name, "formula");
      claim(names, f.name, s.line, "formula");
      file.formulas.push_back(std::move(f));
      continue;
    }
    if (starts_with_word(s.text, "label")) {
      FileDefinition l = parse_definition(s, file_name, "label");
      claim(labels, l.name, s.line, "label");
      file.labels.push_back(std::move(l));
      continue;
    }
    FileProperty p = split_property_name(s.text, fmt::format("{}:{}", file_name, s.line));
    p.line = s.line;
    if (!p.name.empty() && !property_names.emplace(p.name, s.line).second) {
      fail(ErrorCode::parse, "{}:{}: two properties are named \"{}\"", file_name, s.line, p.name);
    }
    file.properties.push_back(std::move(p));
  }
  if (file.properties.empty()) fail(ErrorCode::parse, "{}: no property in the file", file_name);
  return file;
}

PropertiesFile read_properties(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(ErrorCode::io, "{}: cannot open the properties file", path);
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) fail(ErrorCode::io, "{}: read failed", path);
  return parse_properties(content.str(), path);
}

std::vector<FileProperty> parse_properties_file(std::string_view content, const std::string& file_name,
                                                std::string_view constant_definitions) {
  return ready_properties(parse_properties(content, file_name), constant_definitions);
}

std::vector<FileProperty> ready_properties(const PropertiesFile& file, std::string_view constant_definitions) {
  const std::string& file_name = file.file_name;
  // Values for the file's open constants; values of names it does not
  // declare are what its expressions may read; values of constants it
  // defines are ignored, so that a model's definitions pass as they are.
  std::vector<expression::ConstantAssignment> given, outer;
  for (expression::ConstantAssignment& a : expression::parse_constant_assignments(constant_definitions)) {
    const FileConstant* c = file.find_constant(a.name);
    if (c == nullptr) {
      outer.push_back(std::move(a));
    } else if (!c->value) {
      given.push_back(std::move(a));
    }
  }
  const Definitions definitions = file_definitions(file, given, literal_constants(outer, "constants"));
  std::vector<FileProperty> out;
  for (const FileProperty& p : file.properties) {
    FileProperty ready = p;
    std::optional<Property> parsed;
    try {
      if (!definitions.empty() && p.error.empty()) parsed = parse_property(p.text);
    } catch (const Error&) {
      // pmc_check reports it, at its column in the text as written.
    }
    if (parsed) {
      try {
        const std::string substituted = to_string(substitute_definitions(*parsed, definitions));
        if (substituted != to_string(*parsed)) ready.text = substituted;
      } catch (const Error& e) {
        // A constant without a value: the file cannot be made ready.
        // A JANI model's properties have names, not lines.
        if (p.line == 0) fail(ErrorCode::parse, "{}: property \"{}\": {}", file_name, p.name, e.what());
        fail(ErrorCode::parse, "{}:{}: {}", file_name, p.line, e.what());
      }
    }
    out.push_back(std::move(ready));
  }
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
