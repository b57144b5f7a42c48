// Every instance of the reference models' manifest.tsv ($PMC_MODELS) loads
// with exactly the manifest's counts, and survives the round trips
// .tra → .pmcb → .tra and → .drn unchanged. The parametric CTMCs (pctmc/)
// round-trip .drn → .pmcb.
//
// PMC_TEST_MAX_TRANSITIONS bounds the instances (default 1M, the CI suite;
// the `full` suite sets 0 = all).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "common/error.hpp"
#include "formats/model_files.hpp"
#include "formats/pmcb.hpp"
#include "support/manifest.hpp"
#include "support/temp_dir.hpp"

namespace pmc {
namespace {

using testing::ManifestRow;
}  // namespace
}  // namespace pmc

namespace pmc::testing {
void PrintTo(const ManifestRow& row, std::ostream* out) { *out << row.name(); }
}  // namespace pmc::testing

namespace pmc {
namespace {
using testing::ManifestRow;

uint64_t max_transitions() { return testing::max_test_transitions(); }

std::string test_name(const ::testing::TestParamInfo<ManifestRow>& info) {
  std::string name = info.param.model + "_" + info.param.instance;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

TEST(ReferenceModels, Available) {
  if (testing::models_root().empty()) GTEST_SKIP() << testing::missing_models_message();
  EXPECT_FALSE(testing::manifest().empty());
}

class ManifestInstance : public ::testing::TestWithParam<ManifestRow> {};

ModelType expected_type(const ManifestRow& row) {
  auto type = model_type_from_string(row.type);
  if (!type) throw std::runtime_error("manifest: unknown type " + row.type);
  return *type;
}

void expect_manifest_counts(const Model& model, const ManifestRow& row) {
  EXPECT_EQ(model.type(), expected_type(row));
  EXPECT_EQ(model.num_states(), row.states);
  EXPECT_EQ(model.num_entries(), row.transitions);
  EXPECT_EQ(model.num_rows(), row.choices.value_or(row.states));
  ASSERT_NE(model.initial_states(), nullptr);
  EXPECT_GE(model.initial_states()->count(), 1u);
  // Manifest models come straight from PRISM: nothing to repair.
  EXPECT_TRUE(model.warnings().empty()) << model.warnings().front();
}

TEST_P(ManifestInstance, LoadsWithManifestCounts) {
  const ManifestRow& row = GetParam();
  ModelPtr model = load_model({row.transitions_file()}, "", {});
  expect_manifest_counts(*model, row);
  // Every reward structure a property names must be there.
  for (const ManifestRow& r : testing::manifest()) {
    if (r.name() != row.name()) continue;
    auto open = r.property.find("R{\"");
    if (open == std::string::npos) continue;
    auto close = r.property.find("\"}", open);
    std::string reward_name = r.property.substr(open + 3, close - open - 3);
    EXPECT_NE(model->find_rewards(reward_name), nullptr) << reward_name;
  }
}

TEST_P(ManifestInstance, ListedFilesLoadLikeSiblings) {
  const ManifestRow& row = GetParam();
  std::vector<std::string> paths;
  for (const std::string& f : row.files) paths.push_back(row.directory() + "/" + f);
  ModelPtr listed = load_model(paths, "", {});
  ModelPtr by_stem = load_model({row.transitions_file()}, "", {});
  EXPECT_TRUE(listed->same_as(*by_stem));
}

TEST_P(ManifestInstance, RoundTripsThroughPmcbAndPrism) {
  const ManifestRow& row = GetParam();
  testing::TempDir dir;
  ModelPtr original = load_model({row.transitions_file()}, "", {});

  const std::string pmcb = dir.path("model.pmcb");
  save_model(*original, pmcb, "");
  ModelPtr from_pmcb = load_model({pmcb}, "", {});
  EXPECT_TRUE(from_pmcb->same_as(*original)) << ".tra -> .pmcb changed the model";

  // Many small chunks exercise the chunk boundaries.
  const std::string chunked = dir.path("chunked.pmcb");
  write_pmcb(*original, chunked, PmcbWriteOptions{.chunk_items = 1000});
  EXPECT_TRUE(load_model({chunked}, "", {})->same_as(*original)) << "small chunks changed the model";

  const std::string tra = dir.path("again.tra");
  save_model(*from_pmcb, tra, "");
  ModelPtr from_tra = load_model({tra}, "", {});
  EXPECT_TRUE(from_tra->same_as(*original)) << ".pmcb -> .tra changed the model";
}

// UMB (PRISM's and Storm's interchange format) holds everything these
// models carry: DTMCs and MDPs round-trip bit for bit. A CTMC is stored as
// exit rates and branch probabilities; for about one rate in ten no double
// probability p gives fl(p·E) = r, so rates come back within one rounding.
TEST_P(ManifestInstance, RoundTripsThroughUmb) {
  const ManifestRow& row = GetParam();
  testing::TempDir dir;
  ModelPtr original = load_model({row.transitions_file()}, "", {});
  const std::string umb = dir.path("model.umb");
  save_model(*original, umb, "");
  ModelPtr from_umb = load_model({umb}, "", {});
  if (original->type() != ModelType::ctmc) {
    EXPECT_TRUE(from_umb->same_as(*original)) << ".tra -> .umb changed the model";
    return;
  }
  EXPECT_EQ(from_umb->type(), original->type());
  EXPECT_EQ(from_umb->row_offsets(), original->row_offsets());
  EXPECT_EQ(from_umb->columns(), original->columns());
  EXPECT_TRUE(from_umb->labels() == original->labels());
  EXPECT_TRUE(from_umb->rewards() == original->rewards());
  EXPECT_TRUE(from_umb->valuations() == original->valuations());
  EXPECT_EQ(from_umb->entry_actions(), original->entry_actions());
  EXPECT_EQ(from_umb->action_names(), original->action_names());
  ASSERT_EQ(from_umb->values().size(), original->values().size());
  for (size_t e = 0; e < original->values().size(); ++e) {
    const double r = original->values()[e];
    ASSERT_LE(std::fabs(from_umb->values()[e] - r), 2.3e-16 * r) << "rate of entry " << e;
  }
}

TEST_P(ManifestInstance, RoundTripsThroughDrn) {
  const ManifestRow& row = GetParam();
  testing::TempDir dir;
  ModelPtr original = load_model({row.transitions_file()}, "", {});
  const std::string drn = dir.path("model.drn");
  try {
    save_model(*original, drn, "");
  } catch (const Error& e) {
    // DRN cannot hold everything (per-transition rewards, unnamed reward
    // structures): the writer must say so, not write something else.
    EXPECT_EQ(e.code(), ErrorCode::unsupported) << e.what();
    EXPECT_NE(std::string(e.what()).find("DRN"), std::string::npos) << e.what();
    EXPECT_FALSE(std::filesystem::exists(drn)) << "a refused DRN file was left behind";
    return;
  }
  ModelPtr from_drn = load_model({drn}, "", {});
  EXPECT_EQ(from_drn->num_states(), original->num_states());
  EXPECT_EQ(from_drn->num_entries(), original->num_entries());
  EXPECT_EQ(from_drn->row_offsets(), original->row_offsets());
  EXPECT_EQ(from_drn->columns(), original->columns());
  EXPECT_EQ(from_drn->values(), original->values());
  // DRN names labels only on the states that carry them: empty labels are
  // lost and the order may change.
  for (const Label& label : original->labels()) {
    const Label* again = from_drn->find_label(label.name);
    if (label.states.count() == 0) continue;
    ASSERT_NE(again, nullptr) << label.name;
    EXPECT_TRUE(again->states == label.states) << label.name;
  }
  EXPECT_EQ(from_drn->rewards(), original->rewards());
}

INSTANTIATE_TEST_SUITE_P(Manifest, ManifestInstance, ::testing::ValuesIn(testing::manifest_instances(max_transitions())),
                         test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ManifestInstance);

// pctmc/README.md's table.
struct ParametricModel {
  std::string file;
  uint64_t states, transitions;
  std::vector<std::string> parameters;
};

class ParametricInstance : public ::testing::TestWithParam<ParametricModel> {};

TEST_P(ParametricInstance, LoadsAndRoundTrips) {
  if (testing::models_root().empty()) GTEST_SKIP() << testing::missing_models_message();
  const ParametricModel& expected = GetParam();
  ModelPtr model = load_model({testing::models_root() + "/pctmc/" + expected.file}, "", {});
  EXPECT_EQ(model->type(), ModelType::pctmc);
  EXPECT_EQ(model->num_states(), expected.states);
  EXPECT_EQ(model->num_entries(), expected.transitions);
  ASSERT_EQ(model->parameters().size(), expected.parameters.size());
  for (size_t k = 0; k < expected.parameters.size(); ++k) EXPECT_EQ(model->parameters()[k].name, expected.parameters[k]);
  EXPECT_EQ(model->coefficients().size(), model->num_entries() * expected.parameters.size());

  testing::TempDir dir;
  save_model(*model, dir.path("p.pmcb"), "");
  EXPECT_TRUE(load_model({dir.path("p.pmcb")}, "", {})->same_as(*model)) << ".drn -> .pmcb changed the model";
  save_model(*model, dir.path("p.drn"), "");
  EXPECT_TRUE(load_model({dir.path("p.drn")}, "", {})->same_as(*model)) << ".drn -> .drn changed the model";
}

INSTANTIATE_TEST_SUITE_P(Pctmc, ParametricInstance,
                         ::testing::Values(ParametricModel{"sir_100.drn", 5136, 9980, {"ki", "kr"}},
                                           ParametricModel{"sir_200.drn", 20246, 39910, {"ki", "kr"}},
                                           ParametricModel{"am_10_4.drn", 120, 273, {"k1", "k2", "k3"}}),
                         [](const auto& info) { return info.param.file.substr(0, info.param.file.find('.')); });

}  // namespace
}  // namespace pmc
