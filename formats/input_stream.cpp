#include "formats/input_stream.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include <lzma.h>
#include <sys/stat.h>
#include <zlib.h>

#include "common/error.hpp"
#include "formats/tar_member.hpp"

namespace pmc {
namespace {

constexpr unsigned char k_gzip_magic[] = {0x1f, 0x8b};
constexpr unsigned char k_xz_magic[] = {0xfd, '7', 'z', 'X', 'Z', 0x00};
constexpr uint64_t k_xz_memory_limit = uint64_t{1} << 30;

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool is_file(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec);
}

std::FILE* open_file(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) fail(ErrorCode::io, "{}: cannot open: {}", path, std::strerror(errno));
  return file;
}

Compression sniff(const std::string& path) {
  std::FILE* file = open_file(path);
  unsigned char magic[sizeof k_xz_magic] = {};
  const size_t got = std::fread(magic, 1, sizeof magic, file);
  std::fclose(file);
  if (got >= sizeof k_gzip_magic && std::memcmp(magic, k_gzip_magic, sizeof k_gzip_magic) == 0) return Compression::gzip;
  if (got >= sizeof k_xz_magic && std::memcmp(magic, k_xz_magic, sizeof k_xz_magic) == 0) return Compression::xz;
  return Compression::none;
}

class PlainSource final : public ByteSource {
 public:
  explicit PlainSource(const std::string& path) : path_(path), file_(open_file(path)) {}
  ~PlainSource() override { std::fclose(file_); }
  size_t read(char* data, size_t size) override {
    const size_t got = std::fread(data, 1, size, file_);
    if (got == 0 && std::ferror(file_)) fail(ErrorCode::io, "{}: cannot read: {}", path_, std::strerror(errno));
    return got;
  }
  uint64_t skip(uint64_t size) override {
    struct stat info {};
    const off_t at = ftello(file_);
    if (at < 0 || fstat(fileno(file_), &info) != 0 || !S_ISREG(info.st_mode)) return ByteSource::skip(size);
    const uint64_t left = info.st_size > at ? static_cast<uint64_t>(info.st_size - at) : 0;
    const uint64_t step = std::min(size, left);
    if (fseeko(file_, static_cast<off_t>(at + step), SEEK_SET) != 0) {
      fail(ErrorCode::io, "{}: cannot seek: {}", path_, std::strerror(errno));
    }
    return step;
  }

 private:
  std::string path_;
  std::FILE* file_;
};

class GzipSource final : public ByteSource {
 public:
  explicit GzipSource(const std::string& path) : path_(path), file_(gzopen(path.c_str(), "rb")) {
    if (file_ == nullptr) fail(ErrorCode::io, "{}: cannot open: {}", path_, std::strerror(errno));
    gzbuffer(file_, 1u << 18);
  }
  ~GzipSource() override { gzclose(file_); }
  size_t read(char* data, size_t size) override {
    const unsigned want = static_cast<unsigned>(std::min<size_t>(size, size_t{1} << 30));
    const int got = gzread(file_, data, want);
    int code = Z_OK;
    const char* message = gzerror(file_, &code);
    // gzread reports a truncated stream only through gzerror, with 0 or a short count.
    if (got < 0 || (code != Z_OK && code != Z_STREAM_END)) {
      std::string_view what = code == Z_ERRNO ? std::strerror(errno) : (message && *message ? message : "corrupt gzip data");
      if (what.starts_with(path_ + ": ")) what.remove_prefix(path_.size() + 2);  // zlib names the file too
      fail(ErrorCode::parse, "{}: cannot read: {}", path_, what);
    }
    return static_cast<size_t>(got);
  }

 private:
  std::string path_;
  gzFile file_;
};

class XzSource final : public ByteSource {
 public:
  explicit XzSource(const std::string& path) : path_(path), file_(open_file(path)), input_(size_t{1} << 18) {
    // Concatenated: `xz` and `pixz` may write several streams, which `xz -d`
    // reads as one. The memory limit stops a hostile header from asking for a
    // dictionary of gigabytes; `xz -9` needs 65 MiB.
    const lzma_ret ret = lzma_stream_decoder(&stream_, k_xz_memory_limit, LZMA_CONCATENATED);
    if (ret != LZMA_OK) {
      std::fclose(file_);
      fail(ErrorCode::io, "{}: cannot start the xz decoder ({})", path_, describe(ret));
    }
  }
  ~XzSource() override {
    lzma_end(&stream_);
    std::fclose(file_);
  }

  size_t read(char* data, size_t size) override {
    if (finished_ || size == 0) return 0;
    stream_.next_out = reinterpret_cast<uint8_t*>(data);
    stream_.avail_out = size;
    while (stream_.avail_out == size) {
      if (stream_.avail_in == 0 && !input_ended_) {
        const size_t got = std::fread(input_.data(), 1, input_.size(), file_);
        if (got == 0 && std::ferror(file_)) fail(ErrorCode::io, "{}: cannot read: {}", path_, std::strerror(errno));
        input_ended_ = got < input_.size();
        stream_.next_in = input_.data();
        stream_.avail_in = got;
      }
      const lzma_ret ret = lzma_code(&stream_, input_ended_ && stream_.avail_in == 0 ? LZMA_FINISH : LZMA_RUN);
      if (ret == LZMA_STREAM_END) {
        finished_ = true;
        break;
      }
      if (ret != LZMA_OK) fail(ErrorCode::parse, "{}: cannot read: {}", path_, describe(ret));
    }
    return size - stream_.avail_out;
  }

