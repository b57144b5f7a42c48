// main() of the GPU test programs: exit 77 (meson: skipped) without a usable
// GPU, saying why; with one, name it and run the tests (exit 77 too when
// tests skipped for want of the reference models: run_tests).
#include <gtest/gtest.h>

#include <cstdio>

#include "solver/device/devices.hpp"
#include "support/manifest.hpp"

int main(int argc, char** argv) {
  const pmc::DeviceList& devices = pmc::discover_devices();
  if (devices.devices.empty()) {
    std::printf("SKIP: no usable GPU (%s)\n", devices.problem.c_str());
    return 77;
  }
  std::printf("GPU: %s (compute %d.%d)\n", devices.devices[0].name.c_str(), devices.devices[0].major,
              devices.devices[0].minor);
  ::testing::InitGoogleTest(&argc, argv);
  const int status = pmc::testing::run_tests();
  pmc::release_process_caches();  // memcheck's leak check sees every allocation returned
  return status;
}
