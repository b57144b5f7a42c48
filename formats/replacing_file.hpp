// A file written under a temporary name beside its destination and renamed
// over it once complete (rename(2) replaces atomically within a file
// system): a failed or interrupted write leaves whatever was at the
// destination, and the temporary file is removed. Writers open
// temporary_path(), write, close, then commit().
#pragma once

#include <string>

namespace pmc {

class ReplacingFile {
 public:
  explicit ReplacingFile(std::string path);
  ~ReplacingFile();  // removes the temporary file unless committed
  ReplacingFile(const ReplacingFile&) = delete;
  ReplacingFile& operator=(const ReplacingFile&) = delete;

  const std::string& path() const { return path_; }
  const std::string& temporary_path() const { return temporary_; }
  // Renames the temporary file over path(); Error(io) naming both on failure.
  void commit();

 private:
  std::string path_;
  std::string temporary_;
  bool committed_ = false;
};

}  // namespace pmc
