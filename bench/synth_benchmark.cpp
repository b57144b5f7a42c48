// Parameter-synthesis benchmark (Češka et al. 2017, Tables 2–4):
//
// 1. Bounds throughput, as the seed's Table 4: one batch of R regions of the
//    epidemic model per solver call, R = 1 … 256, cpu.param-bounds on all
//    cores against gpu.param-bounds in its CSR and ELL layouts, same boxes,
//    same run, each layout in each loop (a launch per step, fused, a block
//    per region): uniformisation steps (summed over regions), seconds,
//    region-steps per second, the best variant's speedup and GB/s.
// 2. The seed's two synthesis problems end to end: epidemic max synthesis
//    (sir_100, k_i ∈ [0.005, 0.3], k_r ∈ [0.005, 0.2], "infected" U[100,120]
//    "extinct", ε = 1%) and approximate-majority threshold synthesis (am_10_4,
//    k1..k3 ∈ [1, 100], P>=0.95 [F[100,100] "correct"], ε = 10%). The GPU run
//    goes to the end; the CPU run too unless it passes --cpu-cap seconds.
//    Both use the same batch, so they refine the same regions in the same
//    order: a capped CPU run is compared with the GPU's time to the same
//    number of analysed regions (from the progress reports), and says so.
//
//   synth_benchmark [--models DIR] [--part bounds|synthesis|all] [--cpu-cap S] [--batch N]
//                   [--bounds-models sir_100,sir_200]\n#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "check/parametric.hpp"
#include "common/error.hpp"
#include "common/stopwatch.hpp"
#include "solver/device/devices.hpp"
#include "formats/model_files.hpp"
#include "solver/gpu/gpu_solvers.hpp"
#include "solver/param/param_solvers.hpp"
#include "solver/parallel.hpp"
#include "synth/synthesis.hpp"
#include "support/manifest.hpp"

