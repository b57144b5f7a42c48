// The JANI translator's parts (private to formats/jani/): the document read
// as JSON, and its translation into the PRISM-language front end's syntax
// plus the properties' PRISM text (jani.hpp says what maps to what).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "formats/jani/jani.hpp"
#include "formats/prism_language/syntax.hpp"

namespace pmc::jani {

using Json = nlohmann::json;

// The file's JSON (plain, .gz or .xz). Throws Error(io) when unreadable and
// Error(parse) naming the byte offset for malformed JSON.
Json read_document(const std::string& path);

struct Translation {
  prism_language::SyntaxProgram program;
  // The places the program's positions index (SourceLocation::places).
  std::shared_ptr<std::vector<std::string>> places;
  std::vector<Property> properties;
  // Open constants only the properties read: not the program's (its build
  // needs no value for them), the properties' own, set like a properties
  // file's open constants.
  std::vector<expression::ConstantDeclaration> property_constants;
  // The program's actions that stand for synchronisation vectors, each with
  // the vector's result action ("" when silent): what the model's choices
  // are labelled with.
  std::vector<std::pair<std::string, std::string>> vector_actions;
  std::vector<std::string> warnings;  // for the program's
};

// Translates the document (`file` names it in errors). Throws Error(parse)
// for what is not JANI, Error(unsupported) for JANI pmc cannot build.
// `properties_only`: the declarations and the properties, not the edges
// (the program is then incomplete: for listing constants and properties).
Translation translate(const Json& document, const std::string& file, bool properties_only = false);

}  // namespace pmc::jani
