#include "formats/text_writer.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace pmc {

TextWriter::TextWriter(std::string path) : file_path_(std::move(path)) {
  const bool gz = path_.size() > 3 && path_.ends_with(".gz");
  // "T" writes without compression through the same interface.
  file_ = gzopen(file_path_.temporary_path().c_str(), gz ? "wb4" : "wbT");
  if (file_ == nullptr) fail(ErrorCode::io, "{}: cannot create: {}", path_, std::strerror(errno));
}

TextWriter::~TextWriter() {
  // Not closed: an error interrupted the write; file_path_ removes the
  // temporary file, and the path keeps what it had.
  if (file_ != nullptr) gzclose(file_);
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
  file_path_.commit();
}

}  // namespace pmc
