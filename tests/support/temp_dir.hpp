// A fresh temporary directory, removed with everything in it at scope exit.
#pragma once

#include <filesystem>
#include <random>
#include <string>

namespace pmc::testing {

class TempDir {
 public:
  TempDir() {
    std::random_device random;
    root_ = std::filesystem::temp_directory_path() / ("pmc-test-" + std::to_string(random()) + std::to_string(random()));
    std::filesystem::create_directories(root_);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(root_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string path(const std::string& name) const { return (root_ / name).string(); }

 private:
  std::filesystem::path root_;
};

}  // namespace pmc::testing
