#include "repl_commands.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include "arguments.hpp"
#include "check_commands.hpp"
#include "commands.hpp"
#include "common/error.hpp"
#include "formats/model_files.hpp"
#include "model_commands.hpp"
#include "progress_line.hpp"
#include "check_inputs.hpp"
#include "expression/constant_assignments.hpp"
#include "property/definitions.hpp"
#include "property/file_definitions.hpp"
#include "property/properties_file.hpp"
#include "result_export.hpp"
#include "settings.hpp"
#include "solver/registry.hpp"
#include "synth_command.hpp"
#include "plural.hpp"

namespace pmc::shell {

using property::FileProperty;

namespace {

// Shell-level settings of `set`, beside the check settings of settings.hpp.
const std::vector<SettingSpec> k_shell_settings = {
    {"json", "on|off", "print every result as one JSON object per line"},
    {"progress", "on|off", "show iteration and residual during long solves (on a terminal)"},
};

bool parse_on_off(std::string_view what, const std::string& value) {
  if (value == "on" || value == "true" || value == "1") return true;
  if (value == "off" || value == "false" || value == "0") return false;
  fail(ErrorCode::invalid_argument, "{} takes on or off, not {}", what, quote_for_message(value));
}

Arguments parse(const std::string& rest, const std::vector<OptionSpec>& specs) {
  return Arguments(split_command_words(rest), specs);
}

// The arguments of a command that takes nothing but --json.
Arguments parse_json_only(const std::string& rest, std::string_view command) {
  Arguments args = parse(rest, {{"json", false, false}});
  if (!args.positional().empty()) {
    fail(ErrorCode::invalid_argument, "{} takes no argument {}", command, quote_for_message(args.positional()[0]));
  }
  return args;
}

bool wants_json(const Session& session, const Arguments& args) { return session.json || args.has("json"); }

// A command's one-line answer: the JSON object with --json (or `set json
// on`), else the text.
void answer(Session& session, const Arguments& args, const nlohmann::json& json, const std::string& text) {
  if (wants_json(session, args)) {
    session.out << json.dump() << '\n';
  } else {
    session.out << text << '\n';
  }
}

// A listing command's answer: with --json one JSON array of the items, else
// a line per item, or `if_empty` (when not empty itself) for no items.
class Listing {
 public:
  void add(nlohmann::json item, std::string line) {
    items_.push_back(std::move(item));
    lines_.push_back(std::move(line));
  }

  void print(Session& session, const Arguments& args, std::string_view if_empty = "") const {
    if (wants_json(session, args)) {
      session.out << items_.dump() << '\n';
      return;
    }
    for (const std::string& line : lines_) session.out << line << '\n';
    if (lines_.empty() && !if_empty.empty()) session.out << if_empty << '\n';
  }

