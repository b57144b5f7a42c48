// pmc::Error without fmt: the part of error.hpp that cuda/ can include.
// (fmt 9's headers do not compile under nvcc in C++20 mode, which meson
// 1.12 selects for .cu files.)
#pragma once

#include <stdexcept>
#include <string>

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

}  // namespace pmc
