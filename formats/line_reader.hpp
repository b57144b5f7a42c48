// Streaming line reader for text model files, plain or gzip-compressed
// (zlib reads both). Lines are handed out as views into an internal buffer,
// valid until the next call; memory stays bounded by the longest line.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <zlib.h>

#include "common/error.hpp"

namespace pmc {

class LineReader {
 public:
  // Opens `path`; a name ending in .gz must hold gzip data. Throws Error(io).
  explicit LineReader(std::string path);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // The next line without its end-of-line characters; false at end of file.
  bool next(std::string_view& line);
  // Like next(), but skips blank lines and `#` comment lines (PRISM headers).
  bool next_content(std::string_view& line);

  const std::string& path() const { return path_; }
  uint64_t line_number() const { return line_number_; }
  // Uncompressed bytes consumed so far.
  uint64_t bytes_read() const { return bytes_read_; }

  // "path:line: message", thrown as Error(parse).
  template <typename... Args>
  [[noreturn]] void fail_at(fmt::format_string<Args...> format, Args&&... args) const {
    // Line 0: nothing was read (an empty file); name the file only.
    const std::string where = line_number_ == 0 ? path_ : fmt::format("{}:{}", path_, line_number_);
    throw Error(ErrorCode::parse, fmt::format("{}: {}", where, fmt::format(format, std::forward<Args>(args)...)));
  }

 private:
  void refill();

  std::string path_;
  gzFile file_ = nullptr;
  std::vector<char> buffer_;
  size_t begin_ = 0;  // unread data is buffer_[begin_, end_)
  size_t end_ = 0;
  bool eof_ = false;
  uint64_t line_number_ = 0;
  uint64_t bytes_read_ = 0;
};

}  // namespace pmc
