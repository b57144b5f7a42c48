// main() of the test programs built with test_support_dep (tests/meson.build):
// gtest's, with the rule for tests that need the reference models
// (run_tests in manifest.hpp: their skip is meson's SKIP, exit 77).
#include <gtest/gtest.h>

#include "support/manifest.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return pmc::testing::run_tests();
}
