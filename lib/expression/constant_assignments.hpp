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
// ignored; empty text gives none. Throws Error(invalid_argument) naming the
// pair that is not NAME=VALUE, a range (lo:step:hi), or a name given twice.
std::vector<ConstantAssignment> parse_constant_assignments(std::string_view text);

}  // namespace pmc::expression
