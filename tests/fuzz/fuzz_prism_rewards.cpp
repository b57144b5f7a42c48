// PRISM .srew and .trew files (formats/prism_side_files_reader.cpp): each
// input is read as the state rewards and as the transition rewards of
// PRISM's die (a DTMC) and as the transition rewards of a fixed MDP over
// the same 13 states (whose lines have a choice column). See
// fuzz_support.hpp for the contract.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string die = pmc::fuzz::write_file("die.tra", pmc::fuzz::k_prism_die_tra);
  static const std::string mdp = pmc::fuzz::write_file("mdp.tra", pmc::fuzz::k_prism_mdp_tra);
  const std::span<const uint8_t> bytes(data, size);
  const std::string gz = pmc::fuzz::looks_gzipped(bytes) ? ".gz" : "";
  pmc::fuzz::load_and_check({die, pmc::fuzz::write_file("die.srew" + gz, bytes)}, "prism");
  pmc::fuzz::load_and_check({die, pmc::fuzz::write_file("die.trew" + gz, bytes)}, "prism");
  pmc::fuzz::load_and_check({mdp, pmc::fuzz::write_file("mdp.trew" + gz, bytes)}, "prism");
  return 0;
}
