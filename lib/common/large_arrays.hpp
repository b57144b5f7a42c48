// Sizing and filling arrays of gigabytes on every core. A vector's resize
// zero-fills on one thread and its first touch faults pages in on that
// thread: the model's arrays of a 61M-state build (~10 GB) take seconds
// sized one after another, and a single thread copies them at ~3.5 GB/s.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "common/huge_pages.hpp"

namespace pmc {

// Arrays sized together: add() reserves each (huge pages), run() faults
// every array's pages in on all threads, then zero-fills the arrays at once,
// each on a thread of its own.
class ArraySizing {
 public:
  template <typename T>
  void add(std::vector<T>& array, size_t count) {
    reserve_with_huge_pages(array, count);
    if (count > 0) pages_.push_back({array.data(), count * sizeof(T)});
    fills_.push_back([&array, count] { array.resize(count); });
  }
  // `threads`: 0 for every core the process may use.
  void run(unsigned threads = 0);

 private:
  struct Pages {
    void* data;
    size_t bytes;
  };
  std::vector<Pages> pages_;
  std::vector<std::function<void()>> fills_;
};

// memcpy on every core the process may use (one thread below a few MB).
void copy_in_parallel(void* to, const void* from, size_t bytes);

}  // namespace pmc
