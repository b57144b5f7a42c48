// The GPU explorer (--build gpu) against the CPU's: the same model bit for
// bit — states in PRISM's order, rows, choices, actions, labels, rewards,
// valuations and warnings — on every source of the reference models and of
// examples/, on small sources that exercise each rule of PRISM's semantics,
// and the same errors with the same messages. Skipped (exit 77) without a
// GPU (gpu_test_main.cpp).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "check/check.hpp"
#include "common/error.hpp"
#include "formats/prism_language/prism_model.hpp"
#include "solver/device/device_selection.hpp"
#include "support/manifest.hpp"

namespace pmc::prism_language {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

ModelParts explore_with(const PrismModel& program, BuildDevice build, ExploreOptions options = {}) {
  options.build = build;
  return explore(program, options);
}

template <typename T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

void expect_same_model(const ModelParts& cpu, const ModelParts& gpu, const std::string& what) {
  EXPECT_EQ(cpu.num_states, gpu.num_states) << what;
  EXPECT_EQ(cpu.row_groups, gpu.row_groups) << what;
  EXPECT_EQ(cpu.row_offsets, gpu.row_offsets) << what;
  EXPECT_EQ(cpu.columns, gpu.columns) << what;
  EXPECT_TRUE(same_bits(cpu.values, gpu.values)) << what << ": the values differ in some bit";
  EXPECT_EQ(cpu.entry_actions, gpu.entry_actions) << what;
  EXPECT_EQ(cpu.action_names, gpu.action_names) << what;
  ASSERT_EQ(cpu.labels.size(), gpu.labels.size()) << what;
  for (size_t l = 0; l < cpu.labels.size(); ++l) {
    EXPECT_EQ(cpu.labels[l].name, gpu.labels[l].name) << what;
    EXPECT_TRUE(cpu.labels[l].states == gpu.labels[l].states) << what << ": label " << cpu.labels[l].name;
  }
  ASSERT_EQ(cpu.rewards.size(), gpu.rewards.size()) << what;
  for (size_t r = 0; r < cpu.rewards.size(); ++r) {
    EXPECT_TRUE(same_bits(cpu.rewards[r].state_rewards, gpu.rewards[r].state_rewards)) << what << ": reward " << r;
    EXPECT_TRUE(same_bits(cpu.rewards[r].transition_rewards, gpu.rewards[r].transition_rewards))
        << what << ": transition reward " << r;
  }
  EXPECT_TRUE(cpu.valuations == gpu.valuations) << what;
  EXPECT_EQ(cpu.warnings, gpu.warnings) << what;
}

constexpr const char* k_narrow = "explored on the CPU: the state space is too deep and narrow";

// Explores `source` with both explorers and compares; the GPU must have
// explored it (no fallback warning) — unless `narrow_allowed` and the GPU
// handed a deep, narrow state space to the CPU, which it says.
void expect_same_from_both(const PrismModel& program, const std::string& what, bool narrow_allowed = false) {
  const ModelParts cpu = explore_with(program, BuildDevice::cpu);
  ModelParts gpu = explore_with(program, BuildDevice::gpu);
  if (narrow_allowed) {
    std::erase_if(gpu.warnings, [&](const std::string& w) {
      const bool narrow = w.starts_with(k_narrow);
      if (narrow) std::printf("%s: %s\n", what.c_str(), w.c_str());
      return narrow;
    });
  }
  for (const std::string& warning : gpu.warnings) EXPECT_THAT(warning, Not(HasSubstr("explored on the CPU"))) << what;
  expect_same_model(cpu, gpu, what);
}

PrismModel program_of(const std::string& source) { return parse_program(source, "test.nm", {}); }

// The error exploring `program` with `build` throws.
std::string error_of(const PrismModel& program, BuildDevice build, ExploreOptions options = {}) {
  try {
    explore_with(program, build, options);
  } catch (const Error& e) {
    return fmt::format("{} {}", static_cast<int>(e.code()), e.what());
  }
  return "no error";
}

void expect_same_error(const std::string& source, ExploreOptions options = {}) {
  const PrismModel program = program_of(source);
  const std::string cpu = error_of(program, BuildDevice::cpu, options);
  EXPECT_NE(cpu, "no error") << source;
  EXPECT_EQ(cpu, error_of(program, BuildDevice::gpu, options)) << source;
}

// Every source among the reference models (model.{pm,sm,nm} of each
// instance, with the manifest's constants).
class ReferenceSources : public ::testing::TestWithParam<testing::ManifestRow> {};

TEST_P(ReferenceSources, GpuBuildsTheCpusModel) {
  const testing::ManifestRow& row = GetParam();
  std::string source;
  for (const char* name : {"model.pm", "model.sm", "model.nm"}) {
    if (std::filesystem::exists(row.directory() + "/" + name)) source = row.directory() + "/" + name;
  }
  if (source.empty()) GTEST_SKIP() << row.name() << " has no source";
  const PrismModel program = load_program(source, parse_constant_assignments(row.constants));
  // brp N256 is deep and narrow: the GPU may hand it to the CPU.
  expect_same_from_both(program, row.name(), true);
}

std::vector<testing::ManifestRow> reference_instances() {
  return testing::manifest_instances(testing::max_test_transitions(5'000'000));
}

INSTANTIATE_TEST_SUITE_P(Manifest, ReferenceSources, ::testing::ValuesIn(reference_instances()),
                         [](const auto& info) {
                           std::string name = info.param.model + "_" + info.param.instance;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

TEST(GpuExplorer, ExamplesGiveTheCpusModel) {
  const std::string examples = std::string(PMC_TEST_DATA_DIR) + "/../../examples";
  int sources = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(examples)) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".pm" && ext != ".sm" && ext != ".nm" && ext != ".prism") continue;
    const std::string file = entry.path().filename().string();
    const std::string constants = file == "consensus.nm" ? "K=2" : (file == "sir.sm" ? "ki=0.05,kr=0.04" : "");
    const PrismModel program = load_program(entry.path().string(), parse_constant_assignments(constants));
    expect_same_from_both(program, entry.path().string());
    ++sources;
  }
  EXPECT_GE(sources, 4);
}

