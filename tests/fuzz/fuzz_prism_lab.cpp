// PRISM .lab files (formats/prism_side_files_reader.cpp), read beside a
// fixed .tra: PRISM's die, 13 states (fuzz_support.cpp). See
// fuzz_support.hpp for the contract.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string tra = pmc::fuzz::write_file("die.tra", pmc::fuzz::k_prism_die_tra);
  const std::span<const uint8_t> bytes(data, size);
  const std::string lab = pmc::fuzz::write_file(pmc::fuzz::looks_gzipped(bytes) ? "die.lab.gz" : "die.lab", bytes);
  pmc::fuzz::load_and_check({tra, lab}, "prism");
  return 0;
}
