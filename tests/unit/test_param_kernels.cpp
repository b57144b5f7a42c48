// gpu.param-bounds' per-thread functions and launch sequence
// (cuda/param_kernels.hpp, lib/solver/gpu/param_chunk_plan.hpp), run on the
// CPU: every "launch" is a loop over all element ids, which is exact
// because a launch never reads what it writes. The results must equal
// cpu.param-bounds on every state, in the CSR and ELL layouts and with the
// regions split over several chunks. This checks the layouts, the region
// interleaving, the step parity and the phase handling of the GPU solver
// on machines without a GPU; the GPU tests
// (tests/gpu/test_gpu_param_bounds.cpp) check the device itself.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "check/parametric.hpp"
#include "cuda/param_kernels.hpp"
#include "solver/gpu/param_chunk_plan.hpp"
#include "solver/param/param_solvers.hpp"
#include "support/manifest.hpp"
#include "support/pctmc.hpp"

namespace pmc {
namespace {

namespace pk = param_kernels;
using testing::box_around;
using testing::load_pctmc;
using testing::sir_with_infected_reward;

#define REQUIRE_MODELS()                                                                  \
  if (testing::pctmc_dir().empty()) GTEST_SKIP() << testing::missing_models_message(); \
  static_assert(true)

// Elements per thread of the emulated fused and block loops.
constexpr int k_fused_elements = 2;
constexpr int k_block_elements = 4;

enum class Loop { per_step, fused, block };
const char* name(Loop loop) { return loop == Loop::per_step ? "per step" : loop == Loop::fused ? "fused" : "block"; }

// Host memory standing in for the device, and the launcher run_chunk drives:
// per step (a loop over the element ids per step), fused (emulated threads
// of k_fused_elements elements, every thread's step k done before any
// thread's step k + 1, as the grid barrier makes it) or block (per region,
// emulated threads of k_block_elements states over a "shared" copy, with
// the same ordering for the block barrier).
struct HostLauncher {
  const ParamBoundsProblem& p;
  bool ell;
  Loop loop;
  uint64_t later_slices = 0;  // steps() calls that start past step 1
  pk::EllPattern ell_data;
  pk::PatternView pattern{};
  const pk::ChunkPlan& plan;
  std::vector<uint64_t> kept;
  std::vector<double> lo0, lo1, hi0, hi1, res_lo, res_hi, out_lo, out_hi;
  pk::VectorsView v{};
  pk::RegionsView regions{};

