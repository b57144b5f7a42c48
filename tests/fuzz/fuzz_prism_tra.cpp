// PRISM explicit .tra files (formats/prism_transitions_reader.cpp): each
// input is read with the type from the file (comment or header shape) and
// forced to each of dtmc, ctmc and mdp, as plain text and, when it starts
// with gzip's signature, as .tra.gz. See fuzz_support.hpp for the contract.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  const std::string path = pmc::fuzz::write_file(pmc::fuzz::looks_gzipped(bytes) ? "in.tra.gz" : "in.tra", bytes);
  for (const char* format : {"prism", "prism-dtmc", "prism-ctmc", "prism-mdp"}) {
    pmc::fuzz::load_and_check({path}, format);
  }
  return 0;
}
