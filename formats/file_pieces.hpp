// Reading a range of a regular file on every core: positional reads
// (pread) of large pieces, so that the kernel's copies from the page cache
// run side by side. The UMB reader takes its arrays this way from a plain
// (uncompressed) archive, whose members lie at known offsets.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace pmc {

// Bytes [offset, offset + size) of `path` into `out`. The range must lie in
// the file (the caller checks its size): a short read is Error(io).
void read_file_range(const std::string& path, uint64_t offset, uint64_t size, char* out);

// The same range in pieces of at most `piece` bytes, each read into a
// buffer of its thread and handed to visit(position in the range, bytes,
// count); pieces are visited concurrently, in no order.
void for_each_file_piece(const std::string& path, uint64_t offset, uint64_t size, uint64_t piece,
                         const std::function<void(uint64_t, const char*, uint64_t)>& visit);

}  // namespace pmc
