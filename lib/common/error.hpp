// pmc::Error: the one exception type thrown inside the library. The C ABI
// (lib/api/) catches it, stores the message thread-locally and returns the
// code; nothing else crosses the boundary.
#pragma once

#include <stdexcept>
#include <string>

#include <fmt/format.h>

namespace pmc {

// Values match pmc_status in include/pmc/pmc.h.
enum class ErrorCode : int {
  invalid_argument = 1,
  io = 2,
  parse = 3,
  model = 4,
  property = 5,
  unsupported = 6,
  out_of_memory = 7,
  no_device = 8,
  device = 9,
  not_converged = 10,
  cancelled = 11,
  internal = 12,
};

class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ErrorCode code() const { return code_; }

 private:
  ErrorCode code_;
};

// fail(code, "fmt {}", args...) formats and throws.
template <typename... Args>
[[noreturn]] void fail(ErrorCode code, fmt::format_string<Args...> format, Args&&... args) {
  throw Error(code, fmt::format(format, std::forward<Args>(args)...));
}

// A printable rendering of untrusted text for error messages: control and
// non-ASCII bytes escaped, long text cut.
std::string quote_for_message(std::string_view text, size_t max_length = 40);

}  // namespace pmc
