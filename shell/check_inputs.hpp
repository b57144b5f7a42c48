// What `pmc check` is asked to check: the properties that --property and
// --property-file select, and --const split between the model's build and
// the properties' constants, a range of a property constant (T=1:1:10)
// making one run of each property that uses it per value.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arguments.hpp"
#include "expression/constant_assignments.hpp"
#include "formats/model_files.hpp"
#include "model/model.hpp"
#include "property/definitions.hpp"
#include "property/properties_file.hpp"

namespace pmc::shell {

// The properties to check, in order. --property NAME selects the file's
// property of that name, --property N (a whole number) its N-th; other text
// is a property. With a file and no selection, every property of the file
// runs after the texts. Throws Error(invalid_argument) for a name the file
// does not have (listing its names), a number out of range or without a
// file; the file's read errors as read_properties.
// A JANI model's properties are its file's: every one runs unless
// --property gives or selects some.
struct PropertySelection {
  std::optional<property::PropertiesFile> file;
  std::vector<property::FileProperty> properties;
};
PropertySelection select_properties(const Arguments& args);

// A file name with a properties file's extension (.props, .prop, .pctl,
// .prctl, .csl): given among `pmc check`'s model files (positional or
// --model), as in PRISM's `prism model.pm model.pctl`, it is read as
// --property-file.
bool is_properties_file_name(const std::string& path);
// The properties file of the command: --property-file, else one among the
// model files; empty when neither. Throws Error(invalid_argument) when two are given.
std::string properties_file_argument(const Arguments& args);
// A properties file, or a JANI model's properties (by extension) as one.
// Errors as property::read_properties and jani::read_properties.
property::PropertiesFile read_properties_or_jani(const std::string& path);

// The command's model when it is one JANI file, whose properties are then
// the command's properties file; else empty.
std::string jani_model_argument(const Arguments& args);

// --const, split. A name the model declares goes to its build (a range of
// one is refused: each value would need the model built again); a name
// the properties file declares without a value goes to the properties (a
// range to `ranges`). Throws Error(invalid_argument) for malformed text, a
// name given twice, a value for a constant the file defines, or a name
// neither declares (listing both's undefined constants).
struct ConstantPlan {
  std::string model;  // "N=3,K=2", for the model's load
  std::vector<expression::ConstantAssignment> fixed;  // the properties' single values
  std::vector<std::pair<std::string, std::vector<std::string>>> ranges;  // the properties' ranges, expanded
};
ConstantPlan plan_constants(const std::string& text, const std::vector<ModelConstant>& model,
                            const property::PropertiesFile* file);

// One check of a property: the values of the ranged constants it uses
// (none when it uses none), and the definitions it is checked with.
struct PropertyRun {
  std::vector<expression::ConstantAssignment> values;
  property::Definitions definitions;
  // The file's constants the property uses, with their values: what its
  // result reports (JSON "constants", the text's constants line).
  std::vector<property::ConstantValue> used;
};

// The runs of `property`: one per combination of the ranges over the
// constants it uses (at most 100000). The definitions are evaluated here,
// so a value of the wrong type fails before anything is checked (errors as
// file_definitions'). Without a file: one run, no definitions.
std::vector<PropertyRun> property_runs(const property::FileProperty& property, const PropertySelection& selection,
                                       const ConstantPlan& plan, const Model& model);

// The file's constants `property` uses (directly or through other constants,
// formulas and labels), with their values in `definitions`; none when it
// does not parse.
std::vector<property::ConstantValue> used_constants(const property::FileProperty& property,
                                                   const property::PropertiesFile& file,
                                                   const property::Definitions& definitions);

// "T=1, N=3": the run's values, for a table row or a message.
std::string describe_values(const std::vector<expression::ConstantAssignment>& values);

}  // namespace pmc::shell
