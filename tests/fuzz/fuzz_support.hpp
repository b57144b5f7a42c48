// What every libFuzzer harness of tests/fuzz shares: a scratch
// folder for readers that take paths, the contract each input must meet,
// and the .pmcb round trip of every model that loads.
//
// The contract: an input either gives a model that passes validation —
// then saving it as .pmcb and reading that back gives the same model — or
// fails with a clean pmc::Error (a message, a code other than internal).
// Anything else — another exception, a crash, a leak,
// undefined behaviour, an allocation beyond run.sh's bound, a hang — is a
// finding: the harness aborts (or the sanitizers and libFuzzer do) and
// libFuzzer saves the input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hpp"
#include "formats/model_files.hpp"
#include "model/model.hpp"

namespace pmc::fuzz {

// One folder per process: $PMC_FUZZ_SCRATCH, else /dev/shm (files there
// cost no disk I/O), else /tmp; removed at exit.
const std::string& scratch_dir();

// Writes `bytes` to scratch_dir()/name (replacing it) and returns the path.
std::string write_file(const std::string& name, std::span<const uint8_t> bytes);
std::string write_file(const std::string& name, std::string_view text);

// True when `bytes` start with gzip's signature: such an input is also
// written under a .gz name, which is how the text readers take gzip.
bool looks_gzipped(std::span<const uint8_t> bytes);

// Prints "pmc fuzz finding: <what>" and aborts, so that libFuzzer keeps the input.
[[noreturn]] void finding(const std::string& what);

// Runs `attempt` under the contract: returns true when it returned, false
// on a clean pmc::Error; aborts on anything else. `context` names the
// step in the finding's message.
template <typename Attempt>
bool clean_or_finding(std::string_view context, Attempt&& attempt);

// A loaded model must survive .pmcb: written and read back it is the same
// model (Model::same_as), else a finding that names the first difference.
void check_pmcb_round_trip(const Model& model);

// load_model(paths, format) under the contract, and the round trip of the
// model when it loads. Returns whether it loaded.
bool load_and_check(const std::vector<std::string>& paths, std::string_view format, const LoadOptions& options = {});

// Small fixed models beside which the side-file harnesses put the fuzzed
// file: PRISM's die (13 states; examples/die), an MDP over the same states
// (15 choices, with and without actions), and Storm's die and that MDP in
// Storm's dialect.
extern const std::string_view k_prism_die_tra;
extern const std::string_view k_prism_mdp_tra;
extern const std::string_view k_storm_die_tra;
extern const std::string_view k_storm_mdp_tra;

// ---- implementation of the template ----

void check_clean_error(std::string_view context, const Error& error);
[[noreturn]] void unexpected_exception(std::string_view context);

template <typename Attempt>
bool clean_or_finding(std::string_view context, Attempt&& attempt) {
  try {
    attempt();
    return true;
  } catch (const Error& e) {
    check_clean_error(context, e);
    return false;
  } catch (...) {
    unexpected_exception(context);
  }
}

}  // namespace pmc::fuzz
