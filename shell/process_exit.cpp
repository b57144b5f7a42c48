#include "process_exit.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "solver/device/devices.hpp"

namespace pmc::shell {

void end_process(int status) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  if (device_discovery_requested()) _exit(status);
  std::exit(status);
}

}  // namespace pmc::shell
