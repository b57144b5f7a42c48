// pmc's binary format (formats/pmcb_reader.cpp): a .pmcb that loads must
// also survive being written and read again. See fuzz_support.hpp for the
// contract.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = pmc::fuzz::write_file("in.pmcb", std::span<const uint8_t>(data, size));
  pmc::fuzz::load_and_check({path}, "pmcb");
  return 0;
}
