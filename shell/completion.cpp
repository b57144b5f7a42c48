#include "completion.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <system_error>

#include "formats/model_files.hpp"
#include "repl_commands.hpp"
#include "settings.hpp"
#include "solver/registry.hpp"

namespace pmc::shell {

namespace {

bool starts_with(const std::string& text, const std::string& prefix) { return text.compare(0, prefix.size(), prefix) == 0; }

void add_matching(std::vector<std::string>& out, const std::string& word, const std::vector<std::string>& names) {
  for (const std::string& n : names) {
    if (starts_with(n, word)) out.push_back(n);
  }
}

// Files and directories whose path starts with `word`; directories end in '/'.
Completion complete_file(const std::string& word) {
  Completion c{word, {}, " "};
  const size_t slash = word.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : word.substr(0, slash + 1);
  const std::string stem = word.substr(dir.size());
  std::string listed = dir.empty() ? "." : dir;
  if (starts_with(listed, "~/")) {
    const char* home = std::getenv("HOME");
    if (home != nullptr) listed = std::string(home) + listed.substr(1);
  }
  std::error_code ec;
  for (std::filesystem::directory_iterator it(listed, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!starts_with(name, stem) || (name[0] == '.' && !starts_with(stem, "."))) continue;
    std::error_code type_ec;
    c.candidates.push_back(dir + name + (it->is_directory(type_ec) ? "/" : ""));
  }
  // A unique directory gets no space: the user goes on typing inside it.
  if (c.candidates.size() == 1 && c.candidates[0].back() == '/') c.suffix = "";
  return c;
}

std::vector<std::string> command_names() {
  std::vector<std::string> names;
  for (const ReplCommand& c : repl_commands()) names.push_back(c.name);
  names.push_back("exit");
  return names;
}

std::vector<std::string> setting_names() {
  std::vector<std::string> names;
  for (const SettingSpec& s : setting_specs()) names.push_back(s.name);
  names.insert(names.end(), {"json", "progress"});
  return names;
}

std::vector<std::string> solver_choices() {
  std::vector<std::string> names = {"auto", "cpu", "gpu"};
  for (const SolverEntry& s : solver_registry()) names.push_back(s.name);
  return names;
}

// Inside `check`: after an unclosed quote, a label name ("...) or, after
// {", a reward structure name.
bool complete_quoted_name(const Session& session, const std::string& args, Completion& c) {
  size_t quotes = 0;
  for (char ch : args) quotes += ch == '"';
  if (quotes % 2 == 0) return false;
  const size_t open = args.rfind('"');
  c.word = args.substr(open + 1);
  c.suffix = "\"";
  const LoadedModel* loaded = session.current_model();
  if (loaded == nullptr) return true;
  std::vector<std::string> names;
  if (open > 0 && args[open - 1] == '{') {
    for (const RewardStructure& r : loaded->model->rewards()) names.push_back(r.name);
    c.suffix = "\"}";
  } else {
    for (const Label& l : loaded->model->labels()) names.push_back(l.name);
  }
  add_matching(c.candidates, c.word, names);
  return true;
}

// Inside `check`, outside quotes: a state variable of the current model, or
// a constant or formula of its source, at the identifier that ends the word
// (`s=7&d<Tab>` offers `s=7&d`).
void complete_variable(const Session& session, Completion& c) {
  const LoadedModel* loaded = session.current_model();
  if (loaded == nullptr) return;
  const size_t last = c.word.find_last_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
  const size_t tail = last == std::string::npos ? 0 : last + 1;
  const std::string head = c.word.substr(0, tail), typed = c.word.substr(tail);
  if (typed.empty() || (typed[0] >= '0' && typed[0] <= '9')) return;
  std::vector<std::string> names = loaded->model->valuations().variables;
  for (const auto& [name, value] : loaded->model->definitions().constants) names.push_back(name);
  for (const auto& [name, text] : loaded->model->definitions().formulas) names.push_back(name);
  for (const std::string& v : names) {
    if (starts_with(v, typed)) c.candidates.push_back(head + v);
  }
  c.suffix = "";  // a comparison follows
}

// After `load m.nm --const `: the constants the source leaves undefined
// (`const int K;`), found by a plain scan of the file (no parse: the line
// is still being typed), completed as "K=" after any "N=4," already typed.
Completion complete_constants(const std::vector<std::string>& before, const std::string& word) {
  Completion c{word, {}, ""};
  std::string source;
  for (const std::string& w : before) {
    if (is_prism_language_path(w)) source = w;
  }
  if (source.empty()) return c;
  std::ifstream in(source);
  if (!in) return c;
  std::ostringstream text;
  text << in.rdbuf();
  std::string content = std::regex_replace(text.str(), std::regex("//[^\n]*"), "");
  static const std::regex declaration("\\bconst\\s+(?:int\\s+|double\\s+|bool\\s+)?([A-Za-z_][A-Za-z0-9_]*)\\s*;");
  const size_t comma = word.rfind(',');
  const std::string done = comma == std::string::npos ? "" : word.substr(0, comma + 1);
  const std::string typed = word.substr(done.size());
  for (std::sregex_iterator it(content.begin(), content.end(), declaration), end; it != end; ++it) {
    const std::string name = (*it)[1];
    if (starts_with(name, typed) && done.find(name + "=") == std::string::npos) c.candidates.push_back(done + name + "=");
  }
  return c;
}

}  // namespace

Completion complete_line(const Session& session, const std::string& line) {
  const size_t start = line.find_first_not_of(" \t");
  const size_t command_end = start == std::string::npos ? std::string::npos : line.find_first_of(" \t", start);
  if (command_end == std::string::npos) {  // still typing the command
    Completion c{start == std::string::npos ? "" : line.substr(start), {}, " "};
    add_matching(c.candidates, c.word, command_names());
    return c;
  }
  const ReplCommand* command = find_repl_command(line.substr(start, command_end - start));
  if (command == nullptr) return {};
  const std::string args = line.substr(command_end);
  Completion c;
  if (command->arguments == ArgumentKind::properties && complete_quoted_name(session, args, c)) return c;

  // The word being typed and the words before it.
  const size_t word_start = args.find_last_of(" \t") + 1;
  c.word = args.substr(word_start);
  const std::vector<std::string> before = [&] {
    try {
      return split_command_words(args.substr(0, word_start));
    } catch (...) {
      return std::vector<std::string>{};
    }
  }();
  const std::string previous = before.empty() ? "" : before.back();

  if (starts_with(c.word, "-")) {
    add_matching(c.candidates, c.word, command->options);
    return c;
  }
  if (previous == "--file" || previous == "--scheduler") return complete_file(c.word);
  if (previous == "--format") {
    add_matching(c.candidates, c.word, {"prism", "prism-dtmc", "prism-ctmc", "prism-mdp", "drn", "pmcb", "prism-language"});
    return c;
  }
  if (previous == "--const") return complete_constants(before, c.word);
  switch (command->arguments) {
    case ArgumentKind::files:
      return complete_file(c.word);
    case ArgumentKind::models: {
      std::vector<std::string> names;
      for (const LoadedModel& m : session.models) names.push_back(m.name);
      add_matching(c.candidates, c.word, names);
      return c;
    }
    case ArgumentKind::commands:
      if (before.empty()) add_matching(c.candidates, c.word, command_names());
      return c;
    case ArgumentKind::settings:
      if (before.empty()) {
        add_matching(c.candidates, c.word, setting_names());
      } else if (before.size() == 1 && previous == "solver") {
        add_matching(c.candidates, c.word, solver_choices());
      } else if (before.size() == 1 && (previous == "json" || previous == "progress")) {
        add_matching(c.candidates, c.word, {"on", "off"});
      }
      return c;
    case ArgumentKind::show:
      if (before.empty()) add_matching(c.candidates, c.word, {"settings", "models"});
      return c;
    case ArgumentKind::on_off:
      if (before.empty()) add_matching(c.candidates, c.word, {"on", "off"});
      return c;
    case ArgumentKind::properties:
      complete_variable(session, c);
      return c;
    case ArgumentKind::none:
      return c;
  }
  return c;
}

}  // namespace pmc::shell
