// PRISM .sta files (state valuations, formats/prism_side_files_reader.cpp),
// read beside a fixed .tra: PRISM's die, 13 states. See fuzz_support.hpp
// for the contract.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string tra = pmc::fuzz::write_file("die.tra", pmc::fuzz::k_prism_die_tra);
  const std::span<const uint8_t> bytes(data, size);
  const std::string sta = pmc::fuzz::write_file(pmc::fuzz::looks_gzipped(bytes) ? "die.sta.gz" : "die.sta", bytes);
  pmc::fuzz::load_and_check({tra, sta}, "prism");
  return 0;
}
