// known_gpu_absence() (cuda/devices.hpp): whether a GPU can be ruled out
// before CUDA is touched. Starting CUDA on a machine without a driver costs
// little, but a cost model that assumes a GPU may be there explains its
// choices by a GPU start-up the user's machine will never pay ("the GPU at
// least 0.22 s to start" on a laptop); this lets `auto` say why instead.
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "solver/device/devices.hpp"

namespace pmc {

namespace {

bool exists(const char* path) {
  std::error_code error;
  return std::filesystem::exists(path, error);
}

bool has_entries(const char* folder) {
  std::error_code error;
  std::filesystem::directory_iterator it(folder, error);
  return !error && it != std::filesystem::directory_iterator();
}

std::string absence_of_this_machine() {
  if (!built_with_cuda()) return "this build of pmc has no CUDA support";
  if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES"); visible != nullptr) {
    const std::string v(visible);
    if (v.empty() || v == "-1" || v == "none" || v == "NoDevFiles") return "CUDA_VISIBLE_DEVICES hides every GPU";
  }
  if (exists("/dev/nvidiactl") || has_entries("/proc/driver/nvidia/gpus") || exists("/dev/dxg")) return "";
  return "no NVIDIA driver on this machine";
}

std::optional<std::string>& overridden() {
  static std::optional<std::string> value;
  return value;
}

}  // namespace

const std::string& known_gpu_absence() {
  if (overridden()) return *overridden();
  static const std::string absence = absence_of_this_machine();
  return absence;
}

namespace detail {
void override_known_gpu_absence(const std::string* absence) {
  if (absence == nullptr) {
    overridden().reset();
  } else {
    overridden() = *absence;
  }
}
}  // namespace detail

}  // namespace pmc
