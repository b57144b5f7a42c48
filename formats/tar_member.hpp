// The one file of a tar archive (Storm ships brp-16-2.drn.gz as a
// gzip'd tar). POSIX ustar headers with GNU long names ('L') and pax `path`
// records; directories, links and other entries are skipped. No libarchive:
// pmc needs one member, read front to back.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "formats/byte_source.hpp"

namespace pmc {

constexpr size_t k_tar_block = 512;

// Whether `block` (512 bytes) is a tar header: "ustar" at offset 257 and a
// checksum that matches.
bool is_tar_header(const char* block);
// "ustar" at offset 257, whatever the checksum says.
bool has_tar_signature(const char* block);

struct TarFile {
  std::string name;
  uint64_t size = 0;
  uint64_t offset = 0;  // of its data in the archive (after decompression)
};

// The regular files of the archive, in order. `archive` continues after
// `first_block`, the 512 bytes already read from it; `path` names the
// archive in errors (truncated or corrupt archives are Error(parse)).
std::vector<TarFile> list_tar_files(ByteSource& archive, std::string_view first_block, const std::string& path);

// Visits every regular file of the archive in order, in one pass: `visit`
// gets the file and its bytes (what it leaves unread is skipped).
void for_each_tar_file(ByteSource& archive, const std::string& path,
                       const std::function<void(const TarFile&, ByteSource&)>& visit);

// A POSIX ustar header (512 bytes) for a regular file `name` (at most 100
// bytes) of `size` bytes, mode 0644, time 0; the data follows, padded to a
// multiple of 512 bytes, and two zero blocks end the archive.
std::string tar_file_header(const std::string& name, uint64_t size);

// The bytes of regular file number `index` (list_tar_files' order) of a
// fresh `archive` whose first block is `first_block`.
std::unique_ptr<ByteSource> open_tar_file(std::unique_ptr<ByteSource> archive, std::string_view first_block,
                                          size_t index, const std::string& path);

}  // namespace pmc
