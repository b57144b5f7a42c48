// A half-open range [begin, end) of indices: which part of an array a
// reader needs (row_partition.hpp: the slots one slice reads of another).
#pragma once

#include <cstdint>

namespace pmc {

struct IndexRange {
  uint64_t begin = 0;
  uint64_t end = 0;

  bool empty() const { return end <= begin; }
  uint64_t size() const { return empty() ? 0 : end - begin; }
};

}  // namespace pmc
