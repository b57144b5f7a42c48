// The `pmc` executable (DESIGN §6): a command (`pmc check ...`), or with
// none, or only shell options, the shell.
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "repl.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> words(argv + 1, argv + argc);
  // `pmc --version` and `pmc --help` are the commands `version` and `help`.
  if (words.size() == 1 && (words[0] == "--version" || words[0] == "-V")) words[0] = "version";
  if (words.size() == 1 && (words[0] == "--help" || words[0] == "-h")) words[0] = "help";
  if (words.empty() || (words[0].size() > 1 && words[0][0] == '-')) return pmc::shell::run_repl(words);
  return pmc::shell::run_command(words, std::cout, std::cerr);
}
