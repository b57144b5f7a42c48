// run_tests() (support/manifest.hpp): gtest's run, with the rule for tests
// that need the reference models. Apart from manifest.cpp, which the
// benchmarks link without gtest.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "support/manifest.hpp"

namespace pmc::testing {

namespace {

// Counts the tests skipped for want of the reference models.
class MissingModelsCounter : public ::testing::EmptyTestEventListener {
 public:
  int skipped = 0;

 private:
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (result.skipped() && std::string(result.message()).starts_with(k_missing_models_prefix)) ++skipped;
  }
};

}  // namespace

int run_tests() {
  const char* needs = std::getenv("PMC_TEST_NEEDS_MODELS");
  if (needs && *needs && *needs != '0' && models_root().empty()) {
    std::printf("SKIP: %s\n", missing_models_message().c_str());
    return 77;
  }
  auto* counter = new MissingModelsCounter;  // the listener list owns it
  ::testing::UnitTest::GetInstance()->listeners().Append(counter);
  const int status = RUN_ALL_TESTS();
  if (status != 0 || counter->skipped == 0) return status;
  std::printf("SKIP: %d test(s) need the reference models and did not run (the program's other tests passed): %s\n",
              counter->skipped, missing_models_message().c_str());
  return 77;
}

}  // namespace pmc::testing
