// Which explorer builds a PRISM-language source's state space: the setting
// `--build auto|cpu|gpu` (C ABI pmc_options_set_build), shared by the
// loaders (model_files.hpp) and the explorer (prism_language/).
#pragma once

#include <cstdint>
#include <string_view>

namespace pmc {

// automatic: the CPU's explorer for now; it is to pick the GPU's where that
// pays once the GPU builds whole models (prism_language/gpu_exploration.cpp).
enum class BuildDevice : uint8_t { automatic, cpu, gpu };

// "auto", "cpu" or "gpu"; false for anything else.
inline bool parse_build_device(std::string_view text, BuildDevice& device) {
  if (text == "auto") {
    device = BuildDevice::automatic;
  } else if (text == "cpu") {
    device = BuildDevice::cpu;
  } else if (text == "gpu") {
    device = BuildDevice::gpu;
  } else {
    return false;
  }
  return true;
}

inline const char* to_string(BuildDevice device) {
  switch (device) {
    case BuildDevice::automatic: return "auto";
    case BuildDevice::cpu: return "cpu";
    case BuildDevice::gpu: return "gpu";
  }
  return "auto";
}

}  // namespace pmc
