#include "formats/tar_member.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

#include <fmt/format.h>

#include "common/error.hpp"

namespace pmc {
namespace {

// Header fields (POSIX.1-1988 ustar): offset and width.
constexpr size_t k_name = 0, k_name_width = 100;
constexpr size_t k_size = 124, k_size_width = 12;
constexpr size_t k_checksum = 148, k_checksum_width = 8;
constexpr size_t k_type = 156;
constexpr size_t k_magic = 257;
constexpr size_t k_prefix = 345, k_prefix_width = 155;
// A long name or pax record longer than this is a broken archive.
constexpr uint64_t k_max_header_text = uint64_t{1} << 20;

// A numeric field: octal digits between optional leading blanks and a
// blank/NUL end, or GNU's base-256 (first byte 0x80) for sizes of 8 GiB and up.
std::optional<uint64_t> tar_number(const char* field, size_t width) {
  const auto* f = reinterpret_cast<const unsigned char*>(field);
  if (f[0] & 0x80) {
    if (f[0] != 0x80) return std::nullopt;  // negative, or wider than 64 bits
    uint64_t value = 0;
    for (size_t i = 1; i < width; ++i) {
      if (value >> 56) return std::nullopt;
      value = (value << 8) | f[i];
    }
    return value;
  }
  size_t i = 0;
  while (i < width && f[i] == ' ') ++i;
  uint64_t value = 0;
  bool any = false;
  for (; i < width && f[i] >= '0' && f[i] <= '7'; ++i) {
    if (value >> 60) return std::nullopt;
    value = value * 8 + (f[i] - '0');
    any = true;
  }
  for (; i < width; ++i) {
    if (f[i] != ' ' && f[i] != '\0') return std::nullopt;
  }
  if (!any) return std::nullopt;
  return value;
}

std::string field_text(const char* field, size_t width) { return std::string(field, strnlen(field, width)); }

// POSIX ustar ("ustar\0") may split a long name into prefix/name; GNU's
// header ("ustar  ") keeps other fields where the prefix would be.
std::string header_name(const char* block) {
  std::string name = field_text(block + k_name, k_name_width);
  if (block[k_magic + 5] == '\0') {
    std::string prefix = field_text(block + k_prefix, k_prefix_width);
    if (!prefix.empty()) name = prefix + "/" + name;
  }
  return name;
}

// A pax extended header holds "LENGTH key=value\n" records; `path` renames
// the next entry.
std::optional<std::string> pax_path(std::string_view records) {
  std::optional<std::string> path;
  while (!records.empty()) {
    size_t length = 0, i = 0;
    while (i < records.size() && records[i] >= '0' && records[i] <= '9') length = length * 10 + (records[i++] - '0');
    if (i == 0 || i >= records.size() || records[i] != ' ' || length <= i + 1 || length > records.size()) break;
    std::string_view record = records.substr(i + 1, length - i - 1);
    if (!record.empty() && record.back() == '\n') record.remove_suffix(1);
    if (record.starts_with("path=")) path = std::string(record.substr(5));
    records.remove_prefix(length);
  }
  return path;
}

// macOS tar adds "._NAME" beside each file (its extended attributes); such
// a member is never the model.
bool is_apple_double(const std::string& name) {
  const size_t slash = name.rfind('/');
  return name.compare(slash == std::string::npos ? 0 : slash + 1, 2, "._") == 0;
}

// Walks the headers of an archive, skipping what is not a regular file.
class TarWalker {
 public:
  TarWalker(ByteSource& archive, std::string_view first_block, std::string path)
      : archive_(archive), first_block_(first_block), path_(std::move(path)) {}