 private:
  static const char* describe(lzma_ret ret) {
    switch (ret) {
      case LZMA_BUF_ERROR: return "truncated xz data (unexpected end of file)";
      case LZMA_DATA_ERROR: return "corrupt xz data";
      case LZMA_FORMAT_ERROR: return "not xz data";
      case LZMA_OPTIONS_ERROR: return "xz data with options this liblzma does not support";
      case LZMA_MEM_ERROR: return "out of memory";
      case LZMA_MEMLIMIT_ERROR: return "the xz data needs more than 1 GiB of memory to decompress";
      case LZMA_UNSUPPORTED_CHECK: return "xz data with an integrity check this liblzma does not support";
      default: return "xz decoder error";
    }
  }

  std::string path_;
  std::FILE* file_;
  lzma_stream stream_ = LZMA_STREAM_INIT;
  std::vector<uint8_t> input_;
  bool input_ended_ = false, finished_ = false;
};

std::string list_names(const std::vector<TarFile>& files) {
  std::string names;
  for (size_t i = 0; i < files.size() && i < 10; ++i) names += (i ? ", " : "") + quote_for_message(files[i].name, 200);
  if (files.size() > 10) names += fmt::format(" and {} more", files.size() - 10);
  return names;
}

}  // namespace

InputStream::InputStream(std::string path) : path_(std::move(path)), name_(path_) {
  std::error_code ec;
  if (!std::filesystem::exists(path_, ec)) fail(ErrorCode::io, "{}: no such file", path_);
  if (!is_file(path_)) fail(ErrorCode::io, "{}: not a regular file", path_);
  compression_ = sniff(path_);
  if (compression_ == Compression::none) {
    // zlib would read a non-gzip file transparently; a .gz name promises gzip.
    if (ends_with(path_, ".gz")) {
      fail(ErrorCode::parse, "{}: not gzip data (the name ends in .gz but the gzip signature is missing)", path_);
    }
    if (ends_with(path_, ".xz")) {
      fail(ErrorCode::parse, "{}: not xz data (the name ends in .xz but the xz signature is missing)", path_);
    }
  }
  source_ = open_content();
  pending_.resize(k_tar_block);
  pending_.resize(read_fully(*source_, pending_.data(), pending_.size()));
  if (pending_.size() < k_tar_block || !has_tar_signature(pending_.data())) return;
  if (!is_tar_header(pending_.data())) {
    // Text with "ustar" at byte 257 is no model either; say what it looks like.
    fail(ErrorCode::parse, "{}: corrupt tar archive: the first header's checksum does not match", path_);
  }

  // A tar archive: one pass lists its files, so that an archive of several
  // is refused before any is parsed; a second pass reads the one file.
  const std::vector<TarFile> files = list_tar_files(*source_, pending_, path_);
  if (files.empty()) fail(ErrorCode::parse, "{}: the tar archive holds no file", path_);
  if (files.size() > 1) {
    fail(ErrorCode::parse,
         "{}: the tar archive holds {} files ({}); pmc reads an archive of one model file: unpack it and load the "
         "file you mean",
         path_, files.size(), list_names(files));
  }
  member_ = files.front().name;
  name_ = fmt::format("{}({})", path_, member_);
  source_ = open_content();
  std::string first_block(k_tar_block, '\0');
  first_block.resize(read_fully(*source_, first_block.data(), first_block.size()));
  source_ = open_tar_file(std::move(source_), first_block, 0, path_);
  pending_.clear();
}

std::unique_ptr<ByteSource> InputStream::open_content() const {
  switch (compression_) {
    case Compression::gzip: return std::make_unique<GzipSource>(path_);
    case Compression::xz: return std::make_unique<XzSource>(path_);
    case Compression::none: break;
  }
  return std::make_unique<PlainSource>(path_);
}

size_t InputStream::read(char* data, size_t size) {
  if (pending_begin_ < pending_.size()) {
    const size_t n = std::min(size, pending_.size() - pending_begin_);
    std::memcpy(data, pending_.data() + pending_begin_, n);
    pending_begin_ += n;
    return n;
  }
  return source_->read(data, size);
}

Compression compression_of(const std::string& path) { return sniff(path); }

std::unique_ptr<ByteSource> open_decompressed(const std::string& path) {
  switch (sniff(path)) {
    case Compression::gzip: return std::make_unique<GzipSource>(path);
    case Compression::xz: return std::make_unique<XzSource>(path);
    case Compression::none: break;
  }
  return std::make_unique<PlainSource>(path);
}

bool has_compression_suffix(std::string_view path) { return ends_with(path, ".gz") || ends_with(path, ".xz"); }

std::string_view strip_compression_suffix(std::string_view path) {
  if (has_compression_suffix(path)) path.remove_suffix(3);
  return path;
}

std::string find_plain_or_compressed(const std::string& base) {
  for (const char* suffix : {"", ".gz", ".xz"}) {
    if (is_file(base + suffix)) return base + suffix;
  }
  return {};
}

}  // namespace pmc
