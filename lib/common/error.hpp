// pmc::Error: the one exception type thrown inside the library. The C ABI
// (lib/api/) catches it, stores the message thread-locally and returns the
// code; nothing else crosses the boundary.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "common/error_code.hpp"

namespace pmc {

// fail(code, "fmt {}", args...) formats and throws.
template <typename... Args>
[[noreturn]] void fail(ErrorCode code, fmt::format_string<Args...> format, Args&&... args) {
  throw Error(code, fmt::format(format, std::forward<Args>(args)...));
}

// A printable rendering of untrusted text for error messages: control and
// non-ASCII bytes escaped, long text cut.
std::string quote_for_message(std::string_view text, size_t max_length = 40);

// The code as a stable identifier for machine-read output ("parse",
// "cancelled", ...): pmc_status's names in lower case, without PMC_ERROR_.
std::string_view error_code_name(ErrorCode code);

}  // namespace pmc
