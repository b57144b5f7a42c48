#include "session.hpp"

#include <chrono>
#include <new>
#include <ostream>

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "common/stopwatch.hpp"
#include "repl_commands.hpp"

namespace pmc::shell {

const LoadedModel& Session::require_model() const {
  if (models.empty()) fail(ErrorCode::invalid_argument, "no model loaded (load FILE first)");
  return models[current];
}

LoadedModel* Session::find(const std::string& name) {
  for (LoadedModel& m : models) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

std::string first_line(std::string_view message) { return std::string(message.substr(0, message.find('\n'))); }

namespace {

void report_error(Session& session, const std::string& command, const std::string& message) {
  if (session.json) {
    session.out << nlohmann::json{{"command", command}, {"error", first_line(message)}}.dump() << '\n';
    session.out.flush();
  } else {
    session.out.flush();
    fmt::print(session.err, "error: {}\n", first_line(message));
    session.err.flush();
  }
}

}  // namespace

LineOutcome run_line(Session& session, const std::string& line) {
  const size_t start = line.find_first_not_of(" \t");
  if (start == std::string::npos || line[start] == '#') return LineOutcome::ok;
  const size_t end = line.find_first_of(" \t", start);
  const std::string name = line.substr(start, end - start);
  const std::string rest = end == std::string::npos ? "" : line.substr(end + 1);
  const ReplCommand* command = find_repl_command(name);
  if (command == nullptr) {
    report_error(session, name, fmt::format("unknown command {} (try `help`)", quote_for_message(name)));
    return LineOutcome::error;
  }
  session.cancel.store(false);
  // `check --help` (or -h) is `help check`, in the shell as on the command line.
  if (const size_t word = rest.find_first_not_of(" \t"); word != std::string::npos) {
    const std::string only = rest.substr(word, rest.find_last_not_of(" \t") + 1 - word);
    if ((only == "--help" || only == "-h") && command->name != "help") return find_repl_command("help")->run(session, command->name);
  }
  const auto began = std::chrono::steady_clock::now();
  LineOutcome outcome = LineOutcome::error;
  try {
    outcome = command->run(session, rest);
  } catch (const Error& e) {
    report_error(session, name, e.code() == ErrorCode::cancelled ? "cancelled (Ctrl-C)" : e.what());
  } catch (const std::bad_alloc&) {
    report_error(session, name, "out of memory");
  } catch (const std::exception& e) {
    report_error(session, name, fmt::format("internal error: {}", e.what()));
  }
  if (session.time && outcome != LineOutcome::quit) {
    const double seconds = seconds_since(began);
    if (session.json) {
      session.out << nlohmann::json{{"command", name}, {"seconds", seconds}}.dump() << '\n';
    } else {
      fmt::print(session.out, "time: {:.3f} s\n", seconds);
    }
  }
  session.out.flush();
  return outcome;
}

}  // namespace pmc::shell