 private:
  nlohmann::json items_ = nlohmann::json::array();
  std::vector<std::string> lines_;
};

// --- models -----------------------------------------------------------------

// The file stem ("die" for examples/die/die.tra, "consensus" for
// consensus.tra.gz: a compressed file's stem drops both extensions), made
// unique among the loaded models unless the same files are being reloaded.
std::string default_name(const Session& session, const std::vector<std::string>& files) {
  std::filesystem::path path(files.front());
  if (path.extension() == ".gz" || path.extension() == ".xz") path = path.stem();
  const std::string stem = path.stem().string();
  std::string name = stem;
  for (int n = 2;; ++n) {
    auto same = std::find_if(session.models.begin(), session.models.end(),
                             [&](const LoadedModel& m) { return m.name == name; });
    if (same == session.models.end() || same->files == files) return name;
    name = fmt::format("{}-{}", stem, n);
  }
}

LineOutcome load(Session& session, const std::string& rest) {
  const Arguments args = parse(rest, {{"name", true, false}, {"format", true, false}, {"strict", false, false},
                                      {"const", true, false}, {"max-states", true, false}, {"build", true, false}, {"json", false, false}});
  const std::vector<std::string>& files = args.positional();
  if (files.empty()) fail(ErrorCode::invalid_argument, "load needs a model file (load examples/die/die.tra)");
  LoadOptions options = load_options(args);  // --strict, --const, --max-states
  options.threads = static_cast<unsigned>(std::max(session.options.settings.threads, 0));
  options.model.memory_limit = session.options.settings.memory_limit;  // `set memory-limit`
  options.cancel = &session.cancel;  // Ctrl-C stops a source's exploration; the loaded models stay
  ModelPtr model = load_model(files, args.value("format"), options);  // throws before the session changes
  const std::string name = args.has("name") ? args.value("name") : default_name(session, files);
  if (name.empty()) fail(ErrorCode::invalid_argument, "--name must not be empty");
  LoadedModel* existing = session.find(name);
  if (existing != nullptr) {
    *existing = {name, files, std::move(model)};
    session.current = static_cast<size_t>(existing - session.models.data());
  } else {
    session.models.push_back({name, files, std::move(model)});
    session.current = session.models.size() - 1;
  }
  const Model& m = *session.models[session.current].model;
  if (wants_json(session, args)) {
    session.out << nlohmann::json{{"loaded", name},       {"type", std::string(to_string(m.type()))},
                                  {"states", m.num_states()}, {"transitions", m.num_entries()},
                                  {"replaced", existing != nullptr}, {"warnings", m.warnings()}}
                       .dump()
                << '\n';
  } else {
    fmt::print(session.out, "{} {}: {}, {}, {}\n", existing != nullptr ? "reloaded" : "loaded", name,
               to_string(m.type()), plural(m.num_states(), "state"), plural(m.num_entries(), "transition"));
    for (const std::string& w : m.warnings()) fmt::print(session.out, "warning: {}\n", w);
  }
  return LineOutcome::ok;
}

LineOutcome list_models(Session& session, const std::string& rest) {
  const Arguments args = parse_json_only(rest, "models");
  Listing list;
  for (size_t i = 0; i < session.models.size(); ++i) {
    const LoadedModel& m = session.models[i];
    std::string files;
    for (const std::string& f : m.files) files += (files.empty() ? "" : " ") + f;
    list.add({{"name", m.name}, {"current", i == session.current}, {"type", std::string(to_string(m.model->type()))},
              {"states", m.model->num_states()}, {"transitions", m.model->num_entries()}, {"files", m.files}},
             fmt::format("{} {:<12} {:<5} {:>12} {:>14}  {}", i == session.current ? '*' : ' ', m.name,
                         to_string(m.model->type()), plural(m.model->num_states(), "state"),
                         plural(m.model->num_entries(), "transition"), files));
  }
  list.print(session, args, "no models loaded (try `load examples/die/die.tra`)");
  return LineOutcome::ok;
}

LoadedModel& named_model(Session& session, const Arguments& args, std::string_view command) {
  if (args.positional().size() != 1) fail(ErrorCode::invalid_argument, "{} needs one model name (see `models`)", command);
  LoadedModel* model = session.find(args.positional()[0]);
  if (model == nullptr) {
    std::string names;
    for (const LoadedModel& m : session.models) names += (names.empty() ? "" : ", ") + m.name;
    fail(ErrorCode::invalid_argument, "no model named {} (loaded: {})", quote_for_message(args.positional()[0]),
         names.empty() ? "none" : names);
  }
  return *model;
}

LineOutcome use(Session& session, const std::string& rest) {
  const Arguments args = parse(rest, {{"json", false, false}});
  LoadedModel& model = named_model(session, args, "use");
  session.current = static_cast<size_t>(&model - session.models.data());
  answer(session, args, {{"current", model.name}}, "current model: " + model.name);
  return LineOutcome::ok;
}

LineOutcome unload(Session& session, const std::string& rest) {
  const Arguments args = parse(rest, {{"json", false, false}});
  LoadedModel& model = named_model(session, args, "unload");
  const std::string name = model.name;
  const size_t index = static_cast<size_t>(&model - session.models.data());
  session.models.erase(session.models.begin() + static_cast<std::ptrdiff_t>(index));
  if (session.current >= index && session.current > 0) --session.current;
  nlohmann::json j = {{"unloaded", name}, {"current", nullptr}};
  if (const LoadedModel* m = session.current_model()) j["current"] = m->name;
  answer(session, args, j, "unloaded " + name);
  return LineOutcome::ok;
}

// Frees the current model's GPU-resident copies (kept across checks so
// that the next check skips the transfer); the next GPU check copies again.
LineOutcome release(Session& session, const std::string& rest) {
  const Arguments args = parse_json_only(rest, "release");
  const LoadedModel& m = session.require_model();
  const size_t released = m.model->release_derived(k_device_key_prefix);
  answer(session, args, {{"released", released}, {"model", m.name}},
         fmt::format("released {} device {} of {}", released, released == 1 ? "copy" : "copies", m.name));
  return LineOutcome::ok;
}

LineOutcome info(Session& session, const std::string& rest) {
  const Arguments args = parse_json_only(rest, "info");
  const LoadedModel& m = session.require_model();
  if (wants_json(session, args)) {
    nlohmann::json j = info_json(*m.model);
    j["name"] = m.name;
    session.out << j.dump() << '\n';
  } else {
    fmt::print(session.out, "model:       {}\n", m.name);
    print_info_text(*m.model, session.out);
  }
  return LineOutcome::ok;
}

LineOutcome labels(Session& session, const std::string& rest) {
  const Arguments args = parse_json_only(rest, "labels");
  Listing list;
  for (const Label& label : session.require_model().model->labels()) {
    const auto states = label.states.count();
    list.add({{"name", label.name}, {"states", states}}, fmt::format("\"{}\" ({})", label.name, plural(states, "state")));
  }
  list.print(session, args);
  return LineOutcome::ok;
}

LineOutcome rewards(Session& session, const std::string& rest) {
  const Arguments args = parse_json_only(rest, "rewards");
  Listing list;
  for (const RewardStructure& r : session.require_model().model->rewards()) {
    const bool state = !r.state_rewards.empty(), transition = !r.transition_rewards.empty();
    list.add({{"name", r.name}, {"state", state}, {"transition", transition}},
             fmt::format("\"{}\"{}{}", r.name, state ? " state" : "", transition ? " transition" : ""));
  }
  list.print(session, args, "no reward structures");
  return LineOutcome::ok;
}

LineOutcome save(Session& session, const std::string& rest) {
  const Arguments args = parse(rest, {{"format", true, false}, {"json", false, false}});
  if (args.positional().size() != 1) fail(ErrorCode::invalid_argument, "save needs one output file (save out.pmcb)");
  const LoadedModel& m = session.require_model();
  const std::string& path = args.positional()[0];
  // The model's own files are not written over (as `pmc convert`); files
  // gone since the load leave only the names it was loaded from to compare.
  std::vector<std::string> inputs = m.files;
  try {
    inputs = model_input_files(m.files, "");
  } catch (const Error&) {
  }
  refuse_overwriting_inputs(*m.model, path, args.value("format"), inputs);
  save_model(*m.model, path, args.value("format"));
  answer(session, args, {{"saved", m.name}, {"file", path}}, fmt::format("saved {} to {}", m.name, path));
  return LineOutcome::ok;
}

// --- check ------------------------------------------------------------------

struct CheckRequest {
  std::vector<FileProperty> properties;  // typed ones unnamed
  std::optional<property::PropertiesFile> file;  // --file's, whose constants the properties may use
  std::string constants;                         // --const: values of the file's open constants
  std::string scheduler_file;
  bool json = false;
};

// The leading "--option [value]" words of a REPL command line; the rest of
// the line, from the first word that is not an option, is the command's
// text (property text, quotes included), returned whole.
class LeadingOptions {
 public:
  explicit LeadingOptions(const std::string& line) : line_(line) {}