namespace {

using pmc::ParamBounds;
using pmc::ParamBox;
using pmc::SolverSettings;

pmc::ModelPtr load(const std::string& file) {
  return pmc::load_model({pmc::testing::models_root() + "/pctmc/" + file}, "", {});
}

// Random boxes of the seed's epidemic space, each 1/64 of it per side (the
// size of the regions a synthesis run spends most of its time on).
std::vector<ParamBox> epidemic_boxes(size_t count, std::mt19937& rng) {
  const double lo[2] = {0.005, 0.005}, hi[2] = {0.3, 0.2};
  std::vector<ParamBox> boxes(count);
  for (ParamBox& b : boxes) {
    for (int k = 0; k < 2; ++k) {
      const double w = (hi[k] - lo[k]) / 64;
      const double x = std::uniform_real_distribution<double>(lo[k], hi[k] - w)(rng);
      b.lower.push_back(x);
      b.upper.push_back(x + w);
    }
  }
  return boxes;
}

uint64_t total_steps(const std::vector<ParamBounds>& out) {
  uint64_t steps = 0;
  for (const ParamBounds& b : out) steps += b.iterations;
  return steps;
}

double largest_difference(const std::vector<ParamBounds>& a, const std::vector<ParamBounds>& b) {
  double worst = 0;
  for (size_t r = 0; r < a.size(); ++r) {
    for (size_t i = 0; i < a[r].lower.size(); ++i) {
      worst = std::max({worst, std::abs(a[r].lower[i] - b[r].lower[i]), std::abs(a[r].upper[i] - b[r].upper[i])});
    }
  }
  return worst;
}

// One GPU variant on the boxes: seconds of the second of two runs (the first
// warms up the context and the allocator), and its GB/s; seconds < 0 where
// the variant cannot run (a region too large for the block loop).
struct GpuTiming {
  double seconds = -1, gbs = 0;
  std::string kernel;
};
GpuTiming time_gpu(const pmc::ParamBoundsProblem& problem, const std::vector<ParamBox>& boxes,
                   const std::vector<ParamBounds>& cpu, pmc::GpuLayout layout, pmc::ParamGpuLoop loop) {
  SolverSettings settings;
  settings.gpu_layout = layout;
  std::vector<ParamBounds> out;
  GpuTiming t;
  try {
    pmc::param_bounds_gpu(problem, boxes, out, settings, loop);
  } catch (const pmc::Error& e) {
    if (e.code() != pmc::ErrorCode::unsupported) throw;
    return t;
  }
  const auto start = std::chrono::steady_clock::now();
  const pmc::SolveStats stats = pmc::param_bounds_gpu(problem, boxes, out, settings, loop);
  t.seconds = pmc::seconds_since(start);
  t.kernel = stats.kernel;
  t.gbs = stats.bytes_per_iteration * static_cast<double>(stats.iterations) / stats.loop_seconds / 1e9;
  const double diff = largest_difference(cpu, out);
  if (diff > 1e-9) fmt::print("  !! {} and the CPU differ by {:.3g}\n", stats.kernel, diff);
  return t;
}

std::string seconds_cell(const GpuTiming& t) { return t.seconds < 0 ? "-" : fmt::format("{:.3f}", t.seconds); }

void bounds_part(const std::string& model_file, const std::vector<size_t>& region_counts, bool gpu) {
  const pmc::ModelPtr m = load(model_file);
  pmc::ParametricQuery q = pmc::parametric_query(*m, R"(P=? [ "infected" U[100,120] "extinct" ])");
  q.problem.keep_states = {m->initial_states()->find_next(0)};
  fmt::print("== bounds throughput: {} ({} states, {} transitions), {}\n", model_file, m->num_states(),
             q.problem.num_entries(), q.property);
  fmt::print("{:>5} {:>10} {:>8} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>8} {:>8} {:>9} {:>8} {:>10}\n", "R", "steps",
             "cpu s", "csr/step", "ell/step", "csr/fused", "ell/fused", "csr/block", "ell/block", "cpu Ms/s",
             "gpu Ms/s", "best/cpu", "best is", "best GB/s");
  std::mt19937 rng(2017);
  for (size_t regions : region_counts) {
    const std::vector<ParamBox> boxes = epidemic_boxes(regions, rng);
    std::vector<ParamBounds> cpu;
    auto start = std::chrono::steady_clock::now();
    pmc::param_bounds_cpu(q.problem, boxes, cpu, SolverSettings{});
    const double cpu_s = pmc::seconds_since(start);
    const uint64_t steps = total_steps(cpu);
    const double ms = static_cast<double>(steps) / 1e6;
    if (!gpu) {
      fmt::print("{:>5} {:>10} {:>8.3f} (no GPU)\n", regions, steps, cpu_s);
      continue;
    }
    using pmc::GpuLayout;
    using pmc::ParamGpuLoop;
    std::vector<GpuTiming> runs;
    for (ParamGpuLoop loop : {ParamGpuLoop::per_step, ParamGpuLoop::fused, ParamGpuLoop::block}) {
      for (GpuLayout layout : {GpuLayout::thread_per_row, GpuLayout::ell}) {
        runs.push_back(time_gpu(q.problem, boxes, cpu, layout, loop));
      }
    }
    const GpuTiming* best = &runs[0];
    for (const GpuTiming& t : runs) {
      if (t.seconds >= 0 && t.seconds < best->seconds) best = &t;
    }
    fmt::print("{:>5} {:>10} {:>8.3f} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>8.2f} {:>8.2f} {:>8.1f}x {:>8} {:>10.0f}\n",
               regions, steps, cpu_s, seconds_cell(runs[0]), seconds_cell(runs[1]), seconds_cell(runs[2]),
               seconds_cell(runs[3]), seconds_cell(runs[4]), seconds_cell(runs[5]), ms / cpu_s, ms / best->seconds,
               cpu_s / best->seconds, best->kernel, best->gbs);
    std::fflush(stdout);
  }
  fmt::print("(s: wall seconds of one solver call, upload and download included, - where the variant cannot run; "
             "Ms/s: million region-steps per second; best/cpu: the fastest GPU variant against cpu.param-bounds on "
             "all cores; GB/s: its bytes that must move per step (per-step loop: pattern and 64 B per state and "
             "region; fused: pattern and 32 B; block: the pattern per region) over its CUDA-event time)\n\n");
}

struct Run {
  pmc::SynthesisResult result;
  std::vector<pmc::SynthProgress> samples;  // (regions, seconds) as the run went
  double seconds = 0;
  bool capped = false;
};

Run synthesize(const pmc::Model& m, const std::string& property, const std::vector<pmc::ParamRange>& space,
               pmc::SynthesisOptions options, double cap) {
  Run run;
  std::atomic<bool> cancel{false};
  options.settings.cancel = &cancel;
  options.progress = [&](const pmc::SynthProgress& p) {
    run.samples.push_back(p);
    if (cap > 0 && p.seconds > cap) cancel = true;
  };
  const auto start = std::chrono::steady_clock::now();
  try {
    run.result = pmc::synthesize(m, property, space, options);
  } catch (const pmc::Error& e) {
    if (e.code() != pmc::ErrorCode::cancelled) throw;
    run.capped = true;
  }
  run.seconds = pmc::seconds_since(start);
  return run;
}

// Seconds a run took to analyse `regions` regions (linear between reports).
double seconds_at(const Run& run, uint64_t regions) {
  double prev_s = 0;
  uint64_t prev_r = 0;
  for (const pmc::SynthProgress& p : run.samples) {
    if (p.regions >= regions) {
      const double f = p.regions == prev_r ? 1.0 : double(regions - prev_r) / double(p.regions - prev_r);
      return prev_s + f * (p.seconds - prev_s);
    }
    prev_s = p.seconds;
    prev_r = p.regions;
  }
  return run.seconds;
}

void print_result(const char* who, const Run& run) {
  const pmc::SynthesisResult& r = run.result;
  if (run.capped) {
    const pmc::SynthProgress last = run.samples.empty() ? pmc::SynthProgress{} : run.samples.back();
    fmt::print("  {:<18} stopped at the cap: {} regions analysed in {:.1f} s\n", who, last.regions, last.seconds);
    return;
  }
  size_t counts[4] = {0, 0, 0, 0};
  for (const pmc::SynthRegion& g : r.regions) ++counts[static_cast<int>(g.region_class)];
  fmt::print("  {:<18} {:>8} final regions (true {}, false {}, undecided {}, optimum {}), {} analysed, "
             "{:.2f} s total, {:.2f} s in the solver, {} steps",
             who, r.regions.size(), counts[0], counts[1], counts[2], counts[3], r.regions_analysed, run.seconds,
             r.solver_seconds, r.iterations);
  if (r.mode == pmc::SynthMode::threshold) fmt::print(", undecided {:.2f}%", 100 * r.undecided_fraction);
  if (r.mode != pmc::SynthMode::threshold) fmt::print(", optimum in [{:.6f}, {:.6f}]", r.optimum_lower, r.optimum_upper);
  fmt::print("\n");
}

void synthesis_problem(const char* title, const std::string& model_file, const std::string& property,
                       const std::vector<pmc::ParamRange>& space, pmc::SynthesisOptions options, bool gpu, double cap) {
  const pmc::ModelPtr m = load(model_file);
  fmt::print("== {}: {} ({} states), {}, epsilon {}, batch {}\n", title, model_file, m->num_states(), property,
             options.epsilon, options.batch);
  Run gpu_run;
  if (gpu) {
    options.solver = "gpu.param-bounds";
    gpu_run = synthesize(*m, property, space, options, 0);
    print_result("gpu.param-bounds", gpu_run);
  }
  options.solver = "cpu.param-bounds";
  const Run cpu_run = synthesize(*m, property, space, options, cap);
  print_result(fmt::format("cpu.param-bounds/{}", pmc::solver_threads(options.settings)).c_str(), cpu_run);
  if (!gpu) return;
  if (!cpu_run.capped) {
    fmt::print("  speedup gpu over cpu: {:.1f}x end to end, {:.1f}x in the bounds solver\n",
               cpu_run.seconds / gpu_run.seconds, cpu_run.result.solver_seconds / gpu_run.result.solver_seconds);
  } else if (!cpu_run.samples.empty()) {
    const pmc::SynthProgress last = cpu_run.samples.back();
    const double gpu_s = seconds_at(gpu_run, last.regions);
    fmt::print("  speedup gpu over cpu on the first {} regions (same regions, same order): {:.1f}x "
               "(cpu {:.1f} s, gpu {:.2f} s)\n",
               last.regions, last.seconds / gpu_s, last.seconds, gpu_s);
  }
  fmt::print("\n");
}

}  // namespace

