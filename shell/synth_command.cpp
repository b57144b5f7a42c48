// pmc synth --model FILE --property '...' --param k=lo:hi ... (--threshold '>=0.9' | --max | --min)
//           [--epsilon E] [--solver NAME] [--threads N] [--device I] [--gpu-memory-limit B] [--gpu-layout L]
//           [--max-regions N] [--json] [--plot FILE.svg]
#include "synth_command.hpp"

#include <unistd.h>

#include <atomic>
#include <cmath>
#include <iostream>

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include "check_commands.hpp"
#include "common/error.hpp"
#include "common/text.hpp"
#include "interrupt.hpp"
#include "model_commands.hpp"
#include "settings.hpp"
#include "synth/synthesis.hpp"
#include "synth_plot.hpp"

namespace pmc::shell {

namespace {

double number(const std::string& text, const std::string& what) {
  const std::optional<double> v = parse_finite_double(text);
  if (!v) fail(ErrorCode::invalid_argument, "{}: {} is not a finite number", what, quote_for_message(text));
  return *v;
}

uint64_t count(const std::string& text, const std::string& what) {
  const double v = number(text, what);
  if (v < 1 || v != std::floor(v) || v > 1e15) fail(ErrorCode::invalid_argument, "{} must be a positive integer", what);
  return static_cast<uint64_t>(v);
}

// name=lo:hi, or name=value to fix a parameter.
ParamRange parse_param(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0) {
    fail(ErrorCode::invalid_argument, "bad --param {}: expected NAME=LO:HI, e.g. ki=0.005:0.3",
         quote_for_message(text));
  }
  ParamRange r;
  r.name = text.substr(0, eq);
  const std::string range = text.substr(eq + 1);
  const auto colon = range.find(':');
  const std::string what = "--param " + r.name;
  if (colon == std::string::npos) {
    r.lower = r.upper = number(range, what);
  } else {
    r.lower = number(range.substr(0, colon), what);
    r.upper = number(range.substr(colon + 1), what);
  }
  return r;
}

const char* class_name(RegionClass c) { return to_string(c).data(); }

nlohmann::json synth_json(const SynthesisResult& r, const Model& model) {
  nlohmann::json regions = nlohmann::json::array();
  for (const SynthRegion& g : r.regions) {
    nlohmann::json bounds = nlohmann::json::object();
    for (size_t k = 0; k < r.parameters.size(); ++k) bounds[r.parameters[k]] = {g.lower[k], g.upper[k]};
    regions.push_back({{"parameters", bounds},
                       {"class", class_name(g.region_class)},
                       {"lower", json_number(g.value_lower)},
                       {"upper", json_number(g.value_upper)}});
  }
  nlohmann::json space = nlohmann::json::object();
  for (const ParamRange& p : r.space) space[p.name] = {p.lower, p.upper};
  uint64_t counts[4] = {0, 0, 0, 0};
  for (const SynthRegion& g : r.regions) ++counts[static_cast<int>(g.region_class)];
  nlohmann::json j = {
      {"property", r.property},
      {"mode", std::string(to_string(r.mode))},
      {"epsilon", r.epsilon},
      {"space", space},
      {"regions", regions},
      {"num_regions", r.regions.size()},
      {"true_regions", counts[0]},
      {"false_regions", counts[1]},
      {"undecided_regions", counts[2]},
      {"optimum_regions", counts[3]},
      {"regions_analysed", r.regions_analysed},
      {"iterations", r.iterations},
      {"solver", r.solver},
      {"solver_reason", r.solver_reason},
      {"converged", r.converged},
      {"seconds", r.seconds},
      {"states", model.num_states()},
      {"transitions", model.num_entries()},
  };
  if (r.mode == SynthMode::threshold) {
    j["threshold"] = fmt::format("{}{}", property::to_string(r.comparison), r.threshold);
    j["undecided_fraction"] = r.undecided_fraction;
  } else {
    j["optimum"] = {json_number(r.optimum_lower), json_number(r.optimum_upper)};
    nlohmann::json point = nlohmann::json::object();
    for (size_t k = 0; k < r.optimum_point.size() && k < r.parameters.size(); ++k) {
      point[r.parameters[k]] = r.optimum_point[k];
    }
    j["best_point"] = point;
  }
  return j;
}

void print_text(const SynthesisResult& r, std::ostream& out) {
  uint64_t counts[4] = {0, 0, 0, 0};
  for (const SynthRegion& g : r.regions) ++counts[static_cast<int>(g.region_class)];
  fmt::print(out, "{} synthesis of {}\n", to_string(r.mode), r.property);
  if (r.mode == SynthMode::threshold) {
    fmt::print(out, "  threshold {} {:g}: {} regions ({} true, {} false, {} undecided), undecided volume {:.4g}%\n",
               property::to_string(r.comparison), r.threshold, r.regions.size(), counts[0], counts[1], counts[2],
               100 * r.undecided_fraction);
  } else {
    fmt::print(out, "  {} in [{:.10g}, {:.10g}]: {} regions ({} may hold it, {} excluded)\n",
               r.mode == SynthMode::maximum ? "maximum" : "minimum", r.optimum_lower, r.optimum_upper,
               r.regions.size(), counts[3], counts[1]);
  }
  fmt::print(out, "  {} regions analysed, {} uniformisation steps, {:.3f} s, {}{}\n", r.regions_analysed,
             r.iterations, r.seconds, r.solver, r.converged ? "" : ", NOT CONVERGED (region limit reached)");
  for (const SynthRegion& g : r.regions) {
    std::string box;
    for (size_t k = 0; k < r.parameters.size(); ++k) {
      box += fmt::format("{}{}=[{:.6g}, {:.6g}]", k ? " " : "", r.parameters[k], g.lower[k], g.upper[k]);
    }
    fmt::print(out, "  {:<9} {}  value in [{:.8g}, {:.8g}]\n", class_name(g.region_class), box, g.value_lower,
               g.value_upper);
  }
}

}  // namespace

