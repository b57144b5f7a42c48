#include "common/huge_pages.hpp"

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

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

void populate_in_parallel(void* data, size_t bytes, unsigned threads) {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  constexpr uintptr_t k_page = uintptr_t{2} << 20;  // whole huge pages per thread
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + k_page - 1) & ~(k_page - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes) & ~(k_page - 1);
  if (end <= begin) return;
  const uintptr_t pages = (end - begin) / k_page;
  const auto parts = static_cast<unsigned>(std::clamp<uintptr_t>(pages / 16, 1, std::max(threads, 1u)));
  auto populate = [&](unsigned p) {
    const uintptr_t from = begin + pages * p / parts * k_page, to = begin + pages * (p + 1) / parts * k_page;
    // Advice: where the kernel refuses, the pages fault in when written.
    if (to > from) ::madvise(reinterpret_cast<void*>(from), to - from, MADV_POPULATE_WRITE);
  };
  std::vector<std::thread> workers;
  for (unsigned p = 1; p < parts; ++p) workers.emplace_back(populate, p);
  populate(0);
  for (std::thread& w : workers) w.join();
#else
  (void)data;
  (void)bytes;
  (void)threads;
#endif
}

}  // namespace pmc
