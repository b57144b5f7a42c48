// Storm's explicit .tra (formats/storm_explicit_reader.cpp): each input is
// read as Storm's dialect and with the dialect left to the first line
// (is_storm_explicit_transitions), as `pmc check --model x.tra` does; gzip
// when the input starts with its signature. See fuzz_support.hpp for the
// contract.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  const std::string path = pmc::fuzz::write_file(pmc::fuzz::looks_gzipped(bytes) ? "in.tra.gz" : "in.tra", bytes);
  pmc::fuzz::load_and_check({path}, "storm-explicit");
  pmc::fuzz::load_and_check({path}, "");
  return 0;
}
