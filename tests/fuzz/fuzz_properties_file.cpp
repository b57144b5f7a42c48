// Properties files (lib/property/properties_file.cpp) with their
// declarations evaluated (file_definitions.cpp) and put into each property
// (definitions.cpp). Contract (beyond fuzz_support.hpp's): whatever the
// file, reading it, evaluating its constants with and without values for
// the open ones, and binding each property end in a value or a clean
// pmc::Error; a property that binds prints as text that parses.
#include "expression/constant_assignments.hpp"
#include "fuzz_support.hpp"
#include "property/definitions.hpp"
#include "property/file_definitions.hpp"
#include "property/parser.hpp"
#include "property/properties_file.hpp"

namespace {

// The model's constants the file's expressions may read (as a source's).
pmc::SourceDefinitions model_definitions() {
  pmc::SourceDefinitions d;
  d.constants = {{"N", "3"}, {"h", "0.5"}, {"on", "true"}};
  return d;
}

// Values for every open constant, typed as declared: what --const gives.
std::vector<pmc::expression::ConstantAssignment> values_for(const pmc::property::PropertiesFile& file) {
  std::vector<pmc::expression::ConstantAssignment> given;
  for (const pmc::property::FileConstant& c : file.constants) {
    if (c.value) continue;
    given.push_back({c.name, c.type == pmc::expression::ValueType::boolean ? "true"
                             : c.type == pmc::expression::ValueType::integer ? "2"
                                                                              : "1.5"});
  }
  return given;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // The C ABI's reader: the file with its constants put in.
  pmc::fuzz::clean_or_finding("parse_properties_file", [&] { pmc::property::parse_properties_file(text, "f.props", "N=3"); });

  pmc::property::PropertiesFile file;
  if (!pmc::fuzz::clean_or_finding("parse_properties", [&] { file = pmc::property::parse_properties(text, "f.props"); })) {
    return 0;
  }
  static const pmc::SourceDefinitions model = model_definitions();
  const std::vector<pmc::property::ConstantValue> outer = pmc::property::model_constant_values(model);
  for (const bool give : {false, true}) {
    pmc::property::Definitions definitions;
    const auto given = give ? values_for(file) : std::vector<pmc::expression::ConstantAssignment>{};
    if (!pmc::fuzz::clean_or_finding("file_definitions",
                                     [&] { definitions = pmc::property::file_definitions(file, given, outer); })) {
      continue;
    }
    for (const pmc::property::FileProperty& p : file.properties) {
      pmc::property::Property parsed;
      if (!pmc::fuzz::clean_or_finding("parse_property", [&] { parsed = pmc::property::parse_property(p.text); })) {
        continue;
      }
      pmc::fuzz::clean_or_finding("constants_used", [&] { pmc::property::constants_used(parsed, file); });
      for (const bool discrete : {false, true}) {
        pmc::fuzz::clean_or_finding("bind_definitions", [&] {
          const pmc::property::Property bound = pmc::property::bind_definitions(parsed, definitions, model, discrete);
          const std::string printed = pmc::property::to_string(bound);
          pmc::fuzz::clean_or_finding("parse_property(to_string(bound))", [&] { pmc::property::parse_property(printed); });
        });
      }
    }
  }
  return 0;
}
