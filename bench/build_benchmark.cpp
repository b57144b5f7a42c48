// Build-rate benchmark: PRISM-language sources explored into
// models, per model the median and range of the build's wall time over
// --repeat runs, states/s, transitions/s and the process's peak RSS.
//
//   bench/build_benchmark [--threads N] [--repeat R] [--models-dir DIR] [MODEL[:CONSTANTS]...]
//
// MODEL is "name/instance" under the models directory (PMC_MODELS, else
// the build's default) whose model.{pm,sm,nm} is built, or a path to a
// source; CONSTANTS as for --const ("K=2"). Without MODEL: consensus
// N6_K2, leader_async N7, wlan M5_C2 and herman N13 with the manifest's
// constants. Peak RSS is the process's (ru_maxrss), so it only grows from
// one model to the next: run one model per process for per-model memory.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/stopwatch.hpp"
#include "formats/prism_language/prism_model.hpp"

namespace {

struct Target {
  std::string label;
  std::string path;
  std::string constants;
};

std::string models_dir(const std::string& given) {
  if (!given.empty()) return given;
  if (const char* env = std::getenv("PMC_MODELS"); env != nullptr && *env != '\0') return env;
  return PMC_DEFAULT_MODELS_DIR;
}

// "consensus/N6_K2" → its model.pm/.sm/.nm; anything else is a path.
std::string source_of(const std::string& dir, const std::string& name) {
  if (std::filesystem::is_regular_file(name)) return name;
  for (const char* ext : {"pm", "sm", "nm"}) {
    const std::string p = fmt::format("{}/{}/model.{}", dir, name, ext);
    if (std::filesystem::is_regular_file(p)) return p;
  }
  pmc::fail(pmc::ErrorCode::io, "{}: no model.pm/.sm/.nm under {} and no such file", name, dir);
}

double peak_rss_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux: KiB
}

[[noreturn]] void usage_error(const std::string& message) {
  fmt::print(stderr, "build_benchmark: {}\nusage: build_benchmark [--threads N] [--repeat R] [--models-dir DIR] "
                     "[MODEL[:CONSTANTS]...]\n", message);
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  unsigned threads = 0;
  int repeat = 3;
  std::string dir_arg;
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage_error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--threads") {
      threads = static_cast<unsigned>(std::stoul(value()));
    } else if (a == "--repeat") {
      repeat = std::max(1, std::stoi(value()));
    } else if (a == "--models-dir") {
      dir_arg = value();
    } else if (a.rfind("--", 0) == 0) {
      usage_error("unknown option " + a);
    } else {
      names.push_back(a);
    }
  }
  if (names.empty()) names = {"consensus/N6_K2:K=2", "leader_async/N7", "wlan/M5_C2:COL=2", "herman/N13"};
  const std::string dir = models_dir(dir_arg);

  fmt::print("# build_benchmark: threads {} (0 = OpenMP's default), repeat {}\n", threads, repeat);
  fmt::print("{:<22} {:>10} {:>12} {:>9} {:>19} {:>12} {:>12} {:>10}\n", "model", "states", "transitions", "median_s",
             "min-max_s", "states/s", "trans/s", "peak_MiB");
  int status = 0;
  for (const std::string& spec : names) {
    const size_t colon = spec.find(':');
    Target t{spec.substr(0, colon), "", colon == std::string::npos ? "" : spec.substr(colon + 1)};
    try {
      t.path = source_of(dir, t.label);
      const auto constants = pmc::prism_language::parse_constant_assignments(t.constants);
      pmc::prism_language::ExploreOptions options;
      options.threads = threads;
      std::vector<double> seconds;
      uint64_t states = 0, transitions = 0;
      for (int r = 0; r < repeat; ++r) {
        const auto start = std::chrono::steady_clock::now();
        pmc::ModelPtr model = pmc::prism_language::build_model_from_source(t.path, constants, options);
        seconds.push_back(pmc::seconds_since(start));
        states = model->num_states();
        transitions = model->num_entries();
      }
      std::sort(seconds.begin(), seconds.end());
      const size_t n = seconds.size();
      const double median = n % 2 == 1 ? seconds[n / 2] : (seconds[n / 2 - 1] + seconds[n / 2]) / 2;
      fmt::print("{:<22} {:>10} {:>12} {:>9.3f} {:>19} {:>12.3g} {:>12.3g} {:>10.1f}\n", t.label, states, transitions,
                 median, fmt::format("{:.3f}-{:.3f}", seconds.front(), seconds.back()), states / median,
                 transitions / median, peak_rss_mib());
      std::fflush(stdout);
    } catch (const std::exception& e) {
      fmt::print(stderr, "{}: {}\n", t.label, e.what());
      status = 1;
    }
  }
  return status;
}
