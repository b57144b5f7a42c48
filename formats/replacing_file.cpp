#include "formats/replacing_file.hpp"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "common/error.hpp"

namespace pmc {

namespace {

// Names unique within the process (several saves may run at once through
// the C ABI) and across processes (the pid).
std::string temporary_name(const std::string& path) {
  static std::atomic<uint64_t> counter{0};
  return fmt::format("{}.pmc-tmp-{}-{}", path, getpid(), counter.fetch_add(1));
}

}  // namespace

ReplacingFile::ReplacingFile(std::string path) : path_(std::move(path)), temporary_(temporary_name(path_)) {}

ReplacingFile::~ReplacingFile() {
  if (!committed_) std::remove(temporary_.c_str());
}

void ReplacingFile::commit() {
  if (std::rename(temporary_.c_str(), path_.c_str()) != 0) {
    fail(ErrorCode::io, "{}: cannot replace it with the written file {}: {}", path_, temporary_, std::strerror(errno));
  }
  committed_ = true;
}

}  // namespace pmc
