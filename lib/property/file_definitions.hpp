// A properties file's declarations evaluated for checking: its constants'
// values (PRISM's `const double T2 = T/2;` over earlier constants, the
// model's constants and the values given for undefined ones), with its
// formulas and labels, as the Definitions a property is bound with.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "expression/constant_assignments.hpp"
#include "property/definitions.hpp"
#include "property/properties_file.hpp"

namespace pmc::property {

// The file's constants in order, each with its value where it has one:
// `given` supplies those declared without a value (typed by their
// declaration: N=0.5 for an int is an error naming N and its type); a name
// the file does not declare is ignored here (the caller decides whether it
// belongs to the model). `outer` are the model's constants, which the
// file's expressions may read and the file may not declare again. A
// constant without a value, or whose value needs one without, is kept
// without a value (ConstantValue::needs): only a property that uses it fails.
// Throws Error naming file:line[:column]: parse for a type error, an
// expression that reads anything but constants, a constant defined in terms
// of itself, a file constant that repeats a model constant's name;
// invalid_argument for a value given to a constant the file defines, or one
// that does not fit the declared type.
Definitions file_definitions(const PropertiesFile& file, const std::vector<expression::ConstantAssignment>& given,
                             const std::vector<ConstantValue>& outer);

// The file's constants `property` reads: in its bounds, thresholds and
// expressions, and through the file's formulas, labels and constants (T2
// for `F<=T2` also brings the T of `const double T2 = T/2;`). What a run
// over a range of values must vary for this property.
std::set<std::string> constants_used(const Property& property, const PropertiesFile& file);

// `given` values as constants typed by how they are written (3: int, 0.5 or
// 3.0: double, true/false: bool), for properties with no declaration to type
// them (pmc_options_set_constants, outer values of parse_properties_file).
// Throws Error(invalid_argument) naming a value that is none of these.
std::vector<ConstantValue> literal_constants(const std::vector<expression::ConstantAssignment>& given,
                                             const std::string& origin);

}  // namespace pmc::property
