#include "common/error.hpp"

namespace pmc {

std::string quote_for_message(std::string_view text, size_t max_length) {
  std::string out = "'";
  size_t shown = 0;
  for (unsigned char c : text) {
    if (shown++ == max_length) {
      out += "...";
      break;
    }
    if (c >= 0x20 && c < 0x7f && c != '\'') {
      out += static_cast<char>(c);
    } else {
      out += fmt::format("\\x{:02x}", c);
    }
  }
  out += "'";
  return out;
}

}  // namespace pmc
