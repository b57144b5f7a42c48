// Tokens of the PRISM language, model sources and expressions alike (the
// grammar in grammar.hpp and formats/prism_language/parser.cpp read them).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pmc::expression {

enum class TokenKind : uint8_t {
  end,
  identifier,  // also keywords: the parser tells them apart by text
  integer,
  real,
  string,  // "label name", text without the quotes
  symbol,  // ( ) [ ] { } ; : , ' = != < <= > >= + - * / ! & | => <=> ? -> ..
};

struct Token {
  TokenKind kind = TokenKind::end;
  std::string_view text;  // into the source
  uint32_t line = 0, column = 0;
  int64_t int_value = 0;
  double real_value = 0;

  bool is(std::string_view t) const {
    return (kind == TokenKind::symbol || kind == TokenKind::identifier) && text == t;
  }
};

// Splits `source` into tokens ending with one `end`. `//` and `/* */`
// comments are skipped. Throws pmc::Error (parse) naming file:line:column
// for a character PRISM does not know, an unterminated comment or string,
// or an integer literal beyond PRISM's 32-bit ints.
std::vector<Token> tokenize(std::string_view source, const std::string& file);

// Words PRISM reserves (keywords and built-in function names): not usable
// as names of constants, formulas, variables, modules or actions.
bool is_reserved_word(std::string_view word);

// How a token reads in a message: `'->'`, `identifier 'x'`, `end of file`.
std::string describe(const Token& token);

}  // namespace pmc::expression
