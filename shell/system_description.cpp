#include "system_description.hpp"

#include <sys/resource.h>
#include <sys/utsname.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace pmc::shell {

namespace {

// "key<blanks>: value" lines (/proc/cpuinfo, /proc/meminfo): the value.
std::string value_after_colon(const std::string& line) {
  const size_t colon = line.find(':');
  if (colon == std::string::npos) return "";
  const size_t start = line.find_first_not_of(" \t", colon + 1);
  return start == std::string::npos ? "" : line.substr(start);
}

std::string cpu_from_proc() {
  std::ifstream in("/proc/cpuinfo");
  std::string line, model;
  std::set<std::string> sockets;
  while (std::getline(in, line)) {
    if (model.empty() && line.rfind("model name", 0) == 0) model = value_after_colon(line);
    if (line.rfind("physical id", 0) == 0) sockets.insert(value_after_colon(line));
  }
  if (model.empty()) return "unknown";
  return clean_cpu_name(model, static_cast<int>(sockets.size()));
}

uint64_t ram_gib_from_proc() {
  std::ifstream in("/proc/meminfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("MemTotal:", 0) == 0) {
      const double kib = std::strtod(value_after_colon(line).c_str(), nullptr);
      return static_cast<uint64_t>(std::llround(kib / (1024.0 * 1024.0)));
    }
  }
  return 0;
}

std::string os_name() {
  std::ifstream in("/etc/os-release");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("PRETTY_NAME=", 0) == 0) {
      std::string name = line.substr(12);
      if (name.size() >= 2 && (name.front() == '"' || name.front() == '\'')) name = name.substr(1, name.size() - 2);
      if (!name.empty()) return name;
    }
  }
  utsname u{};
  if (uname(&u) == 0) return std::string(u.sysname) + " " + u.release;
  return "unknown";
}

std::string compiler() {
#if defined(__clang__)
  return "clang " __clang_version__;
#elif defined(__GNUC__)
  return "gcc " __VERSION__;
#else
  return "unknown";
#endif
}

}  // namespace

std::string clean_cpu_name(const std::string& model_name, int sockets) {
  std::string name = model_name;
  // The frequency: "@ 2.20GHz" to the end.
  if (const size_t at = name.find('@'); at != std::string::npos) name.resize(at);
  for (const char* mark : {"(R)", "(r)", "(TM)", "(tm)"}) {
    for (size_t at = name.find(mark); at != std::string::npos; at = name.find(mark)) name.erase(at, std::string(mark).size());
  }
  std::istringstream words(name);
  std::string word, cleaned;
  while (words >> word) {
    if (word == "CPU" || word == "Processor") continue;  // "Intel Xeon CPU E5-2680"
    cleaned += (cleaned.empty() ? "" : " ") + word;
  }
  if (cleaned.empty()) cleaned = "unknown";
  return sockets > 1 ? std::to_string(sockets) + "x " + cleaned : cleaned;
}

SystemDescription describe_system() { return {cpu_from_proc(), ram_gib_from_proc(), os_name(), compiler()}; }

uint64_t peak_memory_bytes() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<uint64_t>(usage.ru_maxrss) * 1024;  // Linux: KiB
}

}  // namespace pmc::shell
