// JANI models (the JSON model format of QVBS, Storm, the Modest Toolset and
// Momba; jani-spec.org) as input: the model types dtmc, ctmc and mdp, with
// their properties. A model is translated into the PRISM-language front
// end's syntax (formats/prism_language/syntax.hpp), so that both languages
// share the checks, the explorers (CPU and GPU) and the errors:
//
//  - each element of the composition is a module; an automaton of several
//    locations gets a location variable;
//  - each synchronisation vector becomes an action of its own, taken by the
//    automata it names, so any vector PRISM's synchronisation cannot
//    express is still exact; the model's choices carry the vectors' result
//    actions;
//  - transient boolean variables become labels, transient numeric ones
//    reward structures (locations' transient values are state rewards,
//    edges' transient assignments the edges' own transition rewards);
//  - functions are inlined.
//
// Errors name the file and the place in it as a JSON path
// ("m.jani: automata[0] \"main\", edges[3], guard: ...").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/error_code.hpp"
#include "formats/prism_language/prism_model.hpp"
#include "model/model.hpp"
#include "property/properties_file.hpp"

namespace pmc::jani {

// A property of the file in PRISM's syntax, for pmc's property checker. Its
// labels are the transient boolean variables, `"init"` the initial states,
// and its reward structures are named by the expression the property takes
// the expectation of (a transient variable's name, or the expression's
// PRISM text).
struct Property {
  std::string name;
  std::string text;
  // Why it cannot be checked (a JANI feature pmc lacks, such as reward
  // bounds, or a malformed property): the error its check reports, with
  // the file and the place; empty when it can. `text` then names the
  // property's operator.
  std::string error;
  ErrorCode error_code = ErrorCode::parse;  // with `error`: parse or unsupported
};

// .jani, optionally compressed (.jani.gz, .jani.xz).
bool is_jani_path(std::string_view path);

// The constants the model declares, in order, and whether it defines them
// (without the open constants only the properties read: read_properties).
// Throws Error(io) when unreadable, Error(parse) for malformed JSON.
std::vector<prism_language::DeclaredConstant> declared_constants(const std::string& path);

// The file's properties, translated (one that cannot be says why in its
// `error`), and the open constants only they read (none of the model's
// expressions does): those are the properties' own, as a properties file's
// open constants, and the model builds without them.
struct Properties {
  std::vector<prism_language::DeclaredConstant> constants;
  std::vector<Property> properties;
};
// Errors as declared_constants.
Properties read_properties(const std::string& path);
// The same as a properties file, as `pmc check` and pmc_properties_read
// take one: the open constants its constants (no value), each property with
// its name, text and error; `error_codes`, when given, receives each
// property's error code in order.
property::PropertiesFile read_properties_file(const std::string& path, std::vector<ErrorCode>* error_codes = nullptr);

// The model, translated and checked with the constants it leaves undefined
// (errors: Error(parse) naming the place, Error(unsupported) for JANI
// features outside dtmc/ctmc/mdp and the core such as clocks, arrays or
// assignment levels). A value given for a constant only the properties read
// is not the model's, and not an error: the file declares both.
prism_language::PrismModel load_program(const std::string& path,
                                        const std::vector<prism_language::ConstantAssignment>& constants);

// load_program + the explorer + Model::create, the choices labelled with
// the vectors' result actions.
ModelPtr build_model(const std::string& path, const std::vector<prism_language::ConstantAssignment>& constants,
                     const prism_language::ExploreOptions& options);

}  // namespace pmc::jani
