// `pmc` without a command: the interactive shell on a terminal, or a script
// runner for `pmc < script` and `pmc -f script`.
#pragma once

#include <string>
#include <vector>

namespace pmc::shell {

// `options`: -f/--file SCRIPT, --json, -k/--continue (a script goes on after
// an error), --help. Returns the exit status: 0, 1 when a script line failed
// (the script stops at the first one unless --continue), 2 for bad options.
int run_repl(const std::vector<std::string>& options);

}  // namespace pmc::shell
