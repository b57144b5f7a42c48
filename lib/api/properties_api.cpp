// pmc_properties_*: properties files read through the library's reader
// (property/properties_file.hpp), the one `pmc check --property-file` uses.
#include <memory>
#include <string>
#include <vector>

#include "api/guard.hpp"
#include "formats/jani/jani.hpp"
#include "property/properties_file.hpp"

struct pmc_properties {
  std::vector<pmc::property::FileProperty> properties;
  // A JANI model's: per property, the code of its `error` (if any).
  std::vector<pmc::ErrorCode> error_codes;
};

namespace {

const pmc::property::FileProperty& property_at(const pmc_properties* handle, uint64_t index) {
  const auto& properties = require(handle, "properties").properties;
  if (index >= properties.size()) {
    fail(ErrorCode::invalid_argument, "property index {} out of range ({} properties)", index, properties.size());
  }
  return properties[index];
}

}  // namespace

extern "C" {

pmc_status pmc_properties_read(const char* path, const char* constants, pmc_properties** out_properties) {
  return guarded([&] {
    require(path, "path");
    require(out_properties, "out_properties");
    auto holder = std::make_unique<pmc_properties>();
    if (pmc::jani::is_jani_path(path)) {
      // As a properties file: the open constants only the properties read
      // take their values from `constants`.
      const pmc::property::PropertiesFile file = pmc::jani::read_properties_file(path, &holder->error_codes);
      if (file.properties.empty()) fail(ErrorCode::parse, "{}: the JANI model has no properties", path);
      holder->properties = pmc::property::ready_properties(file, constants != nullptr ? constants : "");
    } else {
      holder->properties = pmc::property::read_properties_file(path, constants != nullptr ? constants : "");
    }
    *out_properties = holder.release();
  });
}

pmc_status pmc_properties_parse(const char* text, const char* source_name, const char* constants,
                                pmc_properties** out_properties) {
  return guarded([&] {
    require(text, "text");
    require(out_properties, "out_properties");
    auto holder = std::make_unique<pmc_properties>();
    holder->properties = pmc::property::parse_properties_file(text, source_name != nullptr ? source_name : "<text>",
                                                              constants != nullptr ? constants : "");
    *out_properties = holder.release();
  });
}

void pmc_properties_free(pmc_properties* properties) { delete properties; }

pmc_status pmc_properties_count(const pmc_properties* properties, uint64_t* out_count) {
  return guarded([&] {
    const auto& all = require(properties, "properties").properties;
    require(out_count, "out_count") = all.size();
  });
}

pmc_status pmc_properties_name(const pmc_properties* properties, uint64_t index, const char** out_name) {
  return guarded([&] {
    const auto& property = property_at(properties, index);
    require(out_name, "out_name") = property.name.c_str();
  });
}

pmc_status pmc_properties_text(const pmc_properties* properties, uint64_t index, const char** out_text) {
  return guarded([&] {
    const auto& property = property_at(properties, index);
    // A JANI property pmc cannot translate: its reason.
    if (!property.error.empty()) fail(properties->error_codes.at(index), "{}", property.error);
    require(out_text, "out_text") = property.text.c_str();
  });
}

pmc_status pmc_properties_line(const pmc_properties* properties, uint64_t index, uint64_t* out_line) {
  return guarded([&] {
    const auto& property = property_at(properties, index);
    require(out_line, "out_line") = static_cast<uint64_t>(property.line);
  });
}

}  // extern "C"
