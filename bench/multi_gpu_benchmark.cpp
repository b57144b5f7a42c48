// Multi-GPU benchmark (run on the device machine): gpu.jacobi and gpu.vi on
// one GPU against the same solver with the rows split over 2, 4, … GPUs
// (NCCL and peer copies), and over 2 slices on one GPU (the cost of the
// split itself), all in the same run on the same problems.
//
// Problems: synthetic linear systems and MDPs of 20M+ non-zeros, "banded"
// (columns within ±1024 of the row: most rows interior to a slice) and
// "random" (uniform columns: every row reads other slices), plus the
// largest manifest models through the checker.
//
// Columns: GPUs, exchange, iterations, ms per iteration (host clock around
// the loop, after one warm-up solve), GB/s over the bytes one iteration must
// move (matrix slices, vectors, and the slices sent to the other GPUs), the
// speedup over one GPU and the scaling efficiency (speedup / GPUs).
//
//   multi_gpu_benchmark [--synthetic 20,80] [--iterations N] [--models DIR] [--min-transitions N]
#include <fmt/format.h>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "bench/synthetic_systems.hpp"
#include "check/check.hpp"
#include "common/error.hpp"
#include "solver/device/devices.hpp"
#include "solver/gpu/gpu_solvers.hpp"
#include "formats/model_files.hpp"
#include "support/manifest.hpp"

