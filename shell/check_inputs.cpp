#include "check_inputs.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>

#include "common/error.hpp"
#include "formats/jani/jani.hpp"
#include "expression/binder.hpp"
#include "property/file_definitions.hpp"
#include "property/parser.hpp"

namespace pmc::shell {

namespace {

using expression::ConstantAssignment;
using property::FileProperty;
using property::PropertiesFile;

// The most runs one property may make over its ranges' combinations.
constexpr size_t k_max_runs = 100000;

bool is_whole_number(const std::string& text) {
  return !text.empty() && text.size() < 10 &&
         std::all_of(text.begin(), text.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// A word that can only mean a property's name: letters, digits, '_', '-'
// and '.', not starting with a digit; `true`/`false` are formulas. (A state
// variable alone as a property is written in parentheses then: `(b)`.)
bool looks_like_name(const std::string& text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0])) || text == "true" || text == "false") return false;
  return std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  });
}

std::string property_names(const PropertiesFile& file) {
  std::string names;
  size_t unnamed = 0;
  for (const FileProperty& p : file.properties) {
    if (p.name.empty()) {
      ++unnamed;
    } else {
      names += (names.empty() ? "" : ", ") + fmt::format("\"{}\"", p.name);
    }
  }
  if (names.empty()) names = "none named";
  if (unnamed > 0) names += fmt::format(", and {} unnamed", unnamed);
  return names;
}

std::string model_list(const std::vector<ModelConstant>& model) {
  std::string text;
  for (const ModelConstant& c : model) {
    if (!c.defined) text += fmt::format("{}{} ({})", text.empty() ? "" : ", ", c.name, expression::type_name(c.type));
  }
  return text.empty() ? "none" : text;
}

}  // namespace

bool is_properties_file_name(const std::string& path) {
  const std::string extension = std::filesystem::path(path).extension().string();
  return extension == ".props" || extension == ".prop" || extension == ".pctl" || extension == ".prctl" ||
         extension == ".csl";
}

std::string properties_file_argument(const Arguments& args) {
  std::vector<std::string> files;
  if (args.has("property-file")) files.push_back(args.value("property-file"));
  std::vector<std::string> listed = args.values("model");  // --model takes several files
  listed.insert(listed.end(), args.positional().begin(), args.positional().end());
  for (const std::string& p : listed) {
    if (is_properties_file_name(p)) files.push_back(p);
  }
  if (files.size() > 1) {
    fail(ErrorCode::invalid_argument, "two properties files given ({} and {}): give one, with --property-file",
         files[0], files[1]);
  }
  return files.empty() ? std::string() : files[0];
}

std::string jani_model_argument(const Arguments& args) {
  std::vector<std::string> models;
  std::vector<std::string> listed = args.values("model");
  listed.insert(listed.end(), args.positional().begin(), args.positional().end());
  for (const std::string& p : listed) {
    if (!is_properties_file_name(p)) models.push_back(p);
  }
  const bool jani = args.has("format") ? args.value("format") == "jani" : models.size() == 1 && jani::is_jani_path(models[0]);
  return jani && models.size() == 1 ? models[0] : std::string();
}

// A JANI model's properties as a properties file: no formulas or labels of
// its own (the model's are what they read); as its open constants those
// only the properties read.
PropertiesFile read_properties_or_jani(const std::string& path) {
  if (!jani::is_jani_path(path)) return property::read_properties(path);
  return jani::read_properties_file(path);
}

PropertySelection select_properties(const Arguments& args) {
  PropertySelection selection;
  const std::string properties_file = properties_file_argument(args);
  const std::string jani_model = properties_file.empty() ? jani_model_argument(args) : std::string();
  if (!properties_file.empty()) selection.file = property::read_properties(properties_file);
  if (!jani_model.empty()) selection.file = read_properties_or_jani(jani_model);
  const PropertiesFile* file = selection.file ? &*selection.file : nullptr;
  bool selected = false;
  for (const std::string& text : args.values("property")) {
    if (file != nullptr) {
      const auto named = std::find_if(file->properties.begin(), file->properties.end(),
                                      [&](const FileProperty& p) { return !p.name.empty() && p.name == text; });
      if (named != file->properties.end()) {
        selection.properties.push_back(*named);
        selected = true;
        continue;
      }
    }
    if (is_whole_number(text)) {
      if (file == nullptr) {
        fail(ErrorCode::invalid_argument, "--property {}: a number selects a property of --property-file (PRISM's "
             "-prop), but no --property-file is given", text);
      }
      const size_t index = std::stoul(text);
      if (index < 1 || index > file->properties.size()) {
        fail(ErrorCode::invalid_argument, "--property {}: {} has {} propert{} (--property 1 to {})", text,
             file->file_name, file->properties.size(), file->properties.size() == 1 ? "y" : "ies",
             file->properties.size());
      }
      selection.properties.push_back(file->properties[index - 1]);
      selected = true;
      continue;
    }
    if (file != nullptr && looks_like_name(text)) {
      fail(ErrorCode::invalid_argument, "--property {}: {} has no property named \"{}\" (its properties: {}); a "
           "number selects by position, and a state variable alone is written (x)", text, file->file_name, text,
           property_names(*file));
    }
    selection.properties.push_back(property::split_property_name(text, "--property"));
  }
  // A properties file's every property runs after the texts; a JANI
  // model's only when no --property is given.
  if (file != nullptr && !selected && (jani_model.empty() || !args.has("property"))) {
    for (const FileProperty& p : file->properties) selection.properties.push_back(p);
  }
  return selection;
}

