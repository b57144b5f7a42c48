// The shell's command table (after sqlite3's shell and lua.c): one table
// drives dispatch, argument checking and `help`, for command-line use
// (`pmc info --model x.tra`) and, later, the interactive REPL alike.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "arguments.hpp"

namespace pmc::shell {

struct Command {
  std::string name;
  std::string usage;    // arguments, for `help`
  std::string summary;  // one line, for `help`
  std::vector<OptionSpec> options;
  std::string example;  // one command line, for `pmc COMMAND --help`
  // Returns the process exit status; throws pmc::Error on failure.
  std::function<int(const Arguments&, std::ostream& out)> run;
};

const std::vector<Command>& command_table();

// The status of a command cancelled without a signal (by the C ABI's
// flag, say): as SIGINT's.
inline constexpr int k_cancelled_status = 130;

// Runs `words` (command name first). Errors go to `err` as
// "pmc: error: ..."; returns the exit status (0 ok, 1 error, 2 usage,
// 3 not converged, 128 + the signal when SIGINT or SIGTERM cancelled it).
// SIGINT and SIGTERM cancel the command while it runs where the caller
// installed a CommandInterrupt (the `pmc` executable, for its whole life).
int run_command(const std::vector<std::string>& words, std::ostream& out, std::ostream& err);

void print_help(std::ostream& out);

// `pmc COMMAND --help`: usage, summary, every option with what it does, and
// an example.
void print_command_help(const Command& command, std::ostream& out);

// What `--NAME` does for `command` (for help; "" when no text is known).
std::string option_help(const std::string& command, const OptionSpec& option);

}  // namespace pmc::shell
