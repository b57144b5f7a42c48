// A read position in a token list (lexer.hpp), with the "expected X, found
// Y" error every PRISM-language grammar reports.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "common/error.hpp"
#include "expression/lexer.hpp"

namespace pmc::expression {

class TokenCursor {
 public:
  // `file` names the source in messages and must outlive the cursor.
  TokenCursor(std::vector<Token> tokens, const std::string& file) : tokens_(std::move(tokens)), file_(file) {}

  // The token `ahead` after the current one; past the end, the final `end`.
  const Token& peek(size_t ahead = 0) const { return tokens_[std::min(at_ + ahead, tokens_.size() - 1)]; }
  // The current token; moves on unless it is the final `end`.
  const Token& next() {
    const Token& t = tokens_[at_];
    if (at_ + 1 < tokens_.size()) ++at_;
    return t;
  }
  bool accept(std::string_view text) {
    if (!peek().is(text)) return false;
    next();
    return true;
  }
  const Token& expect(std::string_view text) {
    if (!peek().is(text)) error(peek(), fmt::format("'{}'", text));
    return next();
  }

  // An identifier PRISM does not reserve (a constant's, formula's, ...
  // name); `what` says which in the message.
  std::string name(const char* what) {
    const Token& t = peek();
    if (t.kind != TokenKind::identifier) error(t, what);
    if (is_reserved_word(t.text)) {
      fail(ErrorCode::parse, "{}: expected {}, found keyword '{}' (reserved in PRISM)", where(t), what, t.text);
    }
    next();
    return std::string(t.text);
  }

  const std::string& file() const { return file_; }
  // "file:line:column" of `t`.
  std::string where(const Token& t) const { return fmt::format("{}:{}:{}", file_, t.line, t.column); }
  // Throws pmc::Error (parse): "file:line:column: expected <expected>, found <t>".
  [[noreturn]] void error(const Token& t, const std::string& expected) const {
    fail(ErrorCode::parse, "{}: expected {}, found {}", where(t), expected, describe(t));
  }

 private:
  std::vector<Token> tokens_;
  size_t at_ = 0;
  const std::string& file_;
};

}  // namespace pmc::expression
