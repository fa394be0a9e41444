// The range of candidate words that a radix select pass splits (radix_select.cuh), on its own so
// that the host tests can check how a pass narrows it.
#pragma once
#include "common.cuh"

namespace ds {

// Words w with low <= w <= low + span.
struct RadixRange {
  u64 low;
  u64 span;
};

// The part of `range` that digit `digit` of a pass at `shift` covers: bins are 2^shift words
// wide from range.low, but the range's last bin ends where the range does. A range narrowed to
// its words' extremes need not end on a bin edge, and the words past its end lie above it:
// a pass counted them already, so the next must not count them again.
DS_HD RadixRange digit_range(RadixRange range, unsigned digit, int shift) {
  const u64 start = u64(digit) << shift;
  const u64 bin_span = shift == 0 ? 0ull : (1ull << shift) - 1ull;
  const u64 left = range.span - start;
  return RadixRange{range.low + start, bin_span < left ? bin_span : left};
}

// The key half of a candidate word (make_candidate: key << 32 | ~column).
static const u64 kKeyHalf = 0xffffffff00000000ull;

// The bounds of the low halves of the words a select holds (a candidate's ~column: the row's
// columns).
struct LowHalves {
  u32 lowest;
  u32 highest;
};

// `range` with its ends moved in to the nearest words whose low halves lie in `halves` (`range`
// must hold such a word).
DS_HD RadixRange clamp_to_low_halves(RadixRange range, LowHalves halves) {
  constexpr u64 kOneKey = 0x100000000ull;
  u64 low = range.low;
  u64 high = range.low + range.span;
  if (u32(low) < halves.lowest) {
    low = (low & kKeyHalf) | halves.lowest;
  } else if (u32(low) > halves.highest && (low >> 32) < (high >> 32)) {
    low = ((low & kKeyHalf) + kOneKey) | halves.lowest;
  }
  if (u32(high) > halves.highest) {
    high = (high & kKeyHalf) | halves.highest;
  } else if (u32(high) < halves.lowest && (high >> 32) > (low >> 32)) {
    high = ((high & kKeyHalf) - kOneKey) | halves.highest;
  }
  return low <= high ? RadixRange{low, high - low} : range;
}

// How a radix select (radix_select.cuh) narrows its ranges: its first range's low end, from the
// smallest word, and each kept bin's range. Plain ranges keep both as they are; kNarrows says
// whether a kept bin may come out narrower than its pass's bins, so that the select takes the
// next pass's width from the bin rather than from the pass's shift.
struct PlainRanges {
  static const bool kNarrows = false;
  DS_HD u64 first_low(u64 smallest) const { return smallest; }
  DS_HD RadixRange kept(RadixRange bin) const { return bin; }
};

// Ranges over words whose low halves lie in `halves`: the first starts at the smallest word's
// key's lowest place (no word lies below the smallest with its key), so that the bins of a pass
// at shift 32 hold one key each rather than the top columns of one key and the bottom ones of
// the next; each kept bin is clamped to the words' low halves (clamp_to_low_halves), so a bin of
// one key spans its row's columns, which the next pass splits, rather than 2^32 words, whose next
// pass put all of them into its top bin and took a re-range.
struct ColumnRanges {
  static const bool kNarrows = true;
  LowHalves halves;
  DS_HD u64 first_low(u64 smallest) const { return (smallest & kKeyHalf) | halves.lowest; }
  DS_HD RadixRange kept(RadixRange bin) const { return clamp_to_low_halves(bin, halves); }
};

}  // namespace ds
