// The `pmc` executable (DESIGN §6).
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> words(argv + 1, argv + argc);
  return pmc::shell::run_command(words, std::cout, std::cerr);
}
