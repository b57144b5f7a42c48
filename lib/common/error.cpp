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

std::string_view error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::invalid_argument: return "invalid_argument";
    case ErrorCode::io: return "io";
    case ErrorCode::parse: return "parse";
    case ErrorCode::model: return "model";
    case ErrorCode::property: return "property";
    case ErrorCode::unsupported: return "unsupported";
    case ErrorCode::out_of_memory: return "out_of_memory";
    case ErrorCode::no_device: return "no_device";
    case ErrorCode::device: return "device";
    case ErrorCode::not_converged: return "not_converged";
    case ErrorCode::cancelled: return "cancelled";
    case ErrorCode::internal: return "internal";
  }
  return "unknown";
}

}  // namespace pmc
