// PRISM's atomic propositions over state variables (`s=7 & d=6`): every
// manifest property whose labels the instance's source defines over state
// variables alone is rewritten with those definitions in place of the
// labels. On the exported model (its .sta gives the variables) the
// rewritten property must give the label's values exactly (the same state
// sets, so the same computation) and PRISM's reference within 1e-6
// relative (1e-5 for CTMC time bounds); on the model built from its
// source, the reference too.
// Labels whose definitions name the source's constants and formulas as well
// (`sc=c`, `num_tokens=1`) are rewritten for the model built from the source,
// which knows them: the same values as the labels, and the reference.
//
// PMC_TEST_MAX_TRANSITIONS bounds the instances (default 200K here: the
// rewritten rows repeat computations test_reference_values covers).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "check/check.hpp"
#include "formats/prism_language/prism_model.hpp"
#include "support/manifest.hpp"

namespace pmc {
namespace {

using testing::ManifestRow;

std::string source_of(const ManifestRow& row) {
  for (const char* ext : {"pm", "sm", "nm", "prism"}) {
    const std::string path = row.directory() + "/model." + ext;
    if (std::filesystem::exists(path)) return path;
  }
  return {};
}

// `label "name" = definition;` of a PRISM-language source.
std::map<std::string, std::string> label_definitions(const std::string& source) {
  std::ifstream in(source);
  std::stringstream text;
  text << in.rdbuf();
  const std::string s = text.str();
  std::map<std::string, std::string> out;
  static const std::regex label(R"re(label\s+"([^"]+)"\s*=\s*([^;]+);)re");
  for (auto it = std::sregex_iterator(s.begin(), s.end(), label); it != std::sregex_iterator(); ++it) {
    out[(*it)[1]] = (*it)[2];
  }
  return out;
}

// The words of a definition; usable when each is a state variable.
bool only_variables(const std::string& definition, const std::set<std::string>& variables) {
  static const std::regex word(R"([A-Za-z_][A-Za-z_0-9]*)");
  for (auto it = std::sregex_iterator(definition.begin(), definition.end(), word); it != std::sregex_iterator(); ++it) {
    const std::string w = (*it)[0];
    if (w != "true" && w != "false" && !variables.count(w)) return false;
  }
  return true;
}

// The variables of the instance's .sta: its header line, "(a,b,c)".
std::set<std::string> sta_variables(const ManifestRow& row) {
  for (const std::string& file : row.files) {
    if (file.find(".sta") == std::string::npos) continue;
    const std::string path = row.directory() + "/" + file;
    if (file.size() > 3 && file.substr(file.size() - 3) == ".gz") return {};  // read by pmc; the test keeps to plain ones
    std::ifstream in(path);
    std::string header;
    while (std::getline(in, header) && header.rfind('#', 0) == 0) {
    }  // PRISM's exports may start with a "# States" comment
    std::set<std::string> out;
    std::stringstream names(header.substr(1, header.size() >= 2 ? header.size() - 2 : 0));
    for (std::string name; std::getline(names, name, ',');) out.insert(name);
    return out;
  }
  return {};
}

struct Rewritten {
  ManifestRow row;
  std::string property;  // the row's property with label definitions for labels
};

void PrintTo(const Rewritten& r, std::ostream* out) { *out << r.row.name() << " " << r.property; }

// The row's property with each label the source defines replaced by its
// definition when `usable` accepts that; empty unless every label was
// replaced. `named_more` tells whether some definition names more than variables.
std::string rewrite(const ManifestRow& row, const std::map<std::string, std::string>& definitions,
                    const std::set<std::string>& variables, bool only_over_variables, bool& named_more) {
  const std::string& property = row.property;
  bool all_replaced = true, any = false;
  named_more = false;
  static const std::regex quoted(R"re("([^"]+)")re");
  std::string rewritten;
  auto last = property.cbegin();
  for (auto it = std::sregex_iterator(property.begin(), property.end(), quoted); it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1];
    const bool reward_name = it->position() > 0 && property[static_cast<size_t>(it->position()) - 1] == '{';
    rewritten.append(last, property.cbegin() + it->position());
    const auto def = definitions.find(name);
    const bool over_variables = def != definitions.end() && only_variables(def->second, variables);
    if (!reward_name && def != definitions.end() && (over_variables || !only_over_variables)) {
      rewritten += "(" + def->second + ")";
      any = true;
      named_more = named_more || !over_variables;
    } else {
      rewritten += (*it)[0];
      if (!reward_name) all_replaced = false;
    }
    last = property.cbegin() + it->position() + it->length();
  }
  rewritten.append(last, property.cend());
  return any && all_replaced ? rewritten : std::string();
}

// `only_over_variables`: the rows every model takes (labels over variables
// alone); otherwise the rows only a model built from the source takes (some
// label names its constants or formulas).
std::vector<Rewritten> rewritten_rows(bool only_over_variables = true) {
  std::vector<Rewritten> out;
  const uint64_t limit = testing::max_test_transitions(200000);
  for (const ManifestRow& row : testing::manifest()) {
    if (limit != 0 && row.transitions > limit) continue;
    const std::string source = source_of(row);
    if (source.empty()) continue;
    const std::set<std::string> variables = sta_variables(row);
    if (variables.empty()) continue;
    bool named_more = false;
    const std::string property = rewrite(row, label_definitions(source), variables, only_over_variables, named_more);
    if (!property.empty() && named_more != only_over_variables) out.push_back({row, property});
  }
  return out;
}

std::string rewritten_name(const ::testing::TestParamInfo<Rewritten>& info) {
  std::string name = info.param.row.model + "_" + info.param.row.instance + "_" + std::to_string(info.index);
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

void expect_reference(const ManifestRow& row, const CheckResult& result) {
  ASSERT_TRUE(result.converged) << result.notes.back();
  const double ref = row.reference_value;
  if (std::isinf(ref)) {
    EXPECT_EQ(result.initial_value, ref);
    return;
  }
  const bool bounded = row.property.find("<=") != std::string::npos || row.property.find("U[") != std::string::npos ||
                       row.property.find("F[") != std::string::npos;
  const double tol = (row.type == "ctmc" && bounded) ? 1e-5 : 1e-6;
  EXPECT_LE(std::fabs(result.initial_value - ref), tol * std::max(std::fabs(ref), 1e-9))
      << "value " << result.initial_value << " reference " << ref;
}

class VariableProperty : public ::testing::TestWithParam<Rewritten> {};

TEST_P(VariableProperty, EqualsTheLabelsValuesOnTheExportedModel) {
  const Rewritten& r = GetParam();
  const Model& model = testing::cached_model(r.row);
  ASSERT_FALSE(model.valuations().empty()) << "the .sta was not loaded";
  const CheckResult by_label = check(model, r.row.property);
  const CheckResult by_variables = check(model, r.property);
  EXPECT_EQ(by_variables.values, by_label.values);
  expect_reference(r.row, by_variables);
}

// Built once per instance and kept while its properties are checked.
const Model& built_model(const ManifestRow& row) {
  static std::string built_name;
  static ModelPtr built;
  if (built_name != row.name()) {
    built = prism_language::build_model_from_source(
        source_of(row), prism_language::parse_constant_assignments(row.constants), prism_language::ExploreOptions{});
    built_name = row.name();
  }
  return *built;
}

TEST_P(VariableProperty, ReproducesTheReferenceOnTheModelBuiltFromSource) {
  const Rewritten& r = GetParam();
  expect_reference(r.row, check(built_model(r.row), r.property));
}

INSTANTIATE_TEST_SUITE_P(Manifest, VariableProperty, ::testing::ValuesIn(rewritten_rows()), rewritten_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(VariableProperty);

class SourceDefinitionProperty : public ::testing::TestWithParam<Rewritten> {};

TEST_P(SourceDefinitionProperty, EqualsTheLabelsValuesOnTheModelBuiltFromSource) {
  const Rewritten& r = GetParam();
  const Model& model = built_model(r.row);
  const CheckResult by_label = check(model, r.row.property);
  const CheckResult by_definitions = check(model, r.property);
  EXPECT_EQ(by_definitions.values, by_label.values);
  expect_reference(r.row, by_definitions);
}

INSTANTIATE_TEST_SUITE_P(Manifest, SourceDefinitionProperty, ::testing::ValuesIn(rewritten_rows(false)),
                         rewritten_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(SourceDefinitionProperty);

// Without the models the suite above is empty; say so rather than pass silently.
TEST(VariableProperty, ManifestRowsAreRewritten) {
  if (testing::models_root().empty()) GTEST_SKIP() << testing::missing_models_message();
  EXPECT_GE(rewritten_rows().size(), 5u) << "too few manifest properties have labels defined over variables alone";
  EXPECT_GE(rewritten_rows(false).size(), 3u) << "too few manifest properties have labels naming constants or formulas";
}

}  // namespace
}  // namespace pmc
