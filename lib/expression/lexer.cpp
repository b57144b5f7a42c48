// The PRISM language's tokens (PRISM's PrismParser.jj token section): what
// is an identifier, a number, a symbol; comments skipped.
#include "expression/lexer.hpp"

#include <cctype>
#include <charconv>
#include <cstdlib>

#include "common/error.hpp"

namespace pmc::expression {

namespace {

constexpr std::string_view k_reserved[] = {
    "bool", "clock", "const", "ctmc", "ctmdp", "double", "dtmc", "endinit", "endinvariant",
    "endmodule", "endobservables", "endplayer", "endrewards", "endsystem", "false", "formula",
    "filter", "func", "global", "init", "invariant", "int", "label", "mdp", "module",
    "nondeterministic", "observable", "observables", "player", "pomdp", "popta", "probabilistic",
    "prob", "pta", "rate", "rewards", "stochastic", "system", "true", "min", "max"
    };

// Longest first, so `<=>` wins over `<=` and `<`.
constexpr std::string_view k_symbols[] = {
    "<=>", "=>", "->", "..", "!=", "<=", ">=", "(", ")", "[", "]", "{", "}", ";",
    ":",   ",",  "'", "?",  "=",  "<",  ">",  "+",  "-", "*", "/", "!", "&", "|"};

class Lexer {
 public:
  Lexer(std::string_view source, const std::string& file) : source_(source), file_(file) {}

  std::vector<Token> run() {
    std::vector<Token> tokens;
    while (true) {
      skip_space_and_comments();
      Token t;
      t.line = line_;
      t.column = column();
      if (at_ >= source_.size()) {
        tokens.push_back(t);
        return tokens;
      }
      const char c = source_[at_];
      const size_t start = at_;
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        while (at_ < source_.size() && (std::isalnum(static_cast<unsigned char>(source_[at_])) || source_[at_] == '_')) ++at_;
        t.kind = TokenKind::identifier;
      } else if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && digit_at(at_ + 1))) {
        number(t);
      } else if (c == '"') {
        ++at_;
        while (at_ < source_.size() && source_[at_] != '"' && source_[at_] != '\n') ++at_;
        if (at_ >= source_.size() || source_[at_] != '"') fail_at(t, "unterminated string (expected '\"' before the end of the line)");
        t.kind = TokenKind::string;
        t.text = source_.substr(start + 1, at_ - start - 1);
        ++at_;
        tokens.push_back(t);
        continue;
      } else {
        t.kind = TokenKind::symbol;
        for (std::string_view s : k_symbols) {
          if (source_.substr(at_, s.size()) == s) {
            at_ += s.size();
            break;
          }
        }
        if (at_ == start) {
          fail_at(t, fmt::format("unexpected character {} (expected a PRISM-language token)",
                                 quote_for_message(source_.substr(at_, 1))));
        }
      }
      t.text = source_.substr(start, at_ - start);
      tokens.push_back(t);
    }
  }

 private:
  [[noreturn]] void fail_at(const Token& t, const std::string& what) {
    fail(ErrorCode::parse, "{}:{}:{}: {}", file_, t.line, t.column, what);
  }

  uint32_t column() const { return static_cast<uint32_t>(at_ - line_start_ + 1); }
  bool digit_at(size_t i) const { return i < source_.size() && std::isdigit(static_cast<unsigned char>(source_[i])); }

  void newline() {
    ++line_;
    line_start_ = at_ + 1;
  }

  void skip_space_and_comments() {
    while (at_ < source_.size()) {
      const char c = source_[at_];
      if (c == '\n') {
        newline();
        ++at_;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        ++at_;
      } else if (source_.substr(at_, 2) == "//") {
        while (at_ < source_.size() && source_[at_] != '\n') ++at_;
      } else if (source_.substr(at_, 2) == "/*") {
        Token open;
        open.line = line_;
        open.column = column();
        at_ += 2;
        while (at_ < source_.size() && source_.substr(at_, 2) != "*/") {
          if (source_[at_] == '\n') newline();
          ++at_;
        }
        if (at_ >= source_.size()) fail_at(open, "unterminated comment: '/*' without '*/'");
        at_ += 2;
      } else {
        return;
      }
    }
  }

  // PRISM: digits, or digits? '.' digits, with an optional exponent. `0..N`
  // is 0, `..`, N: a point is part of a number only before a digit.
  void number(Token& t) {
    const size_t start = at_;
    bool real = false;
    while (digit_at(at_)) ++at_;
    if (at_ < source_.size() && source_[at_] == '.' && digit_at(at_ + 1)) {
      real = true;
      ++at_;
      while (digit_at(at_)) ++at_;
    }
    if (at_ < source_.size() && (source_[at_] == 'e' || source_[at_] == 'E')) {
      size_t e = at_ + 1;
      if (e < source_.size() && (source_[e] == '+' || source_[e] == '-')) ++e;
      if (digit_at(e)) {
        real = true;
        at_ = e;
        while (digit_at(at_)) ++at_;
      }
    }
    const std::string_view text = source_.substr(start, at_ - start);
    if (real) {
      t.kind = TokenKind::real;
      t.real_value = std::strtod(std::string(text).c_str(), nullptr);
      return;
    }
    t.kind = TokenKind::integer;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), t.int_value);
    // PRISM's ints are Java ints.
    if (error != std::errc() || end != text.data() + text.size() || t.int_value > 2147483647) {
      fail_at(t, fmt::format("integer literal {} is too large (PRISM's integers are at most 2147483647)",
                             quote_for_message(text)));
    }
  }

  std::string_view source_;
  const std::string& file_;
  size_t at_ = 0;
  size_t line_start_ = 0;
  uint32_t line_ = 1;
};

}  // namespace

std::vector<Token> tokenize(std::string_view source, const std::string& file) {
  return Lexer(source, file).run();
}

bool is_reserved_word(std::string_view word) {
  for (std::string_view r : k_reserved) {
    if (r == word) return true;
  }
  return false;
}

std::string describe(const Token& token) {
  switch (token.kind) {
    case TokenKind::end: return "end of file";
    case TokenKind::identifier:
      return is_reserved_word(token.text) ? fmt::format("keyword '{}'", token.text)
                                          : fmt::format("identifier '{}'", token.text);
    case TokenKind::integer:
    case TokenKind::real: return fmt::format("number {}", token.text);
    case TokenKind::string: return fmt::format("string \"{}\"", quote_for_message(token.text));
    case TokenKind::symbol: return fmt::format("'{}'", token.text);
  }
  return "?";
}

}  // namespace pmc::expression
