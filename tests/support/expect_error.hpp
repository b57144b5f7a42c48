// A gtest check shared by the cancellation tests (CPU and GPU).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"

namespace pmc::testing {

// Runs `solve`, which must throw pmc::Error with `code`; returns the
// error's message (empty, with a failure recorded, when none was thrown).
template <typename Solve>
std::string expect_error(const std::string& what, ErrorCode code, Solve solve) {
  try {
    solve();
    ADD_FAILURE() << what << ": finished, expected error code " << static_cast<int>(code);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << what << ": " << e.what();
    return e.what();
  }
  return {};
}

}  // namespace pmc::testing
