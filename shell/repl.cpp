#include "repl.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iostream>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "completion.hpp"
#include "interrupt.hpp"
#include "repl_input.hpp"
#include "session.hpp"

namespace pmc::shell {

namespace {

struct ReplOptions {
  std::string script;  // empty: standard input
  bool json = false;
  bool keep_going = false;
};

// $PMC_HISTORY (empty: no history file), else ~/.pmc_history.
std::string history_path() {
  if (const char* path = std::getenv("PMC_HISTORY")) return path;
  if (const char* home = std::getenv("HOME")) return std::string(home) + "/.pmc_history";
  return "";
}

std::string prompt(const Session& session) {
  const LoadedModel* m = session.current_model();
  return m == nullptr ? "pmc> " : fmt::format("pmc {}> ", m->name);
}

void print_usage(std::ostream& out) {
  fmt::print(out,
             "usage: pmc [-f SCRIPT] [--json] [-k|--continue]   the shell (a script from SCRIPT or a pipe)\n"
             "       pmc COMMAND ...                          one command (pmc help lists them)\n");
}

}  // namespace

int run_repl(const std::vector<std::string>& words) {
  ReplOptions options;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w == "-f" || w == "--file") {
      if (i + 1 == words.size()) {
        fmt::print(std::cerr, "pmc: error: {} needs a script file\n", w);
        return 2;
      }
      options.script = words[++i];
    } else if (w == "--json") {
      options.json = true;
    } else if (w == "-k" || w == "--continue") {
      options.keep_going = true;
    } else if (w == "-h" || w == "--help") {
      print_usage(std::cout);
      return 0;
    } else {
      fmt::print(std::cerr, "pmc: error: unknown option {}\n", w);
      print_usage(std::cerr);
      return 2;
    }
  }

  Session session(std::cout, std::cerr);
  session.json = options.json;
  std::ifstream script;
  std::unique_ptr<ReplInput> reader;
  if (!options.script.empty()) {
    script.open(options.script);
    if (!script) {
      fmt::print(std::cerr, "pmc: error: {}: cannot open script\n", options.script);
      return 2;
    }
    reader = script_reader(script);
  } else if (isatty(STDIN_FILENO)) {
    reader = terminal_reader(history_path(), [&](const std::string& line) { return complete_line(session, line); });
    session.progress = isatty(STDERR_FILENO) != 0;
    if (!session.json) fmt::print(std::cout, "pmc {} shell: `help` lists the commands, Ctrl-D leaves.\n", PMC_PROJECT_VERSION);
  } else {
    reader = script_reader(std::cin);
  }
  InterruptHandler interrupt(&session.cancel);

  int status = 0;
  uint64_t line_number = 0;
  while (std::optional<std::string> line = reader->read(prompt(session))) {
    ++line_number;
    const LineOutcome outcome = run_line(session, *line);
    if (outcome == LineOutcome::quit) break;
    if (outcome == LineOutcome::error && !reader->interactive()) {
      status = 1;
      if (!options.keep_going) {
        if (!session.json) {
          fmt::print(std::cerr, "pmc: stopped at line {} of {}\n", line_number,
                     options.script.empty() ? "standard input" : options.script);
        }
        break;
      }
    }
  }
  if (reader->interactive() && !session.json) std::cout << '\n';
  return status;
}

}  // namespace pmc::shell
