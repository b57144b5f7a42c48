// The host memory pmc may use: a limit the user sets
// (`--memory-limit`, pmc_options_set_memory_limit), or by default what the
// machine has. Loaders, the checker and the GPU solvers' host side compare
// what they are about to allocate with it first, so a model or property too
// big for the limit fails with Error(out_of_memory) saying what it needed,
// instead of being killed by the kernel or dying in std::bad_alloc midway.
//
// No fmt here: cuda/ may include this header (error_code.hpp's reason).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pmc {

// The machine's physical memory (sysconf(_SC_PHYS_PAGES) × page size), or
// the limit of the process's own cgroup (common/cgroup_memory.hpp) when
// that is lower. Read once; thread-safe.
uint64_t machine_memory_bytes();

// The limit in force for a setting: `setting` itself, or 0 = the default,
// machine_memory_bytes().
uint64_t effective_memory_limit(uint64_t setting);

// Throws Error(out_of_memory) when `needed` bytes exceed the limit of
// `setting` (0: the machine's memory):
//   "<what> needs ~2.0 GiB, more than the memory limit of 1.0 GiB (set by
//    --memory-limit); raise it with --memory-limit BYTES
//    (pmc_options_set_memory_limit)"
// `what` names the thing being built ("x.tra: a dtmc of 4000000000 states
// and 1 transitions"); `detail`, when given, how the need is made up (it
// follows the amount, in parentheses).
void require_memory(uint64_t needed, uint64_t setting, std::string_view what, std::string_view detail = {});

// "812 bytes", "1.5 KiB", "12.3 MiB", "2.0 GiB" (powers of 1024, as
// --memory-limit reads them).
std::string format_bytes(uint64_t bytes);

// a + b without wrapping (estimates of absurd header counts must stay huge).
inline uint64_t saturating_add(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }
inline uint64_t saturating_mul(uint64_t a, uint64_t b) {
  return a != 0 && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

// Bytes of a CSR matrix with `rows` rows and `entries` entries of 32-bit
// columns and double values: the unit most estimates are made of.
inline uint64_t csr_bytes(uint64_t rows, uint64_t entries) {
  return saturating_add(saturating_mul(8, saturating_add(rows, 1)), saturating_mul(12, entries));
}

}  // namespace pmc
