// ArraySizing and copy_in_parallel (common/large_arrays.hpp): sizes,
// zeros and bytes exactly as a plain resize and memcpy give them, at and
// around the sizes where the work is split.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "common/large_arrays.hpp"

namespace pmc {
namespace {

TEST(LargeArrays, SizingGivesZeroFilledArraysOfTheSizesAsked) {
  std::vector<uint64_t> large, empty;
  std::vector<uint8_t> odd;
  std::vector<double> reused{1.5, 2.5};
  ArraySizing sizing;
  sizing.add(large, (size_t{8} << 20) + 3);  // 64 MB and a bit: faulted in on several threads
  sizing.add(empty, 0);
  sizing.add(odd, 4097);
  sizing.add(reused, 5);
  sizing.run(3);
  ASSERT_EQ(large.size(), (size_t{8} << 20) + 3);
  EXPECT_EQ(std::accumulate(large.begin(), large.end(), uint64_t{0}), 0u);
  EXPECT_TRUE(empty.empty());
  ASSERT_EQ(odd.size(), 4097u);
  EXPECT_EQ(std::accumulate(odd.begin(), odd.end(), 0), 0);
  // An array that had values keeps them; the new ones are zero, as resize gives.
  EXPECT_EQ(reused, (std::vector<double>{1.5, 2.5, 0, 0, 0}));
  sizing.run(1);  // nothing left to do
}

TEST(LargeArrays, ParallelCopiesCopyEveryByte) {
  for (size_t bytes : {size_t{0}, size_t{1}, (size_t{2} << 20) - 1, size_t{6} << 20, (size_t{6} << 20) + 7,
                       (size_t{37} << 20) + 4095}) {
    std::vector<uint8_t> from(bytes), to(bytes + 1, 0xAB);
    for (size_t i = 0; i < bytes; ++i) from[i] = static_cast<uint8_t>(i * 131 + (i >> 20));
    copy_in_parallel(to.data(), from.data(), bytes);
    EXPECT_TRUE(bytes == 0 || std::memcmp(to.data(), from.data(), bytes) == 0) << bytes << " bytes";
    EXPECT_EQ(to[bytes], 0xAB) << "wrote past the end of " << bytes << " bytes";
  }
}

}  // namespace
}  // namespace pmc
