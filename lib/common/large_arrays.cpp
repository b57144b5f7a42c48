#include "common/large_arrays.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <thread>

#include <omp.h>

namespace pmc {
namespace {

unsigned usable_threads(unsigned requested) {
  return requested != 0 ? requested : static_cast<unsigned>(std::max(1, omp_get_max_threads()));
}

}  // namespace

void ArraySizing::run(unsigned threads) {
  threads = usable_threads(threads);
  for (const Pages& p : pages_) populate_in_parallel(p.data, p.bytes, threads);
  // Fills taken from a shared counter, so two threads on a 2-core machine
  // share six arrays.
  std::atomic<size_t> next{0};
  auto fill = [&] {
    for (size_t i = next++; i < fills_.size(); i = next++) fills_[i]();
  };
  std::vector<std::thread> workers;
  const size_t helpers = std::min<size_t>(threads, fills_.size());
  for (size_t t = 1; t < helpers; ++t) workers.emplace_back(fill);
  fill();
  for (std::thread& w : workers) w.join();
  pages_.clear();
  fills_.clear();
}

void copy_in_parallel(void* to, const void* from, size_t bytes) {
  if (bytes == 0) return;  // an empty vector's data() may be null, which memcpy may not be given
  constexpr size_t k_part = size_t{1} << 21;
  const auto parts = static_cast<int64_t>((bytes + k_part - 1) / k_part);
  if (parts <= 2) {
    std::memcpy(to, from, bytes);
    return;
  }
#pragma omp parallel for schedule(static)
  for (int64_t p = 0; p < parts; ++p) {
    const size_t begin = static_cast<size_t>(p) * k_part, length = std::min(k_part, bytes - begin);
    std::memcpy(static_cast<char*>(to) + begin, static_cast<const char*>(from) + begin, length);
  }
}

}  // namespace pmc
