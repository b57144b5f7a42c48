// A read position in one line of a text model file, or in a piece of one
// (a DRN rate expression), whose tokens are separated by blanks: spaces and
// tabs. The readers of such text build on it, so that what a blank is and
// how a token is skipped to are written once.
#pragma once

#include <cstddef>
#include <string_view>

namespace pmc {

class LineCursor {
 public:
  explicit LineCursor(std::string_view text) : text_(text) {}

  // True when only blanks are left (it skips them).
  bool at_end() {
    skip_blanks();
    return pos_ == text_.size();
  }

  // Consumes `c` when it comes next after blanks.
  bool accept_char(char c) {
    skip_blanks();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

 protected:
  static bool is_blank(char c) { return c == ' ' || c == '\t'; }

  void skip_blanks() {
    while (pos_ < text_.size() && is_blank(text_[pos_])) ++pos_;
  }

  std::string_view text_;
  size_t pos_ = 0;  // the next character to read
};

}  // namespace pmc
