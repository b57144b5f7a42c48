// Exploring through a model generator's C callbacks (pmc_model_explore)
// against the PRISM-language explorer (pmc_model_build_prism) on the same
// model, both through the C ABI in the same run: a random walk on a 3-D
// torus of side S (S^3 states, 6 transitions each), as a PRISM-language
// source and as a generator whose state is the bytes [x, y, z] — the same
// model bit for bit (checked here: counts, and the values of a property).
//
//   generator_benchmark [--side S] [--threads T] [--runs R] [--build cpu|auto]
//
// --build: the PRISM-language explorer's (default cpu: explorer against
// explorer on the same cores; auto hands models over 2^21 states to a GPU).
// Prints, per explorer, the median and range of R whole builds (wall
// seconds, from the call to the model), states/s, and the generator's rate
// as a fraction of the PRISM-language explorer's.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "pmc/pmc.h"

namespace {

int g_side = 120;

const char* k_source = R"(// A random walk on a 3-D torus of side S (generator_benchmark).
dtmc
const int S;
module walk
  x : [0..S-1] init 0;
  y : [0..S-1] init 0;
  z : [0..S-1] init 0;
  [] true -> 0.3 : (x'=mod(x+1, S)) + 0.1 : (x'=mod(x+S-1, S))
          + 0.2 : (y'=mod(y+1, S)) + 0.1 : (y'=mod(y+S-1, S))
          + 0.2 : (z'=mod(z+1, S)) + 0.1 : (z'=mod(z+S-1, S));
endmodule
label "corner" = x=S-1 & y=S-1 & z=S-1;
)";

int expand_torus(const void* state, uint64_t, pmc_expansion* e, void* user_data) {
  const uint64_t corner = *static_cast<const uint64_t*>(user_data);
  const auto* v = static_cast<const uint8_t*>(state);
  const int s = g_side;
  // PRISM's order of the branches does not matter: pmc merges and sorts.
  const double p[6] = {0.3, 0.1, 0.2, 0.1, 0.2, 0.1};
  for (int axis = 0; axis < 3; ++axis) {
    for (int direction = 0; direction < 2; ++direction) {
      uint8_t next[3] = {v[0], v[1], v[2]};
      next[axis] = static_cast<uint8_t>((v[axis] + (direction == 0 ? 1 : s - 1)) % s);
      pmc_expansion_add_transition(e, p[2 * axis + direction], next, 3);
    }
  }
  if (v[0] == s - 1 && v[1] == s - 1 && v[2] == s - 1) pmc_expansion_set_label(e, corner);
  return 0;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void require_ok(pmc_status status, const char* what) {
  if (status == PMC_OK) return;
  std::fprintf(stderr, "%s: %s\n", what, pmc_last_error());
  std::exit(1);
}

struct Counts {
  uint64_t states = 0, transitions = 0;
  double value = 0;
};

Counts counts_of(pmc_model* model) {
  Counts c;
  pmc_model_num_states(model, &c.states);
  pmc_model_num_transitions(model, &c.transitions);
  pmc_result* result = nullptr;
  require_ok(pmc_check(model, "P=? [ F<=10 \"corner\" ]", nullptr, &result), "check");
  pmc_result_initial_value(result, &c.value);
  pmc_result_free(result);
  return c;
}

struct Summary {
  double median, low, high;
};

Summary summarise(std::vector<double> times) {
  std::sort(times.begin(), times.end());
  return {times[times.size() / 2], times.front(), times.back()};
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t threads = 0;
  int runs = 3;
  std::string build = "cpu";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--side") g_side = std::atoi(argv[i + 1]);
    else if (flag == "--threads") threads = std::strtoull(argv[i + 1], nullptr, 10);
    else if (flag == "--runs") runs = std::atoi(argv[i + 1]);
    else if (flag == "--build") build = argv[i + 1];
    else {
      std::fprintf(stderr, "usage: generator_benchmark [--side S (2..256)] [--threads T] [--runs R] [--build cpu|auto]\n");
      return 2;
    }
  }
  if (g_side < 2 || g_side > 256 || runs < 1) {
    std::fprintf(stderr, "--side must be in 2..256 and --runs >= 1\n");
    return 2;
  }
  const std::filesystem::path source = std::filesystem::temp_directory_path() / "pmc_generator_benchmark_torus.pm";
  std::ofstream(source) << k_source;
  const std::string constants = "S=" + std::to_string(g_side);

  pmc_options* options = nullptr;
  pmc_options_create(&options);
  pmc_options_set_threads(options, threads);
  require_ok(pmc_options_set_build(options, build.c_str()), "--build");

  uint64_t corner = 0;
  pmc_generator* generator = nullptr;
  require_ok(pmc_generator_create(PMC_MODEL_DTMC, 3, expand_torus, &corner, &generator), "generator");
  pmc_generator_set_fixed_size(generator, 1);
  pmc_generator_set_thread_safe(generator, 1);
  const uint8_t origin[3] = {0, 0, 0};
  pmc_generator_add_initial_state(generator, origin, 3);
  pmc_generator_add_label(generator, "corner", &corner);

  std::vector<double> prism_times, generator_times;
  Counts prism_counts, generator_counts;
  for (int run = 0; run < runs; ++run) {
    pmc_model* model = nullptr;
    auto start = std::chrono::steady_clock::now();
    require_ok(pmc_model_build_prism(source.c_str(), constants.c_str(), options, &model), "pmc_model_build_prism");
    prism_times.push_back(seconds_since(start));
    if (run == 0) prism_counts = counts_of(model);
    pmc_model_free(model);

    model = nullptr;
    start = std::chrono::steady_clock::now();
    require_ok(pmc_model_explore(generator, options, &model), "pmc_model_explore");
    generator_times.push_back(seconds_since(start));
    if (run == 0) generator_counts = counts_of(model);
    pmc_model_free(model);
  }
  std::filesystem::remove(source);
  if (prism_counts.states != generator_counts.states || prism_counts.transitions != generator_counts.transitions ||
      prism_counts.value != generator_counts.value) {
    std::fprintf(stderr, "the models differ: %llu/%llu states, %llu/%llu transitions, values %.17g/%.17g\n",
                 static_cast<unsigned long long>(prism_counts.states),
                 static_cast<unsigned long long>(generator_counts.states),
                 static_cast<unsigned long long>(prism_counts.transitions),
                 static_cast<unsigned long long>(generator_counts.transitions), prism_counts.value,
                 generator_counts.value);
    return 1;
  }
  const Summary prism = summarise(prism_times), generated = summarise(generator_times);
  const double states = static_cast<double>(prism_counts.states);
  std::printf("3-D torus S=%d: %llu states, %llu transitions; threads %s; %d runs each (median [min, max])\n", g_side,
              static_cast<unsigned long long>(prism_counts.states),
              static_cast<unsigned long long>(prism_counts.transitions),
              threads == 0 ? "all cores" : std::to_string(threads).c_str(), runs);
  std::printf("  PRISM-language explorer (--build %s): %.3f s [%.3f, %.3f]  %.2fM states/s\n", build.c_str(), prism.median, prism.low, prism.high,
              states / prism.median / 1e6);
  std::printf("  generator (C callbacks): %.3f s [%.3f, %.3f]  %.2fM states/s\n", generated.median, generated.low,
              generated.high, states / generated.median / 1e6);
  std::printf("  generator / PRISM-language rate: %.2f\n", prism.median / generated.median);
  pmc_generator_free(generator);
  pmc_options_free(options);
  return 0;
}
