// gpu.param-bounds (Češka et al. 2017 §3.3–3.4) against cpu.param-bounds and
// PRISM's values at the reference points of $PMC_MODELS/pctmc (the
// reference models). Exit 77 (skipped) without a usable GPU; with one, every
// check below must hold: the CPU and GPU bounds agree to 1e-9 on every state,
// in both layouts, in every loop (a launch per step, fused steps, a block per
// region) and with the regions split over several launches; the bounds of
// every region around a reference point contain PRISM's value; synthesis
// through the GPU classifies as through the CPU.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <random>

#include "check/check.hpp"
#include "check/parametric.hpp"
#include "common/error.hpp"
#include "solver/gpu/gpu_solvers.hpp"
#include "support/manifest.hpp"
#include "support/pctmc.hpp"
#include "synth/synthesis.hpp"

namespace pmc {
namespace {

using testing::box_around;
using testing::load_pctmc;
using testing::sir_with_infected_reward;
using testing::pctmc_dir;

#define REQUIRE_MODELS()                                                        \
  if (pctmc_dir().empty()) GTEST_SKIP() << testing::missing_models_message(); \
  static_assert(true)

uint64_t initial(const Model& m) { return m.initial_states()->find_next(0); }

struct Query {
  ModelPtr model;
  std::string property;
  std::vector<double> centre;  // regions are drawn around it
};

std::vector<Query> queries() {
  return {
      {load_pctmc("am_10_4.drn"), R"(P=? [ F[100,100] "correct" ])", {3, 30, 60}},
      {load_pctmc("am_10_4.drn"), R"(P=? [ !"wrong" U<=2.5 "correct" ])", {10, 20, 5}},
      {load_pctmc("sir_100.drn"), R"(P=? [ "infected" U[100,120] "extinct" ])", {0.02, 0.05}},
      {load_pctmc("sir_100.drn"), R"(P=? [ F<=50 "extinct" ])", {0.0123, 0.0456}},
      {sir_with_infected_reward(), R"(R{"infected"}=? [ C<=30 ])", {0.02, 0.05}},
      {load_pctmc("sir_200.drn"), R"(P=? [ "infected" U[100,120] "extinct" ])", {0.02, 0.05}},
  };
}

// A point, and boxes of several sizes around and off the centre.
std::vector<ParamBox> boxes_around(const std::vector<double>& centre, std::mt19937& rng) {
  std::vector<ParamBox> boxes{ParamBox{centre, centre}};
  for (double h : {0.001, 0.01, 0.05, 0.2}) {
    std::vector<double> c = centre;
    for (double& v : c) v *= std::uniform_real_distribution<double>(0.8, 1.2)(rng);
    boxes.push_back(box_around(c, h));
  }
  return boxes;
}

// max over regions and states of |a − b| for both bounds.
double largest_difference(const std::vector<ParamBounds>& a, const std::vector<ParamBounds>& b) {
  EXPECT_EQ(a.size(), b.size());
  double worst = 0;
  for (size_t r = 0; r < std::min(a.size(), b.size()); ++r) {
    EXPECT_EQ(a[r].lower.size(), b[r].lower.size());
    EXPECT_EQ(a[r].iterations, b[r].iterations);
    for (size_t i = 0; i < std::min(a[r].lower.size(), b[r].lower.size()); ++i) {
      worst = std::max({worst, std::fabs(a[r].lower[i] - b[r].lower[i]), std::fabs(a[r].upper[i] - b[r].upper[i])});
    }
  }
  return worst;
}

TEST(GpuParamBounds, AgreesWithTheCpuOnEveryStateInEveryLayoutAndLoop) {
  REQUIRE_MODELS();
  std::mt19937 rng(2017);
  int compared = 0;
  for (const Query& q : queries()) {
    SCOPED_TRACE(q.property);
    const ParametricQuery pq = parametric_query(*q.model, q.property);
    const std::vector<ParamBox> boxes = boxes_around(q.centre, rng);
    std::vector<ParamBounds> cpu, gpu;
    param_bounds_cpu(pq.problem, boxes, cpu, SolverSettings{});
    ASSERT_EQ(cpu[0].lower.size(), q.model->num_states());
    for (GpuLayout layout : {GpuLayout::automatic, GpuLayout::thread_per_row, GpuLayout::ell}) {
      std::vector<ParamBounds> per_step;
      for (ParamGpuLoop loop :
           {ParamGpuLoop::automatic, ParamGpuLoop::per_step, ParamGpuLoop::fused, ParamGpuLoop::block}) {
        SolverSettings settings;
        settings.gpu_layout = layout;
        if (loop == ParamGpuLoop::block && q.model->num_states() > 8192) {
          // A region of sir_200 does not fit a block's shared memory.
          try {
            param_bounds_gpu(pq.problem, boxes, gpu, settings, loop);
            ADD_FAILURE() << "the block loop took " << q.model->num_states() << " states";
          } catch (const Error& e) {
            EXPECT_EQ(e.code(), ErrorCode::unsupported) << e.what();
          }
          continue;
        }
        const SolveStats stats = param_bounds_gpu(pq.problem, boxes, gpu, settings, loop);
        EXPECT_EQ(stats.solver, "gpu.param-bounds");
        // Every carried model fits the fused loop: automatic takes it or the block loop.
        const char* expected = loop == ParamGpuLoop::per_step ? "/per-step"
                               : loop == ParamGpuLoop::fused  ? "/fused"
                               : loop == ParamGpuLoop::block  ? "/block"
                               : q.model->num_states() <= 1024 ? "/block"
                                                               : "/fused";
        EXPECT_NE(stats.kernel.find(expected), std::string::npos) << stats.kernel << ", expected " << expected;
        EXPECT_LT(largest_difference(cpu, gpu), 1e-9) << "layout " << static_cast<int>(layout) << " " << stats.kernel;
        if (loop == ParamGpuLoop::per_step) per_step = gpu;
        if (loop == ParamGpuLoop::fused || loop == ParamGpuLoop::block) {
          EXPECT_LT(largest_difference(per_step, gpu), 1e-12) << "against the per-step loop, " << stats.kernel;
        }
        ++compared;
      }
    }
    // A memory limit that holds about two regions: the boxes go in
    // several launches and must come out the same, in both loops.
    SolverSettings tight;
    const uint64_t n = q.model->num_states();
    tight.gpu_memory_limit = pq.problem.num_entries() * 64 + n * 64 + 2 * (n * 64 + 256);
    for (ParamGpuLoop loop : {ParamGpuLoop::per_step, ParamGpuLoop::fused, ParamGpuLoop::block}) {
      if (loop == ParamGpuLoop::block && q.model->num_states() > 8192) continue;
      param_bounds_gpu(pq.problem, boxes, gpu, tight, loop);
      EXPECT_LT(largest_difference(cpu, gpu), 1e-9) << "in chunks, loop " << static_cast<int>(loop);
    }
  }
  EXPECT_EQ(compared, 69);  // 6 queries × 3 layouts × 4 loops, less sir_200's 3 block runs
}

TEST(GpuParamBounds, ContainEveryReferenceValue) {
  REQUIRE_MODELS();
  // Every reference point, the large-rate ones the CPU unit test leaves
  // out included: one launch per model holds all of its regions.
  int checked = 0;
  for (const auto& model_name : {"am_10_4.drn", "sir_100.drn", "sir_200.drn"}) {
    const ModelPtr m = load_pctmc(model_name);
    std::vector<ParamBox> boxes;
    std::vector<double> refs;
    std::string property;
    for (const testing::PctmcReference& r : testing::pctmc_references()) {
      if (r.model != model_name) continue;
      property = r.property;
      for (double h : {0.0, 0.01}) {
        boxes.push_back(box_around(testing::point_of(*m, r.point), h));
        refs.push_back(r.value);
      }
    }
    ParametricQuery q = parametric_query(*m, property);
    q.problem.keep_states = {initial(*m)};
    std::vector<ParamBounds> out;
    param_bounds_gpu(q.problem, boxes, out, SolverSettings{});
    for (size_t i = 0; i < boxes.size(); ++i) {
      SCOPED_TRACE(::testing::Message() << model_name << " reference " << refs[i] << " box " << i);
      EXPECT_LE(out[i].lower[0], refs[i] + 1e-7);
      EXPECT_GE(out[i].upper[0], refs[i] - 1e-7);
      if (i % 2 == 0) { EXPECT_LT(out[i].upper[0] - out[i].lower[0], 1e-7); }  // a point: the value itself
      ++checked;
    }
  }
  // Both boxes of every row of reference.tsv (19 rows when this was written).
  EXPECT_EQ(checked, 2 * static_cast<int>(testing::pctmc_references().size()));
  EXPECT_GE(checked, 38);
}

TEST(GpuParamBounds, SynthesisThroughTheGpuClassifiesAsTheCpu) {
  REQUIRE_MODELS();
  const ModelPtr m = load_pctmc("am_10_4.drn");
  const std::string property = R"(P>=0.9 [ F[10,10] "correct" ])";
  const std::vector<ParamRange> space{{"k1", 1, 5}, {"k2", 1, 5}, {"k3", 1, 5}};
  SynthesisOptions options;
  options.epsilon = 0.1;
  options.batch = 64;  // the same refinement order on both
  options.solver = "cpu.param-bounds";
  const SynthesisResult cpu = synthesize(*m, property, space, options);
  options.solver = "gpu.param-bounds";
  const SynthesisResult gpu = synthesize(*m, property, space, options);
  EXPECT_EQ(gpu.solver, "gpu.param-bounds");
  ASSERT_EQ(cpu.regions.size(), gpu.regions.size());
  for (size_t i = 0; i < cpu.regions.size(); ++i) {
    EXPECT_EQ(cpu.regions[i].region_class, gpu.regions[i].region_class) << "region " << i;
    EXPECT_EQ(cpu.regions[i].lower, gpu.regions[i].lower);
    EXPECT_NEAR(cpu.regions[i].value_lower, gpu.regions[i].value_lower, 1e-9);
    EXPECT_NEAR(cpu.regions[i].value_upper, gpu.regions[i].value_upper, 1e-9);
  }
  // Max synthesis on the epidemic model.
  const ModelPtr sir = load_pctmc("sir_100.drn");
  SynthesisOptions max;
  max.mode = SynthMode::maximum;
  max.epsilon = 0.05;
  max.solver = "gpu.param-bounds";
  const std::vector<ParamRange> box{{"ki", 0.0123, 0.02}, {"kr", 0.0456, 0.05}};
  const SynthesisResult best = synthesize(*sir, R"(P=? [ "infected" U[100,120] "extinct" ])", box, max);
  EXPECT_TRUE(best.converged);
  EXPECT_GE(best.optimum_upper, 0.3167506775667268 - 1e-7);  // PRISM at (0.0123, 0.0456)
  EXPECT_LE(best.optimum_upper - best.optimum_lower, 0.05 + 1e-12);
}

TEST(GpuParamBounds, CancelsAndRejectsBadSettings) {
  REQUIRE_MODELS();
  const ParametricQuery q = parametric_query(*load_pctmc("sir_100.drn"), R"(P=? [ F<=50 "extinct" ])");
  const std::vector<ParamBox> boxes{box_around({0.02, 0.05}, 0.1)};
  std::vector<ParamBounds> out;
  auto code = [&](const SolverSettings& settings) {
    try {
      param_bounds_gpu(q.problem, boxes, out, settings);
    } catch (const Error& e) {
      return e.code();
    }
    return ErrorCode::internal;
  };
  std::atomic<bool> cancel{true};
  SolverSettings cancelled;
  cancelled.cancel = &cancel;
  EXPECT_EQ(code(cancelled), ErrorCode::cancelled);
  SolverSettings warp;
  warp.gpu_layout = GpuLayout::warp_segments;
  EXPECT_EQ(code(warp), ErrorCode::invalid_argument);
  SolverSettings tiny;
  tiny.gpu_memory_limit = 4096;
  EXPECT_EQ(code(tiny), ErrorCode::out_of_memory);
  SolverSettings no_such_device;
  no_such_device.device = 99;
  EXPECT_EQ(code(no_such_device), ErrorCode::invalid_argument);
  try {
    param_bounds_gpu(q.problem, boxes, out, SolverSettings{}, static_cast<ParamGpuLoop>(7));
    ADD_FAILURE() << "an unknown loop was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument) << e.what();
  }
  // The device is fine afterwards.
  EXPECT_NO_THROW(param_bounds_gpu(q.problem, boxes, out, SolverSettings{}));
  EXPECT_LE(out[0].lower[0], out[0].upper[0]);
}

}  // namespace
}  // namespace pmc
