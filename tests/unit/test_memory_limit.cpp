// The host memory limit (pmc_options_set_memory_limit,
// --memory-limit). A check, a load or an exploration that would need more
// than the limit fails with Error(out_of_memory) / PMC_ERROR_OUT_OF_MEMORY
// before allocating, the message giving the need, the limit and how to
// raise it; with the default limit (the machine's memory) they run as usual.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "check/check.hpp"
#include "check/memory_budget.hpp"
#include "common/cgroup_memory.hpp"
#include "common/error.hpp"
#include "common/memory_limit.hpp"
#include "common/stopwatch.hpp"
#include "formats/model_files.hpp"
#include "formats/prism_language/prism_model.hpp"
#include "model/model_memory.hpp"
#include "pmc/pmc.h"
#include "property/parser.hpp"
#include "solver/registry.hpp"
#include "support/temp_dir.hpp"

namespace pmc {
namespace {

using ::testing::AllOf;
using ::testing::AnyOf;
using ::testing::HasSubstr;
using ::testing::Not;

const std::string k_examples = std::string(PMC_TEST_DATA_DIR) + "/../../examples";
const std::string k_die = k_examples + "/die/die.tra";
const std::string k_consensus = k_examples + "/consensus/consensus.nm";
const std::string k_six = "P=? [ F \"six\" ]";

// The message of the Error(out_of_memory) that `work` throws.
template <typename Work>
std::string out_of_memory_message(Work work) {
  try {
    work();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::out_of_memory) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

CheckOptions limited(uint64_t bytes, const std::string& solver = "auto") {
  CheckOptions options;
  options.solver = solver;
  options.settings.memory_limit = bytes;
  return options;
}

void write_file(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

void write_gz(const std::string& path, const std::string& text) {
  gzFile out = gzopen(path.c_str(), "wb");
  ASSERT_NE(out, nullptr);
  gzwrite(out, text.data(), static_cast<unsigned>(text.size()));
  gzclose(out);
}

TEST(MemoryLimit, DefaultIsTheMachinesMemory) {
  const uint64_t machine = machine_memory_bytes();
  EXPECT_GT(machine, uint64_t{64} << 20);  // any machine that runs the tests
  EXPECT_EQ(effective_memory_limit(0), machine);
  EXPECT_EQ(effective_memory_limit(4096), 4096u);
  EXPECT_EQ(format_bytes(812), "812 bytes");
  EXPECT_EQ(format_bytes(1024), "1.0 KiB");
  EXPECT_EQ(format_bytes(uint64_t{3} << 29), "1.5 GiB");
  EXPECT_NO_THROW(require_memory(machine, 0, "all of it"));
  const std::string message = out_of_memory_message([&] { require_memory(machine + 1, 0, "one byte more"); });
  EXPECT_THAT(message, AllOf(HasSubstr("one byte more needs ~"), HasSubstr("memory limit of"),
                             HasSubstr("pmc_options_set_memory_limit(options, BYTES)"), Not(HasSubstr("--memory-limit"))));
}

// The headline: a 1 KiB limit refuses the check, naming need and limit; the
// same check with the default limit gives 1/6.
TEST(MemoryLimit, TinyLimitRefusesACheck) {
  const ModelPtr die = load_model({k_die}, "", {});
  const std::string message = out_of_memory_message([&] { check(*die, k_six, limited(1024)); });
  EXPECT_THAT(message, AllOf(HasSubstr("checking P=? [ F \"six\" ] needs ~"), HasSubstr("(model "),
                             HasSubstr("more than the memory limit of 1.0 KiB (as set)"), HasSubstr("pmc_options_set_memory_limit")));
  EXPECT_NEAR(check(*die, k_six, limited(0)).initial_value, 1.0 / 6, 1e-6);
  EXPECT_NEAR(check(*die, k_six).initial_value, 1.0 / 6, 1e-6);
}

// For every kind of computation: the estimate with every state unknown
// bounds the check (it passes at twice that); a limit just below what the
// operator holds before its problem fails at the operator ("checking ..."),
// and one just above it at the problem ("building ..."), both before
// anything of theirs is allocated.
TEST(MemoryLimit, EveryComputationIsEstimatedBeforeItRuns) {
  const ModelPtr die = load_model({k_die}, "", {});
  LoadOptions k2;
  k2.constants = "K=2";
  const ModelPtr mdp = load_model({k_consensus}, "", k2);
  ModelParts chain;
  chain.type = ModelType::ctmc;
  chain.num_states = 3;
  chain.row_offsets = {0, 1, 3, 3};
  chain.columns = {1, 0, 2};
  chain.values = {2.0, 1.0, 3.0};
  Bitset init(3), done(3);
  init.set(0);
  done.set(2);
  chain.labels = {{"init", init}, {"done", done}};
  const ModelPtr ctmc = Model::create(std::move(chain));
  struct Case {
    const Model* model;
    std::string property;
    Computation kind;
    bool problem;  // the precomputation leaves unknowns (else no problem is built)
  };
  const std::vector<Case> cases = {
      {die.get(), k_six, Computation::reachability, true},
      {die.get(), "P=? [ F<=5 \"six\" ]", Computation::bounded_steps, true},
      {die.get(), "S=? [ \"six\" ]", Computation::long_run, true},
      {ctmc.get(), "P=? [ F<=2.5 \"done\" ]", Computation::uniformisation, true},
      {ctmc.get(), "P=? [ F \"done\" ]", Computation::reachability, false},  // 1 everywhere
      {ctmc.get(), "S=? [ \"done\" ]", Computation::long_run, true},
      {mdp.get(), "Pmax=? [ F \"finished\" ]", Computation::mdp_reachability, false},  // 1 everywhere
      {mdp.get(), "Pmin=? [ F \"finished\" & !\"agree\" ]", Computation::mdp_reachability, true},
      {mdp.get(), "Pmin=? [ F<=10 \"finished\" ]", Computation::mdp_bounded_steps, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.property);
    const property::Property parsed = property::parse_property(c.property);
    const property::Operator& op = *parsed.top_operator();
    EXPECT_EQ(computation_of(*c.model, op), c.kind);
    const MemoryEstimate before = estimate_operator(*c.model, op, "auto", SolverSettings{});
    const MemoryEstimate whole = estimate_computation(c.kind, *c.model, whole_model(*c.model), "auto", SolverSettings{}, 10);
    const uint64_t n = c.model->num_states();
    EXPECT_EQ(before.model, model_bytes(*c.model));
    EXPECT_GE(before.results, 8 * n);
    EXPECT_EQ(before.problem, 0u);
    EXPECT_GE(whole.problem, 12 * c.model->num_entries());
    EXPECT_GT(whole.total(), before.total());
    EXPECT_NO_THROW(check(*c.model, c.property, limited(2 * whole.total())));
    EXPECT_THAT(out_of_memory_message([&] { check(*c.model, c.property, limited(before.total() - 1)); }),
                AllOf(HasSubstr("checking"), HasSubstr(format_bytes(before.total()))));
    if (c.problem) {
      EXPECT_THAT(out_of_memory_message([&] { check(*c.model, c.property, limited(before.total() + 1)); }),
                  HasSubstr("building the "));
    }
  }
}

TEST(MemoryLimit, EstimatesFollowTheSolverAndTheTimeBound) {
  const ModelPtr die = load_model({k_die}, "", {});
  const SolverSettings settings;
  // BiCGStab keeps nine vectors per unknown, Jacobi two.
  const ProblemShape all = whole_model(*die);
  EXPECT_EQ(estimate_computation(Computation::reachability, *die, all, "cpu.bicgstab", settings).solver -
                estimate_computation(Computation::reachability, *die, all, "cpu.jacobi", settings).solver,
            7u * 8 * die->num_states());
  EXPECT_EQ(estimate_solve(*die, find_solver("cpu.bicgstab"), ProblemKind::linear_system, 100, 100, 300, 0, settings)
                    .solver -
                estimate_solve(*die, find_solver("cpu.jacobi"), ProblemKind::linear_system, 100, 100, 300, 0, settings)
                    .solver,
            7u * 8 * 100);
  // Uniformisation: Fox–Glynn's window grows with sqrt(q·t).
  const MemoryEstimate near = estimate_computation(Computation::uniformisation, *die, all, "auto", settings, 1e2);
  const MemoryEstimate far = estimate_computation(Computation::uniformisation, *die, all, "auto", settings, 1e8);
  EXPECT_GT(far.solver - near.solver, uint64_t{8} * 100000);
}

TEST(MemoryLimit, ParametricInstantiationCountsTheCopy) {
  ModelParts p;
  p.type = ModelType::pctmc;
  p.num_states = 2;
  p.row_offsets = {0, 1, 1};
  p.columns = {1};
  p.values = {0.0};
  p.parameters = {Parameter{"k"}};
  p.coefficients = {1.0};
  Bitset init(2);
  init.set(0);
  p.labels = {{"init", init}};
  const ModelPtr model = Model::create(std::move(p));
  CheckOptions options = limited(64);
  options.parameters["k"] = 2.0;
  EXPECT_THAT(out_of_memory_message([&] { check(*model, "P=? [ F<=1 !\"init\" ]", options); }),
              HasSubstr("instantiating the parametric CTMC at k=2"));
}

// The C ABI: PMC_ERROR_OUT_OF_MEMORY with the message; the default passes.
TEST(MemoryLimit, CAbi) {
  pmc_model* model = nullptr;
  ASSERT_EQ(pmc_model_load(k_die.c_str(), nullptr, &model), PMC_OK);
  pmc_options* options = nullptr;
  ASSERT_EQ(pmc_options_create(&options), PMC_OK);
  EXPECT_EQ(pmc_options_set_memory_limit(nullptr, 1024), PMC_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(pmc_options_set_memory_limit(options, 1024), PMC_OK);
  pmc_result* result = nullptr;
  EXPECT_EQ(pmc_check(model, k_six.c_str(), options, &result), PMC_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(result, nullptr);
  EXPECT_THAT(std::string(pmc_last_error()),
              AllOf(HasSubstr("needs ~"), HasSubstr("memory limit of 1.0 KiB"), HasSubstr("pmc_options_set_memory_limit")));
  ASSERT_EQ(pmc_options_set_memory_limit(options, 0), PMC_OK);
  ASSERT_EQ(pmc_check(model, k_six.c_str(), options, &result), PMC_OK);
  double value = 0;
  ASSERT_EQ(pmc_result_initial_value(result, &value), PMC_OK);
  EXPECT_NEAR(value, 1.0 / 6, 1e-6);
  pmc_result_free(result);

  // Loads with options: a PRISM-language exploration and a CSR copy.
  ASSERT_EQ(pmc_options_set_memory_limit(options, 4096), PMC_OK);
  pmc_model* built = nullptr;
  EXPECT_EQ(pmc_model_build_prism(k_consensus.c_str(), "K=2", options, &built), PMC_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(built, nullptr);
  EXPECT_THAT(std::string(pmc_last_error()), AllOf(HasSubstr("consensus.nm"), HasSubstr("memory limit of 4.0 KiB")));
  const char* paths[] = {k_die.c_str()};
  ASSERT_EQ(pmc_options_set_memory_limit(options, 256), PMC_OK);
  EXPECT_EQ(pmc_model_load_files(paths, 1, nullptr, options, &built), PMC_ERROR_OUT_OF_MEMORY);
  const uint64_t offsets[] = {0, 1, 2}, columns[] = {1, 0};
  const double values[] = {1.0, 1.0};
  ASSERT_EQ(pmc_options_set_memory_limit(options, 64), PMC_OK);
  EXPECT_EQ(pmc_model_build_csr(PMC_MODEL_DTMC, 2, 2, nullptr, offsets, columns, values, options, &built),
            PMC_ERROR_OUT_OF_MEMORY);
  EXPECT_THAT(std::string(pmc_last_error()), HasSubstr("pmc_model_build_csr"));
  ASSERT_EQ(pmc_model_build_prism(k_consensus.c_str(), "K=2", nullptr, &built), PMC_OK);
  pmc_model_free(built);
  pmc_options_free(options);
  pmc_model_free(model);
}

// A header that claims billions of states or transitions in a tiny file
// fails at once, cleanly: no std::bad_alloc, no attempt to fill memory.
TEST(MemoryLimit, LyingHeadersFailBeforeAllocating) {
  testing::TempDir dir;
  const auto start = std::chrono::steady_clock::now();
  // Plain: implausible for the file's 19 bytes (a parse error, as before).
  write_file(dir.path("states.tra"), "4000000000 5\n0 1 1\n");
  try {
    load_model({dir.path("states.tra")}, "", {});
    ADD_FAILURE() << "loaded";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::parse);
    EXPECT_THAT(e.what(), HasSubstr("declares 4000000000 states but the input holds only 19 bytes"));
  }
  // Compressed, the file size says nothing: the memory limit decides.
  write_gz(dir.path("states.tra.gz"), "4000000000 1\n0 0 1\n");
  ModelOptions gigabyte;
  gigabyte.memory_limit = uint64_t{1} << 30;
  EXPECT_THAT(out_of_memory_message([&] { load_model({dir.path("states.tra.gz")}, "", gigabyte); }),
              AllOf(HasSubstr("states.tra.gz:1: the header's model"), HasSubstr("4000000000 states"),
                    HasSubstr("memory limit of 1.0 GiB")));
  write_gz(dir.path("transitions.tra.gz"), "3 1000000000000000\n0 1 1\n1 2 1\n2 2 1\n");
  EXPECT_THAT(out_of_memory_message([&] { load_model({dir.path("transitions.tra.gz")}, "", {}); }),
              AllOf(HasSubstr("1000000000000000 transitions"), HasSubstr("more than the memory limit of"),
                    HasSubstr("(this ")));  // the machine's memory or the cgroup's limit
  // Plausible for the file, too big for the limit.
  write_file(dir.path("million.tra"), "1000000 1\n0 0 1\n");
  ModelOptions megabyte;
  megabyte.memory_limit = uint64_t{1} << 20;
  EXPECT_THAT(out_of_memory_message([&] { load_model({dir.path("million.tra")}, "", megabyte); }),
              AllOf(HasSubstr("million.tra:1: the header's model"), HasSubstr("1000000 states")));
  EXPECT_EQ(load_model({dir.path("million.tra")}, "", {})->num_states(), 1000000u);
  // DRN's @nr_states, Storm's highest index, a .pmcb's sizes.
  write_file(dir.path("m.drn"),
             "@type: DTMC\n@value_type: double\n@nr_states\n100000000\n@nr_choices\n100000000\n@model\nstate 0\n"
             "\taction 0\n\t\t0 : 1\n");
  EXPECT_THAT(out_of_memory_message([&] { load_model({dir.path("m.drn")}, "", megabyte); }),
              AllOf(HasSubstr("m.drn"), HasSubstr("100000000 states")));
  write_file(dir.path("storm.tra"), "dtmc\n0 1 1\n1 900000 1\n");
  EXPECT_THAT(out_of_memory_message([&] { load_model({dir.path("storm.tra")}, "", megabyte); }),
              AllOf(HasSubstr("storm.tra:3"), HasSubstr("state index 900001")));
  save_model(*load_model({k_die}, "", {}), dir.path("die.pmcb"), "");
  ModelOptions tiny;
  tiny.memory_limit = 64;
  EXPECT_THAT(out_of_memory_message([&] { load_model({dir.path("die.pmcb")}, "", tiny); }),
              AllOf(HasSubstr("die.pmcb: the header's model"), HasSubstr("13 states")));
  EXPECT_LT(seconds_since(start), 5.0);
}

// A source whose exploration outgrows the limit stops with the states
// explored so far — on one thread and on several (no hang while the other
// threads wait for the table to grow).
TEST(MemoryLimit, ExplorationStopsWithTheStatesSoFar) {
  const std::string chain =
      "dtmc\nmodule m\n  x : [0..400000] init 0;\n  [] x<400000 -> (x'=x+1);\nendmodule\n";
  const prism_language::PrismModel program = prism_language::parse_program(chain, "chain.pm", {});
  for (unsigned threads : {1u, 2u}) {
    SCOPED_TRACE(threads);
    prism_language::ExploreOptions options;
    options.threads = threads;
    options.model.memory_limit = 3u << 20;
    const std::string message = out_of_memory_message([&] { prism_language::explore(program, options); });
    // The rows are recorded while exploring: whichever outgrows the limit
    // first, the table's growth or the rows, stops it.
    EXPECT_THAT(message, AllOf(HasSubstr("chain.pm: exploration stopped after "),
                               AnyOf(HasSubstr("growing the state store"), HasSubstr("holding the rows found so far")),
                               HasSubstr("memory limit of 3.0 MiB")));
  }
  // The default builds it.
  prism_language::ExploreOptions options;
  EXPECT_EQ(prism_language::explore(program, options).num_states, 400001u);
}

// The default limit comes from the process's own cgroup (/proc/self/cgroup),
// found through the cgroup file system's mount, and is the smallest along
// the cgroup and its ancestors: a fake /proc and /sys under a temporary
// root stand for the machine's.
class FakeCgroupRoot {
 public:
  void write(const std::string& relative, const std::string& text) {
    const std::filesystem::path path = std::filesystem::path(dir_.path("root")) / relative;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << text;
  }
  std::string root() const { return dir_.path("root"); }

 private:
  testing::TempDir dir_;
};

const char* const k_v2_mounts =
    "22 1 0:21 / /proc rw - proc proc rw\n"
    "31 23 0:28 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n";
const char* const k_v1_mounts =
    "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
    "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
    "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n";

TEST(CgroupMemory, V2LimitOfTheProcesssOwnChildCgroup) {
  FakeCgroupRoot fake;
  fake.write("proc/self/cgroup", "0::/user.slice/job.scope\n");
  fake.write("proc/self/mountinfo", k_v2_mounts);
  fake.write("sys/fs/cgroup/user.slice/memory.max", "max\n");
  fake.write("sys/fs/cgroup/user.slice/job.scope/memory.max", "1073741824\n");
  EXPECT_EQ(cgroup_memory_limit(fake.root()), 1073741824u);
}

TEST(CgroupMemory, V2AnAncestorsLimitBinds) {
  FakeCgroupRoot fake;
  fake.write("proc/self/cgroup", "0::/batch/job\n");
  fake.write("proc/self/mountinfo", k_v2_mounts);
  fake.write("sys/fs/cgroup/batch/memory.max", "2147483648\n");
  fake.write("sys/fs/cgroup/batch/job/memory.max", "max\n");
  EXPECT_EQ(cgroup_memory_limit(fake.root()), 2147483648u);
}

TEST(CgroupMemory, V1MemoryController) {
  FakeCgroupRoot fake;
  fake.write("proc/self/cgroup", "5:cpu,cpuacct:/\n4:memory:/process_api/abc\n0::/\n");
  fake.write("proc/self/mountinfo", k_v1_mounts);
  fake.write("sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");  // v1's "unlimited"
  fake.write("sys/fs/cgroup/memory/process_api/abc/memory.limit_in_bytes", "805306368\n");
  EXPECT_EQ(cgroup_memory_limit(fake.root()), 805306368u);
}

TEST(CgroupMemory, MountRootInsideTheHierarchy) {
  // A container's view: its mount shows /kubepods/pod1 at /sys/fs/cgroup.
  FakeCgroupRoot fake;
  fake.write("proc/self/cgroup", "0::/kubepods/pod1/ctr\n");
  fake.write("proc/self/mountinfo", "40 30 0:40 /kubepods/pod1 /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n");
  fake.write("sys/fs/cgroup/ctr/memory.max", "536870912\n");
  EXPECT_EQ(cgroup_memory_limit(fake.root()), 536870912u);
}

TEST(CgroupMemory, NoLimitAndGarbageGiveZero) {
  FakeCgroupRoot none;
  none.write("proc/self/cgroup", "0::/a\n");
  none.write("proc/self/mountinfo", k_v2_mounts);
  none.write("sys/fs/cgroup/a/memory.max", "max\n");
  EXPECT_EQ(cgroup_memory_limit(none.root()), 0u);

  FakeCgroupRoot garbage;
  garbage.write("proc/self/cgroup", "::::\n\n0::\nnot a line\n4:memory\n");
  garbage.write("proc/self/mountinfo", "- - -\n1 2 3\n31 23 0:28 / /sys/fs/cgroup rw - cgroup2\n");
  garbage.write("sys/fs/cgroup/memory.max", "-5\n");
  EXPECT_EQ(cgroup_memory_limit(garbage.root()), 0u);

  FakeCgroupRoot empty;  // no /proc at all: the mount point's own file
  empty.write("sys/fs/cgroup/memory.max", "3221225472\n");
  EXPECT_EQ(cgroup_memory_limit(empty.root()), 3221225472u);
}

}  // namespace
}  // namespace pmc
