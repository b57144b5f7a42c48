// Commands about checking: check, solvers; and the printing of results
// that the REPL shares with them.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "arguments.hpp"
#include "check/check.hpp"
#include "property/definitions.hpp"

namespace pmc::shell {

int run_check(const Arguments& args, std::ostream& out);
int run_solvers(const Arguments& args, std::ostream& out);

// A finite number, or "Infinity", "-Infinity", "NaN" (JSON has no such numbers).
nlohmann::json json_number(double value);
// The "schema" of every record of `pmc check --json` (and the shell's
// `check --json`): raised when a field is removed or changes its meaning or
// type, not when one is added (README.md, "JSON records").
inline constexpr int k_check_json_schema = 1;
// The JSON object of one checked property (`pmc check --json`; its required
// keys are in docs/design.md §6).
nlohmann::json result_json(const CheckResult& result, const Model& model);
// {"T": 10, "p": 0.5}: the properties' constants a result was computed with
// (the "constants" of a JSON record), ints, doubles and bools as such.
nlohmann::json constants_json(const std::vector<property::ConstantValue>& constants);
// "property: value" and a line with solver, iterations and time (and, for
// a filter, what it reduced and the states it lists, with `model`'s variables).
void print_result_text(const CheckResult& result, const Model& model, std::ostream& out);
// A value as the results show it: "0.1666666 ± 1.2e-07" when certified
// (the digits its bounds justify), else every digit.
void print_value(const CheckResult::Reported& value, std::ostream& out);
// {"load": s, ..., "other": s, "total": s}: the result's seconds by phase.
nlohmann::json timings_json(const PhaseTimings& timings);
// The line of `pmc check --stats` and the shell's `time on`:
// "  timings: load 0.120 s, GPU start-up 0 s, ..., other 0.002 s (total 0.375 s)".
void print_timings_text(const PhaseTimings& timings, std::ostream& out);

}  // namespace pmc::shell
