// What `pmc check` and the shell write beside the printed results: the
// optimal scheduler (--scheduler), every state's value and bounds
// (--export-vector, PRISM's -exportvector) and a table of all properties
// (--export-results, PRISM's -exportresults; --export-format qvbs writes a
// QVBS results file instead, qvbs_results.hpp). Each state is given with its
// variables' values where the model has them (a source, a .sta file).
#pragma once

#include <cstddef>
#include <fstream>
#include <string>
#include <vector>

#include "check/check.hpp"
#include "model/model.hpp"
#include "property/definitions.hpp"

namespace pmc::shell {

// The file for the property at `index` of `count`: `path` itself when there
// is one property, else `path` with the property's name (or its 1-based
// position) before the extension: sched.txt -> sched.goal.txt, sched.2.txt.
std::string file_for_property(const std::string& path, size_t index, size_t count, const std::string& name);

// "x=1,y=true" for state `s`; "" when the model has no valuations.
std::string state_valuation(const Model& model, uint64_t s);

// One line per state: "state choice action [variables]" (choice 0-based
// within the state, -1 where every choice is optimal; action "-" when
// unnamed). Throws unsupported when the result has no scheduler.
void write_scheduler(const std::string& path, const CheckResult& r, const Model& model);

// A tab-separated table, one row per state: state, value, lower, upper
// (empty when not certified), satisfied (boolean properties), variables.
// `states` selects the rows (empty: every state).
void write_vector(std::ostream& out, const CheckResult& r, const Model& model, const std::vector<uint64_t>& states = {});
void write_vector_file(const std::string& path, const CheckResult& r, const Model& model);

// What --export-results writes, by --export-format: the table of every
// property (tsv, csv) or a QVBS results file (qvbs, qvbs_results.hpp).
enum class ResultsFormat { tsv, csv, qvbs };

// The format --export-format names; throws invalid_argument for an unknown
// name, listing the formats.
ResultsFormat results_format_named(const std::string& name);
// Without --export-format, by the file's extension: .csv csv, .json qvbs,
// anything else tsv.
ResultsFormat results_format_for_file(const std::string& path);

// A destination for every property's result of one command, told of each
// result (or failure) as soon as it is known.
class ResultsExport {
 public:
  virtual ~ResultsExport() = default;
  // `constants`: the properties' constants the result was computed with
  // (each value of a --const range gives its own result); none when the
  // property uses none.
  virtual void add(const std::string& name, const CheckResult& r,
                   const std::vector<property::ConstantValue>& constants) = 0;
  virtual void add_failure(const std::string& name, const std::string& property, const std::string& error,
                           const std::vector<property::ConstantValue>& constants) = 0;
};

// The table of every property of a command, a row appended as each
// result is known (so a cancelled command keeps the rows it computed):
// property, name, value, lower, upper, satisfied, solver, iterations,
// seconds, error, constants ("T=10, p=0.5"). Tab-separated (PRISM's
// -exportresults; tabs and line breaks in a cell become blanks) or
// comma-separated (RFC 4180 quoting).
class ResultsTable final : public ResultsExport {
 public:
  ResultsTable(const std::string& path, ResultsFormat format);
  void add(const std::string& name, const CheckResult& r,
           const std::vector<property::ConstantValue>& constants) override;
  void add_failure(const std::string& name, const std::string& property, const std::string& error,
                   const std::vector<property::ConstantValue>& constants) override;

 private:
  void write_row(const std::vector<std::string>& cells);

  std::string path_;
  char separator_;
  std::ofstream out_;
};

}  // namespace pmc::shell
