// `pmc synth` (docs/design.md §6) and the shell's `synth`: parameter synthesis on a
// parametric CTMC.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "arguments.hpp"
#include "model/model.hpp"
#include "synth/synthesis.hpp"

namespace pmc::shell {

int run_synth(const Arguments& args, std::ostream& out);

// The options both forms share: --param (repeatable), --threshold, --max,
// --min, --epsilon, --max-regions, --batch, --json, --plot.
const std::vector<OptionSpec>& synth_option_specs();

struct SynthOutput {
  std::ostream& out;
  std::ostream& err;
  bool json;        // print JSON even without --json
  bool progress;    // a progress line on `err` (a terminal)
  const char* error_prefix;  // before the "stopped at the region limit" message
};

// Synthesis of `property` on `model` with the shared options of `args` on
// top of `options` (solver, settings, cancel flag); prints the result (and
// writes --plot). Returns 0, or 3 when the region limit stopped it first.
// Throws pmc::Error for bad options, properties and regions, or on cancel.
int synthesize_and_report(const Model& model, const std::string& property, const Arguments& args,
                          SynthesisOptions options, const SynthOutput& output);

}  // namespace pmc::shell
