#include "check_commands.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include "check/check.hpp"
#include "common/stopwatch.hpp"
#include "solver/device/devices.hpp"
#include "common/error.hpp"
#include "filter_report.hpp"
#include "interrupt.hpp"
#include "model_commands.hpp"
#include "progress_line.hpp"
#include "property/parser.hpp"
#include "check_inputs.hpp"
#include "session.hpp"
#include "property/definitions.hpp"
#include "property/properties_file.hpp"
#include "qvbs_results.hpp"
#include "result_export.hpp"
#include "settings.hpp"
#include "solver/registry.hpp"
#include "plural.hpp"

namespace pmc::shell {

using property::FileProperty;

namespace {

CheckOptions check_options(const Arguments& args) {
  if (args.has("relative") && args.has("absolute")) {
    fail(ErrorCode::invalid_argument, "--relative and --absolute exclude each other");
  }
  if (args.has("sound") && args.has("unsound")) {
    fail(ErrorCode::invalid_argument, "--sound and --unsound exclude each other");
  }
  CheckOptions options;
  for (const SettingSpec& spec : setting_specs()) {
    // --param is repeatable (--param ki=0.02 --param kr=0.05): every value counts.
    for (const std::string& value : args.values(spec.name)) apply_setting(options, spec.name, value);
  }
  return options;
}

}  // namespace

nlohmann::json json_number(double value) {
  if (std::isfinite(value)) return value;
  return std::isnan(value) ? "NaN" : (value > 0 ? "Infinity" : "-Infinity");
}

namespace {

// The phases in the order of pmc.h's pmc_phase, with their JSON key and
// their name in text; one table for both outputs.
struct PhaseName {
  const char* key;
  const char* text;
  double PhaseTimings::*seconds;
};

constexpr PhaseName k_phases[] = {
    {"load", "load", &PhaseTimings::load},
    {"gpu_startup", "GPU start-up", &PhaseTimings::gpu_startup},
    {"precompute", "precompute", &PhaseTimings::precompute},
    {"build", "build", &PhaseTimings::build},
    {"transfer", "transfer", &PhaseTimings::transfer},
    {"solve", "solve", &PhaseTimings::solve},
    {"other", "other", &PhaseTimings::other},
};

// "0 s" for a phase that did not happen, "<0.001 s" for one that took
// less than the millisecond the line resolves, else milliseconds.
std::string compact_seconds(double seconds) {
  if (seconds == 0) return "0 s";
  if (seconds < 0.0005) return "<0.001 s";
  return fmt::format("{:.3f} s", seconds);
}

}  // namespace

nlohmann::json timings_json(const PhaseTimings& t) {
  nlohmann::json j = nlohmann::json::object();
  for (const PhaseName& phase : k_phases) j[phase.key] = t.*phase.seconds;
  j["total"] = t.total();
  return j;
}

void print_timings_text(const PhaseTimings& t, std::ostream& out) {
  std::string line = "  timings:";
  for (const PhaseName& phase : k_phases) {
    line += fmt::format("{} {} {}", &phase == k_phases ? "" : ",", phase.text, compact_seconds(t.*phase.seconds));
  }
  fmt::print(out, "{} (total {})\n", line, compact_seconds(t.total()));
}

namespace {

bool is_range(const CheckResult& r) { return r.filter && r.filter->op == "range"; }

}  // namespace

nlohmann::json result_json(const CheckResult& r, const Model& model) {
  nlohmann::json j = {
      {"schema", k_check_json_schema},
      {"property", r.property},
      {"min_initial", json_number(r.min_initial)},
      {"max_initial", json_number(r.max_initial)},
      {"initial_states", r.num_initial},
      {"solver", r.solver_names()},
      {"solver_reason", r.solver_reason},
      {"iterations", r.iterations},
      {"converged", r.converged},
      {"seconds", r.seconds},
      // The solvers' iteration loops alone (GPU: CUDA events) and what the
      // largest solve streams per iteration: benchmarks derive GB/s from them.
      {"solve_seconds", r.solve_seconds},
      {"bytes_per_iteration", r.bytes_per_iteration},
      // Seconds by phase; "total" is "seconds" plus "load".
      {"timings", timings_json(r.timings)},
      {"states", model.num_states()},
      {"transitions", model.num_entries()},
      {"notes", r.notes},
  };
  // The largest solve's kernel variant (GPU: "warp-per-row on 2 GPUs, NCCL exchange, ...").
  if (!r.kernel.empty()) j["kernel"] = r.kernel;
  if (r.is_boolean) j["satisfied"] = r.initial_value != 0;
  j["sound"] = r.sound;
  // A bound on the outermost operator: "value" is the operator's value (and
  // "lower"/"upper" its bounds) that "satisfied" rests on. Bounds are absent
  // when not certified.
  const CheckResult::Reported reported = r.reported_initial();
  // A filter's range has two ends and no single value: they are in
  // "filter" ("low", "high" and their bounds).
  if (!is_range(r)) {
    j["value"] = json_number(reported.value);
    if (reported.certified) {
      j["lower"] = json_number(reported.lower);
      j["upper"] = json_number(reported.upper);
    }
  }
  // --exact: the rational itself ("7/10"; "Infinity" for an infinite reward).
  if (!r.exact.empty()) j["exact"] = r.exact;
  if (r.filter) j["filter"] = filter_json(*r.filter, model);
  return j;
}

namespace {

// The choice's reason without the solver's name, which the line already
// shows: "auto: cpu.gauss-seidel (no usable GPU: ...)" -> "auto: no usable GPU: ...".
std::string reason_without_solver(const CheckResult& r) {
  const std::string& reason = r.solver_reason;
  for (const std::string& solver : r.solvers) {
    if (r.solvers.size() == 1 && reason.size() > solver.size() + 2 && reason.ends_with(": " + solver)) {
      return reason.substr(0, reason.size() - solver.size() - 2);  // "cpu: cpu.steps" -> "cpu"
    }
    const size_t at = reason.find(": " + solver + " (");
    if (r.solvers.size() == 1 && at != std::string::npos && reason.back() == ')' && reason.find(';') == std::string::npos) {
      const size_t inner = at + solver.size() + 4;
      return reason.substr(0, at + 2) + reason.substr(inner, reason.size() - inner - 1);
    }
  }
  return reason;
}

}  // namespace

// A certified value with the digits its bounds justify (a value ± 1.2e-07
// shows 7 decimals, not 17); JSON keeps every digit. Without bounds, or
// exact (half-width 0), the shortest text that reads back as the double.
std::string certified_digits(double value, double half_width) {
  if (!(half_width > 0) || !std::isfinite(half_width) || !std::isfinite(value) || value == 0) {
    return fmt::format("{}", value);
  }
  const int decimals = std::clamp(static_cast<int>(std::ceil(-std::log10(half_width))), 0, 17);
  if (std::fabs(value) >= 1e-4 || std::fabs(value) < half_width) return fmt::format("{:.{}f}", value, decimals);
  // Small values: significant digits down to the half-width's place.
  const int significant = std::clamp(
      static_cast<int>(std::floor(std::log10(std::fabs(value))) - std::floor(std::log10(half_width))) + 1, 1, 17);
  return fmt::format("{:.{}e}", value, significant - 1);
}

void print_value(const CheckResult::Reported& v, std::ostream& out) {
  if (!v.certified || !std::isfinite(v.value)) {
    fmt::print(out, "{}", v.value);
    return;
  }
  // value ± half-width: the exact value lies within (certified).
  const double half_width = std::max(v.upper - v.value, v.value - v.lower);
  fmt::print(out, "{} ± {:.2g}", certified_digits(v.value, half_width), half_width);
}

void print_result_text(const CheckResult& r, const Model& model, std::ostream& out) {
  if (is_range(r)) {
    fmt::print(out, "{}: {}", r.property, filter_range_text(*r.filter));
  } else if (r.is_boolean) {
    fmt::print(out, "{}: {}", r.property, r.initial_value != 0 ? "true" : "false");
    // The value the verdict rests on, as PRISM and Storm show it.
    if (!r.exact.empty()) {
      fmt::print(out, " (value {}, exact)", r.exact);
    } else if (!r.operator_values.empty()) {
      fmt::print(out, " (value ");
      print_value(r.reported_initial(), out);
      fmt::print(out, ")");
    }
  } else if (!r.exact.empty()) {
    fmt::print(out, "{}: {} (exact; ≈ {})", r.property, r.exact, r.initial_value);
  } else {
    fmt::print(out, "{}: ", r.property);
    print_value(r.reported_initial(), out);
  }
  // A filter's value is the same in every state, but for print and
  // printall's, which stay the formula's.
  const bool per_state = !r.filter || r.filter->op == "print" || r.filter->op == "printall";
  if (r.num_initial > 1 && per_state) {
    fmt::print(out, " (initial states: {}, min {}, max {})", r.num_initial, r.min_initial, r.max_initial);
  }
  const std::string reason = reason_without_solver(r);
  if (r.solvers.empty()) {
    // The graph precomputation (probability 0/1, reachability) decided every state.
    fmt::print(out, "\n  no solver needed: decided by graph analysis, {:.3f} s{}{}\n", r.seconds,
               r.sound ? "" : ", not certified", reason.empty() ? "" : " (" + reason + ")");
  } else {
    fmt::print(out, "\n  {}, {}, {:.3f} s{}{}{}\n", r.solver_names(), plural(r.iterations, "iteration"), r.seconds,
               r.converged ? "" : ", NOT CONVERGED", r.sound ? "" : ", not certified",
               reason.empty() ? "" : " (" + reason + ")");
  }
  // What the user should know of a converged result ("stationary after 56
  // of 99999999999910 steps", a fallback to the host); a result that did
  // not converge gets its notes with the error on stderr.
  if (r.converged) {
    for (const std::string& note : r.notes) fmt::print(out, "  note: {}\n", note);
  }
  if (r.filter) print_filter_text(*r.filter, model, out);
}


namespace {

// Model files from this size on (~200K text transitions, ~800K gzipped)
// have problems `auto` may give the GPU (solver/device/cost_model.hpp):
// CUDA starts in the background while they load.
constexpr uint64_t k_background_start_file_bytes = 4u << 20;
// The same size as transitions, for a model whose files said nothing of its
// size (a PRISM-language source of 4 KB builds leader_async N7's 7.7M
// transitions): CUDA then starts once the model is built, overlapping the
// check's host precomputation (measured 0.30–0.38 s of start-up otherwise
// paid in full, bench/NOTES.md).
constexpr uint64_t k_background_start_transitions = 200000;

bool may_use_gpu(const std::string& solver) { return !(solver == "cpu" || solver.rfind("cpu.", 0) == 0); }

// Whether a property of the list solves unbounded reachability (one that
// does not parse needs nothing): the work that makes a large model's GPU
// worth starting while it loads. Step- and time-bounded ones are left to
// auto's hand-over: they often end before CUDA would be up (a stationary
// iterate stops them). Long-run ones (S, R[S]) solve stationary
// distributions on the CPU. A process that started CUDA pays for it at its
// end too: ~0.15 s to tear the context down (H200), 20-60 ms when the
// start was still under way.
bool any_unbounded_reachability(const std::vector<FileProperty>& properties) {
  for (const FileProperty& p : properties) {
    try {
      if (property::parse_property(p.text).needs_unbounded_reachability()) return true;
    } catch (const Error&) {
    }
  }
  return false;
}

// --model and the positional arguments, but for a properties file given
// among them (check_inputs.hpp).
std::vector<std::string> model_paths(const Arguments& args) {
  std::vector<std::string> paths;
  for (const std::string& p : args.values("model")) {
    if (!is_properties_file_name(p)) paths.push_back(p);
  }
  for (const std::string& p : args.positional()) {
    if (!is_properties_file_name(p)) paths.push_back(p);
  }
  return paths;
}

// A model "file" that does not exist and reads like a property: what a
// property given without --property becomes.
bool looks_like_property(const std::string& path) {
  std::error_code error;
  if (std::filesystem::exists(path, error)) return false;
  return path.find("=?") != std::string::npos || path.find('[') != std::string::npos;
}

uint64_t model_file_bytes(const Arguments& args) {
  uint64_t total = 0;
  for (const std::string& p : model_paths(args)) {
    std::error_code error;
    const uintmax_t size = std::filesystem::file_size(p, error);
    if (!error) total += size;
  }
  return total;
}

// The JSON record of a property that has no result: its text (and name),
// the error and its code, so that `--json` writes one record per property.
nlohmann::json failure_json(const FileProperty& property, const Error& error, const Model* model) {
  nlohmann::json j = {{"schema", k_check_json_schema},
                      {"property", property.text},
                      {"error", error.what()},
                      {"error_code", error_code_name(error.code())}};
  if (!property.name.empty()) j["name"] = property.name;
  if (model != nullptr && !model->warnings().empty()) j["warnings"] = model->warnings();
  return j;
}

int error_status(const Error& e) { return e.code() == ErrorCode::invalid_argument ? 2 : 1; }

// --export-results' format, checked before the model loads: a typo is a
// usage error at once, not after a long exploration. Empty without
// --export-results.
std::optional<ResultsFormat> export_format(const Arguments& args) {
  // --format is the model's; a results format there is a slip worth naming.
  const std::string model_format = args.value("format");
  if (model_format == "qvbs" || model_format == "csv" || model_format == "tsv") {
    fail(ErrorCode::invalid_argument,
         "--format {} names the model's format; the results' format is --export-format {} (with --export-results FILE)",
         model_format, model_format);
  }
  if (!args.has("export-results")) {
    if (args.has("export-format")) fail(ErrorCode::invalid_argument, "--export-format needs --export-results FILE");
    return std::nullopt;
  }
  if (args.has("export-format")) return results_format_named(args.value("export-format"));
  return results_format_for_file(args.value("export-results"));
}

// "N=16,T=5": the run's single values, the model's and the properties'
// (a range's values are in each result's record instead).
std::string single_constant_values(const ConstantPlan& constants) {
  std::string text = constants.model;
  for (const expression::ConstantAssignment& a : constants.fixed) {
    text += fmt::format("{}{}={}", text.empty() ? "" : ",", a.name, a.value);
  }
  return text;
}

std::unique_ptr<ResultsExport> open_results_export(const Arguments& args, ResultsFormat format, const Model& model,
                                                   const ConstantPlan& constants, double load_seconds,
                                                   std::chrono::steady_clock::time_point start) {
  const std::string path = args.value("export-results");
  if (format != ResultsFormat::qvbs) return std::make_unique<ResultsTable>(path, format);
  QvbsRun run;
  run.command = shell_command_line("pmc check", args.words());
  const std::vector<std::string> models = model_paths(args);
  run.model_file = models.empty() ? "" : models.front();
  run.constants = single_constant_values(constants);
  run.start = start;
  run.exploration_seconds = load_seconds;
  run.states = model.num_states();
  run.transitions = model.num_entries();
  run.choices = model.num_rows();
  run.nondeterministic = model.type() == ModelType::mdp;
  return std::make_unique<QvbsResults>(path, std::move(run));
}

}  // namespace

nlohmann::json constants_json(const std::vector<property::ConstantValue>& constants) {
  nlohmann::json j = nlohmann::json::object();
  for (const property::ConstantValue& c : constants) {
    if (!c.value) continue;
    switch (c.type) {
      case expression::ValueType::boolean: j[c.name] = *c.value != 0; break;
      case expression::ValueType::integer: j[c.name] = static_cast<int64_t>(*c.value); break;
      case expression::ValueType::real: j[c.name] = *c.value; break;
    }
  }
  return j;
}

namespace {

// The first line of a table of results over a range: the property, and
// the constants that keep one value in every row.
void print_table_header(const FileProperty& property, const std::vector<PropertyRun>& runs, std::ostream& out) {
  std::string text = property.text;
  try {
    text = property::to_string(property::parse_property(property.text));
  } catch (const Error&) {
    // shown as written; each row says why it fails
  }
  if (!property.name.empty()) text = fmt::format("\"{}\": {}", property.name, text);
  std::vector<property::ConstantValue> fixed;
  for (size_t i = 0; i < runs.front().used.size(); ++i) {
    const property::ConstantValue& c = runs.front().used[i];
    const bool same = std::all_of(runs.begin(), runs.end(), [&](const PropertyRun& r) { return r.used[i].value == c.value; });
    if (same) fixed.push_back(c);
  }
  fmt::print(out, "{}{}\n", text, fixed.empty() ? "" : " with " + property::describe_constants(fixed));
}

// One row: the range's values, the value, how it was computed. A filter's
// row shows its value only; its details are in --json.
void print_table_row(const CheckResult& r, const PropertyRun& run, std::ostream& out) {
  std::ostringstream value;
  if (is_range(r)) {
    value << filter_range_text(*r.filter);
  } else if (r.is_boolean) {
    value << (r.initial_value != 0 ? "true" : "false");
    if (!r.operator_values.empty()) {
      value << " (value ";
      print_value(r.reported_initial(), value);
      value << ")";
    }
  } else {
    print_value(r.reported_initial(), value);
  }
  const std::string how = r.solvers.empty() ? "no solver needed" : fmt::format("{}, {}", r.solver_names(), plural(r.iterations, "iteration"));
  fmt::print(out, "  {}: {}  ({}, {:.3f} s{}{})\n", describe_values(run.values), value.str(), how, r.seconds,
             r.converged ? "" : ", NOT CONVERGED", r.sound ? "" : ", not certified");
}

}  // namespace

int run_check(const Arguments& args, std::ostream& out) {
  const auto command_start = std::chrono::steady_clock::now();
  const std::optional<ResultsFormat> export_as = export_format(args);
  // --property texts first, then the file's (named ones keep their name);
  // or the file's properties that --property selects.
  PropertySelection selection = select_properties(args);
  const std::vector<FileProperty>& properties = selection.properties;
  if (model_paths(args).empty()) {
    const std::string file = properties_file_argument(args);
    fail(ErrorCode::invalid_argument, "no model given (use --model FILE...){}",
         file.empty() ? "" : fmt::format("; {} is a properties file", file));
  }
  if (properties.empty()) {
    // A property given without --property lands among the model files.
    for (const std::string& path : model_paths(args)) {
      if (looks_like_property(path)) {
        fail(ErrorCode::invalid_argument,
             "no property given: {} is not a file but looks like a property; give it with --property {}",
             quote_for_message(path, 60), quote_for_message(path, 60));
      }
    }
    fail(ErrorCode::invalid_argument,
         "no property given (use --property 'P=? [ F \"goal\" ]' or --property-file FILE.props)");
  }
  CheckOptions options = check_options(args);
  options.settings.cancel = &command_cancel_flag();
  const bool json = args.has("json");
  const bool stats = args.has("stats");
  // On a terminal a live line; elsewhere a line every 10 s of a long solve
  // or exploration, every second with --progress.
  ProgressLine progress(std::cerr, isatty(STDERR_FILENO) ? ProgressLine::Mode::live : ProgressLine::Mode::periodic,
                        args.has("progress") ? 1.0 : 10.0);
  options.settings.progress = [&](const SolveProgress& p) { progress.show(p); };
  const auto load_start = std::chrono::steady_clock::now();
  const bool start_early = may_use_gpu(options.solver) && (options.solver != "auto" || any_unbounded_reachability(properties));
  if (start_early && model_file_bytes(args) >= k_background_start_file_bytes) {
    start_device_discovery();  // CUDA's start-up overlaps parsing
  }
  ModelPtr model;
  ConstantPlan constants;
  try {
    if (args.has("const") && args.value("const").empty()) {
      fail(ErrorCode::invalid_argument, "--const needs NAME=VALUE[,NAME=VALUE...]");
    }
    constants = plan_constants(args.value("const"), declared_model_constants(model_paths(args), args.value("format")),
                               selection.file ? &*selection.file : nullptr);
    model = load_model_from_arguments(args, &progress, constants.model);
  } catch (const Error& e) {
    // Every property fails with the model: in JSON, a record for each.
    if (json) {
      for (const FileProperty& property : properties) out << failure_json(property, e, nullptr).dump() << '\n';
      out.flush();
    }
    throw;
  }
  // What the load fixed (deadlocks given self-loops, as PRISM does) is said
  // once: on stderr in text, in each record in JSON.
  if (!json) {
    for (const std::string& warning : model->warnings()) fmt::print(std::cerr, "pmc check: warning: {}\n", warning);
  }
  if (start_early && model->num_entries() >= k_background_start_transitions) {
    start_device_discovery();  // no-op when started above
  }
  // Every run's constants are evaluated before anything is checked: a value
  // of the wrong type is an error of the command, not of one result.
  std::vector<std::vector<PropertyRun>> runs;
  for (const FileProperty& property : properties) {
    runs.push_back(property_runs(property, selection, constants, *model));
    if (runs.back().size() > 1 && (args.has("scheduler") || args.has("export-vector"))) {
      fail(ErrorCode::invalid_argument, "--scheduler and --export-vector write one file per property; {} runs once "
           "per value of a range of --const: give one value", quote_for_message(property.text, 60));
    }
  }
  // The model is loaded once for all properties: its time goes to the first
  // result only (the later ones report load 0), so that summing the results'
  // timings counts it once. The first result is that of the first property
  // that gives one: a property that fails has no result to carry it.
  double load_seconds = seconds_since(load_start);
  std::unique_ptr<ResultsExport> results_export;
  if (export_as) results_export = open_results_export(args, *export_as, *model, constants, load_seconds, command_start);
  int status = 0;
  for (size_t k = 0; k < properties.size(); ++k) {
    const FileProperty& property = properties[k];
    const std::string& text = property.text;
    // A range of constants: a table, one row per value.
    const bool table = !runs[k].front().values.empty();
    if (table && !json) print_table_header(property, runs[k], out);
    for (size_t r = 0; r < runs[k].size(); ++r) {
      const PropertyRun& run = runs[k][r];
      options.definitions = run.definitions;
      const std::string values = describe_values(run.values);
      try {
        if (!property.error.empty()) fail(ErrorCode::unsupported, "{}", property.error);
        CheckResult result = check(*model, text, options);
        result.timings.load = load_seconds;
        load_seconds = 0;
        progress.clear();
        const std::string canonical = result.property;
        if (json) {
          nlohmann::json j = result_json(result, *model);
          if (!property.name.empty()) j["name"] = property.name;
          if (!run.used.empty()) j["constants"] = constants_json(run.used);
          if (!model->warnings().empty()) j["warnings"] = model->warnings();
          out << j.dump() << '\n';  // the timings are in it: --stats adds nothing
        } else if (table) {
          print_table_row(result, run, out);
          if (stats) print_timings_text(result.timings, out);
        } else {
          // A named property shows as PRISM writes it: "name": P=? [...]
          if (!property.name.empty()) result.property = fmt::format("\"{}\": {}", property.name, result.property);
          print_result_text(result, *model, out);
          if (!run.used.empty()) fmt::print(out, "  constants: {}\n", property::describe_constants(run.used));
          if (stats) print_timings_text(result.timings, out);
        }
        // Each result reaches its reader as soon as it is known: a command
        // cancelled or killed later loses none.
        out.flush();
        // Then the files: one that cannot be written loses the file, not the
        // printed result (and the property keeps its one JSON record).
        result.property = canonical;
        try {
          // With several properties, those without a scheduler (a bounded
          // one, a DTMC's) write none; alone, that is an error.
          if (args.has("scheduler") && (!result.scheduler.empty() || properties.size() == 1)) {
            write_scheduler(file_for_property(args.value("scheduler"), k, properties.size(), property.name), result,
                            *model);
          }
          if (args.has("export-vector")) {
            write_vector_file(file_for_property(args.value("export-vector"), k, properties.size(), property.name),
                              result, *model);
          }
          if (results_export) results_export->add(property.name, result, run.used);
        } catch (const Error& e) {
          fmt::print(std::cerr, "pmc check: error: {}: {}\n", quote_for_message(canonical, 80), e.what());
          status = std::max(status, error_status(e));
        }
        if (!result.converged) {
          fmt::print(std::cerr, "pmc check: error: {}{}: did not converge", result.property,
                     values.empty() ? "" : " with " + values);
          for (const std::string& n : result.notes) fmt::print(std::cerr, "; {}", n);
          fmt::print(std::cerr, "\n");
          status = std::max(status, 3);
        }
      } catch (const Error& e) {
        progress.clear();
        if (e.code() == ErrorCode::cancelled) {
          // This property and the ones not begun get their records; the
          // caller says "cancelled" and picks the status.
          if (json) {
            for (size_t rest = k; rest < properties.size(); ++rest) {
              out << failure_json(properties[rest], e, model.get()).dump() << '\n';
            }
          }
          throw;
        }
        // One bad property does not stop the others; the exit status reports it.
        if (results_export) {
          try {
            results_export->add_failure(property.name, text, e.what(), run.used);
          } catch (const Error& write_error) {  // the file is lost, not the other properties
            fmt::print(std::cerr, "pmc check: error: {}\n", write_error.what());
            status = std::max(status, 1);
          }
        }
        if (json) {
          nlohmann::json j = failure_json(property, e, model.get());
          if (!run.used.empty()) j["constants"] = constants_json(run.used);
          out << j.dump() << '\n';
        } else if (table) {
          fmt::print(out, "  {}: error: {}\n", values, first_line(e.what()));
        }
        out.flush();
        fmt::print(std::cerr, "pmc check: error: {}{}: {}\n",
                   property.name.empty() ? quote_for_message(text, 80) : fmt::format("\"{}\"", property.name),
                   values.empty() ? "" : " with " + values, e.what());
        status = std::max(status, error_status(e));
      }
    }
  }
  out.flush();
  return status;
}

int run_solvers(const Arguments& args, std::ostream& out) {
  nlohmann::json list = nlohmann::json::array();
  size_t width = 0;  // the names' column
  for (const SolverEntry& s : solver_registry()) width = std::max(width, s.name.size());
  for (const SolverEntry& s : solver_registry()) {
    std::vector<std::string> problems;
    for (ProblemKind kind : {ProblemKind::linear_system, ProblemKind::stationary, ProblemKind::bounded_steps,
                             ProblemKind::min_max, ProblemKind::min_max_steps, ProblemKind::param_bounds,
                             ProblemKind::reachability}) {
      if (s.solves(kind)) problems.emplace_back(to_string(kind));
    }
    if (args.has("json")) {
      list.push_back({{"name", s.name}, {"device", s.device == DeviceKind::cpu ? "cpu" : "gpu"},
                      {"problems", problems}, {"summary", s.summary}});
    } else {
      std::string joined;
      for (const auto& p : problems) joined += (joined.empty() ? "" : ", ") + p;
      fmt::print(out, "{:<{}} {}\n{:<{}} solves: {}\n", s.name, width, s.summary, "", width, joined);
    }
  }
  // The exact solver answers whole queries, no registry problem kind.
  if (args.has("json")) {
    list.push_back({{"name", k_exact_solver}, {"device", "cpu"}, {"problems", {"exact"}},
                    {"summary", k_exact_solver_summary}});
    out << list.dump() << '\n';
  } else {
    fmt::print(out, "{:<{}} {}\n{:<{}} solves: exact queries\n", k_exact_solver, width, k_exact_solver_summary, "", width);
  }
  return 0;
}

}  // namespace pmc::shell
