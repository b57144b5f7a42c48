#include "formats/line_reader.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace pmc {
namespace {

constexpr size_t k_initial_buffer = size_t{1} << 20;
// A longer "line" is binary data or a broken file, not a model.
constexpr size_t k_max_line = size_t{64} << 20;

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

LineReader::LineReader(std::string path) : path_(std::move(path)) {
  std::error_code ec;
  if (!std::filesystem::exists(path_, ec)) fail(ErrorCode::io, "{}: no such file", path_);
  if (!std::filesystem::is_regular_file(path_, ec)) fail(ErrorCode::io, "{}: not a regular file", path_);
  if (ends_with(path_, ".gz")) {
    // zlib would read a non-gzip file transparently; a .gz name promises gzip.
    std::ifstream probe(path_, std::ios::binary);
    unsigned char magic[2] = {0, 0};
    probe.read(reinterpret_cast<char*>(magic), 2);
    if (probe.gcount() != 2 || magic[0] != 0x1f || magic[1] != 0x8b) {
      fail(ErrorCode::parse, "{}: not gzip data (the name ends in .gz but the gzip signature is missing)", path_);
    }
  }
  file_ = gzopen(path_.c_str(), "rb");
  if (file_ == nullptr) fail(ErrorCode::io, "{}: cannot open: {}", path_, std::strerror(errno));
  gzbuffer(file_, 1u << 18);
  buffer_.resize(k_initial_buffer);
}

LineReader::~LineReader() {
  if (file_ != nullptr) gzclose(file_);
}

void LineReader::refill() {
  // Keep the unread tail, then read as much as fits after it.
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == buffer_.size()) {
    if (buffer_.size() >= k_max_line) {
      fail(ErrorCode::parse, "{}:{}: line longer than {} MiB; is this a text model file?", path_, line_number_ + 1,
           k_max_line >> 20);
    }
    buffer_.resize(buffer_.size() * 2);
  }
  const size_t want = std::min<size_t>(buffer_.size() - end_, size_t{1} << 30);
  const int got = gzread(file_, buffer_.data() + end_, static_cast<unsigned>(want));
  if (got < 0) {
    int code = 0;
    const char* message = gzerror(file_, &code);
    fail(ErrorCode::parse, "{}: cannot read: {}", path_,
         code == Z_ERRNO ? std::strerror(errno) : (message ? message : "corrupt gzip data"));
  }
  if (got == 0) {
    // gzread reports a truncated gzip stream only through gzerror.
    int code = 0;
    const char* message = gzerror(file_, &code);
    if (code != Z_OK && code != Z_STREAM_END) {
      fail(ErrorCode::parse, "{}: cannot read: {}", path_, message ? message : "corrupt gzip data");
    }
    eof_ = true;
  }
  end_ += static_cast<size_t>(got);
  bytes_read_ += static_cast<uint64_t>(got);
}

bool LineReader::next(std::string_view& line) {
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

bool LineReader::next_content(std::string_view& line) {
  while (next(line)) {
    size_t i = line.find_first_not_of(" \t");
    if (i == std::string_view::npos || line[i] == '#') continue;
    return true;
  }
  return false;
}

}  // namespace pmc