  // The next option word ("--json"); empty when the options are over.
  std::string next_option() {
    const size_t start = line_.find_first_not_of(" \t", pos_);
    if (start == std::string::npos || line_.compare(start, 2, "--") != 0) {
      pos_ = start;
      return {};
    }
    return word();
  }

  // The word after an option; quotes around it, as on a command line
  // (--threshold '>=0.9'), are not part of it. Empty at the end of the line.
  std::string value() {
    std::string v = word();
    if (v.size() >= 2 && (v.front() == '\'' || v.front() == '"') && v.back() == v.front()) v = v.substr(1, v.size() - 2);
    return v;
  }

  // The text after the options; nullopt when the line ends with them.
  std::optional<std::string> text() const {
    const size_t start = line_.find_first_not_of(" \t", pos_);
    if (start == std::string::npos) return std::nullopt;
    return line_.substr(start);
  }

 private:
  std::string word() {
    const size_t start = line_.find_first_not_of(" \t", pos_);
    if (start == std::string::npos) {
      pos_ = start;
      return {};
    }
    const size_t end = line_.find_first_of(" \t", start);
    pos_ = end;
    return line_.substr(start, end == std::string::npos ? std::string::npos : end - start);
  }

  const std::string& line_;
  size_t pos_ = 0;
};

// check [--json] [--file F] [--const N=V,...] [--scheduler F] P1 ; P2 ...:
// options first, then the property text as typed (quotes are part of it).
CheckRequest parse_check(const std::string& rest) {
  CheckRequest request;
  LeadingOptions line(rest);
  for (std::string option = line.next_option(); !option.empty(); option = line.next_option()) {
    if (option == "--json") {
      request.json = true;
    } else if (option == "--file" || option == "--scheduler") {
      std::string value = line.value();
      if (value.empty()) fail(ErrorCode::invalid_argument, "{} needs a file name", option);
      if (option == "--file") {
        if (request.file) fail(ErrorCode::invalid_argument, "check takes one --file");
        request.file = read_properties_or_jani(value);
        for (const FileProperty& p : request.file->properties) request.properties.push_back(p);
      } else {
        request.scheduler_file = value;
      }
    } else if (option == "--const") {
      request.constants = line.value();
      if (request.constants.empty()) fail(ErrorCode::invalid_argument, "--const needs NAME=VALUE[,NAME=VALUE...]");
    } else {
      fail(ErrorCode::invalid_argument,
           "check: unknown option {} (options: --json, --file F, --const N=V,..., --scheduler F)",
           quote_for_message(option));
    }
  }
  if (const std::optional<std::string> text = line.text()) {
    size_t begin = 0;
    while (begin <= text->size()) {
      size_t end = text->find(';', begin);
      if (end == std::string::npos) end = text->size();
      const std::string property = text->substr(begin, end - begin);
      if (property.find_first_not_of(" \t") != std::string::npos) request.properties.push_back({"", property, 0, ""});
      begin = end + 1;
    }
  }
  if (request.properties.empty()) {
    fail(ErrorCode::invalid_argument, "check needs a property (check P=? [ F \"goal\" ]) or --file F");
  }
  return request;
}

// The definitions the request's properties are checked with: the file's
// constants (with --const's values for its open ones), formulas and labels.
// The model's constants were fixed when it was loaded (load --const).
property::Definitions request_definitions(const CheckRequest& request, const Model& model) {
  const std::vector<expression::ConstantAssignment> given = expression::parse_constant_assignments(request.constants);
  for (const expression::ConstantAssignment& a : given) {
    const property::FileConstant* c = request.file ? request.file->find_constant(a.name) : nullptr;
    if (c == nullptr || c->value) {
      const std::string open = request.file ? request.file->undefined_constants() : "";
      fail(ErrorCode::invalid_argument,
           "--const {}={}: {} (a model's constants are given when it is loaded: load --const)", a.name, a.value,
           !request.file ? std::string("check --const gives the open constants of --file, and there is none")
                         : fmt::format("the properties file's open constants are {}", open.empty() ? "none" : open));
    }
  }
  if (!request.file) return {};
  return property::file_definitions(*request.file, given, property::model_constant_values(model.definitions()));
}

LineOutcome check_properties(Session& session, const std::string& rest) {
  const CheckRequest request = parse_check(rest);
  const LoadedModel& loaded = session.require_model();
  const bool json = session.json || request.json;
  CheckOptions options = session.options;
  options.definitions = request_definitions(request, *loaded.model);
  options.settings.cancel = &session.cancel;
  ProgressLine progress(session.err);
  if (session.progress && !json) options.settings.progress = [&](const SolveProgress& p) { progress.show(p); };
  LineOutcome outcome = LineOutcome::ok;
  session.last_results.clear();
  for (size_t k = 0; k < request.properties.size(); ++k) {
    const FileProperty& property = request.properties[k];
    const std::string& text = property.text;
    try {
      if (!property.error.empty()) fail(ErrorCode::unsupported, "{}", property.error);
      CheckResult result = check(*loaded.model, text, options);
      progress.clear();
      if (!request.scheduler_file.empty() && (!result.scheduler.empty() || request.properties.size() == 1)) {
        write_scheduler(file_for_property(request.scheduler_file, k, request.properties.size(), property.name), result,
                        *loaded.model);
      }
      session.last_results.push_back({property.name, result, loaded.model});
      const std::vector<property::ConstantValue> used =
          request.file ? used_constants(property, *request.file, options.definitions)
                       : std::vector<property::ConstantValue>{};
      if (json) {
        nlohmann::json j = result_json(result, *loaded.model);  // with its "timings"
        if (!property.name.empty()) j["name"] = property.name;
        if (!used.empty()) j["constants"] = constants_json(used);
        session.out << j.dump() << '\n';
      } else {
        if (!property.name.empty()) result.property = fmt::format("\"{}\": {}", property.name, result.property);
        print_result_text(result, *loaded.model, session.out);
        if (!used.empty()) fmt::print(session.out, "  constants: {}\n", property::describe_constants(used));
        if (session.time) print_timings_text(result.timings, session.out);
      }
      if (!result.converged) outcome = LineOutcome::error;
    } catch (const Error& e) {
      progress.clear();
      if (e.code() == ErrorCode::cancelled) throw;  // Ctrl-C stops the remaining properties too
      // One bad property does not stop the others; the line still fails.
      if (json) {
        session.out << nlohmann::json{{"property", text}, {"error", first_line(e.what())}}.dump() << '\n';
      } else {
        fmt::print(session.err, "error: {}: {}\n", quote_for_message(text, 80), first_line(e.what()));
      }
      outcome = LineOutcome::error;
    }
  }
  session.out.flush();
  return outcome;
}

// synth [OPTIONS] PROPERTY: the options of `pmc synth` come first, the rest
// of the line is the property (as for `check`); the model is the current
// one and the solver and its settings are the session's.
LineOutcome synth_command(Session& session, const std::string& rest) {
  const std::vector<OptionSpec>& specs = synth_option_specs();
  std::vector<std::string> words;
  LeadingOptions line(rest);
  for (std::string option = line.next_option(); !option.empty(); option = line.next_option()) {
    words.push_back(option);
    const auto spec = std::find_if(specs.begin(), specs.end(), [&](const OptionSpec& o) { return "--" + o.name == option; });
    if (spec != specs.end() && spec->takes_value) {
      const std::string value = line.value();
      if (value.empty()) fail(ErrorCode::invalid_argument, "{} needs a value", option);
      words.push_back(value);
    }
  }
  const Arguments args(words, specs);  // an unknown option is an error naming it
  const std::optional<std::string> text = line.text();
  if (!text) {
    fail(ErrorCode::invalid_argument,
         "synth needs a property after its options, e.g. synth --param ki=0.005:0.3 --param kr=0.005:0.2 --max "
         "P=? [ \"infected\" U[100,120] \"extinct\" ]");
  }
  std::string property = *text;
  property.erase(property.find_last_not_of(" \t") + 1);
  const LoadedModel& loaded = session.require_model();
  SynthesisOptions options;
  options.solver = session.options.solver;
  options.settings = session.options.settings;
  options.settings.progress = nullptr;
  options.settings.cancel = &session.cancel;
  const bool json = session.json || args.has("json");
  const SynthOutput output{session.out, session.err, json, session.progress && !json, "error: "};
  const int status = synthesize_and_report(*loaded.model, property, args, options, output);
  session.out.flush();
  return status == 0 ? LineOutcome::ok : LineOutcome::error;
}

// --- settings and the rest --------------------------------------------------

LineOutcome set(Session& session, const std::string& rest) {
  const Arguments args = parse(rest, {{"json", false, false}});
  const auto& words = args.positional();
  if (words.empty()) fail(ErrorCode::invalid_argument, "set needs a setting (see `help set`)");
  const std::string& name = words[0];
  const bool flag = name == "relative" || name == "absolute" || name == "sound" || name == "unsound" ||
                    name == "exact" || name == "inexact";
  if (words.size() != (flag ? 1u : 2u)) {
    if (flag) fail(ErrorCode::invalid_argument, "set {} takes no value", name);
    fail(ErrorCode::invalid_argument, "set {} needs one value (help set)", name);
  }
  std::string shown;
  if (name == "json") {
    session.json = parse_on_off(name, words[1]);
    shown = session.json ? "on" : "off";
  } else if (name == "progress") {
    session.progress = parse_on_off(name, words[1]);
    shown = session.progress ? "on" : "off";
  } else {
    apply_setting(session.options, name, flag ? "" : words[1]);
    shown = setting_value(session.options, name);
  }
  answer(session, args, {{"setting", name}, {"value", shown}}, fmt::format("{} = {}", name, shown));
  return LineOutcome::ok;
}

// `show result [STATES]`: the last check's values, bounds and variables per
// state (every state, or the listed ones: `show result 0 5 7`).
LineOutcome show_result(Session& session, const std::vector<std::string>& words) {
  if (session.last_results.empty()) fail(ErrorCode::invalid_argument, "no result to show: run `check` first");
  std::vector<uint64_t> states;
  for (size_t i = 1; i < words.size(); ++i) {
    uint64_t s = 0;
    const auto [end, error] = std::from_chars(words[i].data(), words[i].data() + words[i].size(), s);
    if (error != std::errc() || end != words[i].data() + words[i].size()) {
      fail(ErrorCode::invalid_argument, "show result takes state numbers, not {}", quote_for_message(words[i]));
    }
    states.push_back(s);
  }
  for (const Session::ShownResult& shown : session.last_results) {
    write_vector(session.out, shown.result, *shown.model, states);
  }
  return LineOutcome::ok;
}

LineOutcome show(Session& session, const std::string& rest) {
  const Arguments args = parse(rest, {{"json", false, false}});
  if (!args.positional().empty() && args.positional()[0] == "result") return show_result(session, args.positional());
  if (args.positional().size() != 1 || (args.positional()[0] != "settings" && args.positional()[0] != "models")) {
    fail(ErrorCode::invalid_argument, "show takes `settings`, `models` or `result [STATES]`");
  }
  if (args.positional()[0] == "models") return list_models(session, args.has("json") ? "--json" : "");
  std::vector<std::pair<std::string, std::string>> values;
  for (const SettingSpec& spec : setting_specs()) {
    if (spec.name != "absolute" && spec.name != "unsound") values.emplace_back(spec.name, setting_value(session.options, spec.name));
  }
  values.emplace_back("json", session.json ? "on" : "off");
  values.emplace_back("progress", session.progress ? "on" : "off");
  values.emplace_back("time", session.time ? "on" : "off");
  if (wants_json(session, args)) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [name, value] : values) j[name] = value;
    session.out << j.dump() << '\n';
  } else {
    for (const auto& [name, value] : values) fmt::print(session.out, "{:<18} {}\n", name, value);
  }
  return LineOutcome::ok;
}

