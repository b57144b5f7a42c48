// Solver benchmark (docs/design.md §7): for each manifest property and each
// solver that applies, the median of several runs after a warm-up: iterations,
// seconds (whole check and the solver loop), seconds per iteration, bytes
// moved per iteration, achieved GB/s and its share of a copy's bandwidth
// measured in the same run (the host's for cpu.* solvers, the device's for
// gpu.*), and ratios against the first solver listed and against PRISM's
// -ex solve time from the manifest.
//
//   solver_benchmark [--models DIR] [--solvers a,b,...] [--types dtmc,ctmc,mdp]
//                    [--max-transitions N] [--min-transitions N] [--runs N] [--epsilon E]
//                    [--only MODEL[/INSTANCE],...]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "check/check.hpp"
#include "common/large_arrays.hpp"
#include "solver/device/devices.hpp"
#ifdef PMC_BENCH_CUDA
#include "bench/gpu_baseline.hpp"
#endif
#include "formats/model_files.hpp"
#include "solver/registry.hpp"
#include "support/manifest.hpp"

namespace {

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');) {
    if (!part.empty()) out.push_back(part);
  }
  return out;
}

bool time_bounded(const std::string& p) {
  return p.find("<=") != std::string::npos || p.find("F[") != std::string::npos || p.find("I=") != std::string::npos;
}

bool applies(const pmc::SolverEntry& s, const pmc::testing::ManifestRow& row) {
  using pmc::ProblemKind;
  const bool bounded = time_bounded(row.property);
  if (row.type == "mdp") return s.solves(bounded ? ProblemKind::min_max_steps : ProblemKind::min_max);
  if (bounded) return s.solves(ProblemKind::bounded_steps);
  return s.solves(ProblemKind::linear_system);
}

