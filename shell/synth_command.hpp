// `pmc synth` (DESIGN §6): parameter synthesis on a parametric CTMC.
#pragma once

#include <ostream>

#include "arguments.hpp"

namespace pmc::shell {

int run_synth(const Arguments& args, std::ostream& out);

}  // namespace pmc::shell
