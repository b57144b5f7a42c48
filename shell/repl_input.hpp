// Where the shell's lines come from: a terminal, edited with libedit
// (emacs keys, history saved across sessions, tab completion), or a script
// (a file or a pipe), read as is with no prompt.
#pragma once

#include <functional>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pmc::shell {

// What tab completes: the word before the cursor is replaced by one of
// `candidates`; a unique candidate is followed by `suffix` (" " after a
// command, "\"" after a label name, nothing after a directory).
struct Completion {
  std::string word;
  std::vector<std::string> candidates;
  std::string suffix = " ";
};
using Completer = std::function<Completion(const std::string& line_before_cursor)>;

class ReplInput {
 public:
  virtual ~ReplInput() = default;
  // The next line without its newline; nullopt at the end of input.
  virtual std::optional<std::string> read(const std::string& prompt) = 0;
  virtual bool interactive() const = 0;
};

// `history_path` empty: no history file. Completion candidates that do not
// fit on one line are listed below the prompt.
std::unique_ptr<ReplInput> terminal_reader(const std::string& history_path, Completer completer);

// Lines of `in` (a file or standard input). `name` is for error messages.
std::unique_ptr<ReplInput> script_reader(std::istream& in);

}  // namespace pmc::shell