  HostLauncher(const ParamBoundsProblem& problem, bool use_ell, Loop use_loop, const pk::ChunkPlan& chunk)
      : p(problem), ell(use_ell), loop(use_loop), plan(chunk) {
    const uint64_t n = p.num_states;
    pattern = {n, p.num_parameters, 0, p.row_offsets.data(), p.columns.data(), p.constants.data(),
               p.coefficients.data()};
    if (ell) {
      ell_data = pk::ell_pattern(p);
      pattern.ell_width = ell_data.width;
      pattern.offsets = nullptr;
      pattern.columns = ell_data.columns.data();
      pattern.constants = ell_data.constants.data();
      pattern.coefficients = ell_data.coefficients.data();
    }
    for (uint64_t s = 0; s < n; ++s) kept.push_back(s);
    for (auto* vec : {&lo0, &lo1, &hi0, &hi1, &res_lo, &res_hi}) vec->assign(n * plan.count, -7.0);  // garbage
    out_lo.assign(n * plan.count, 0.0);
    out_hi.assign(n * plan.count, 0.0);
    v = {{lo0.data(), lo1.data()}, {hi0.data(), hi1.data()}, res_lo.data(), res_hi.data()};
    regions = {plan.count, plan.lower.data(), plan.upper.data(), plan.inv_q.data()};
  }
  uint64_t elements() const { return p.num_states * plan.count; }
  pk::PhaseView phase(size_t ph) const {
    const pk::ChunkPlan::Phase& d = plan.phases[ph];
    return {p.phases[ph].active.data(), d.steps.data(), d.offset.data(), d.coefficients.data(),
            d.coefficient_sum.data(), d.widen.data()};
  }
  void start() {
    for (uint64_t id = 0; id < elements() + 5; ++id) pk::start(elements(), plan.count, p.x0.data(), v, id);
  }
  void start_phase(size_t ph, int zero) {
    for (uint64_t id = 0; id < elements() + 5; ++id) pk::start_phase(elements(), plan.count, phase(ph), zero, v, id);
  }
  void steps(size_t ph, uint32_t k_first, uint32_t k_last) {
    if (k_first > 1) ++later_slices;
    if (ell) {
      loop == Loop::fused   ? fused_steps<true>(ph, k_first, k_last)
      : loop == Loop::block ? block_steps<true>(ph, k_first, k_last)
                            : per_step<true>(ph, k_first, k_last);
    } else {
      loop == Loop::fused   ? fused_steps<false>(ph, k_first, k_last)
      : loop == Loop::block ? block_steps<false>(ph, k_first, k_last)
                            : per_step<false>(ph, k_first, k_last);
    }
  }
  template <bool Ell>
  void block_steps(size_t ph, uint32_t k_first, uint32_t k_last) {
    const uint64_t n = p.num_states;
    const auto threads = static_cast<uint32_t>((n + k_block_elements - 1) / k_block_elements);
    std::vector<double> shared(4 * n, -9.0);  // garbage
    const pk::SharedRegion sh{{shared.data(), shared.data() + n}, {shared.data() + 2 * n, shared.data() + 3 * n}};
    for (uint32_t r = 0; r < plan.count; ++r) {
      const uint32_t end = pk::block_end(phase(ph), r, k_last);
      if (end < k_first) continue;
      for (uint32_t t = 0; t < threads; ++t) pk::block_load(pattern, regions, v, sh, r, k_first, t, threads);
      std::vector<pk::BlockThread<Ell, k_block_elements>> block(threads);
      for (uint32_t t = 0; t < threads; ++t) block[t].load(pattern, regions, phase(ph), v, r, t, threads);
      for (uint32_t k = k_first; k <= end; ++k) {
        for (uint32_t t = 0; t < threads; ++t) block[t].step(pattern, regions, phase(ph), sh, r, t, threads, k);
      }
      for (uint32_t t = 0; t < threads; ++t) block[t].store(regions, v, sh, r, t, threads, end);
    }
  }
  template <bool Ell>
  void per_step(size_t ph, uint32_t k_first, uint32_t k_last) {
    for (uint32_t k = k_first; k <= k_last; ++k) {
      for (uint64_t id = 0; id < elements() + 5; ++id) {  // ids past the end, as a last partial block has
        pk::step<Ell>(pattern, regions, phase(ph), v, k, id);
      }
    }
  }
  template <bool Ell>
  void fused_steps(size_t ph, uint32_t k_first, uint32_t k_last) {
    // More threads than needed: the last ones own ids past the end only.
    const uint64_t stride = (elements() + k_fused_elements - 1) / k_fused_elements + 3;
    std::vector<pk::FusedThread<Ell, k_fused_elements>> threads(stride);
    for (uint64_t t = 0; t < stride; ++t) threads[t].load(pattern, regions, phase(ph), v, t, stride, k_first);
    for (uint32_t k = k_first; k <= k_last; ++k) {
      for (uint64_t t = 0; t < stride; ++t) threads[t].step(pattern, regions, phase(ph), v, t, stride, k);
    }
    for (uint64_t t = 0; t < stride; ++t) threads[t].store(v, t, stride, k_first);
  }
  void finish_phase(size_t ph, int probability) {
    for (uint64_t id = 0; id < elements() + 5; ++id) {
      pk::finish_phase(elements(), plan.count, phase(ph), probability, v, id);
    }
  }
  void gather() {
    for (uint64_t id = 0; id < kept.size() * plan.count + 5; ++id) {
      pk::gather(kept.size(), plan.count, kept.data(), lo0.data(), hi0.data(), out_lo.data(), out_hi.data(), id);
    }
  }
};

// The GPU solver's algorithm on the host, `chunk` regions per launch.
// `later_slices` counts the slices that started past step 1.
std::vector<ParamBounds> emulate(const ParamBoundsProblem& p, const std::vector<ParamBox>& boxes, bool ell, Loop loop,
                                 uint32_t chunk, uint64_t& later_slices) {
  std::vector<pk::RegionPlan> plans(boxes.size());
  for (size_t r = 0; r < boxes.size(); ++r) {
    plans[r].q = region_uniformisation_rate(p, boxes[r]);
    plans[r].phases = plan_phases(p, plans[r].q);
  }
  std::vector<ParamBounds> out(boxes.size());
  for (size_t first = 0; first < boxes.size(); first += chunk) {
    const auto count = static_cast<uint32_t>(std::min<size_t>(chunk, boxes.size() - first));
    pk::ChunkPlan plan;
    EXPECT_TRUE(pk::plan_chunk(p, boxes, plans, first, count, plan));
    HostLauncher launch(p, ell, loop, plan);
    pk::run_chunk(p, plan, launch);
    later_slices += launch.later_slices;
    for (uint32_t r = 0; r < count; ++r) {
      for (uint64_t i = 0; i < p.num_states; ++i) {
        out[first + r].lower.push_back(launch.out_lo[i * count + r]);
        out[first + r].upper.push_back(launch.out_hi[i * count + r]);
      }
    }
  }
  return out;
}

TEST(ParamKernels, EqualCpuParamBoundsOnEveryStateInBothLayoutsEveryLoopAndInChunks) {
  REQUIRE_MODELS();
  struct Query {
    ModelPtr model;
    std::string property;
    std::vector<double> centre;
  };
  const std::vector<Query> queries = {
      {load_pctmc("am_10_4.drn"), R"(P=? [ F[10,10] "correct" ])", {3, 30, 60}},
      {load_pctmc("am_10_4.drn"), R"(P=? [ !"wrong" U<=2.5 "correct" ])", {10, 20, 5}},
      {load_pctmc("sir_100.drn"), R"(P=? [ "infected" U[5,8] "extinct" ])", {0.02, 0.05}},
      {load_pctmc("sir_100.drn"), R"(P=? [ F<=3 "extinct" ])", {0.0123, 0.0456}},
      {sir_with_infected_reward(), R"(R{"infected"}=? [ C<=2 ])", {0.02, 0.05}},
  };
  std::mt19937 rng(7);
  uint64_t later_slices = 0;
  for (const Query& q : queries) {
    SCOPED_TRACE(q.property);
    const ParametricQuery pq = parametric_query(*q.model, q.property);
    // A point and boxes of different sizes: the regions need different
    // numbers of steps, so some idle while others go on.
    std::vector<ParamBox> boxes{ParamBox{q.centre, q.centre}};
    for (double h : {0.01, 0.3, 0.05, 0.6}) {
      std::vector<double> c = q.centre;
      for (double& x : c) x *= std::uniform_real_distribution<double>(0.7, 1.3)(rng);
      boxes.push_back(box_around(c, h));
    }
    std::vector<ParamBounds> cpu;
    param_bounds_cpu(pq.problem, boxes, cpu, SolverSettings{});
    for (bool ell : {false, true}) {
      for (Loop loop : {Loop::per_step, Loop::fused, Loop::block}) {
        for (uint32_t chunk : {5u, 2u}) {
        const std::vector<ParamBounds> emulated = emulate(pq.problem, boxes, ell, loop, chunk, later_slices);
        double worst = 0;
        for (size_t r = 0; r < boxes.size(); ++r) {
          ASSERT_EQ(emulated[r].lower.size(), cpu[r].lower.size());
          for (size_t i = 0; i < cpu[r].lower.size(); ++i) {
            worst = std::max({worst, std::fabs(emulated[r].lower[i] - cpu[r].lower[i]),
                              std::fabs(emulated[r].upper[i] - cpu[r].upper[i])});
          }
        }
        EXPECT_LT(worst, 1e-12) << (ell ? "ell, " : "csr, ") << name(loop) << ", " << chunk << " regions per launch";
        }
      }
    }
    // The bounds are not trivial: the wide boxes leave a gap.
    EXPECT_GT(cpu[4].upper[q.model->initial_states()->find_next(0)] - cpu[4].lower[q.model->initial_states()->find_next(0)], 1e-6);
  }
  // Some phases are longer than one slice: the fused and block loops' sums
  // go through memory between slices and must come back unchanged.
  EXPECT_GT(later_slices, 0u);
}

TEST(ParamKernels, EllPaddingIsAZeroRateSelfLoop) {
  ParamBoundsProblem p;
  p.num_states = 3;
  p.num_parameters = 1;
  p.row_offsets = {0, 2, 2, 3};
  p.columns = {1, 2, 0};
  p.constants = {1, 2, 3};
  p.coefficients = {0.5, -1, 2};
  const pk::EllPattern e = pk::ell_pattern(p);
  ASSERT_EQ(e.width, 2u);
  // Column-major: entry j of row s at j·n + s.
  EXPECT_EQ(e.columns, (std::vector<uint32_t>{1, 1, 0, 2, 1, 2}));
  EXPECT_EQ(e.constants, (std::vector<double>{1, 0, 3, 2, 0, 0}));
  EXPECT_EQ(e.coefficients, (std::vector<double>{0.5, 0, 2, -1, 0, 0}));
}

}  // namespace
}  // namespace pmc
