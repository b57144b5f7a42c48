#include "common/cgroup_memory.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <vector>

namespace pmc {

namespace {

namespace fs = std::filesystem;

// A cgroup limit file: a number of bytes, or "max" (v2) / a huge number
// (v1's "unlimited", 2^63 rounded down to pages) when there is none: 0.
uint64_t read_limit_file(const fs::path& path) {
  std::ifstream in(path);
  std::string text;
  if (!(in >> text) || text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos) {
    return 0;
  }
  const uint64_t value = std::stoull(text);
  return value >= (uint64_t{1} << 62) ? 0 : value;
}

// mountinfo escapes ' ', '\t', '\n' and '\\' as \ooo.
std::string unescape_octal(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 3 < text.size()) {
      const std::string_view digits = text.substr(i + 1, 3);
      if (digits.find_first_not_of("01234567") == std::string_view::npos) {
        out += static_cast<char>((digits[0] - '0') * 64 + (digits[1] - '0') * 8 + (digits[2] - '0'));
        i += 3;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(separator, start);
    parts.emplace_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

// Whether the comma-separated `list` holds `item`.
bool has_item(std::string_view list, std::string_view item) {
  const std::vector<std::string> items = split(list, ',');
  return std::find(items.begin(), items.end(), item) != items.end();
}

struct CgroupMount {
  std::string root;         // the cgroup path the mount shows at its mount point
  std::string mount_point;  // where it is mounted
};

// The mount of cgroup v2 (`v2`) or of v1's memory controller.
bool find_mount(const fs::path& mountinfo, bool v2, CgroupMount& mount) {
  std::ifstream in(mountinfo);
  std::string line;
  while (std::getline(in, line)) {
    const size_t dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    std::istringstream before(line.substr(0, dash)), after(line.substr(dash + 3));
    std::string id, parent, device, root, mount_point, fs_type, source, super_options;
    if (!(before >> id >> parent >> device >> root >> mount_point) || !(after >> fs_type >> source >> super_options)) {
      continue;
    }
    const bool matches = v2 ? fs_type == "cgroup2" : fs_type == "cgroup" && has_item(super_options, "memory");
    if (matches) {
      mount = {unescape_octal(root), unescape_octal(mount_point)};
      return true;
    }
  }
  return false;
}

// The smallest limit from `directory` up to and including `top`.
uint64_t smallest_limit_up_to(fs::path directory, const fs::path& top, const char* file) {
  uint64_t limit = 0;
  const fs::path stop = top.lexically_normal();
  for (directory = directory.lexically_normal();; directory = directory.parent_path()) {
    const uint64_t here = read_limit_file(directory / file);
    if (here != 0 && (limit == 0 || here < limit)) limit = here;
    if (directory == stop || directory == directory.parent_path() || directory.native().size() <= stop.native().size()) {
      break;
    }
  }
  return limit;
}

}  // namespace

uint64_t cgroup_memory_limit(const std::string& root) {
  const fs::path base(root);
  std::ifstream in(base / "proc/self/cgroup");
  std::string line;
  uint64_t limit = 0;
  bool found_membership = false;
  while (std::getline(in, line)) {
    // hierarchy-ID:controllers:path; v2's line is "0::/path".
    const size_t first = line.find(':');
    const size_t second = first == std::string::npos ? std::string::npos : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    const bool v2 = line.compare(0, first, "0") == 0 && controllers.empty();
    const bool v1_memory = has_item(controllers, "memory");
    if (!v2 && !v1_memory) continue;
    CgroupMount mount;
    if (!find_mount(base / "proc/self/mountinfo", v2, mount)) continue;
    found_membership = true;
    // The process's cgroup as seen below the mount point; a path outside
    // the mount's root (another cgroup namespace) falls back to the mount
    // point itself.
    std::string relative;
    if (path.starts_with(mount.root)) relative = path.substr(mount.root.size());
    const fs::path top = base / fs::path(mount.mount_point).relative_path();
    const fs::path own = top / fs::path(relative).relative_path();
    const uint64_t here = smallest_limit_up_to(own, top, v2 ? "memory.max" : "memory.limit_in_bytes");
    if (here != 0 && (limit == 0 || here < limit)) limit = here;
  }
  if (found_membership) return limit;
  // No /proc (an unusual sandbox): the usual mount points' own files.
  for (const char* path : {"sys/fs/cgroup/memory.max", "sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    const uint64_t here = read_limit_file(base / path);
    if (here != 0 && (limit == 0 || here < limit)) limit = here;
  }
  return limit;
}

}  // namespace pmc
