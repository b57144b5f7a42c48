#include "check_commands.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <iostream>
#include <ostream>

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include "check/check.hpp"
#include "common/error.hpp"
#include "model_commands.hpp"
#include "solver/registry.hpp"

namespace pmc::shell {

namespace {

double parse_number(const std::string& option, const std::string& text) {
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    fail(ErrorCode::invalid_argument, "--{}: {} is not a number", option, quote_for_message(text));
  }
  return value;
}

// "4096", "64K", "512M", "2G" (powers of 1024).
uint64_t parse_byte_size(const std::string& option, const std::string& text) {
  std::string digits = text;
  double scale = 1;
  if (!digits.empty()) {
    switch (digits.back()) {
      case 'K': case 'k': scale = 1024.0; break;
      case 'M': case 'm': scale = 1024.0 * 1024; break;
      case 'G': case 'g': scale = 1024.0 * 1024 * 1024; break;
      default: break;
    }
    if (scale != 1) digits.pop_back();
  }
  double value = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || !(value >= 0) ||
      value * scale > 1e18) {
    fail(ErrorCode::invalid_argument, "--{}: {} is not a size in bytes (e.g. 4096, 64K, 512M, 2G)", option,
         quote_for_message(text));
  }
  return static_cast<uint64_t>(value * scale);
}

CheckOptions check_options(const Arguments& args) {
  CheckOptions options;
  options.solver = args.value("solver", "auto");
  validate_solver_choice(options.solver);
  if (args.has("epsilon")) {
    options.settings.epsilon = parse_number("epsilon", args.value("epsilon"));
    if (!(options.settings.epsilon > 0 && options.settings.epsilon < 1)) {
      fail(ErrorCode::invalid_argument, "--epsilon must be in (0, 1), not {}", args.value("epsilon"));
    }
  }
  if (args.has("relative") && args.has("absolute")) {
    fail(ErrorCode::invalid_argument, "--relative and --absolute exclude each other");
  }
  options.settings.relative = !args.has("absolute");
  if (args.has("max-iterations")) {
    const double limit = parse_number("max-iterations", args.value("max-iterations"));
    if (limit < 1 || limit != std::floor(limit)) {
      fail(ErrorCode::invalid_argument, "--max-iterations must be a positive integer, not {}",
           args.value("max-iterations"));
    }
    options.settings.max_iterations = static_cast<uint64_t>(limit);
  }
  if (args.has("threads")) {
    const double threads = parse_number("threads", args.value("threads"));
    if (threads < 0 || threads > 4096 || threads != std::floor(threads)) {
      fail(ErrorCode::invalid_argument, "--threads must be an integer in [0, 4096], not {}", args.value("threads"));
    }
    options.settings.threads = static_cast<int>(threads);
  }
  if (args.has("device")) {
    const double device = parse_number("device", args.value("device"));
    if (device < 0 || device > 1024 || device != std::floor(device)) {
      fail(ErrorCode::invalid_argument, "--device must be a device index (see `pmc devices`), not {}", args.value("device"));
    }
    options.settings.device = static_cast<int>(device);
  }
  if (args.has("gpu-memory-limit")) {
    options.settings.gpu_memory_limit = parse_byte_size("gpu-memory-limit", args.value("gpu-memory-limit"));
  }
  return options;
}

nlohmann::json json_number(double value) {
  if (std::isfinite(value)) return value;
  return std::isnan(value) ? "NaN" : (value > 0 ? "Infinity" : "-Infinity");
}

nlohmann::json result_json(const CheckResult& r, const Model& model) {
  nlohmann::json j = {
      {"property", r.property},
      {"value", json_number(r.initial_value)},
      {"min_initial", json_number(r.min_initial)},
      {"max_initial", json_number(r.max_initial)},
      {"initial_states", r.num_initial},
      {"solver", r.solver_names()},
      {"solver_reason", r.solver_reason},
      {"iterations", r.iterations},
      {"converged", r.converged},
      {"seconds", r.seconds},
      {"states", model.num_states()},
      {"transitions", model.num_entries()},
      {"notes", r.notes},
  };
  if (r.is_boolean) j["satisfied"] = r.initial_value != 0;
  if (!r.lower.empty()) {
    j["lower"] = json_number(r.initial_lower);
    j["upper"] = json_number(r.initial_upper);
  }
  return j;
}

