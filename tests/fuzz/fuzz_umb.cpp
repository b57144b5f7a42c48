// UMB archives (formats/umb_reader.cpp): whatever the tar, the index.json
// and the arrays hold, a .umb either loads (and survives the .pmcb round
// trip) or fails with a clean pmc::Error. See fuzz_support.hpp.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = pmc::fuzz::write_file("in.umb", std::span<const uint8_t>(data, size));
  pmc::fuzz::load_and_check({path}, "umb");
  return 0;
}
