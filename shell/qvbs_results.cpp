#include "qvbs_results.hpp"

#include <cmath>
#include <ctime>
#include <fstream>
#include <utility>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/stopwatch.hpp"
#include "expression/constant_assignments.hpp"
#include "system_description.hpp"

namespace pmc::shell {

namespace {

std::string today() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char text[16];
  std::strftime(text, sizeof text, "%Y-%m-%d", &local);
  return text;
}

nlohmann::ordered_json qvbs_number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "∞" : "-∞";
  return v;
}

// A parameter's value as JSON: 3 and 0.5 as numbers, true/false as
// booleans, the rest (an expression) as text.
nlohmann::ordered_json parameter_value(const std::string& text) {
  if (text == "true") return true;
  if (text == "false") return false;
  if (!text.empty()) {
    size_t used = 0;
    try {
      if (text.find_first_of(".eE") == std::string::npos) {
        const long long integer = std::stoll(text, &used);
        if (used == text.size()) return integer;
      }
      const double real = std::stod(text, &used);
      if (used == text.size() && std::isfinite(real)) return real;
    } catch (const std::exception&) {
      // Not a number: kept as text below.
    }
  }
  return text;
}

}  // namespace

nlohmann::ordered_json qvbs_value(const CheckResult& r) {
  // A bound's verdict is what the property asks for; its operator's value
  // goes with the bounds in "values".
  if (r.is_boolean) return r.initial_value != 0;
  return qvbs_number(r.reported_initial().value);
}

nlohmann::ordered_json qvbs_parameter_values(const std::string& constants) {
  nlohmann::ordered_json values = nlohmann::ordered_json::array();
  for (const expression::ConstantAssignment& a : expression::parse_constant_assignments(constants)) {
    values.push_back({{"name", a.name}, {"value", parameter_value(a.value)}});
  }
  return values;
}

nlohmann::ordered_json qvbs_constant_values(const std::vector<property::ConstantValue>& constants) {
  nlohmann::ordered_json values = nlohmann::ordered_json::array();
  for (const property::ConstantValue& c : constants) {
    if (!c.value) continue;
    nlohmann::ordered_json value;
    switch (c.type) {
      case expression::ValueType::boolean: value = *c.value != 0; break;
      case expression::ValueType::integer: value = static_cast<int64_t>(*c.value); break;
      case expression::ValueType::real: value = *c.value; break;
    }
    values.push_back({{"name", c.name}, {"value", std::move(value)}});
  }
  return values;
}

double qvbs_seconds(double seconds) { return std::round(seconds * 1000.0) / 1000.0; }

QvbsResults::QvbsResults(const std::string& path, QvbsRun run) : path_(path), run_(std::move(run)) {
  // Checked here, before any property runs: a bad --const is reported by the
  // model's load already, so this only fails for what the load accepted.
  qvbs_parameter_values(run_.constants);
  write();  // the file exists (with the state space) even if every property fails
}

void QvbsResults::add(const std::string& name, const CheckResult& r,
                      const std::vector<property::ConstantValue>& constants) {
  const std::string property = name.empty() ? r.property : name;
  const double seconds = qvbs_seconds(r.seconds);
  property_times_.push_back({{"name", property}, {"time", seconds}});
  nlohmann::ordered_json values = nlohmann::ordered_json::array({{{"name", "time"}, {"unit", "s"}, {"value", seconds}}});
  const CheckResult::Reported reported = r.reported_initial();
  if (r.is_boolean && !r.operator_values.empty()) values.push_back({{"name", "value"}, {"value", qvbs_number(reported.value)}});
  if (reported.certified) {
    // As mcsta writes them: "[lower, upper]", full precision.
    values.push_back({{"name", "bounds"}, {"value", fmt::format("[{}, {}]", reported.lower, reported.upper)}});
  }
  values.push_back({{"name", "solver"}, {"value", r.solver_names().empty() ? "graph analysis" : r.solver_names()}});
  values.push_back({{"name", "iterations"}, {"value", r.iterations}});
  if (!r.converged) values.push_back({{"name", "converged"}, {"value", false}});
  nlohmann::ordered_json entry = {{"property", property}};
  if (!constants.empty()) entry["parameter-values"] = qvbs_constant_values(constants);
  entry["value"] = qvbs_value(r);
  entry["values"] = std::move(values);
  data_.push_back(std::move(entry));
  write();
}

void QvbsResults::add_failure(const std::string& name, const std::string& property, const std::string& error,
                              const std::vector<property::ConstantValue>& constants) {
  nlohmann::ordered_json entry = {{"property", name.empty() ? property : name}};
  if (!constants.empty()) entry["parameter-values"] = qvbs_constant_values(constants);
  entry["error"] = error;
  errors_.push_back(std::move(entry));
  write();
}

void QvbsResults::write() {
  const SystemDescription system = describe_system();
  nlohmann::ordered_json exploration = nlohmann::ordered_json::array({
      {{"name", "time"}, {"unit", "s"}, {"value", qvbs_seconds(run_.exploration_seconds)}},
      {{"name", "states"}, {"value", run_.states}},
      {{"name", "transitions"}, {"value", run_.transitions}},
  });
  if (run_.nondeterministic) exploration.push_back({{"name", "choices"}, {"value", run_.choices}});
  nlohmann::ordered_json data = nlohmann::ordered_json::array({{{"group", "State space exploration"}, {"values", exploration}}});
  for (const nlohmann::ordered_json& entry : data_) data.push_back(entry);
  nlohmann::ordered_json file = {
      {"file", run_.model_file},
      {"date", today()},
      {"open-parameter-values", qvbs_parameter_values(run_.constants)},
      {"tool", {{"name", "pmc"}, {"version", PMC_PROJECT_VERSION}}},
      {"system", {{"cpu", system.cpu}, {"ram", system.ram_gib}, {"os", system.os}, {"runtime", system.runtime}}},
      {"command", run_.command},
      {"time", qvbs_seconds(seconds_since(run_.start))},
      {"memory", peak_memory_bytes()},
      {"property-times", property_times_},
      {"data", std::move(data)},
  };
  if (!errors_.empty()) file["errors"] = errors_;
  std::ofstream out(path_);
  if (!out) fail(ErrorCode::io, "{}: cannot open for writing", path_);
  // Tabs, as QVBS's contributor guide asks of its results files.
  out << file.dump(1, '\t') << '\n';
  if (!out) fail(ErrorCode::io, "{}: write failed", path_);
}

}  // namespace pmc::shell
