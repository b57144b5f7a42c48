// Storm's DRN format (formats/drn_reader.cpp), parametric CTMCs with affine
// rates (formats/affine_expression.cpp) included; gzip when the input
// starts with its signature. See fuzz_support.hpp for the contract.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  const std::string path = pmc::fuzz::write_file(pmc::fuzz::looks_gzipped(bytes) ? "in.drn.gz" : "in.drn", bytes);
  pmc::fuzz::load_and_check({path}, "drn");
  return 0;
}
