// The `pmc` executable (docs/design.md §6): a command (`pmc check ...`), or with
// none, or only shell options, the shell.
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "interrupt.hpp"
#include "common/caller_language.hpp"
#include "solver/device/devices.hpp"
#include "process_exit.hpp"
#include "repl.hpp"

int main(int argc, char** argv) {
  // pmc ends through end_process, which runs no exit handler once CUDA was
  // touched: CUDA may start in the background while a model loads.
  pmc::allow_background_device_discovery();
  std::vector<std::string> words(argv + 1, argv + argc);
  // `pmc --version` and `pmc --help` are the commands `version` and `help`.
  if (words.size() == 1 && (words[0] == "--version" || words[0] == "-V")) words[0] = "version";
  if (words.size() == 1 && (words[0] == "--help" || words[0] == "-h")) words[0] = "help";
  const bool shell = words.empty() || (words[0].size() > 1 && words[0][0] == '-');
  // Messages name settings the way this front end takes them.
  pmc::set_caller_language(shell ? pmc::CallerLanguage::shell : pmc::CallerLanguage::command_line);
  if (shell) pmc::shell::end_process(pmc::shell::run_repl(words));
  // Installed until the process ends (end_process does not return): a
  // signal that comes after the command is done, while pmc exits, changes
  // nothing instead of killing the process with the results already out.
  pmc::shell::CommandInterrupt interrupt;
  pmc::shell::end_process(pmc::shell::run_command(words, std::cout, std::cerr));
}
