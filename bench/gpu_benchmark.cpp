// GPU benchmark (run on the device machine): pmc's GPU linear solvers
// against the cuSPARSE + CUB Jacobi a user could assemble, against pmc's CPU
// solvers on every core of the host, and against the device's copy
// bandwidth, all on the same linear systems in the same run.
//
// Systems: for each DTMC/CTMC property `... [ F "label" ]` of the manifest,
// reachability of the label (x = A·x + b over the states that are neither
// targets nor probability-0 states, as the checker builds it), plus
// synthetic systems with 5–80M non-zeros whose vectors do not fit the L2
// cache: "banded" (columns near the row, like a BFS-ordered model) and
// "random" (uniform columns).
//
// Columns: iterations, solve seconds (whole solve: upload, loop, download),
// ms per iteration (CUDA events around the loop; CPU: the loop), MB per
// iteration that must move (12 B per non-zero, 8 B per row offset, x, y and
// b: the same count for every solver), the GB/s that gives, its share of
// the measured copy bandwidth, the per-iteration ratio against cuSPARSE
// (> 1: faster) and the end-to-end speedup against the best CPU solver.
//
//   gpu_benchmark [--models DIR] [--min-transitions N] [--synthetic 5,20,80] [--epsilon E]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "bench/gpu_baseline.hpp"
#include "check/chain_matrices.hpp"
#include "common/stopwatch.hpp"
#include "solver/device/devices.hpp"
#include "formats/model_files.hpp"
#include "graph/bitset_ops.hpp"
#include "graph/dtmc_precomputation.hpp"
#include "solver/linear/cpu_solvers.hpp"
#include "solver/parallel.hpp"
#include "solver/registry.hpp"
#include "bench/synthetic_systems.hpp"
#include "support/manifest.hpp"

