#include "formats/file_pieces.hpp"

#include <fcntl.h>
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <mutex>
#include <vector>

#include "common/error.hpp"
#include "common/first_failure.hpp"

namespace pmc {

namespace {

// Pieces of a few MB: large enough that a read's overhead vanishes, small
// enough that two cores share even a 20 MB array.
constexpr uint64_t k_read_piece = uint64_t{4} << 20;

class ReadOnlyFile {
 public:
  explicit ReadOnlyFile(const std::string& path) : path_(path), fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
    if (fd_ < 0) fail(ErrorCode::io, "{}: cannot open: {}", path, std::strerror(errno));
  }
  ~ReadOnlyFile() { ::close(fd_); }
  ReadOnlyFile(const ReadOnlyFile&) = delete;
  ReadOnlyFile& operator=(const ReadOnlyFile&) = delete;

  // Exactly `size` bytes at `offset`, or Error(io).
  void read_at(uint64_t offset, char* out, uint64_t size) const {
    while (size > 0) {
      const ssize_t got = ::pread(fd_, out, static_cast<size_t>(std::min<uint64_t>(size, k_read_piece)),
                                  static_cast<off_t>(offset));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        fail(ErrorCode::io, "{}: cannot read {} bytes at byte {}: {}", path_, size, offset,
             got == 0 ? "the file ends first" : std::strerror(errno));
      }
      out += got;
      offset += static_cast<uint64_t>(got);
      size -= static_cast<uint64_t>(got);
    }
  }

 private:
  std::string path_;
  int fd_;
};

// Runs body(i) for every piece i < pieces on every core; the first
// exception is rethrown after all have finished (none may leave a parallel region).
template <typename Body>
void on_every_core(uint64_t pieces, Body body) {
  FirstFailure failure;
  const auto n = static_cast<int64_t>(pieces);
#pragma omp parallel for schedule(dynamic, 1)
  for (int64_t i = 0; i < n; ++i) {
    failure.run([&] { body(static_cast<uint64_t>(i)); });
  }
  failure.rethrow_if_failed();
}

}  // namespace

void read_file_range(const std::string& path, uint64_t offset, uint64_t size, char* out) {
  const ReadOnlyFile file(path);
  on_every_core((size + k_read_piece - 1) / k_read_piece, [&](uint64_t i) {
    const uint64_t at = i * k_read_piece;
    file.read_at(offset + at, out + at, std::min(k_read_piece, size - at));
  });
}

void for_each_file_piece(const std::string& path, uint64_t offset, uint64_t size, uint64_t piece,
                         const std::function<void(uint64_t, const char*, uint64_t)>& visit) {
  const ReadOnlyFile file(path);
  std::vector<std::vector<char>> buffers(static_cast<size_t>(omp_get_max_threads()));
  on_every_core((size + piece - 1) / piece, [&](uint64_t i) {
    std::vector<char>& buffer = buffers[static_cast<size_t>(omp_get_thread_num())];
    const uint64_t at = i * piece, n = std::min(piece, size - at);
    buffer.resize(n);
    file.read_at(offset + at, buffer.data(), n);
    visit(at, buffer.data(), n);
  });
}

}  // namespace pmc
