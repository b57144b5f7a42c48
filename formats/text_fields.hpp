// Reads whitespace-separated fields of one line of a text model file,
// reporting problems as "file:line:column: expected X, found Y".
#pragma once

#include <cctype>
#include <charconv>
#include <cstdint>
#include <string_view>

#include "common/error.hpp"
#include "formats/file_line_reader.hpp"
#include "formats/line_cursor.hpp"

namespace pmc {

class TextFields : public LineCursor {
 public:
  TextFields(const FileLineReader& reader, std::string_view line) : LineCursor(line), reader_(reader) {}

  size_t column() const { return pos_ + 1; }
  std::string_view rest() {
    skip_blanks();
    return text_.substr(pos_);
  }

  // An unsigned decimal integer, ended by a blank, the end of the line or
  // `terminator` (which is not consumed).
  uint64_t integer(std::string_view what, char terminator = ' ') {
    skip_blanks();
    const size_t start = pos_;
    uint64_t value = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      const uint64_t digit = static_cast<uint64_t>(text_[pos_] - '0');
      if (value > (UINT64_MAX - digit) / 10) fail_here(start, "{} is too large", what);
      value = value * 10 + digit;
      ++pos_;
    }
    if (pos_ == start || !(at_field_end() || text_[pos_] == terminator)) expected(start, what);
    return value;
  }

  // A signed decimal integer that fits in 32 bits.
  int32_t signed_integer(std::string_view what, char terminator = ' ') {
    skip_blanks();
    const size_t start = pos_;
    const bool negative = pos_ < text_.size() && text_[pos_] == '-';
    if (negative) ++pos_;
    if (pos_ == text_.size() || text_[pos_] < '0' || text_[pos_] > '9') expected(start, what);
    const uint64_t magnitude = integer(what, terminator);
    if (magnitude > (negative ? uint64_t{1} << 31 : (uint64_t{1} << 31) - 1)) {
      fail_here(start, "{} does not fit in 32 bits", what);
    }
    return negative ? static_cast<int32_t>(-static_cast<int64_t>(magnitude)) : static_cast<int32_t>(magnitude);
  }

  // Text between double quotes (no escapes: names never contain quotes).
  std::string_view quoted(std::string_view what) {
    skip_blanks();
    const size_t start = pos_;
    if (pos_ >= text_.size() || text_[pos_] != '"') expected(start, what);
    const size_t close = text_.find('"', pos_ + 1);
    if (close == std::string_view::npos) fail_here(start, "{} has no closing double quote", what);
    pos_ = close + 1;
    return text_.substr(start + 1, close - start - 1);
  }

  // Consumes the identifier-like token [A-Za-z0-9_] at the cursor.
  std::string_view identifier(std::string_view what) {
    skip_blanks();
    const size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
    if (pos_ == start) expected(start, what);
    return text_.substr(start, pos_ - start);
  }

  // A decimal floating-point number (PRISM writes e.g. 0.5, 1.0E-5, 3).
  double real(std::string_view what) {
    skip_blanks();
    const size_t start = pos_;
    const char* first = text_.data() + pos_;
    const char* last = text_.data() + text_.size();
    if (first != last && *first == '+') ++first;  // from_chars takes no '+'
    double value = 0.0;
    auto [ptr, ec] = std::from_chars(first, last, value, std::chars_format::general);
    if (ec == std::errc::result_out_of_range) {
      pos_ = static_cast<size_t>(ptr - text_.data());
      fail_here(start, "{} {} is out of the range of a double", what, quote_for_message(token_at(start)));
    }
    if (ec != std::errc{}) expected(start, what);
    pos_ = static_cast<size_t>(ptr - text_.data());
    if (!at_field_end()) expected(start, what);
    return value;
  }

  // The next blank-separated token (may be empty at end of line).
  std::string_view word() {
    skip_blanks();
    const size_t start = pos_;
    while (pos_ < text_.size() && !is_blank(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  // Consumes `c` (after blanks) or fails with "expected `what`".
  void expect_char(char c, std::string_view what) {
    skip_blanks();
    if (pos_ >= text_.size() || text_[pos_] != c) expected(pos_, what);
    ++pos_;
  }

  void expect_end() {
    if (!at_end()) fail_here(pos_, "unexpected text {} at end of line", quote_for_message(text_.substr(pos_)));
  }

  template <typename... Args>
  [[noreturn]] void fail_here(size_t at, fmt::format_string<Args...> format, Args&&... args) const {
    throw Error(ErrorCode::parse, fmt::format("{}:{}:{}: {}", reader_.path(), reader_.line_number(), at + 1,
                                              fmt::format(format, std::forward<Args>(args)...)));
  }

  [[noreturn]] void expected(size_t at, std::string_view what) const {
    std::string_view found = token_at(at);
    if (found.empty()) fail_here(at, "expected {}, found end of line", what);
    fail_here(at, "expected {}, found {}", what, quote_for_message(found));
  }

 private:
  bool at_field_end() const { return pos_ == text_.size() || is_blank(text_[pos_]); }
  std::string_view token_at(size_t at) const {
    size_t end = at;
    while (end < text_.size() && !is_blank(text_[end])) ++end;
    return text_.substr(at, end - at);
  }

  const FileLineReader& reader_;
};

}  // namespace pmc
