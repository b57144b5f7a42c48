// Buffered text output to a plain or gzip file (by the .gz suffix), with
// every write checked: a full disk is an Error(io), never a short file.
// The text goes to a temporary file renamed over the path by close()
// (replacing_file.hpp): until then, whatever was at the path stays.
#pragma once

#include <string>

#include <fmt/format.h>
#include <zlib.h>

#include "common/error.hpp"
#include "formats/replacing_file.hpp"

namespace pmc {

class TextWriter {
 public:
  explicit TextWriter(std::string path);
  ~TextWriter();
  TextWriter(const TextWriter&) = delete;
  TextWriter& operator=(const TextWriter&) = delete;

  template <typename... Args>
  void print(fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(buffer_), format, std::forward<Args>(args)...);
    if (buffer_.size() >= k_flush_size) flush();
  }
  // Flushes, closes and renames the file into place; errors surface here.
  // A writer destroyed without a successful close() removes its temporary
  // file and leaves the path untouched.
  void close();
  const std::string& path() const { return file_path_.path(); }

 private:
  static constexpr size_t k_flush_size = size_t{1} << 20;
  void flush();

  ReplacingFile file_path_;
  const std::string& path_ = file_path_.path();
  gzFile file_ = nullptr;
  fmt::memory_buffer buffer_;
};

}  // namespace pmc