int main(int argc, char** argv) {
  std::string part = "all";
  double cap = 300;
  uint64_t batch = 256;
  std::string bounds_models = "sir_100,sir_200";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--models") setenv("PMC_MODELS", value.c_str(), 1);
    else if (flag == "--part") part = value;
    else if (flag == "--cpu-cap") cap = std::stod(value);
    else if (flag == "--batch") batch = std::stoull(value);
    else if (flag == "--bounds-models") bounds_models = value;
    else {
      fmt::print(stderr, "usage: synth_benchmark [--models DIR] [--part bounds|synthesis|all] [--cpu-cap S] "
                         "[--batch N] [--bounds-models sir_100,sir_200]\n");
      return 2;
    }
  }
  if (argc % 2 == 0) {
    fmt::print(stderr, "synth_benchmark: every option takes a value\n");
    return 2;
  }
  if (pmc::testing::models_root().empty()) {
    fmt::print(stderr, "synth_benchmark: {}\n", pmc::testing::missing_models_message());
    return 1;
  }
  const pmc::DeviceList& devices = pmc::discover_devices();
  const bool gpu = !devices.devices.empty();
  fmt::print("device: {}; CPU threads: {}\n\n", gpu ? devices.devices[0].name : "none (" + devices.problem + ")",
             pmc::solver_threads(SolverSettings{}));
  try {
    if (part == "bounds" || part == "all") {
      if (bounds_models.find("sir_100") != std::string::npos) bounds_part("sir_100.drn", {1, 4, 16, 64, 256}, gpu);
      // Four times the states: fewer region counts keep the CPU part short.
      if (bounds_models.find("sir_200") != std::string::npos) bounds_part("sir_200.drn", {4, 64}, gpu);
    }
    if (part == "synthesis" || part == "all") {
      pmc::SynthesisOptions options;
      options.batch = batch;
      options.mode = pmc::SynthMode::maximum;
      options.epsilon = 0.01;
      synthesis_problem("epidemic max synthesis (seed Table 2)", "sir_100.drn",
                        R"(P=? [ "infected" U[100,120] "extinct" ])", {{"ki", 0.005, 0.3}, {"kr", 0.005, 0.2}},
                        options, gpu, cap);
      options.mode = pmc::SynthMode::threshold;
      options.epsilon = 0.1;
      synthesis_problem("approximate majority threshold synthesis (seed Table 4)", "am_10_4.drn",
                        R"(P>=0.95 [ F[100,100] "correct" ])", {{"k1", 1, 100}, {"k2", 1, 100}, {"k3", 1, 100}},
                        options, gpu, cap);
    }
  } catch (const pmc::Error& e) {
    fmt::print(stderr, "synth_benchmark: {}\n", e.what());
    return 1;
  }
  return 0;
}