namespace {

using namespace pmc;

struct Config {
  std::string name;
  std::vector<int> devices;  // empty: the single-GPU solver
  GpuExchange exchange;
};

std::vector<Config> configs(int gpus) {
  std::vector<Config> out = {{"1 GPU", {}, GpuExchange::automatic},
                             {"1 GPU, 2 slices (copies)", {0, 0}, GpuExchange::copies}};
  for (int n = 2; n <= gpus; n *= 2) {
    std::vector<int> list;
    for (int d = 0; d < n; ++d) list.push_back(d);
    out.push_back({fmt::format("{} GPUs, NCCL", n), list, GpuExchange::nccl});
    out.push_back({fmt::format("{} GPUs, copies", n), list, GpuExchange::copies});
  }
  return out;
}

// GPUs a config occupies: two slices on GPU 0 are one GPU.
size_t gpus_used(const Config& config) {
  if (config.devices.empty()) return 1;
  const bool one_gpu = config.devices.size() == 2 && config.devices[0] == config.devices[1];
  return one_gpu ? 1 : config.devices.size();
}

struct Row {
  std::string config;
  size_t gpus = 1;
  SolveStats stats;
};

void print_header(const std::string& problem) {
  fmt::print("\n{}\n{:<28} {:>5} {:>10} {:>9} {:>8} {:>8} {:>10}  {}\n", problem, "config", "GPUs", "iterations",
             "ms/iter", "GB/s", "speedup", "efficiency", "kernel");
}

void print_row(const Row& row, double single_ms) {
  const double ms = 1e3 * row.stats.loop_seconds / std::max<uint64_t>(row.stats.iterations, 1);
  const double gbps = row.stats.bytes_per_iteration / (ms * 1e-3) / 1e9;
  const double speedup = single_ms / ms;
  fmt::print("{:<28} {:>5} {:>10} {:>9.3f} {:>8.0f} {:>7.2f}x {:>9.0f}%  {}\n", row.config, row.gpus,
             row.stats.iterations, ms, gbps, speedup, 100.0 * speedup / row.gpus, row.stats.kernel);
  std::fflush(stdout);
}

// Solves twice (warm-up, then measured) and returns the measured stats.
template <typename Solve>
SolveStats measured(Solve solve) {
  solve();
  return solve();
}

void bench_linear(const std::string& name, const LinearSystem& system, uint64_t iterations, int gpus) {
  print_header(fmt::format("{}: linear system, {} rows, {} non-zeros (gpu.jacobi)", name, system.a.num_rows(),
                           system.a.num_entries()));
  SolverSettings settings;
  settings.max_iterations = iterations;
  settings.epsilon = 1e-300;  // a fixed number of iterations
  double single_ms = 0;
  for (const Config& config : configs(gpus)) {
    try {
      const SolveStats stats = measured([&] {
        std::vector<double> x(system.b.size(), 0.0);
        return config.devices.empty() ? gpu_jacobi_linear(system, x, settings)
                                      : gpu_jacobi_partitioned(system, x, settings, config.devices, config.exchange);
      });
      if (config.devices.empty()) single_ms = 1e3 * stats.loop_seconds / stats.iterations;
      print_row({config.name, gpus_used(config), stats}, single_ms);
    } catch (const Error& e) {
      fmt::print("{:<28} error: {}\n", config.name, e.what());
    }
  }
}

void bench_mdp(const std::string& name, const MinMaxProblem& problem, uint64_t iterations, int gpus) {
  print_header(fmt::format("{}: MDP, {} states, {} choices, {} non-zeros (gpu.vi)", name, problem.num_unknowns(),
                           problem.a.num_rows(), problem.a.num_entries()));
  SolverSettings settings;
  settings.max_iterations = iterations;
  settings.epsilon = 1e-300;
  double single_ms = 0;
  for (const Config& config : configs(gpus)) {
    try {
      const SolveStats stats = measured([&] {
        MinMaxSolution solution;
        return config.devices.empty() ? gpu_value_iteration_without_collapse(problem, solution, settings)
                                      : gpu_value_iteration_partitioned(problem, solution, settings, config.devices,
                                                                        config.exchange, false);
      });
      if (config.devices.empty()) single_ms = 1e3 * stats.loop_seconds / stats.iterations;
      print_row({config.name, gpus_used(config), stats}, single_ms);
    } catch (const Error& e) {
      fmt::print("{:<28} error: {}\n", config.name, e.what());
    }
  }
}

// The largest manifest models, through the checker (precomputation and all;
// ms/iteration from the solver's loop).
void bench_manifest(uint64_t min_transitions, int gpus) {
  for (const auto& row : testing::manifest()) {
    if (row.transitions < min_transitions) continue;
    const bool bounded = row.property.find("<=") != std::string::npos || row.property.find("F[") != std::string::npos;
    const bool steady = row.property.rfind("S=?", 0) == 0;
    if (bounded || steady) continue;
    const ModelPtr model = load_model({row.transitions_file()}, "", {});
    print_header(fmt::format("{} {} ({} transitions)", row.name(), row.property, row.transitions));
    double single_ms = 0;
    for (const Config& config : configs(gpus)) {
      CheckOptions options;
      options.solver = row.type == "mdp" ? "gpu.vi" : "gpu.jacobi";
      options.settings.devices = config.devices;
      options.settings.gpu_exchange = config.exchange;
      try {
        check(*model, row.property, options);  // warm-up
        const CheckResult r = check(*model, row.property, options);
        SolveStats stats;
        stats.iterations = r.iterations;
        stats.loop_seconds = r.solve_seconds;
        stats.bytes_per_iteration = r.bytes_per_iteration;
        stats.kernel = fmt::format("{} (value {:.9g}, reference {:.9g})", r.kernel, r.initial_value,
                                   row.reference_value);
        if (config.devices.empty()) single_ms = 1e3 * stats.loop_seconds / std::max<uint64_t>(stats.iterations, 1);
        print_row({config.name, gpus_used(config), stats}, single_ms);
      } catch (const Error& e) {
        fmt::print("{:<28} error: {}\n", config.name, e.what());
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<uint64_t> millions = {20, 80};
  uint64_t iterations = 200, min_transitions = 1500000;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--synthetic") millions = value == "none" ? std::vector<uint64_t>{} : bench::synthetic_sizes(value);
    else if (flag == "--iterations") iterations = std::stoull(value);
    else if (flag == "--models") setenv("PMC_MODELS", value.c_str(), 1);
    else if (flag == "--min-transitions") min_transitions = std::stoull(value);
    else {
      fmt::print(stderr, "usage: multi_gpu_benchmark [--synthetic 20,80|none] [--iterations N] [--models DIR] "
                         "[--min-transitions N]\n");
      return 2;
    }
  }
  const DeviceList& list = discover_devices();
  if (list.devices.empty()) {
    fmt::print("no usable GPU: {}\n", list.problem);
    return 1;
  }
  const int gpus = static_cast<int>(list.devices.size());
  fmt::print("{} GPU(s): {}; {} iterations per run after one warm-up run\n", gpus, list.devices[0].name, iterations);
  std::mt19937_64 rng(2026);
  for (const uint64_t m : millions) {
    for (const bool banded : {true, false}) {
      const std::string name = fmt::format("synthetic {}M {}", m, banded ? "banded" : "random");
      bench_linear(name, bench::synthetic_system(m * 1000000, 8, banded, rng), iterations, gpus);
      bench_mdp(name, bench::synthetic_mdp(m * 1000000, 8, banded, rng), iterations, gpus);
    }
  }
  bench_manifest(min_transitions, gpus);
  return 0;
}