  // Moves to the next regular file; false at the end of the archive.
  bool next_file(TarFile& file) {
    skip_rest_of_entry();
    std::string long_name;  // from a GNU 'L' entry or a pax `path`, for the next entry
    char block[k_tar_block];
    while (read_header_block(block)) {
      const char type = block[k_type];
      const std::optional<uint64_t> size = tar_number(block + k_size, k_size_width);
      if (!size) {
        fail(ErrorCode::parse, "{}: corrupt tar archive: the header at byte {} has no valid size", path_,
             offset_ - k_tar_block);
      }
      entry_name_ = long_name.empty() ? header_name(block) : long_name;
      begin_entry(*size);
      if (type == 'L') {
        long_name = read_entry_text();
        while (!long_name.empty() && long_name.back() == '\0') long_name.pop_back();
        continue;
      }
      if (type == 'x') {
        if (auto path = pax_path(read_entry_text())) long_name = *path;
        continue;
      }
      if (type == 'g' || type == 'K') {  // global pax settings, a long link name: no file, no rename
        skip_rest_of_entry();
        continue;
      }
      if ((type == '0' || type == '\0' || type == '7') && !is_apple_double(entry_name_)) {
        file = TarFile{entry_name_, *size, offset_};
        return true;
      }
      long_name.clear();  // a directory, a link, a device, ...: skipped
      skip_rest_of_entry();
    }
    return false;
  }

  // The current file's data; 0 at its end.
  size_t read_data(char* data, size_t size) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(size, remaining_));
    const size_t got = read_fully(archive_, data, want);
    offset_ += got;
    remaining_ -= got;
    if (got < want) truncated();
    return got;
  }

 private:
  // False at the end: two zero blocks (one is enough here) or the end of the
  // data at a block boundary.
  bool read_header_block(char* block) {
    size_t got = 0;
    if (!first_block_.empty()) {
      got = first_block_.size();
      std::memcpy(block, first_block_.data(), got);
      first_block_ = {};
    }
    got += read_fully(archive_, block + got, k_tar_block - got);
    offset_ += got;
    if (got == 0) return false;
    if (got < k_tar_block) {
      fail(ErrorCode::parse, "{}: truncated tar archive: it ends inside a header, {} bytes in", path_, offset_);
    }
    if (std::all_of(block, block + k_tar_block, [](char c) { return c == '\0'; })) return false;
    if (!is_tar_header(block)) {
      fail(ErrorCode::parse,
           "{}: corrupt tar archive: the block at byte {} is not a tar header (no ustar signature or a wrong checksum)",
           path_, offset_ - k_tar_block);
    }
    return true;
  }

  void begin_entry(uint64_t size) {
    entry_size_ = size;
    remaining_ = size;
    padding_ = (k_tar_block - size % k_tar_block) % k_tar_block;
  }

  std::string read_entry_text() {
    if (remaining_ > k_max_header_text) {
      fail(ErrorCode::parse, "{}: corrupt tar archive: an extended header of {} bytes", path_, remaining_);
    }
    std::string text(remaining_, '\0');
    read_data(text.data(), text.size());
    skip_rest_of_entry();
    return text;
  }

  // Through the source's skip: a plain file seeks past a member unread.
  void skip_rest_of_entry() {
    const uint64_t data = archive_.skip(remaining_);
    offset_ += data;
    remaining_ -= data;
    if (remaining_ > 0) truncated();
    const uint64_t got = archive_.skip(padding_);
    offset_ += got;
    if (got < padding_) truncated();
    padding_ = 0;
  }

  [[noreturn]] void truncated() const {
    fail(ErrorCode::parse, "{}: truncated tar archive: {} should hold {} bytes, but the archive ends {} bytes into it",
         path_, quote_for_message(entry_name_, 200), entry_size_, entry_size_ - remaining_);
  }

  ByteSource& archive_;
  std::string_view first_block_;
  std::string path_;
  std::string entry_name_;
  uint64_t offset_ = 0;  // bytes of the archive read so far
  uint64_t entry_size_ = 0, remaining_ = 0, padding_ = 0;
};

