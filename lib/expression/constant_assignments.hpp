// "N=4,K=2": the values a caller gives for a source's or a properties file's
// undefined constants (`--const`, pmc_model_load_source, pmc_properties_*).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pmc::expression {

struct ConstantAssignment {
  std::string name;
  std::string value;
};

// NAME=VALUE pairs separated by commas, blanks around names and values
// ignored; empty text gives none. With `allow_ranges`, VALUE may be PRISM's
// range lo:step:hi or lo:hi (step 1), kept as written (range_values expands
// it). Throws Error(invalid_argument) naming the pair that is not
// NAME=VALUE, a range where none is allowed, or a name given twice.
std::vector<ConstantAssignment> parse_constant_assignments(std::string_view text, bool allow_ranges = false);

// Whether the value is a range (holds ':').
bool is_range(const ConstantAssignment& assignment);

// The values of the range "lo:step:hi" or "lo:hi" from lo while not past hi,
// as text: integers when lo and step are written as integers, else doubles
// (lo + i*step, rounded to 12 significant digits so that 0.1 steps read as
// written). Throws Error(invalid_argument) naming the pair for a bound that
// is no number, a step of 0, a step leading away from hi, or more than
// 100000 values.
std::vector<std::string> range_values(const ConstantAssignment& assignment);

}  // namespace pmc::expression
