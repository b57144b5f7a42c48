#include "formats/text_writer.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace pmc {

TextWriter::TextWriter(std::string path) : path_(std::move(path)) {
  const bool gz = path_.size() > 3 && path_.ends_with(".gz");
  // "T" writes without compression through the same interface.
  file_ = gzopen(path_.c_str(), gz ? "wb4" : "wbT");
  if (file_ == nullptr) fail(ErrorCode::io, "{}: cannot create: {}", path_, std::strerror(errno));
}

TextWriter::~TextWriter() {
  // Not closed: an error interrupted the write, so leave no half-written file.
  if (file_ != nullptr) {
    gzclose(file_);
    std::remove(path_.c_str());
  }
}

void TextWriter::flush() {
  if (buffer_.size() == 0) return;
  const int written = gzwrite(file_, buffer_.data(), static_cast<unsigned>(buffer_.size()));
  if (written <= 0 || static_cast<size_t>(written) != buffer_.size()) {
    int code = 0;
    const char* message = gzerror(file_, &code);
    fail(ErrorCode::io, "{}: write failed: {}", path_, code == Z_ERRNO ? std::strerror(errno) : message);
  }
  buffer_.clear();
}

void TextWriter::close() {
  flush();
  gzFile file = file_;
  file_ = nullptr;
  if (gzclose(file) != Z_OK) fail(ErrorCode::io, "{}: write failed when closing: {}", path_, std::strerror(errno));
}

}  // namespace pmc