void print_result_text(const CheckResult& r, std::ostream& out) {
  if (r.is_boolean) {
    fmt::print(out, "{}: {}", r.property, r.initial_value != 0 ? "true" : "false");
  } else {
    fmt::print(out, "{}: {}", r.property, r.initial_value);
  }
  if (r.num_initial > 1) fmt::print(out, " (initial states: {}, min {}, max {})", r.num_initial, r.min_initial, r.max_initial);
  if (!r.lower.empty()) fmt::print(out, " (sound bounds [{}, {}])", r.initial_lower, r.initial_upper);
  fmt::print(out, "\n  solver {} ({}), {} iterations, {:.3f} s{}\n", r.solver_names(), r.solver_reason, r.iterations,
             r.seconds, r.converged ? "" : ", NOT CONVERGED");
}

// One line per state: "state choice action" (choice 0-based within the
// state; -1 where every choice is optimal; action "-" when unnamed).
void write_scheduler(const std::string& path, const CheckResult& r, const Model& model) {
  if (r.scheduler.empty()) {
    fail(ErrorCode::unsupported, "{} has no scheduler to write (only MDP properties over F, U and R[F] have one)",
         r.property);
  }
  std::ofstream out(path);
  if (!out) fail(ErrorCode::io, "{}: cannot open for writing", path);
  fmt::print(out, "# scheduler for {}\n# state choice action (choice -1: any choice is optimal)\n", r.property);
  const bool actions = !model.entry_actions().empty();
  for (uint64_t s = 0; s < r.scheduler.size(); ++s) {
    std::string action = "-";
    if (actions && r.scheduler[s] >= 0) {
      const uint64_t row = model.row_groups()[s] + static_cast<uint64_t>(r.scheduler[s]);
      const uint32_t a = model.entry_actions()[model.row_offsets()[row]];
      if (a != 0) action = model.action_names()[a];
    }
    fmt::print(out, "{} {} {}\n", s, r.scheduler[s], action);
  }
  out.close();
  if (!out) fail(ErrorCode::io, "{}: write failed", path);
}

}  // namespace

int run_check(const Arguments& args, std::ostream& out) {
  const auto& properties = args.values("property");
  if (properties.empty()) fail(ErrorCode::invalid_argument, "no property given (use --property 'P=? [ F \"goal\" ]')");
  const CheckOptions options = check_options(args);
  ModelPtr model = load_model_from_arguments(args);
  const bool json = args.has("json");
  int status = 0;
  for (const std::string& text : properties) {
    try {
      CheckResult result = check(*model, text, options);
      if (args.has("scheduler")) write_scheduler(args.value("scheduler"), result, *model);
      if (json) {
        out << result_json(result, *model).dump() << '\n';
      } else {
        print_result_text(result, out);
      }
      if (!result.converged) {
        fmt::print(std::cerr, "pmc check: error: {}: did not converge", result.property);
        for (const std::string& n : result.notes) fmt::print(std::cerr, "; {}", n);
        fmt::print(std::cerr, "\n");
        status = std::max(status, 3);
      }
    } catch (const Error& e) {
      // One bad property does not stop the others; the exit status reports it.
      fmt::print(std::cerr, "pmc check: error: {}: {}\n", quote_for_message(text, 80), e.what());
      status = std::max(status, e.code() == ErrorCode::invalid_argument ? 2 : 1);
    }
  }
  out.flush();
  return status;
}

int run_solvers(const Arguments& args, std::ostream& out) {
  nlohmann::json list = nlohmann::json::array();
  for (const SolverEntry& s : solver_registry()) {
    std::vector<std::string> problems;
    for (ProblemKind kind : {ProblemKind::linear_system, ProblemKind::stationary, ProblemKind::bounded_steps,
                             ProblemKind::min_max, ProblemKind::min_max_steps}) {
      if (s.solves(kind)) problems.emplace_back(to_string(kind));
    }
    if (args.has("json")) {
      list.push_back({{"name", s.name}, {"device", s.device == DeviceKind::cpu ? "cpu" : "gpu"},
                      {"problems", problems}, {"summary", s.summary}});
    } else {
      std::string joined;
      for (const auto& p : problems) joined += (joined.empty() ? "" : ", ") + p;
      fmt::print(out, "{:<18} {}\n{:<18} solves: {}\n", s.name, s.summary, "", joined);
    }
  }
  if (args.has("json")) out << list.dump() << '\n';
  return 0;
}

}  // namespace pmc::shell
