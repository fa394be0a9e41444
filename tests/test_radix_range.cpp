// How a radix select pass narrows its range (templates/radix_range.cuh): a digit's part of the
// range never reaches past the range's end, where the words lie that a pass counted above it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

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

// A bf16 select's first range, from its smallest word: its bins at shift 32 start at each key's
// lowest column, so each holds one key, which the clamp narrows to the row's columns (17 bits for
// a row of 131,072), and the next pass splits them.
TEST_CASE("radix range: column ranges give a bin of one key its row's columns") {
  const ds::ColumnRanges ranges{ds::LowHalves{~131071u, ~0u}};
  const uint64_t smallest = 0x3f2a00000000ull | ~5000u;  // column 5000 of key 0x3f2a
  const uint64_t low = ranges.first_low(smallest);
  CHECK(low == (0x3f2a00000000ull | ~131071u));
  const ds::RadixRange first{low, (0x3f2a00000000ull + (200ull << 32) + ~0u) - low};
  const ds::RadixRange bin = ds::digit_range(first, 7, 32);
  CHECK(bin.low == (0x3f3100000000ull | ~131071u));
  const ds::RadixRange kept = ranges.kept(bin);
  CHECK(kept.low == bin.low);
  CHECK(kept.span == 131071ull);
  // From the smallest word itself, the bin held the top columns of one key and the bottom ones of
  // the next, whose ends both lie among the row's columns: nothing to clamp.
  const ds::RadixRange unaligned = ds::digit_range(ds::RadixRange{smallest, first.span}, 7, 32);
  CHECK(ranges.kept(unaligned).span == unaligned.span);
  // A bin that straddles two keys but holds only the lower one's columns.
  const ds::RadixRange straddling{0x3f2a00000000ull + 0xf0000000ull, 0x20000000ull};
  const ds::RadixRange lower = ranges.kept(straddling);
  CHECK(lower.low == (0x3f2a00000000ull | ~131071u));
  CHECK(end_of(lower) == 0x3f2affffffffull);
}

// Over random words (a few keys, columns of a row) and ranges holding at least one of them, the
// clamp keeps every word the range holds and nothing outside it, and both its ends are words'
// places (low halves inside the row's).
TEST_CASE("radix range: the clamp to the row's columns keeps every word of the range") {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 2000; ++trial) {
    const uint32_t first = static_cast<uint32_t>(rng() % 100000);
    const uint32_t length = 1 + static_cast<uint32_t>(rng() % 200000);
    const ds::LowHalves halves{~(first + length - 1), ~first};
    const uint64_t base_key = rng() % 1000;
    std::vector<uint64_t> words(1 + rng() % 50);
    for (uint64_t& w : words) {
      const uint64_t key = base_key + rng() % 4;
      w = (key << 32) | (halves.lowest + static_cast<uint32_t>(rng() % length));
    }
    const uint64_t inside = words[rng() % words.size()];
    const uint64_t low = inside - std::min<uint64_t>(inside, rng() % (uint64_t{3} << 32));
    const ds::RadixRange range{low, inside - low + rng() % (uint64_t{3} << 32)};
    const ds::RadixRange clamped = ds::clamp_to_low_halves(range, halves);
    CAPTURE(range.low);
    CAPTURE(range.span);
    CHECK(clamped.low >= range.low);
    CHECK(end_of(clamped) <= end_of(range));
    const uint64_t ends[2] = {clamped.low, end_of(clamped)};
    for (const uint64_t w : ends) {
      CHECK(static_cast<uint32_t>(w) >= halves.lowest);
      CHECK(static_cast<uint32_t>(w) <= halves.highest);
    }
    for (const uint64_t w : words) {
      const bool in_range = w >= range.low && w <= end_of(range);
      CHECK(in_range == (w >= clamped.low && w <= end_of(clamped)));
    }
  }
}

}  // namespace
}  // namespace deepselect::testing
