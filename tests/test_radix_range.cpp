// How a radix select pass narrows its range (templates/radix_range.cuh): a digit's part of the
// range never reaches past the range's end, where the words lie that a pass counted above it.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>

#include "radix_range.cuh"

namespace deepselect::testing {
namespace {

uint64_t end_of(ds::RadixRange range) {
  return range.low + range.span;
}

// The pass of bench/results/2026-12-02-h200-cluster16/v6: a range narrowed to a bin's words
// (span 0x1a72e, not a bin edge), whose top bin at shift 9 reached 0x1a800 past low; the words
// in (end, 0x1a800] had been counted above it, and the select kept 2047 of 2048.
TEST_CASE("radix range: the top digit of a range narrowed to its words ends with the range") {
  const ds::RadixRange range{0x0000c009fffe07a0ull, 0x1a72eull};
  const ds::RadixRange top = ds::digit_range(range, 211, 9);
  CHECK(top.low == 0x0000c009ffffada0ull);
  CHECK(end_of(top) == end_of(range));
  CHECK(top.span == 0x12eull);
  // A digit below the last keeps its whole bin.
  const ds::RadixRange inner = ds::digit_range(range, 100, 9);
  CHECK(inner.low == range.low + (100ull << 9));
  CHECK(inner.span == 511ull);
}

// Over random ranges and shifts, the digits' parts tile the range: each starts where the one
// below it ended, lies inside the range, is at most a bin wide, and the last ends with it.
TEST_CASE("radix range: the digits of a pass tile its range") {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    const int width = 1 + static_cast<int>(rng() % 64);
    const uint64_t most = width == 64 ? ~0ull : (1ull << width) - 1ull;
    const uint64_t span = (rng() & most) | (1ull << (width - 1));  // exactly `width` bits
    const uint64_t low = rng() & ~most;                            // no overflow past 2^64 - 1
    const ds::RadixRange range{low, span};
    const int shift = width > 8 ? width - 8 : 0;
    CAPTURE(width);
    CAPTURE(span);
    uint64_t next = range.low;
    unsigned digit = 0;
    for (; (uint64_t{digit} << shift) <= span; ++digit) {
      REQUIRE(digit < 256u);
      const ds::RadixRange part = ds::digit_range(range, digit, shift);
      CHECK(part.low == next);
      CHECK(part.span <= (shift == 0 ? 0ull : (1ull << shift) - 1ull));
      CHECK(end_of(part) <= end_of(range));
      next = end_of(part) + 1;
    }
    CHECK(next - 1 == end_of(range));
  }
}

}  // namespace
}  // namespace deepselect::testing