class TarFileSource final : public ByteSource {
 public:
  TarFileSource(std::unique_ptr<ByteSource> archive, std::string first_block, size_t index, const std::string& path)
      : archive_(std::move(archive)), first_block_(std::move(first_block)), walker_(*archive_, first_block_, path) {
    TarFile file;
    for (size_t i = 0; i <= index; ++i) {
      if (!walker_.next_file(file)) fail(ErrorCode::parse, "{}: the tar archive has no file number {}", path, index + 1);
    }
  }
  size_t read(char* data, size_t size) override { return walker_.read_data(data, size); }

 private:
  std::unique_ptr<ByteSource> archive_;
  std::string first_block_;
  TarWalker walker_;
};

}  // namespace

bool has_tar_signature(const char* block) { return std::memcmp(block + k_magic, "ustar", 5) == 0; }

bool is_tar_header(const char* block) {
  if (!has_tar_signature(block)) return false;
  const std::optional<uint64_t> stored = tar_number(block + k_checksum, k_checksum_width);
  if (!stored) return false;
  // The sum of the header's bytes (unsigned), the checksum field counted as blanks.
  const auto* b = reinterpret_cast<const unsigned char*>(block);
  uint64_t sum = 0;
  for (size_t i = 0; i < k_tar_block; ++i) sum += (i >= k_checksum && i < k_checksum + k_checksum_width) ? ' ' : b[i];
  return sum == *stored;
}

std::vector<TarFile> list_tar_files(ByteSource& archive, std::string_view first_block, const std::string& path) {
  TarWalker walker(archive, first_block, path);
  std::vector<TarFile> files;
  TarFile file;
  while (walker.next_file(file)) files.push_back(file);
  return files;
}

void for_each_tar_file(ByteSource& archive, const std::string& path,
                       const std::function<void(const TarFile&, ByteSource&)>& visit) {
  class FileData final : public ByteSource {
   public:
    explicit FileData(TarWalker& walker) : walker_(walker) {}
    size_t read(char* data, size_t size) override { return walker_.read_data(data, size); }

   private:
    TarWalker& walker_;
  };
  TarWalker walker(archive, {}, path);
  FileData data(walker);
  TarFile file;
  while (walker.next_file(file)) visit(file, data);
}

std::string tar_file_header(const std::string& name, uint64_t size) {
  if (name.empty() || name.size() > k_name_width) fail(ErrorCode::internal, "tar member name {} too long", name);
  std::string block(k_tar_block, '\0');
  std::memcpy(block.data() + k_name, name.data(), name.size());
  std::memcpy(block.data() + 100, "0000644", 7);  // mode
  std::memcpy(block.data() + 108, "0000000", 7);  // uid
  std::memcpy(block.data() + 116, "0000000", 7);  // gid
  const std::string octal_size = fmt::format("{:011o}", size);
  if (octal_size.size() > 11) fail(ErrorCode::unsupported, "tar member {} of {} bytes: 8 GiB or more", name, size);
  std::memcpy(block.data() + k_size, octal_size.data(), 11);
  std::memcpy(block.data() + 136, "00000000000", 11);  // mtime
  block[k_type] = '0';
  std::memcpy(block.data() + k_magic, "ustar\0" "00", 8);
  std::memset(block.data() + k_checksum, ' ', k_checksum_width);
  uint64_t sum = 0;
  for (const char c : block) sum += static_cast<unsigned char>(c);
  const std::string checksum = fmt::format("{:06o}", sum);
  std::memcpy(block.data() + k_checksum, checksum.data(), 6);
  block[k_checksum + 6] = '\0';
  return block;
}

std::unique_ptr<ByteSource> open_tar_file(std::unique_ptr<ByteSource> archive, std::string_view first_block,
                                          size_t index, const std::string& path) {
  return std::make_unique<TarFileSource>(std::move(archive), std::string(first_block), index, path);
}

}  // namespace pmc