LineOutcome time_command(Session& session, const std::string& rest) {
  const Arguments args = parse(rest, {{"json", false, false}});
  if (args.positional().size() != 1) fail(ErrorCode::invalid_argument, "time takes on or off");
  session.time = parse_on_off("time", args.positional()[0]);
  const std::string shown = session.time ? "on" : "off";
  answer(session, args, {{"setting", "time"}, {"value", shown}}, "time = " + shown);
  return LineOutcome::ok;
}

// Runs one of the command-line commands (solvers, devices) with its own options.
LineOutcome cli_command(Session& session, const std::string& rest,
                        int (*run)(const Arguments&, std::ostream&)) {
  Arguments args = parse_json_only(rest, "this command");
  if (session.json && !args.has("json")) args = Arguments({"--json"}, {{"json", false, false}});
  return run(args, session.out) == 0 ? LineOutcome::ok : LineOutcome::error;
}

LineOutcome help(Session& session, const std::string& rest);

}  // namespace

const std::vector<ReplCommand>& repl_commands() {
  static const std::vector<ReplCommand> table = {
      {"load", "FILE... [--name NAME] [--format F] [--const N=V,...] [--max-states N] [--build auto|cpu|gpu] [--strict]",
       "load a model (.tra and its .lab/.srew/.trew, .drn, .pmcb, .umb, or a PRISM-language source .pm/.sm/.nm/.prism "
       "built with --const's values) as the current one, named by its file",
       {"--name", "--format", "--const", "--max-states", "--build", "--strict", "--json"}, ArgumentKind::files, load},
      {"models", "", "list the loaded models (* marks the current one)", {"--json"}, ArgumentKind::none, list_models},
      {"use", "NAME", "make a loaded model the current one", {"--json"}, ArgumentKind::models, use},
      {"unload", "NAME", "forget a loaded model and free its memory", {"--json"}, ArgumentKind::models, unload},
      {"release", "", "free the current model's GPU copies (kept between checks; made again when needed)",
       {"--json"}, ArgumentKind::none, release},
      {"info", "", "the current model's type, sizes, labels and reward structures", {"--json"}, ArgumentKind::none,
       info},
      {"labels", "", "the current model's labels and how many states carry each", {"--json"}, ArgumentKind::none,
       labels},
      {"rewards", "", "the current model's reward structures", {"--json"}, ArgumentKind::none, rewards},
      {"check", "PROPERTY [; PROPERTY...] | --file FILE [--const N=V,...]  [--scheduler FILE] [--json]",
       "check properties on the current model (P=? [ F \"goal\" ]), or a properties file's (--file F: a .props "
       "file, or a JANI model's own); --const gives the file's open constants (F<=T: --const T=10); Ctrl-C cancels",
       {"--file", "--const", "--scheduler", "--json"}, ArgumentKind::properties, check_properties},
      {"synth", "--param K=LO:HI... [--threshold T | --max | --min] [--epsilon E] [--max-regions N] [--plot F.svg] PROPERTY",
       "parameter synthesis on the current model (a parametric CTMC): regions meeting a threshold, or holding the "
       "min/max; Ctrl-C cancels",
       {"--param", "--threshold", "--max", "--min", "--epsilon", "--max-regions", "--batch", "--plot", "--json"},
       ArgumentKind::properties, synth_command},
      {"solvers", "", "list the solvers and the problems they solve", {"--json"}, ArgumentKind::none,
       [](Session& s, const std::string& rest) { return cli_command(s, rest, run_solvers); }},
      {"devices", "", "list the CUDA GPUs pmc can use", {"--json"}, ArgumentKind::none,
       [](Session& s, const std::string& rest) { return cli_command(s, rest, run_devices); }},
      {"set", "SETTING [VALUE]", "change a setting (help set lists them)", {"--json"}, ArgumentKind::settings, set},
      {"show", "settings|models|result [STATES]",
       "print the settings, the loaded models, or the last check's value, bounds and variables per state",
       {"--json"}, ArgumentKind::show, show},
      {"save", "FILE [--format F]", "write the current model (.pmcb, .umb, .drn or PRISM .tra with its siblings)",
       {"--format", "--json"}, ArgumentKind::files, save},
      {"time", "on|off", "print each command's wall-clock time and each check's seconds by phase", {"--json"},
       ArgumentKind::on_off, time_command},
      {"help", "[COMMAND]", "list the commands, or explain one", {}, ArgumentKind::commands, help},
      {"quit", "", "leave the shell (also: exit, Ctrl-D)", {}, ArgumentKind::none,
       [](Session&, const std::string&) { return LineOutcome::quit; }},
  };
  return table;
}

