// The whole check as a user runs it, by phase: synthetic DTMCs
// of 20M/80M transitions (banded or random columns), `P=? [ F "goal" ]`,
// through pmc::check with --solver cpu, gpu and auto, each on a fresh
// model (first property: the GPU uploads it) and then a second property on
// the same model (resident). Models are built before timing (no load).
//
//   whole_check_benchmark [--sizes 20,80] [--repeat 3] [--layouts banded,random] [--per-row 8]
//                         [--solvers cpu,gpu,auto]
//
// --solvers takes any --solver values (cpu.interval-vi, ...); the first is
// the one the others are compared with. Without gpu or auto among them no
// GPU is needed.
//
// Prints per size, layout and mode: the check's median seconds (min–max),
// the phases' medians, iterations, the loop's GB/s; then each mode against
// cpu. Medians over --repeat fresh models, after one warm-up check that
// starts CUDA (so start-up is reported where it happens, once, not in
// every figure).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "check/check.hpp"
#include "common/stopwatch.hpp"
#include "solver/device/devices.hpp"
#include "model/model.hpp"
#include "synthetic_systems.hpp"

namespace {

using namespace pmc;

// n transient states, each with `per_row` successors among them (0.9 of the
// mass; banded: within ±1024 of the state, random: anywhere), and the rest
// split between an absorbing "goal" and an absorbing sink.
ModelParts synthetic_chain(uint64_t entries, uint64_t per_row, bool banded, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint64_t n = entries / (per_row + 2);
  const uint64_t goal = n, sink = n + 1;
  ModelParts p;
  p.type = ModelType::dtmc;
  p.num_states = n + 2;
  p.row_offsets.reserve(n + 3);
  p.columns.reserve(n * (per_row + 2) + 2);
  p.values.reserve(n * (per_row + 2) + 2);
  p.row_offsets.push_back(0);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<uint32_t> cols;
  for (uint64_t i = 0; i < n; ++i) {
    bench::row_columns(i, n, per_row, banded, rng, cols);  // the rows bench/gpu_benchmark solves
    for (uint32_t c : cols) {
      p.columns.push_back(c);
      p.values.push_back(0.9 / static_cast<double>(per_row));
    }
    const double g = 0.1 * u(rng);
    p.columns.push_back(static_cast<uint32_t>(goal));
    p.values.push_back(g);
    p.columns.push_back(static_cast<uint32_t>(sink));
    p.values.push_back(0.1 - g);
    p.row_offsets.push_back(p.columns.size());
  }
  for (uint64_t s : {goal, sink}) {
    p.columns.push_back(static_cast<uint32_t>(s));
    p.values.push_back(1.0);
    p.row_offsets.push_back(p.columns.size());
  }
  Bitset init(n + 2), goal_set(n + 2), odd(n + 2);
  init.set(0);
  goal_set.set(goal);
  for (uint64_t s = 1; s < n; s += 2) odd.set(s);
  p.labels = {{"init", init}, {"goal", goal_set}, {"odd", odd}};
  return p;
}

struct Sample {
  double seconds = 0;
  PhaseTimings t;
  uint64_t iterations = 0;
  double gbps = 0;
  std::string solver, kernel;
  double value = 0;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

template <typename F>
std::vector<double> pick(const std::vector<Sample>& s, F f) {
  std::vector<double> out;
  for (const Sample& x : s) out.push_back(f(x));
  return out;
}

Sample run(const Model& model, const std::string& property, const std::string& solver) {
  CheckOptions options;
  options.solver = solver;
  const CheckResult r = check(model, property, options);
  Sample s;
  s.seconds = r.seconds;
  s.t = r.timings;
  s.iterations = r.iterations;
  s.gbps = r.solve_seconds > 0 ? r.bytes_per_iteration * static_cast<double>(r.iterations) / r.solve_seconds / 1e9 : 0;
  s.solver = r.solver_names();
  s.kernel = r.kernel;
  s.value = r.initial_value;
  return s;
}

void report(const char* label, const std::vector<Sample>& s, double cpu_median) {
  const auto secs = pick(s, [](const Sample& x) { return x.seconds; });
  const double med = median(secs);
  std::printf(
      "  %-14s %-18s %7.4f s (%.4f-%.4f) | startup %.4f precompute %.4f build %.4f transfer %.4f solve %.4f other "
      "%.4f | %llu it, %.0f GB/s | %.1fx cpu | value %.10g\n",
      label, s.front().solver.c_str(), med, *std::min_element(secs.begin(), secs.end()),
      *std::max_element(secs.begin(), secs.end()), median(pick(s, [](const Sample& x) { return x.t.gpu_startup; })),
      median(pick(s, [](const Sample& x) { return x.t.precompute; })),
      median(pick(s, [](const Sample& x) { return x.t.build; })),
      median(pick(s, [](const Sample& x) { return x.t.transfer; })),
      median(pick(s, [](const Sample& x) { return x.t.solve; })),
      median(pick(s, [](const Sample& x) { return x.t.other; })),
      static_cast<unsigned long long>(s.front().iterations), median(pick(s, [](const Sample& x) { return x.gbps; })),
      cpu_median > 0 ? cpu_median / med : 1.0, s.front().value);
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    out.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::string sizes = "20", layouts = "banded,random", solvers = "cpu,gpu,auto";
  int repeat = 3;
  uint64_t per_row = 8;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--sizes") sizes = argv[i + 1];
    else if (flag == "--repeat") repeat = std::max(1, std::atoi(argv[i + 1]));
    else if (flag == "--layouts") layouts = argv[i + 1];
    else if (flag == "--per-row") per_row = std::strtoull(argv[i + 1], nullptr, 10);
    else if (flag == "--solvers") solvers = argv[i + 1];
    else {
      std::fprintf(stderr, "unknown option %s\n", argv[i]);
      return 2;
    }
  }
  const std::vector<std::string> modes = split(solvers);
  const bool needs_gpu = std::any_of(modes.begin(), modes.end(), [](const std::string& m) {
    return m == "auto" || m.rfind("gpu", 0) == 0;
  });
  const DeviceList& devices = discover_devices();  // CUDA's start-up, once, before any figure
  if (devices.devices.empty() && needs_gpu) {
    std::fprintf(stderr, "whole_check_benchmark: no usable GPU (%s); --solvers without gpu or auto needs none\n",
                 devices.problem.c_str());
    return 1;
  }
  std::printf("GPU: %s\n", devices.devices.empty() ? "none" : devices.devices[0].name.c_str());
  const std::string first = "P=? [ F \"goal\" ]", second = "P=? [ \"odd\" U \"goal\" ]";
  for (const std::string& size : split(sizes)) {
    for (const std::string& layout : split(layouts)) {
      const auto build_start = std::chrono::steady_clock::now();
      const ModelParts parts = synthetic_chain(std::stoull(size) * 1000000, per_row, layout == "banded", 42);
      const double built = seconds_since(build_start);
      std::printf("\n%sM %s: %llu states, %llu transitions (built in %.1f s, not timed)\n", size.c_str(),
                  layout.c_str(), static_cast<unsigned long long>(parts.num_states),
                  static_cast<unsigned long long>(parts.num_entries()), built);
      double cpu_first = 0, cpu_second = 0;
      for (const std::string& mode : modes) {
        std::vector<Sample> firsts, seconds;
        for (int rep = 0; rep < repeat; ++rep) {
          const ModelPtr model = Model::create(parts);  // fresh: nothing resident
          firsts.push_back(run(*model, first, mode));
          seconds.push_back(run(*model, second, mode));
        }
        if (mode == modes.front()) {
          cpu_first = median(pick(firsts, [](const Sample& x) { return x.seconds; }));
          cpu_second = median(pick(seconds, [](const Sample& x) { return x.seconds; }));
        }
        report((mode + " first").c_str(), firsts, cpu_first);
        report((mode + " second").c_str(), seconds, cpu_second);
      }
    }
  }
  return 0;
}
