// The bytes of a model file as its reader sees them: plain, gzip-
// or xz-compressed — told by the first bytes, not the name — and, plain or
// compressed, a tar archive holding one file (Storm's brp-16-2.drn.gz is a
// gzip'd tar). A name ending in .gz or .xz promises compressed data: plain
// text under such a name is an error, not a parse error further on.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "formats/byte_source.hpp"

namespace pmc {

enum class Compression { none, gzip, xz };

class InputStream {
 public:
  // Throws Error(io) for a missing or unreadable file and Error(parse) for a
  // broken archive or one holding other than one file (the error lists them).
  explicit InputStream(std::string path);

  // Up to `size` bytes of the (decompressed, unpacked) content; 0 at the end.
  // Corrupt or truncated data throws Error(parse) naming the file.
  size_t read(char* data, size_t size);

  // The file on disk.
  const std::string& path() const { return path_; }
  // For messages: the path, or "ARCHIVE(MEMBER)" for the file of a tar archive.
  const std::string& name() const { return name_; }
  Compression compression() const { return compression_; }
  // The file's name inside the tar archive; empty when the file is no archive.
  const std::string& archive_member() const { return member_; }

 private:
  std::unique_ptr<ByteSource> open_content() const;

  std::string path_, name_, member_;
  Compression compression_ = Compression::none;
  std::unique_ptr<ByteSource> source_;
  std::string pending_;  // bytes read ahead to look for a tar header, handed out first
  size_t pending_begin_ = 0;
};

// The file's bytes, decompressed when its first bytes say gzip or xz (no
// tar unpacking): for readers of archives of several files (UMB).
std::unique_ptr<ByteSource> open_decompressed(const std::string& path);
// What the file's first bytes say: gzip, xz or none.
Compression compression_of(const std::string& path);

// True for a name ending in .gz or .xz.
bool has_compression_suffix(std::string_view path);
// "m.tra.gz" and "m.tra.xz" → "m.tra"; other names unchanged.
std::string_view strip_compression_suffix(std::string_view path);
// `base`, `base.gz` or `base.xz`, the first that is a file; "" when none is.
std::string find_plain_or_compressed(const std::string& base);

}  // namespace pmc
