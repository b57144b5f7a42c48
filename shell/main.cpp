// The `pmc` executable (DESIGN §6): a command (`pmc check ...`), or with
// none, or only shell options, the shell.
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "repl.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> words(argv + 1, argv + argc);
  if (words.empty() || (words[0].size() > 1 && words[0][0] == '-')) return pmc::shell::run_repl(words);
  return pmc::shell::run_command(words, std::cout, std::cerr);
}
