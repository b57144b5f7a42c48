// How `pmc check` and the shell show a filter's result (filter(max, φ,
// "init"), filter(print, φ), ...): what it reduced, over which states, how
// its certified bounds follow from the states', and the states it lists,
// with their variables where the model has them.
#pragma once

#include <iosfwd>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "check/check.hpp"
#include "model/model.hpp"

namespace pmc::shell {

// range's value: "[0.25, 0.5]", each end with its half-width when certified.
std::string filter_range_text(const FilterSummary& filter);
// The lines below a filter's result: "  filter: the maximum over ...",
// then one line per state it lists ("    3 (x=1,y=0): 0.5 ± 1.2e-07").
void print_filter_text(const FilterSummary& filter, const Model& model, std::ostream& out);
// The record's "filter" object (README.md, "JSON records").
nlohmann::json filter_json(const FilterSummary& filter, const Model& model);

}  // namespace pmc::shell