const std::vector<OptionSpec>& synth_option_specs() {
  static const std::vector<OptionSpec> specs = {
      {"param", true, true},     {"threshold", true, false}, {"max", false, false},   {"min", false, false},
      {"epsilon", true, false},  {"max-regions", true, false}, {"batch", true, false}, {"json", false, false},
      {"plot", true, false},
  };
  return specs;
}

int synthesize_and_report(const Model& model, const std::string& property, const Arguments& args,
                          SynthesisOptions options, const SynthOutput& output) {
  const int modes = args.has("threshold") + args.has("max") + args.has("min");
  if (modes > 1) fail(ErrorCode::invalid_argument, "--threshold, --max and --min exclude each other");
  if (args.has("max")) options.mode = SynthMode::maximum;
  if (args.has("min")) options.mode = SynthMode::minimum;
  if (args.has("threshold")) {
    property::Comparison c;
    parse_threshold(args.value("threshold"), c, options.threshold);
    options.comparison = c;
  }
  std::vector<ParamRange> ranges;
  for (const std::string& p : args.values("param")) ranges.push_back(parse_param(p));
  if (args.has("epsilon")) options.epsilon = number(args.value("epsilon"), "--epsilon");
  if (args.has("epsilon") && !(options.epsilon > 0)) fail(ErrorCode::invalid_argument, "--epsilon must be > 0");
  if (args.has("max-regions")) options.max_regions = count(args.value("max-regions"), "--max-regions");
  if (args.has("batch")) options.batch = count(args.value("batch"), "--batch");
  if (modes == 0) {
    // No mode flag: a bounded property (P>=0.9 [...]) means threshold synthesis.
    const std::string head = property.substr(0, property.find('['));
    if (head.find('?') != std::string::npos || head.find_first_of("<>") == std::string::npos) {
      fail(ErrorCode::invalid_argument,
           "no synthesis mode: give --threshold '>=0.9', --max or --min (or a bounded property such as P>=0.9 [...])");
    }
  }
  bool shown = false;
  if (output.progress) {
    options.progress = [&](const SynthProgress& p) {
      std::string text = fmt::format("  {} regions", p.regions);
      if (options.mode == SynthMode::threshold) {
        text += fmt::format(", undecided volume {:.3g}%", 100 * p.undecided_fraction);
      } else {
        text += fmt::format(", bounds gap {:.3g}", p.gap);
      }
      fmt::print(output.err, "\r\033[K{}, {:.1f} s  (Ctrl-C cancels)", text, p.seconds);
      output.err.flush();
      shown = true;
    };
  }
  SynthesisResult result;
  try {
    result = synthesize(model, property, ranges, options);
  } catch (...) {
    if (shown) fmt::print(output.err, "\r\033[K");
    throw;
  }
  if (shown) fmt::print(output.err, "\r\033[K");
  if (args.has("plot")) write_synthesis_svg(result, args.value("plot"));
  if (output.json || args.has("json")) {
    output.out << synth_json(result, model).dump() << '\n';
  } else {
    print_text(result, output.out);
  }
  if (!result.converged) {
    fmt::print(output.err, "{}stopped at the region limit ({} regions) before reaching epsilon {}\n",
               output.error_prefix, result.regions_analysed, result.epsilon);
    return 3;
  }
  return 0;
}

int run_synth(const Arguments& args, std::ostream& out) {
  const auto& properties = args.values("property");
  if (properties.size() != 1) fail(ErrorCode::invalid_argument, "give exactly one --property");
  SynthesisOptions options;
  if (args.has("solver")) options.solver = args.value("solver");
  if (args.has("threads")) options.settings.threads = static_cast<int>(count(args.value("threads"), "--threads"));
  if (args.has("device")) options.settings.device = static_cast<int>(number(args.value("device"), "--device"));
  // The GPU settings parse as the shell's `set` does.
  CheckOptions gpu;
  for (const char* setting : {"gpu-memory-limit", "gpu-layout", "memory-limit"}) {
    if (args.has(setting)) apply_setting(gpu, setting, args.value(setting));
  }
  options.settings.gpu_memory_limit = gpu.settings.gpu_memory_limit;
  options.settings.memory_limit = gpu.settings.memory_limit;
  options.settings.gpu_layout = gpu.settings.gpu_layout;
  ModelPtr model = load_model_from_arguments(args);
  options.settings.cancel = &command_cancel_flag();  // SIGINT, SIGTERM (run_command's CommandInterrupt)
  const SynthOutput output{out, std::cerr, false, isatty(STDERR_FILENO) != 0, "pmc synth: error: "};
  return synthesize_and_report(*model, properties[0], args, options, output);
}

}  // namespace pmc::shell
