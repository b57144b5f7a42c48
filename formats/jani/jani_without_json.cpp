// JANI in a build without nlohmann-json (formats/jani/meson.build): every
// entry point refuses with Error(unsupported), saying why.
#include "common/error.hpp"
#include "formats/input_stream.hpp"
#include "formats/jani/jani.hpp"

namespace pmc::jani {

namespace {

[[noreturn]] void refuse(const std::string& path) {
  fail(ErrorCode::unsupported, "{}: JANI files need pmc built with nlohmann-json (Debian's nlohmann-json3-dev)", path);
}

}  // namespace

bool is_jani_path(std::string_view path) { return strip_compression_suffix(path).ends_with(".jani"); }

std::vector<prism_language::DeclaredConstant> declared_constants(const std::string& path) { refuse(path); }

Properties read_properties(const std::string& path) { refuse(path); }

property::PropertiesFile read_properties_file(const std::string& path, std::vector<ErrorCode>*) { refuse(path); }

prism_language::PrismModel load_program(const std::string& path,
                                        const std::vector<prism_language::ConstantAssignment>&) {
  refuse(path);
}

ModelPtr build_model(const std::string& path, const std::vector<prism_language::ConstantAssignment>&,
                     const prism_language::ExploreOptions&) {
  refuse(path);
}

}  // namespace pmc::jani