// A 1 GiB copy on every core the process may use, read + write counted,
// the median of five after a warm-up: the ceiling of the CPU solvers' loops,
// which stream the matrix on the same cores.
double host_copy_gbs() {
  const size_t bytes = size_t{1} << 30;
  std::vector<unsigned char> from(bytes, 1), to(bytes, 0);
  pmc::copy_in_parallel(to.data(), from.data(), bytes);
  std::vector<double> rates;
  for (int r = 0; r < 5; ++r) {
    const auto start = std::chrono::steady_clock::now();
    pmc::copy_in_parallel(to.data(), from.data(), bytes);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    rates.push_back(2.0 * static_cast<double>(bytes) / seconds / 1e9);
  }
  std::sort(rates.begin(), rates.end());
  return rates[rates.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> solvers, types = {"dtmc", "ctmc", "mdp"};
  uint64_t max_transitions = UINT64_MAX, min_transitions = 0;
  int runs = 3;
  double epsilon = 1e-6;
  std::vector<std::string> only;
  if (argc % 2 == 0) {  // every option takes a value: an odd word out is --help or a typo
    fmt::print(stderr,
               "usage: solver_benchmark [--models DIR] [--solvers a,b,...] [--types dtmc,ctmc,mdp]\n"
               "                        [--max-transitions N] [--min-transitions N] [--runs N] [--epsilon E]\n"
               "                        [--only MODEL[/INSTANCE],...]\n");
    return 2;
  }
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--models") setenv("PMC_MODELS", value.c_str(), 1);
    else if (flag == "--solvers") solvers = split(value);
    else if (flag == "--types") types = split(value);
    else if (flag == "--max-transitions") max_transitions = std::stoull(value);
    else if (flag == "--min-transitions") min_transitions = std::stoull(value);
    else if (flag == "--runs") runs = std::max(1, std::stoi(value));
    else if (flag == "--epsilon") epsilon = std::stod(value);
    else if (flag == "--only") only = split(value);
    else {
      fmt::print(stderr, "solver_benchmark: unknown option {}\n", flag);
      return 2;
    }
  }
  if (pmc::testing::models_root().empty()) {
    fmt::print(stderr, "solver_benchmark: {}\n", pmc::testing::missing_models_message());
    return 1;
  }
  if (solvers.empty()) {
    for (const auto& s : pmc::solver_registry()) solvers.push_back(s.name);
  }
  // The ceilings for the GB/s column, measured in this run.
  const auto any_of_kind = [&](const char* prefix) {
    return std::any_of(solvers.begin(), solvers.end(), [&](const std::string& s) { return s.rfind(prefix, 0) == 0; });
  };
  double host_ceiling = 0, device_ceiling = 0;
  if (any_of_kind("cpu.")) {
    host_ceiling = host_copy_gbs();
    fmt::print("host copy of 1 GiB on every core: {:.0f} GB/s (read + write)\n", host_ceiling);
  }
#ifdef PMC_BENCH_CUDA
  if (any_of_kind("gpu.") && !pmc::discover_devices().devices.empty()) {
    device_ceiling = pmc::bench::copy_bandwidth_gbs(uint64_t{1} << 30, pmc::SolverSettings{});
    fmt::print("device-to-device copy of 1 GiB: {:.0f} GB/s (read + write)\n", device_ceiling);
  }
#endif
  fmt::print("{:<22} {:<38} {:<18} {:>7} {:>9} {:>9} {:>10} {:>10} {:>8} {:>6} {:>8} {:>8}  {}\n", "model",
             "property", "solver", "iters", "total_s", "solve_s", "s/iter", "MB/iter", "GB/s", "%copy", "vs_1st",
             "vs_prism", "kernel");
  std::string loaded;
  pmc::ModelPtr model;
  for (const auto& row : pmc::testing::manifest()) {
    if (std::find(types.begin(), types.end(), row.type) == types.end()) continue;
    if (row.transitions > max_transitions || row.transitions < min_transitions) continue;
    if (!only.empty() && std::none_of(only.begin(), only.end(), [&](const std::string& o) {
          return o == row.model || o == row.name();
        })) {
      continue;
    }
    if (loaded != row.name()) {
      model = pmc::load_model({row.transitions_file()}, "", {});
      loaded = row.name();
    }
    double first_seconds = 0;
    for (const std::string& name : solvers) {
      const pmc::SolverEntry& solver = pmc::find_solver(name);
      if (!applies(solver, row)) continue;
      pmc::CheckOptions options;
      options.solver = name;
      options.settings.epsilon = epsilon;
      std::vector<pmc::CheckResult> results;
      try {
        pmc::check(*model, row.property, options);  // warm-up: device start, caches, derived data
        for (int r = 0; r < runs; ++r) results.push_back(pmc::check(*model, row.property, options));
      } catch (const std::exception& e) {
        fmt::print("{:<22} {:<38} {:<18} error: {}\n", row.name(), row.property.substr(0, 38), name, e.what());
        continue;
      }
      std::sort(results.begin(), results.end(),
                [](const auto& a, const auto& b) { return a.solve_seconds < b.solve_seconds; });
      const pmc::CheckResult& m = results[results.size() / 2];
      const double per_iter = m.iterations ? m.solve_seconds / m.iterations : 0;
      const double gbs = per_iter > 0 ? m.bytes_per_iteration / per_iter / 1e9 : 0;
      if (first_seconds == 0) first_seconds = m.seconds;
      const double error = std::isinf(row.reference_value)
                               ? (m.initial_value == row.reference_value ? 0 : 1)
                               : std::fabs(m.initial_value - row.reference_value) /
                                     std::max(std::fabs(row.reference_value), 1e-9);
      const double ceiling = name.rfind("gpu.", 0) == 0 ? device_ceiling : host_ceiling;
      fmt::print(
          "{:<22} {:<38} {:<18} {:>7} {:>9.4f} {:>9.4f} {:>10.3e} {:>10.2f} {:>8.1f} {:>6.0f} {:>8.2f} {:>8.2f}  {}{}\n",
          row.name(), row.property.substr(0, 38), name, m.iterations, m.seconds, m.solve_seconds, per_iter,
          m.bytes_per_iteration / 1e6, gbs, ceiling > 0 ? 100.0 * gbs / ceiling : 0.0, first_seconds / m.seconds,
          row.prism_seconds > 0 ? row.prism_seconds / m.seconds : 0.0, m.kernel,
          error > 1e-5 ? fmt::format(" WRONG (rel. error {:.1e})", error) : "");
      std::fflush(stdout);
    }
  }
  return 0;
}
