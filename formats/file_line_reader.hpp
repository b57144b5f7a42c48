// Streaming line reader for text model files, plain, gzip- or xz-compressed
// or the one file of a tar archive (input_stream.hpp). Lines are handed out
// as views into an internal buffer, valid until the next call; memory stays
// bounded by the longest line.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hpp"
#include "formats/input_stream.hpp"

namespace pmc {

class FileLineReader {
 public:
  // Opens `path`; a name ending in .gz or .xz must hold compressed data.
  // Throws Error(io) or, for a broken or ambiguous archive, Error(parse).
  explicit FileLineReader(std::string path);

  // The next line without its end-of-line characters; false at end of file.
  bool next(std::string_view& line);
  // Like next(), but skips blank lines and `#` comment lines (PRISM headers).
  bool next_content(std::string_view& line);

  // The name messages use: the path, or "ARCHIVE(MEMBER)" for a file in a tar archive.
  const std::string& path() const { return input_.name(); }
  // The file on disk, and whether it is compressed (its size on disk then
  // says little about its content).
  const std::string& file_path() const { return input_.path(); }
  bool compressed() const { return input_.compression() != Compression::none; }
  uint64_t line_number() const { return line_number_; }
  // Uncompressed bytes consumed so far.
  uint64_t bytes_read() const { return bytes_read_; }

  // "path:line: message", thrown as Error(parse).
  template <typename... Args>
  [[noreturn]] void fail_at(fmt::format_string<Args...> format, Args&&... args) const {
    // Line 0: nothing was read (an empty file); name the file only.
    const std::string where = line_number_ == 0 ? path() : fmt::format("{}:{}", path(), line_number_);
    throw Error(ErrorCode::parse, fmt::format("{}: {}", where, fmt::format(format, std::forward<Args>(args)...)));
  }

 private:
  void refill();

  InputStream input_;
  std::vector<char> buffer_;
  size_t begin_ = 0;  // unread data is buffer_[begin_, end_)
  size_t end_ = 0;
  bool eof_ = false;
  uint64_t line_number_ = 0;
  uint64_t bytes_read_ = 0;
};

}  // namespace pmc
