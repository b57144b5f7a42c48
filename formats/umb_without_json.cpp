// UMB in a build without nlohmann-json (formats/meson.build): its index.json
// cannot be read or written, so both say so.
#include "common/error.hpp"
#include "formats/umb.hpp"

namespace pmc {

ModelParts read_umb(const std::string& path, const ModelOptions&) {
  fail(ErrorCode::unsupported, "{}: this pmc was built without nlohmann-json, which UMB files need", path);
}

void write_umb(const Model&, const std::string& path) {
  fail(ErrorCode::unsupported, "{}: this pmc was built without nlohmann-json, which UMB files need", path);
}

}  // namespace pmc