ConstantPlan plan_constants(const std::string& text, const std::vector<ModelConstant>& model,
                            const PropertiesFile* file) {
  ConstantPlan plan;
  for (const ConstantAssignment& a : expression::parse_constant_assignments(text, true)) {
    const auto in_model = std::find_if(model.begin(), model.end(), [&](const ModelConstant& c) { return c.name == a.name; });
    if (in_model != model.end()) {
      if (expression::is_range(a)) {
        fail(ErrorCode::invalid_argument, "--const {}={}: ranges of the model's constants are not supported (each "
             "value needs the model built again); run pmc check once per value", a.name, a.value);
      }
      plan.model += (plan.model.empty() ? "" : ",") + a.name + "=" + a.value;
      continue;  // a value for a constant the model defines: its load says so
    }
    const property::FileConstant* in_file = file != nullptr ? file->find_constant(a.name) : nullptr;
    if (in_file == nullptr) {
      fail(ErrorCode::invalid_argument, "--const {}={}: neither the model nor the properties declare a constant '{}' "
           "(the model's undefined constants: {}; the properties file's: {})",
           a.name, a.value, a.name, model_list(model),
           file == nullptr ? "no --property-file"
                           : (file->undefined_constants().empty() ? "none" : file->undefined_constants()));
    }
    if (in_file->value) {
      fail(ErrorCode::invalid_argument, "--const {}={}: constant '{}' is already defined in {}:{}", a.name, a.value,
           a.name, file->file_name, in_file->line);
    }
    if (expression::is_range(a)) {
      plan.ranges.emplace_back(a.name, expression::range_values(a));
    } else {
      plan.fixed.push_back(a);
    }
  }
  return plan;
}

std::vector<PropertyRun> property_runs(const FileProperty& property, const PropertySelection& selection,
                                       const ConstantPlan& plan, const Model& model) {
  if (!selection.file) return {PropertyRun{}};
  const PropertiesFile& file = *selection.file;
  std::set<std::string> used;
  try {
    used = property::constants_used(property::parse_property(property.text), file);
  } catch (const Error&) {
    // It does not parse: one run, whose check reports why.
  }
  std::vector<std::pair<std::string, std::vector<std::string>>> ranges;
  size_t combinations = 1;
  for (const auto& range : plan.ranges) {
    if (!used.count(range.first)) continue;
    ranges.push_back(range);
    combinations *= range.second.size();
    if (combinations > k_max_runs) {
      fail(ErrorCode::invalid_argument, "--const: the ranges make more than {} runs of {}", k_max_runs,
           quote_for_message(property.text, 60));
    }
  }
  const std::vector<property::ConstantValue> outer = property::model_constant_values(model.definitions());
  std::vector<PropertyRun> runs;
  for (size_t k = 0; k < combinations; ++k) {
    PropertyRun run;
    size_t rest = k;  // the last range varies fastest, as PRISM's tables
    run.values.resize(ranges.size());
    for (size_t r = ranges.size(); r-- > 0;) {
      const std::vector<std::string>& values = ranges[r].second;
      run.values[r] = {ranges[r].first, values[rest % values.size()]};
      rest /= values.size();
    }
    std::vector<ConstantAssignment> given = plan.fixed;
    given.insert(given.end(), run.values.begin(), run.values.end());
    run.definitions = property::file_definitions(file, given, outer);
    run.used = used_constants(property, file, run.definitions);
    runs.push_back(std::move(run));
  }
  return runs;
}

std::vector<property::ConstantValue> used_constants(const FileProperty& property, const PropertiesFile& file,
                                                   const property::Definitions& definitions) {
  std::set<std::string> used;
  try {
    used = property::constants_used(property::parse_property(property.text), file);
  } catch (const Error&) {
    return {};  // its check says why it does not parse
  }
  std::vector<property::ConstantValue> out;
  for (const property::ConstantValue& c : definitions.constants) {
    if (used.count(c.name)) out.push_back(c);
  }
  return out;
}

std::string describe_values(const std::vector<ConstantAssignment>& values) {
  std::string text;
  for (const ConstantAssignment& a : values) text += fmt::format("{}{}={}", text.empty() ? "" : ", ", a.name, a.value);
  return text;
}

}  // namespace pmc::shell