const ReplCommand* find_repl_command(std::string_view name) {
  if (name == "exit") name = "quit";
  const auto& table = repl_commands();
  auto it = std::find_if(table.begin(), table.end(), [&](const ReplCommand& c) { return c.name == name; });
  return it == table.end() ? nullptr : &*it;
}

namespace {

// Options of the shell's own commands that the command line's table
// (commands.cpp) does not describe.
std::string repl_option_help(std::string_view command, std::string_view option) {
  if (option == "name") return "the model's name in the shell (default: the file's stem)";
  if (option == "file") return "read the properties from a PRISM .props/.pctl file";
  if (command == "save" && option == "format") return "prism, storm-explicit, drn, pmcb or umb (default: by extension)";
  return "";
}

const char* repl_example(std::string_view command) {
  static const std::pair<std::string_view, const char*> examples[] = {
      {"load", "load examples/die/die.tra"},
      {"models", "models"},
      {"use", "use die"},
      {"unload", "unload die"},
      {"release", "release"},
      {"info", "info --json"},
      {"labels", "labels"},
      {"rewards", "rewards"},
      {"check", "check P=? [ F \"six\" ]; R{\"coin_flips\"}=? [ F \"done\" ]"},
      {"synth", "synth --param ki=0.005:0.3 --param kr=0.005:0.2 --max P=? [ \"infected\" U[100,120] \"extinct\" ]"},
      {"solvers", "solvers"},
      {"devices", "devices --json"},
      {"set", "set param ki=0.02,kr=0.05"},
      {"show", "show settings"},
      {"save", "save die.pmcb"},
      {"time", "time on"},
      {"help", "help check"},
      {"quit", "quit"},
  };
  for (const auto& [name, example] : examples) {
    if (name == command) return example;
  }
  return nullptr;
}

LineOutcome help(Session& session, const std::string& rest) {
  const std::vector<std::string> words = split_command_words(rest);
  if (words.size() > 1) fail(ErrorCode::invalid_argument, "help takes at most one command name");
  if (words.empty()) {
    if (session.json) {
      nlohmann::json list = nlohmann::json::array();
      for (const ReplCommand& c : repl_commands())
        list.push_back({{"name", c.name}, {"usage", c.usage}, {"summary", c.summary}});
      session.out << nlohmann::json{{"commands", list}}.dump() << '\n';
      return LineOutcome::ok;
    }
    fmt::print(session.out, "Commands (help COMMAND for details; every command takes --json):\n");
    for (const ReplCommand& c : repl_commands()) fmt::print(session.out, "  {:<8} {}\n", c.name, c.summary);
    return LineOutcome::ok;
  }
  const ReplCommand* command = find_repl_command(words[0]);
  if (command == nullptr) fail(ErrorCode::invalid_argument, "no command {} (try `help`)", quote_for_message(words[0]));
  if (session.json) {
    session.out << nlohmann::json{{"name", command->name}, {"usage", command->usage}, {"summary", command->summary}}
                       .dump()
                << '\n';
    return LineOutcome::ok;
  }
  fmt::print(session.out, "{} {}\n  {}\n", command->name, command->usage, command->summary);
  if (!command->options.empty()) fmt::print(session.out, "Options:\n");
  for (const std::string& option : command->options) {
    const std::string name = option.substr(2);
    std::string text = option_help(command->name, {name, false, false});
    if (text.empty()) text = repl_option_help(command->name, name);
    fmt::print(session.out, "  {:<14} {}\n", option, text);
  }
  if (const char* example = repl_example(command->name); example != nullptr) {
    fmt::print(session.out, "Example:\n  {}\n", example);
  }
  if (command->name == "set") {
    std::vector<SettingSpec> all = setting_specs();
    all.insert(all.end(), k_shell_settings.begin(), k_shell_settings.end());
    fmt::print(session.out, "Settings:\n");
    for (const SettingSpec& s : all) fmt::print(session.out, "  {:<18} {:<18} {}\n", s.name, s.values, s.summary);
  }
  return LineOutcome::ok;
}

}  // namespace

std::vector<std::string> split_command_words(std::string_view text) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    if (i == text.size()) break;
    std::string word;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t') {
      const char c = text[i];
      if (c == '"' || c == '\'') {
        const size_t close = text.find(c, i + 1);
        if (close == std::string_view::npos) {
          fail(ErrorCode::invalid_argument, "unterminated {} quote in {}", c == '"' ? "double" : "single",
               quote_for_message(text, 60));
        }
        word.append(text.substr(i + 1, close - i - 1));
        i = close + 1;
      } else {
        word.push_back(c);
        ++i;
      }
    }
    words.push_back(std::move(word));
  }
  return words;
}

}  // namespace pmc::shell
