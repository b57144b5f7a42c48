// The side files of Storm's explicit dialect (formats/storm_explicit_reader.cpp):
// each input is read as the .lab, the .state.rew and the .trans.rew of
// Storm's die (a DTMC), and as the .trans.rew of a fixed MDP over the same
// 13 states (whose lines have a choice column). See fuzz_support.hpp for
// the contract.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string die = pmc::fuzz::write_file("die.tra", pmc::fuzz::k_storm_die_tra);
  static const std::string mdp = pmc::fuzz::write_file("mdp.tra", pmc::fuzz::k_storm_mdp_tra);
  const std::span<const uint8_t> bytes(data, size);
  const std::string gz = pmc::fuzz::looks_gzipped(bytes) ? ".gz" : "";
  pmc::fuzz::load_and_check({die, pmc::fuzz::write_file("die.lab" + gz, bytes)}, "storm-explicit");
  pmc::fuzz::load_and_check({die, pmc::fuzz::write_file("die.state.rew" + gz, bytes)}, "storm-explicit");
  pmc::fuzz::load_and_check({die, pmc::fuzz::write_file("die.trans.rew" + gz, bytes)}, "storm-explicit");
  pmc::fuzz::load_and_check({mdp, pmc::fuzz::write_file("mdp.trans.rew" + gz, bytes)}, "storm-explicit");
  return 0;
}
