// What `pmc check` and the shell write beside the printed results: the
// optimal scheduler (--scheduler), every state's value and bounds
// (--export-vector, PRISM's -exportvector) and a table of all properties
// (--export-results, PRISM's -exportresults). Each state is given with its
// variables' values where the model has them (a source, a .sta file).
#pragma once

#include <cstddef>
#include <fstream>
#include <string>
#include <vector>

#include "check/check.hpp"
#include "model/model.hpp"

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

// The table of every property of a command, a row appended as each
// result is known (so a cancelled command keeps the rows it computed).
class ResultsTable {
 public:
  explicit ResultsTable(const std::string& path);
  // `constants`: "T=10, p=0.5", the properties' constants the row was computed with ("" for none).
  void add(const std::string& name, const CheckResult& r, const std::string& constants = "");
  void add_failure(const std::string& name, const std::string& property, const std::string& error,
                   const std::string& constants = "");

 private:
  std::string path_;
  std::ofstream out_;
};

}  // namespace pmc::shell
