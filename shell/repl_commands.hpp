// The REPL's command table (after sqlite3's dot-commands and lua.c): one
// table drives dispatch, `help` and tab completion.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "session.hpp"

namespace pmc::shell {

// What a command's arguments are, for tab completion.
enum class ArgumentKind { none, files, models, commands, settings, properties, show, on_off };

struct ReplCommand {
  std::string name;
  std::string usage;    // the arguments, for `help`
  std::string summary;  // one line
  std::vector<std::string> options;  // --flags, for completion
  ArgumentKind arguments = ArgumentKind::none;
  // `rest` is the line after the command word. Throws pmc::Error.
  std::function<LineOutcome(Session&, const std::string& rest)> run;
};

const std::vector<ReplCommand>& repl_commands();
// By name or alias ("exit" is "quit"); nullptr when unknown.
const ReplCommand* find_repl_command(std::string_view name);

// Splits on blanks, keeping '...' and "..." quoted words together (quotes
// removed). Throws Error(invalid_argument) on an unterminated quote.
std::vector<std::string> split_command_words(std::string_view text);

}  // namespace pmc::shell
