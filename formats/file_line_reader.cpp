#include "formats/file_line_reader.hpp"

#include <cstring>

namespace pmc {
namespace {

constexpr size_t k_initial_buffer = size_t{1} << 20;
// A longer "line" is binary data or a broken file, not a model.
constexpr size_t k_max_line = size_t{64} << 20;

}  // namespace

FileLineReader::FileLineReader(std::string path) : input_(std::move(path)) { buffer_.resize(k_initial_buffer); }

void FileLineReader::refill() {
  // Keep the unread tail, then read as much as fits after it.
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == buffer_.size()) {
    if (buffer_.size() >= k_max_line) {
      fail(ErrorCode::parse, "{}:{}: line longer than {} MiB; is this a text model file?", path(), line_number_ + 1,
           k_max_line >> 20);
    }
    buffer_.resize(buffer_.size() * 2);
  }
  const size_t got = input_.read(buffer_.data() + end_, buffer_.size() - end_);
  if (got == 0) eof_ = true;
  end_ += got;
  bytes_read_ += got;
}

bool FileLineReader::next(std::string_view& line) {
  size_t scanned = begin_;
  while (true) {
    const char* start = buffer_.data() + scanned;
    const void* newline = std::memchr(start, '\n', end_ - scanned);
    if (newline != nullptr) {
      const size_t stop = static_cast<size_t>(static_cast<const char*>(newline) - buffer_.data());
      size_t length = stop - begin_;
      if (length > 0 && buffer_[begin_ + length - 1] == '\r') --length;
      line = std::string_view(buffer_.data() + begin_, length);
      begin_ = stop + 1;
      ++line_number_;
      return true;
    }
    if (eof_) {
      if (begin_ == end_) return false;
      size_t length = end_ - begin_;  // last line without a newline
      if (buffer_[begin_ + length - 1] == '\r') --length;
      line = std::string_view(buffer_.data() + begin_, length);
      begin_ = end_;
      ++line_number_;
      return true;
    }
    const size_t already = end_ - begin_;
    refill();
    scanned = begin_ + already;
  }
}

bool FileLineReader::next_content(std::string_view& line) {
  while (next(line)) {
    size_t i = line.find_first_not_of(" \t");
    if (i == std::string_view::npos || line[i] == '#') continue;
    return true;
  }
  return false;
}

}  // namespace pmc
