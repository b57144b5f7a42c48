#include "settings.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/error.hpp"
#include "common/memory_limit.hpp"
#include "solver/registry.hpp"

namespace pmc::shell {

namespace {

double parse_number(std::string_view what, std::string_view text) {
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    fail(ErrorCode::invalid_argument, "{}: {} is not a number", what, quote_for_message(text));
  }
  return value;
}

// An integer in [lo, hi], or an error saying what it must be.
uint64_t parse_integer(std::string_view what, std::string_view text, double lo, double hi, std::string_view meaning) {
  const double value = parse_number(what, text);
  if (value < lo || value > hi || value != std::floor(value)) {
    fail(ErrorCode::invalid_argument, "{} must be {}, not {}", what, meaning, text);
  }
  return static_cast<uint64_t>(value);
}

const std::array<std::pair<std::string_view, GpuLayout>, 6> k_layouts = {{
    {"auto", GpuLayout::automatic},
    {"thread", GpuLayout::thread_per_row},
    {"warp", GpuLayout::warp_per_row},
    {"warp-segments", GpuLayout::warp_segments},
    {"half-warp-segments", GpuLayout::half_warp_segments},
    {"ell", GpuLayout::ell},
}};

}  // namespace

const std::vector<SettingSpec>& setting_specs() {
  static const std::vector<SettingSpec> specs = {
      {"solver", "auto|cpu|gpu|NAME", "the solver (see `solvers`); auto picks by model size and device"},
      {"epsilon", "E", "convergence threshold, in [1e-15, 1)"},
      {"relative", "", "relative convergence criterion (PRISM's default)"},
      {"absolute", "", "absolute convergence criterion"},
      {"sound", "", "auto picks sound solvers: certified bounds within 2*epsilon"},
      {"unsound", "", "auto may pick unsound solvers (PRISM's stopping rule: faster, no error bound)"},
      {"exact", "", "exact results: rationals (7/10) from the source's numbers, by cpu.exact-pi; unbounded P and R[F] and their bounds"},
      {"inexact", "", "results in doubles with certified bounds (the default)"},
      {"max-iterations", "N", "iteration limit of one solve"},
      {"threads", "N", "CPU threads; 0 = all cores"},
      {"device", "I", "GPU index (see `pmc devices`)"},
      {"devices", "auto|all|I,J,...", "GPUs that gpu.jacobi and gpu.vi split the rows over (auto: all only when one is too small)"},
      {"gpu-memory-limit", "BYTES", "device memory pmc may use (4096, 64K, 512M, 2G); 0 = all free memory"},
      {"memory-limit", "BYTES",
       "host memory pmc may use to load, build and check (4096, 64K, 512M, 1.5G); 0 = the machine's (its physical "
       "memory, or the cgroup's limit); more fails with a clear error before allocating"},
      {"gpu-layout", "auto|thread|warp|warp-segments|half-warp-segments|ell",
       "GPU matrix layout: gpu.jacobi's (Wijs-Bosnacki 2013; auto picks thread or warp per row), "
       "gpu.param-bounds' thread (CSR) or ell (the other GPU solvers take ell as auto)"},
      {"reorder", "none|bfs", "gpu.jacobi: renumber the unknowns breadth-first before solving"},
      {"param", "NAME=VALUE[,...]|none",
       "check a parametric CTMC at this point (every parameter needs a value; none forgets them)"},
  };
  return specs;
}

uint64_t parse_max_states(std::string_view what, std::string_view text) {
  return parse_integer(what, text, 0, 1e12, "a whole number of states (0 = no limit)");
}

uint64_t parse_byte_size(std::string_view what, std::string_view text) {
  std::string digits(text);
  double scale = 1;
  if (!digits.empty()) {
    switch (digits.back()) {
      case 'K': case 'k': scale = 1024.0; break;
      case 'M': case 'm': scale = 1024.0 * 1024; break;
      case 'G': case 'g': scale = 1024.0 * 1024 * 1024; break;
      default: break;
    }
    if (scale != 1) digits.pop_back();
  }
  double value = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || !(value >= 0) ||
      value * scale > 1e18) {
    fail(ErrorCode::invalid_argument, "{}: {} is not a size in bytes (e.g. 4096, 64K, 512M, 1.5G)", what,
         quote_for_message(text));
  }
  return static_cast<uint64_t>(value * scale);
}

