// The state of one interactive or scripted pmc session: the loaded models
// (named, one current), the check settings, and the output modes. The REPL
// commands (repl_commands.cpp) read and change it.
#pragma once

#include <atomic>
#include <iosfwd>
#include <string>
#include <vector>

#include "check/check.hpp"
#include "model/model.hpp"

namespace pmc::shell {

struct LoadedModel {
  std::string name;
  std::vector<std::string> files;
  ModelPtr model;
};

struct Session {
  Session(std::ostream& out_, std::ostream& err_) : out(out_), err(err_) {}

  std::ostream& out;
  std::ostream& err;
  std::vector<LoadedModel> models;
  size_t current = 0;          // index into models (when not empty)
  CheckOptions options;        // solver and SolverSettings for `check`
  bool json = false;           // every command prints JSON (one object per line)
  bool time = false;           // print each command's wall time
  bool progress = false;       // show a progress line during long solves (a terminal)
  std::atomic<bool> cancel{false};  // set by Ctrl-C; reset before each command
  // The last `check`'s results, for `show result`: each with the model it
  // was computed on (a later `load` does not change what they describe).
  struct ShownResult {
    std::string name;  // the property's name, "" when unnamed
    CheckResult result;
    ModelPtr model;
  };
  std::vector<ShownResult> last_results;

  const LoadedModel* current_model() const { return models.empty() ? nullptr : &models[current]; }
  // The current model, or Error(invalid_argument) "no model loaded".
  const LoadedModel& require_model() const;
  LoadedModel* find(const std::string& name);
};

enum class LineOutcome { ok, error, quit };

// Runs one line: a command and its arguments; blank lines and lines starting
// with '#' do nothing. Prints results to session.out and a one-line error to
// session.err (or, in JSON mode, an {"error": ...} object to session.out).
// Never throws.
LineOutcome run_line(Session& session, const std::string& line);

// The shell reports errors in one line: a property error's caret display
// (the text and a ^ under the column) is dropped, the column stays.
std::string first_line(std::string_view message);

}  // namespace pmc::shell
