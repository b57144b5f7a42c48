// `pmc check --export-results FILE --export-format qvbs`: the run as a
// results file of the Quantitative Verification Benchmark Set (QVBS,
// qcomp.org), with the fields its results files have: "file", "date",
// "open-parameter-values", "tool" {name, version}, "system" {cpu, ram, os,
// runtime}, "command", "time", "memory", "property-times" and "data" (the
// state-space group, then one entry per property with its "value" and
// "values": time, and bounds where certified). What pmc cannot know (the
// benchmark's "version", "submitter", "log") is left for the submitter to
// add. Properties that failed are listed under "errors" {property, error}
// (pmc's addition; absent when none failed). A result computed with
// properties' constants carries them as its entry's "parameter-values"
// (pmc's addition: a --const range gives one entry per value, and
// "open-parameter-values" lists the single values only).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "result_export.hpp"

namespace pmc::shell {

// What the command knew before its first property: how it was run and the
// model it built.
struct QvbsRun {
  std::string command;    // the command line, shell-quoted
  std::string model_file; // the first model file as given
  std::string constants;  // --const's single values, "N=3,K=2" ("" when none; ranges are per entry)
  std::chrono::steady_clock::time_point start;  // when the command began
  double exploration_seconds = 0;  // loading (or exploring) the model
  uint64_t states = 0, transitions = 0, choices = 0;
  bool nondeterministic = false;  // an MDP: "choices" is reported
};

// The whole file is rewritten as each result arrives, so that a cancelled
// command leaves a valid file with the results it computed; the last write
// has the final "time" and "memory".
class QvbsResults final : public ResultsExport {
 public:
  QvbsResults(const std::string& path, QvbsRun run);
  void add(const std::string& name, const CheckResult& r,
           const std::vector<property::ConstantValue>& constants) override;
  void add_failure(const std::string& name, const std::string& property, const std::string& error,
                   const std::vector<property::ConstantValue>& constants) override;

 private:
  void write();

  std::string path_;
  QvbsRun run_;
  nlohmann::ordered_json property_times_ = nlohmann::ordered_json::array();
  nlohmann::ordered_json data_ = nlohmann::ordered_json::array();
  nlohmann::ordered_json errors_ = nlohmann::ordered_json::array();
};

// A value as QVBS writes it: a number, true/false for a verdict, "∞"/"-∞"
// for infinities (as its index.json files do), "NaN" for no value.
nlohmann::ordered_json qvbs_value(const CheckResult& r);

// "N=3,K=2" as [{"name": "N", "value": 3}, ...]: numbers and true/false as
// JSON numbers and booleans, anything else as text.
nlohmann::ordered_json qvbs_parameter_values(const std::string& constants);

// The constants a result was computed with, as "open-parameter-values"
// lists them: ints and doubles as JSON numbers, bools as booleans.
nlohmann::ordered_json qvbs_constant_values(const std::vector<property::ConstantValue>& constants);

// Seconds with millisecond precision, as QVBS asks.
double qvbs_seconds(double seconds);

}  // namespace pmc::shell
