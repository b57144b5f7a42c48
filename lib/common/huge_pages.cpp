#include "common/huge_pages.hpp"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace pmc {

void advise_huge_pages(const void* data, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr uintptr_t k_huge = uintptr_t{2} << 20;
  if (bytes < 2 * k_huge) return;
  // Only whole 2 MiB pages inside the array: the memory around it may belong
  // to someone else.
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + k_huge - 1) & ~(k_huge - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes) & ~(k_huge - 1);
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);  // advice: failure is harmless
#else
  (void)data;
  (void)bytes;
#endif
}

}  // namespace pmc
