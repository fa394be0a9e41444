// Which of a thread's block elements lie below a column (templates/column_bits.cuh): the masks
// by which the filter settles elements tied with the threshold, and NaN, without testing them
// one by one.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>

#include "column_bits.cuh"

namespace deepselect::testing {
namespace {

// The column of thread `thread`'s element e, as the kernel lays a block out (offset_of).
int64_t column_of(int block_column, int threads, int vec, uint32_t thread, int e) {
  return block_column + (e / vec) * threads * vec + static_cast<int64_t>(thread) * vec + e % vec;
}

template <int kThreads, int kVec, int kPerThread>
void check_against_each_element(std::mt19937_64& rng) {
  for (int trial = 0; trial < 3000; ++trial) {
    // Rows that start past a 16-byte boundary give their first block a negative column.
    const int block_column =
        trial % 3 == 0 ? -static_cast<int>(rng() % kVec) : static_cast<int>(rng() % (1u << 30));
    const auto thread = static_cast<uint32_t>(rng() % kThreads);
    const int64_t block = int64_t{kThreads} * kPerThread;
    uint32_t column = 0;
    switch (trial % 4) {
      case 0:
        column = 0u;
        break;
      case 1:
        column = ~0u;  // the NaN column of a threshold that every NaN beats
        break;
      default: {
        const int64_t near = block_column - 8 + static_cast<int64_t>(rng() % (block + 16));
        column = static_cast<uint32_t>(near < 0 ? 0 : near);
      }
    }
    const uint32_t got = ds::bits_below<kThreads, kVec, kPerThread>(block_column, thread, column);
    uint32_t want = 0;
    for (int e = 0; e < kPerThread; ++e) {
      if (column_of(block_column, kThreads, kVec, thread, e) < static_cast<int64_t>(column))
        want |= 1u << e;
    }
    INFO("threads ", kThreads, " vec ", kVec, " per thread ", kPerThread, " block column ",
         block_column, " thread ", thread, " column ", column);
    REQUIRE(got == want);
  }
}

TEST_CASE("column bits: the bits below a column are those of the elements whose columns are") {
  std::mt19937_64 rng(11);
  check_against_each_element<256, 4, 16>(rng);  // f32, a lone CTA at B = 4096
  check_against_each_element<512, 4, 16>(rng);  // f32, a cluster's CTA at B = 8192
  check_against_each_element<512, 4, 8>(rng);
  check_against_each_element<256, 8, 32>(rng);  // 16-bit, a lone CTA at B = 8192
  check_against_each_element<512, 8, 16>(rng);
  check_against_each_element<128, 8, 8>(rng);
}

// A thread's elements lie in column order, so the bits below any column are its lowest ones
// within each vector, and raising the column only adds bits.
TEST_CASE("column bits: raising the column only adds bits") {
  std::mt19937_64 rng(12);
  for (int trial = 0; trial < 2000; ++trial) {
    const int block_column = static_cast<int>(rng() % 100000) - 3;
    const auto thread = static_cast<uint32_t>(rng() % 256);
    uint32_t previous = 0;
    for (int64_t column = 0; column < 100; ++column) {
      const auto at = static_cast<uint32_t>(std::max(block_column, 0) + column * 97);
      const uint32_t bits = ds::bits_below<256, 4, 16>(block_column, thread, at);
      REQUIRE((bits & previous) == previous);
      previous = bits;
    }
  }
}

}  // namespace
}  // namespace deepselect::testing
