// A stream of bytes read front to back: a plain file, a decompressor or one
// file of a tar archive (input_stream.hpp puts them together). Kept this
// small so that each layer is a few lines over the one below it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace pmc {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Up to `size` bytes into `data`; 0 only at the end. Corrupt or truncated
  // data throws Error(parse) naming the file.
  virtual size_t read(char* data, size_t size) = 0;
  // Passes over up to `size` bytes; returns how many there were (fewer
  // only at the end). Reads them by default; a plain file seeks.
  virtual uint64_t skip(uint64_t size) {
    char scratch[1 << 14];
    uint64_t done = 0;
    while (done < size) {
      const size_t got = read(scratch, static_cast<size_t>(std::min<uint64_t>(sizeof scratch, size - done)));
      if (got == 0) break;
      done += got;
    }
    return done;
  }
};

// Reads until `size` bytes or the end; returns how many were read.
inline size_t read_fully(ByteSource& source, char* data, size_t size) {
  size_t done = 0;
  while (done < size) {
    const size_t got = source.read(data + done, size - done);
    if (got == 0) break;
    done += got;
  }
  return done;
}

}  // namespace pmc
