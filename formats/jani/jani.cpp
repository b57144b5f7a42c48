// Reading a JANI file, and building its model with the PRISM-language
// front end's checks and explorer.
#include "formats/jani/jani.hpp"

#include <algorithm>
#include <unordered_map>

#include "common/error.hpp"
#include "common/text.hpp"
#include "formats/input_stream.hpp"
#include "formats/jani/translation.hpp"
#include "formats/prism_language/exact_values.hpp"

namespace pmc::jani {

bool is_jani_path(std::string_view path) { return strip_compression_suffix(path).ends_with(".jani"); }

Json read_document(const std::string& path) {
  InputStream input(path);
  std::string content;
  char buffer[1 << 16];
  while (const size_t n = input.read(buffer, sizeof buffer)) content.append(buffer, n);
  try {
    return Json::parse(content);
  } catch (const nlohmann::json::exception& e) {
    fail(ErrorCode::parse, "{}: not valid JSON: {}", input.name(), e.what());
  }
}

std::vector<prism_language::DeclaredConstant> declared_constants(const std::string& path) {
  const Translation t = translate(read_document(path), path, true);
  std::vector<prism_language::DeclaredConstant> out;
  for (const expression::ConstantDeclaration& c : t.program.constants) {
    out.push_back({c.name, c.type, c.value.has_value()});
  }
  return out;
}

Properties read_properties(const std::string& path) {
  Translation t = translate(read_document(path), path, true);
  Properties out;
  for (const expression::ConstantDeclaration& c : t.property_constants) out.constants.push_back({c.name, c.type, false});
  out.properties = std::move(t.properties);
  return out;
}

property::PropertiesFile read_properties_file(const std::string& path, std::vector<ErrorCode>* error_codes) {
  Properties read = read_properties(path);
  property::PropertiesFile file;
  file.file_name = path;
  for (const prism_language::DeclaredConstant& c : read.constants) {
    property::FileConstant constant;
    constant.name = c.name;
    constant.type = c.type;
    file.constants.push_back(std::move(constant));
  }
  for (Property& p : read.properties) {
    property::FileProperty property;
    property.name = std::move(p.name);
    property.text = std::move(p.text);
    property.error = std::move(p.error);
    file.properties.push_back(std::move(property));
    if (error_codes != nullptr) error_codes->push_back(p.error_code);
  }
  return file;
}

namespace {

prism_language::PrismModel check(Translation& t, const std::string& path,
                                 std::vector<prism_language::ConstantAssignment> constants) {
  // Values for the properties' own constants are left to them.
  std::erase_if(constants, [&](const prism_language::ConstantAssignment& a) {
    return std::any_of(t.property_constants.begin(), t.property_constants.end(),
                       [&](const expression::ConstantDeclaration& c) { return c.name == a.name; });
  });
  prism_language::PrismModel program = prism_language::check_program(std::move(t.program), path, constants, t.places);
  program.warnings.insert(program.warnings.end(), t.warnings.begin(), t.warnings.end());
  return program;
}

// The choices' actions: each vector's program action becomes its result
// action, vectors of one result sharing its index.
void label_choices_with_results(ModelParts& parts, const Translation& t) {
  std::unordered_map<std::string, std::string> result_of(t.vector_actions.begin(), t.vector_actions.end());
  std::vector<std::string> names{""};
  std::vector<uint32_t> index_of(parts.action_names.size(), 0);
  for (size_t a = 1; a < parts.action_names.size(); ++a) {
    auto r = result_of.find(parts.action_names[a]);
    const std::string result = r != result_of.end() ? r->second : parts.action_names[a];
    if (result.empty()) continue;  // silent
    auto found = std::find(names.begin(), names.end(), result);
    index_of[a] = static_cast<uint32_t>(found - names.begin());
    if (found == names.end()) names.push_back(result);
  }
  parts.action_names = std::move(names);
  if (parts.action_names.size() <= 1) {
    parts.entry_actions.clear();
    parts.action_names.resize(1);
    return;
  }
  for (uint32_t& a : parts.entry_actions) a = index_of[a];
}

}  // namespace

prism_language::PrismModel load_program(const std::string& path,
                                        const std::vector<prism_language::ConstantAssignment>& constants) {
  Translation t = translate(read_document(path), path);
  return check(t, path, constants);
}

ModelPtr build_model(const std::string& path, const std::vector<prism_language::ConstantAssignment>& constants,
                     const prism_language::ExploreOptions& options) {
  Translation t = translate(read_document(path), path);
  auto program = std::make_shared<const prism_language::PrismModel>(check(t, path, constants));
  ModelParts parts = prism_language::explore(*program, options);
  label_choices_with_results(parts, t);
  parts.exact_source = prism_language::exact_value_source(std::move(program));
  return Model::create(std::move(parts), options.model);
}

}  // namespace pmc::jani