// "0,1,3": distinct device indices.
std::vector<int> parse_device_list(std::string_view value) {
  std::vector<int> devices;
  size_t start = 0;
  while (true) {
    const size_t comma = value.find(',', start);
    const std::string_view item = value.substr(start, comma == std::string_view::npos ? value.npos : comma - start);
    if (item.empty() || item.size() > 4 || item.find_first_not_of("0123456789") != item.npos || std::stoi(std::string(item)) > 1024) {
      fail(ErrorCode::invalid_argument, "devices must be auto, all or device indices like 0,1 (each at most 1024), not {}",
           quote_for_message(value));
    }
    const int device = std::stoi(std::string(item));
    if (std::find(devices.begin(), devices.end(), device) != devices.end()) {
      fail(ErrorCode::invalid_argument, "devices: GPU {} is listed twice in {}", device, quote_for_message(value));
    }
    devices.push_back(device);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return devices;
}

void apply_setting(CheckOptions& options, std::string_view name, std::string_view value) {
  SolverSettings& s = options.settings;
  if (name == "solver") {
    validate_solver_choice(value);
    options.solver = std::string(value);
  } else if (name == "epsilon") {
    const double epsilon = parse_number(name, value);
    validate_epsilon(epsilon);
    s.epsilon = epsilon;
  } else if (name == "relative") {
    s.relative = true;
  } else if (name == "absolute") {
    s.relative = false;
  } else if (name == "sound") {
    s.sound = true;
  } else if (name == "unsound") {
    s.sound = false;
  } else if (name == "exact") {
    options.exact = true;
  } else if (name == "inexact") {
    options.exact = false;
  } else if (name == "max-iterations") {
    s.max_iterations = parse_integer(name, value, 1, 1e18, "a positive integer");
  } else if (name == "threads") {
    s.threads = static_cast<int>(parse_integer(name, value, 0, 4096, "an integer in [0, 4096]"));
  } else if (name == "device") {
    s.device = static_cast<int>(parse_integer(name, value, 0, 1024, "a device index (see `pmc devices`)"));
  } else if (name == "devices") {
    s.devices.clear();
    s.all_devices = value == "all";
    if (value != "auto" && value != "all") s.devices = parse_device_list(value);
  } else if (name == "gpu-memory-limit") {
    s.gpu_memory_limit = parse_byte_size(name, value);
  } else if (name == "memory-limit") {
    s.memory_limit = parse_byte_size(name, value);
  } else if (name == "gpu-layout") {
    const auto it = std::find_if(k_layouts.begin(), k_layouts.end(), [&](const auto& l) { return l.first == value; });
    if (it == k_layouts.end()) {
      fail(ErrorCode::invalid_argument, "gpu-layout: {} is not auto, thread, warp, warp-segments, half-warp-segments or ell",
           quote_for_message(value));
    }
    s.gpu_layout = it->second;
  } else if (name == "param") {
    if (value == "none") {
      options.parameters.clear();
    } else {
      parse_parameter_assignments(value, options.parameters);
    }
  } else if (name == "reorder") {
    if (value != "none" && value != "bfs") {
      fail(ErrorCode::invalid_argument, "reorder: {} is not none or bfs", quote_for_message(value));
    }
    s.bfs_reorder = value == "bfs";
  } else {
    std::string known;
    for (const SettingSpec& spec : setting_specs()) known += (known.empty() ? "" : ", ") + spec.name;
    fail(ErrorCode::invalid_argument, "unknown setting {} (settings: {})", quote_for_message(name), known);
  }
}

std::string setting_value(const CheckOptions& options, std::string_view name) {
  const SolverSettings& s = options.settings;
  if (name == "solver") return options.solver;
  if (name == "epsilon") return fmt::format("{}", s.epsilon);
  if (name == "relative") return s.relative ? "on" : "off";
  if (name == "absolute") return s.relative ? "off" : "on";
  if (name == "sound") return s.sound ? "on" : "off";
  if (name == "unsound") return s.sound ? "off" : "on";
  if (name == "exact") return options.exact ? "on" : "off";
  if (name == "inexact") return options.exact ? "off" : "on";
  if (name == "max-iterations") return fmt::format("{}", s.max_iterations);
  if (name == "threads") return s.threads == 0 ? "0 (all cores)" : fmt::format("{}", s.threads);
  if (name == "device") return fmt::format("{}", s.device);
  if (name == "devices") return s.all_devices ? "all" : s.devices.empty() ? "auto" : fmt::format("{}", fmt::join(s.devices, ","));
  if (name == "gpu-layout") {
    for (const auto& [text, layout] : k_layouts) {
      if (layout == s.gpu_layout) return std::string(text);
    }
  }
  if (name == "reorder") return s.bfs_reorder ? "bfs" : "none";
  if (name == "param") return options.parameters.empty() ? "none" : describe_point(options.parameters);
  if (name == "gpu-memory-limit") return s.gpu_memory_limit == 0 ? "0 (all free memory)" : fmt::format("{}", s.gpu_memory_limit);
  if (name == "memory-limit") {
    return s.memory_limit == 0 ? fmt::format("0 (the machine's: {})", format_bytes(machine_memory_bytes()))
                               : fmt::format("{} ({})", s.memory_limit, format_bytes(s.memory_limit));
  }
  fail(ErrorCode::invalid_argument, "unknown setting {}", quote_for_message(name));
}

}  // namespace pmc::shell
