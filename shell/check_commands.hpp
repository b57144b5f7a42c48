// Commands about checking: check, solvers.
#pragma once

#include <iosfwd>

#include "arguments.hpp"

namespace pmc::shell {

int run_check(const Arguments& args, std::ostream& out);
int run_solvers(const Arguments& args, std::ostream& out);

}  // namespace pmc::shell