TEST(GpuExplorer, SynchronisationNondeterminismRatesAndRewards) {
  // MDP: products of synchronising commands, in PRISM's order, with
  // transition rewards by action.
  expect_same_from_both(program_of(R"(mdp
module a
  x : [0..3];
  [s] x<3 -> 0.5 : (x'=x+1) + 0.5 : (x'=0);
  [s] x<2 -> (x'=x+2);
  [t] true -> 0.3 : (x'=0) + 0.7 : true;
  [] x=3 -> (x'=0);
endmodule
module b
  y : [0..2];
  [s] y<2 -> 0.4 : (y'=y+1) + 0.6 : (y'=0);
  [s] y=2 -> (y'=0);
  [t] y>0 -> (y'=y-1);
endmodule
rewards "r"
  [s] true : x+1;
  [t] y>0 : 2.5;
  true : y;
endrewards
)"), "mdp");
  // DTMC: several commands enabled (uniform, merged), weighted rewards.
  expect_same_from_both(program_of(R"(dtmc
module m
  x : [0..4];
  [a] x<4 -> 1/3 : (x'=x+1) + 2/3 : (x'=0);
  [b] x<4 -> 0.1 : (x'=x+1) + 0.9 : (x'=x);
  [] x=4 -> (x'=0);
endmodule
rewards
  [a] true : 1;
  [b] true : 10;
endrewards
)"), "dtmc");
  // CTMC: rates summed.
  expect_same_from_both(program_of(R"(ctmc
const double r = 1.7;
module m
  x : [0..5];
  [] x<5 -> r*x + 0.1 : (x'=x+1);
  [] x>0 -> 3 : (x'=x-1);
  [] x>2 -> 0.25 : (x'=x-1);
endmodule
rewards "t"
  [] x>1 : x/3;
endrewards
)"), "ctmc");
}

// Labels and state rewards are evaluated on the device where it computes
// them as the CPU does: bits across warps and Bitset words (103 × 7 states,
// not a multiple of 64), several state reward items summed in order, a
// guard false in some states; and on the host where it does not (pow of
// reals), the model the same either way.
TEST(GpuExplorer, LabelsAndStateRewardsAsTheCpus) {
  const std::string grid = R"(dtmc
module m
  x : [0..102];
  y : [0..6];
  [] x<102 -> 0.5 : (x'=x+1) + 0.5 : (y'=mod(y+1, 7));
  [] x=102 -> (x'=0);
endmodule
label "corner" = x=102 & y=6;
label "diagonal" = mod(x, 7)=y;
label "wide" = x>=17 | y=3;
label "none" = x<0;
rewards "cost"
  y>2 : x/7;
  true : 0.1*y;
  x=y : 1e-3;
endrewards
rewards "steps"
  [] true : 1;
endrewards
)";
  expect_same_from_both(program_of(grid), "device labels");
  std::string host = grid;
  host.replace(host.find("label \"none\" = x<0;"), std::string("label \"none\" = x<0;").size(),
               "label \"none\" = pow(1.5, x) < 1;");
  expect_same_from_both(program_of(host), "host labels");
}

// The explorer's rows of a DTMC or MDP stay on the device as the resident
// copy the GPU solvers use (no second upload); the check on it gives the
// same bits as on a fresh model that uploads its own. A CTMC's solvers use
// its embedded chain, so its rows are not kept.
TEST(GpuExplorer, RowsStayOnTheDeviceForTheSolvers) {
  const std::string key = device_chain_key(0);
  const char* walk = R"(mdp
module m
  x : [0..30];
  [] x<30 -> 0.6 : (x'=x+1) + 0.4 : (x'=max(x-2, 0));
  [] x<30 -> 0.3 : (x'=min(x+3, 30)) + 0.7 : (x'=0);
endmodule
label "goal" = x=30;
)";
  for (const std::string type : {"mdp", "dtmc"}) {
    std::string source = walk;
    if (type == "dtmc") source.replace(0, 3, "dtmc");
    ModelParts parts = explore_with(program_of(source), BuildDevice::gpu);
    ASSERT_NE(parts.device_rows, nullptr) << type;
    EXPECT_EQ(parts.device_rows_key, key) << type;
    const ModelPtr model = Model::create(std::move(parts));
    EXPECT_TRUE(model->has_derived(key)) << type;
    const ModelPtr fresh = Model::create(model->parts());
    EXPECT_FALSE(fresh->has_derived(key)) << type << ": parts() must not carry the device's rows";
    const std::string property = type == "mdp" ? "Pmin=? [ F \"goal\" ]" : "P=? [ F \"goal\" ]";
    CheckOptions gpu;
    gpu.solver = "gpu";
    const CheckResult kept = check(*model, property, gpu);
    const CheckResult uploaded = check(*fresh, property, gpu);
    EXPECT_NE(kept.kernel.find("resident"), std::string::npos) << type << ": " << kept.kernel;
    EXPECT_TRUE(kept.sound && kept.converged) << type;
    EXPECT_TRUE(same_bits(kept.lower, uploaded.lower) && same_bits(kept.upper, uploaded.upper)) << type;
    EXPECT_TRUE(fresh->has_derived(key)) << type << ": the fresh model uploaded its own copy";
  }
  const std::string ctmc = std::string("ctmc") + (walk + 3);
  EXPECT_EQ(explore_with(program_of(ctmc), BuildDevice::gpu).device_rows, nullptr);
}

TEST(GpuExplorer, LargeAndMultiWordStates) {
  // 2^20 states in chunks up to the largest, states of four words.
  expect_same_from_both(program_of(R"(dtmc
module m
  x : [0..127]; y : [0..127]; z : [0..63];
  [] true -> 0.25 : (x'=mod(x+1, 128)) + 0.25 : (y'=mod(y+1, 128)) + 0.25 : (z'=mod(z+1, 64)) + 0.25 : true;
endmodule
)"), "torus");
  expect_same_from_both(program_of(R"(mdp
module m
  a : [0..1000000000]; b : [0..1000000000]; c : [0..1000000000];
  d : [0..1000000000]; e : [0..1000000000]; f : [0..1000000000];
  g : [0..1000000000]; h : [0..3];
  [] h<3 -> 0.5 : (h'=h+1) & (a'=a+7*h) & (g'=999999999) + 0.5 : (h'=h+1) & (d'=1000000000 - h);
endmodule
)"), "four words");
}

// What exploring `program` with `build` prints with PMC_EXPLORE_TIMES set:
// the passes, and which explorer ran them.
std::string explorer_trace(const PrismModel& program, BuildDevice build, ModelParts& parts) {
  ::setenv("PMC_EXPLORE_TIMES", "1", 1);
  ::testing::internal::CaptureStderr();
  parts = explore_with(program, build);
  std::string trace = ::testing::internal::GetCapturedStderr();
  ::unsetenv("PMC_EXPLORE_TIMES");
  return trace;
}

// The default (auto): the CPU explores small models without waking the
// GPU, and hands larger ones (over 2^21 states) to it; the model is the
// CPU's either way.
TEST(GpuExplorer, AutoHandsLargeModelsToTheGpu) {
  const PrismModel large = program_of(R"(dtmc
module m
  x : [0..127]; y : [0..127]; z : [0..255];
  [] true -> 0.25 : (x'=mod(x+1, 128)) + 0.25 : (y'=mod(y+1, 128)) + 0.25 : (z'=mod(z+1, 256)) + 0.25 : true;
endmodule
label "corner" = x=127 & y=127;
)");
  ModelParts automatic;
  const std::string trace = explorer_trace(large, BuildDevice::automatic, automatic);
  EXPECT_THAT(trace, HasSubstr("handed over to the gpu"));
  EXPECT_THAT(trace, HasSubstr("assembled on the gpu"));
  EXPECT_EQ(automatic.num_states, 1u << 22);
  expect_same_model(explore_with(large, BuildDevice::cpu), automatic, "auto, large");

  const PrismModel small = program_of(R"(dtmc
module m
  x : [0..1000];
  [] x<1000 -> 0.5 : (x'=x+1) + 0.5 : (x'=0);
endmodule
)");
  ModelParts small_parts;
  const std::string small_trace = explorer_trace(small, BuildDevice::automatic, small_parts);
  EXPECT_THAT(small_trace, HasSubstr("pass 1 (cpu)"));
  EXPECT_THAT(small_trace, Not(HasSubstr("gpu")));
  EXPECT_EQ(small_parts.num_states, 1001u);
}

TEST(GpuExplorer, InitialStatesFromInitEndinit) {
  expect_same_from_both(program_of(R"(dtmc
module m
  x : [0..30];
  y : [0..30];
  [] x<30 -> (x'=x+1);
  [] x=30 & y<30 -> (y'=y+1);
endmodule
init x<10 & y=0 | x=5 endinit
)"), "init");
}

TEST(GpuExplorer, ErrorsAreTheCpusWithTheSameMessages) {
  expect_same_error(R"(mdp
module m
  x : [0..3];
  [] x<3 -> (x'=x+2);
endmodule
)");
  expect_same_error(R"(dtmc
module m
  x : [0..2];
  [] x=0 -> 0.5 : (x'=1) + 0.4 : (x'=2);
  [] x>0 -> true;
endmodule
)");
  expect_same_error(R"(mdp
module m
  x : [0..4];
  [] x<4 -> 0.5 : (x'=x+1) + 0.5-x/10 : (x'=0);
  [] x=4 -> true;
endmodule
)");
  expect_same_error(R"(ctmc
module m
  x : [0..2];
  [] x<2 -> 1-2*x : (x'=x+1);
endmodule
)");
  expect_same_error(R"(dtmc
module m
  x : [0..5];
  [] x<2 -> (x'=x+1);
  [] x=2 -> (x'=mod(x, x-2));
endmodule
)");
  expect_same_error(R"(dtmc
module m
  x : [0..1000];
  [] x<1000 -> (x'=x+1);
endmodule
rewards
  [] true : mod(x, x-7);
endrewards
)");
  // A label and a state reward that fail in one state: evaluated on the
  // device, then again on the host for the CPU's message.
  expect_same_error(R"(dtmc
module m
  x : [0..1000];
  [] x<1000 -> (x'=x+1);
endmodule
label "odd" = mod(x, x-300)=1;
)");
  expect_same_error(R"(dtmc
module m
  x : [0..1000];
  [] x<1000 -> (x'=x+1);
endmodule
rewards
  x>5 : mod(x, x-9);
endrewards
)");
  ExploreOptions strict;
  strict.model.strict = true;
  expect_same_error(R"(dtmc
module m
  x : [0..100];
  [] x<50 -> (x'=x+1);
endmodule
)", strict);
  ExploreOptions limited;
  limited.max_states = 1000;
  expect_same_error(R"(dtmc
module m
  x : [0..1000000];
  [] x<1000000 -> (x'=x+1);
endmodule
)", limited);
}

TEST(GpuExplorer, ProgramsBeyondTheDeviceAreExploredOnTheCpuWithAWarning) {
  const PrismModel program = program_of(R"(ctmc
module m
  x : [0..10];
  [] x<10 -> pow(1.5, x) : (x'=x+1);
endmodule
)");
  const ModelParts cpu = explore_with(program, BuildDevice::cpu);
  const ModelParts gpu = explore_with(program, BuildDevice::gpu);
  EXPECT_THAT(gpu.warnings, Contains(HasSubstr("explored on the CPU: test.nm:4:")));
  EXPECT_EQ(cpu.columns, gpu.columns);
  EXPECT_TRUE(same_bits(cpu.values, gpu.values));
}

// A long chain: one new state per breadth-first step. The GPU gives up
// after half a second and the CPU builds it.
TEST(GpuExplorer, DeepNarrowStateSpacesAreHandedToTheCpu) {
  const PrismModel program = program_of(R"(dtmc
module m
  x : [0..1048576];
  [] x<1048576 -> 0.5 : (x'=x+1) + 0.5 : (x'=max(0, x-1));
endmodule
)");
  const ModelParts cpu = explore_with(program, BuildDevice::cpu);
  const ModelParts gpu = explore_with(program, BuildDevice::gpu);
  EXPECT_THAT(gpu.warnings, Contains(HasSubstr(k_narrow)));
  EXPECT_EQ(gpu.num_states, 1048577u);
  EXPECT_TRUE(same_bits(cpu.values, gpu.values));
}

}  // namespace
}  // namespace pmc::prism_language
