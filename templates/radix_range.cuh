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

}  // namespace ds
