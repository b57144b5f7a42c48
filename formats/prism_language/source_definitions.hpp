// A model built from a PRISM-language source keeps the source's constants
// and formulas (SourceDefinitions, model/model.hpp) so that properties can
// name them, as PRISM's do: `P=? [ F "stable" ]` and `P=? [ F num_tokens=1 ]`
// alike. This binds one formula against a model's state variables with the
// front end's own binder, so a formula means in a property what it meant
// in the source (`? :`, `<=>`, integer arithmetic and all).
#pragma once

#include <string>

#include "formats/prism_language/program.hpp"
#include "model/model.hpp"

namespace pmc::prism_language {

// The expression of formula `name` over the columns of `valuations` (a state
// is one row of them), the constants and formulas it names folded in.
// Throws pmc::Error (property) naming the formula when `definitions` do not
// parse or bind: possible only for a .pmcb file not written by pmc.
// Thread-safe.
Expression source_formula(const std::string& name, const SourceDefinitions& definitions,
                          const StateValuations& valuations);

}  // namespace pmc::prism_language
