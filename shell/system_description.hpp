// The machine and process a run happened on, as benchmark records describe
// them (QVBS results: "system" {cpu, ram, os, runtime} and "memory"). Read
// from /proc and /etc/os-release; a field that cannot be read says "unknown"
// rather than failing the export.
#pragma once

#include <cstdint>
#include <string>

namespace pmc::shell {

struct SystemDescription {
  std::string cpu;      // "Intel Xeon Gold 6248" ("2x ..." for two sockets), no frequency or (R)/(TM)
  uint64_t ram_gib = 0; // installed memory, GiB rounded (0 when unknown)
  std::string os;       // "Debian GNU/Linux 12 (bookworm)"
  std::string runtime;  // the compiler pmc was built with: "gcc 12.2.0"
};

SystemDescription describe_system();

// The CPU model as QVBS asks for it: without "(R)", "(TM)", "CPU" and the
// "@ 2.20GHz" frequency, blanks collapsed; "Nx " in front for N > 1 sockets.
std::string clean_cpu_name(const std::string& model_name, int sockets);

// The process's peak resident memory so far, in bytes (getrusage).
uint64_t peak_memory_bytes();

}  // namespace pmc::shell