namespace {

using pmc::LinearSystem;
using pmc::SolverSettings;
using pmc::bench::synthetic_system;

struct Named {
  std::string name;
  LinearSystem system;
};

double bytes_needed(const LinearSystem& s) {
  const double n = static_cast<double>(s.b.size());
  return 12.0 * static_cast<double>(s.a.num_entries()) + 8.0 * (n + 1) + 24.0 * n;
}

// The label of `F "label"` in a property, or "" when it has another shape.
std::string reachability_label(const std::string& property) {
  const auto f = property.find("[ F \"");
  if (f == std::string::npos || property.find("<=") != std::string::npos) return "";
  const auto start = f + 5, end = property.find('"', start);
  return end == std::string::npos ? "" : property.substr(start, end - start);
}

LinearSystem reachability_system(const pmc::Model& model, const std::string& label) {
  const pmc::Label* target = model.find_label(label);
  if (target == nullptr) return {};
  const pmc::Bitset all = pmc::graph::bits::full(model.num_states());
  const pmc::Bitset zero = pmc::graph::prob0(model, all, target->states);
  pmc::Bitset unknowns(model.num_states());
  std::vector<double> known(model.num_states(), 0.0);
  for (uint64_t s = 0; s < model.num_states(); ++s) {
    if (target->states.test(s)) known[s] = 1.0;
    else if (!zero.test(s)) unknowns.set(s);
  }
  std::vector<uint32_t> index;
  return pmc::restrict_linear(pmc::probability_matrix(model), unknowns, known, {}, index);
}

const std::tuple<const char*, pmc::GpuLayout, bool> k_layout_variants[] = {
    {"/wseg", pmc::GpuLayout::warp_segments, false},
    {"/hwseg", pmc::GpuLayout::half_warp_segments, false},
    {"+bfs", pmc::GpuLayout::automatic, true},
    {"/wseg+bfs", pmc::GpuLayout::warp_segments, true},
};

struct Measured {
  std::string solver;
  uint64_t iterations = 0;
  bool converged = false;
  double seconds = 0, loop_seconds = 0;
  std::vector<double> x;
};

Measured run_registered(const std::string& name, const LinearSystem& system, const SolverSettings& settings) {
  Measured m;
  m.solver = name;
  m.x.assign(system.b.size(), 0.0);
  const pmc::SolveStats stats = pmc::find_solver(name).linear(system, m.x, settings);
  m.iterations = stats.iterations;
  m.converged = stats.converged;
  m.seconds = stats.seconds;
  m.loop_seconds = stats.loop_seconds > 0 ? stats.loop_seconds : stats.seconds;
  return m;
}

Measured run_cusparse(const LinearSystem& system, const SolverSettings& settings) {
  Measured m;
  m.solver = "cusparse+cub";
  const auto start = std::chrono::steady_clock::now();
  const pmc::bench::BaselineRun run = pmc::bench::cusparse_jacobi(system, m.x, settings);
  m.seconds = pmc::seconds_since(start);
  m.iterations = run.iterations;
  m.converged = run.converged;
  m.loop_seconds = run.loop_seconds;
  return m;
}

// Median (by loop time) of `runs` runs after one warm-up.
template <typename Run>
Measured median_of(int runs, Run run) {
  run();
  std::vector<Measured> all;
  for (int i = 0; i < runs; ++i) all.push_back(run());
  std::sort(all.begin(), all.end(), [](const Measured& a, const Measured& b) { return a.loop_seconds < b.loop_seconds; });
  return all[all.size() / 2];
}

double max_relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    worst = std::max(worst, std::fabs(a[i] - b[i]) / std::max(std::fabs(b[i]), 1e-9));
  }
  return a.size() == b.size() ? worst : INFINITY;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t min_transitions = 0;
  std::vector<uint64_t> synthetic_millions = {5, 20, 80};
  SolverSettings settings;
  settings.epsilon = 1e-6;
  int runs = 3;
  bool layouts = true;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--models") setenv("PMC_MODELS", value.c_str(), 1);
    else if (flag == "--min-transitions") min_transitions = std::stoull(value);
    else if (flag == "--synthetic") synthetic_millions = value == "none" ? std::vector<uint64_t>{} : pmc::bench::synthetic_sizes(value);
    else if (flag == "--epsilon") settings.epsilon = std::stod(value);
    else if (flag == "--runs") runs = std::max(1, std::stoi(value));
    else if (flag == "--layouts") layouts = value != "none";
    else {
      fmt::print(stderr, "usage: gpu_benchmark [--models DIR] [--min-transitions N] [--synthetic 5,20,80|none] "
                         "[--epsilon E] [--runs N] [--layouts all|none]\n");
      return 2;
    }
  }
  const pmc::DeviceList& devices = pmc::discover_devices();
  if (devices.devices.empty()) {
    fmt::print(stderr, "gpu_benchmark: no usable GPU ({})\n", devices.problem);
    return 1;
  }
  const double copy_gbs = pmc::bench::copy_bandwidth_gbs(uint64_t{1} << 30, settings);
  fmt::print("device: {}; device-to-device copy of 1 GiB: {:.0f} GB/s (read + write); CPU threads: {}\n",
             devices.devices[0].name, copy_gbs, pmc::solver_threads(settings));
  fmt::print("epsilon {} ({}), median of {} runs after a warm-up\n\n", settings.epsilon,
             settings.relative ? "relative" : "absolute", runs);

  std::vector<Named> systems;
  if (!pmc::testing::models_root().empty()) {
    std::string loaded;
    for (const auto& row : pmc::testing::manifest()) {
      if (row.type == "mdp" || row.transitions < min_transitions) continue;
      const std::string label = reachability_label(row.property);
      if (label.empty()) continue;
      const std::string name = row.name() + " F \"" + label + "\"";
      if (std::any_of(systems.begin(), systems.end(), [&](const Named& s) { return s.name == name; })) continue;
      const pmc::ModelPtr model = pmc::load_model({row.transitions_file()}, "", {});
      LinearSystem system = reachability_system(*model, label);
      if (system.b.empty()) continue;
      systems.push_back({name, std::move(system)});
    }
  }
  std::mt19937_64 rng(5);
  for (const uint64_t millions : synthetic_millions) {
    for (const bool banded : {true, false}) {
      systems.push_back({fmt::format("synthetic {}M {}", millions, banded ? "banded" : "random"),
                         synthetic_system(millions * 1000000, 8, banded, rng)});
    }
  }

  fmt::print("{:<42} {:>9} {:>11} {:<19} {:>6} {:>9} {:>9} {:>8} {:>7} {:>6} {:>8} {:>8}  {}\n", "system", "rows",
             "non-zeros", "solver", "iters", "solve_s", "ms/iter", "MB/iter", "GB/s", "%copy", "vs_cusp", "vs_cpu",
             "check");
  for (const Named& named : systems) {
    const LinearSystem& system = named.system;
    const double mb = bytes_needed(system) / 1e6;
    std::vector<Measured> results;
    for (const char* cpu : {"cpu.jacobi", "cpu.gauss-seidel"}) {
      results.push_back(median_of(1, [&] { return run_registered(cpu, system, settings); }));
    }
    results.push_back(median_of(runs, [&] { return run_cusparse(system, settings); }));
    for (const char* gpu : {"gpu.jacobi", "gpu.segscan-jacobi", "gpu.bicgstab"}) {
      try {
        results.push_back(median_of(runs, [&] { return run_registered(gpu, system, settings); }));
      } catch (const pmc::Error& e) {
        fmt::print("{:<42} {}: {}\n", named.name, gpu, e.what());
      }
    }
    // The Wijs–Bošnački layouts of gpu.jacobi: warp segments (/wseg), half-warp
    // segments (/hwseg), breadth-first renumbering (+bfs). MB/iter and GB/s
    // stay the CSR figures, so the segments' padding shows as lower GB/s.
    if (layouts) {
      for (const auto& [suffix, layout, bfs] : k_layout_variants) {
        SolverSettings variant = settings;
        variant.gpu_layout = layout;
        variant.bfs_reorder = bfs;
        Measured m = median_of(runs, [&] { return run_registered("gpu.jacobi", system, variant); });
        m.solver += suffix;
        results.push_back(std::move(m));
      }
    }
    const double best_cpu = std::min(results[0].seconds, results[1].seconds);
    const Measured& cusparse = results[2];
    const double cusparse_iter = cusparse.loop_seconds / std::max<uint64_t>(cusparse.iterations, 1);
    for (const Measured& m : results) {
      const double per_iter = m.loop_seconds / std::max<uint64_t>(m.iterations, 1);
      const double gbs = mb / 1e3 / per_iter;
      const double diff = max_relative_difference(m.x, results[1].x);
      fmt::print("{:<42} {:>9} {:>11} {:<19} {:>6} {:>9.4f} {:>9.4f} {:>8.1f} {:>7.0f} {:>5.0f}% {:>8.2f} {:>8.1f}  {}\n",
                 named.name, system.b.size(), system.a.num_entries(), m.solver, m.iterations, m.seconds,
                 per_iter * 1e3, mb, gbs, 100.0 * gbs / copy_gbs, cusparse_iter / per_iter, best_cpu / m.seconds,
                 !m.converged ? "NOT CONVERGED" : diff <= 1e-4 ? "ok" : fmt::format("differs {:.1e}", diff));
    }
  }
  return 0;
}
