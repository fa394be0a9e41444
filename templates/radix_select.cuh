// Shared-memory radix select over candidates (unique 64-bit words, larger is better).
#pragma once
#include "block_primitives.cuh"

namespace ds {

// The result of a select: the top `want` candidates are exactly those c with
// (c & mask) >= prefix.
struct Selection {
  u64 prefix;
  u64 mask;
};

struct RadixScratch {
  u32 hist[256];
  u32 digit;
  u32 want;
  u32 in_digit;
};

// Finds the selection of the best `want` of cand[0..count) (want < count), one 8-bit digit
// at a time from bit kTopShift+7 down, stopping as soon as the digit that holds the want-th
// candidate holds exactly the ones still wanted.
template <int kThreads, int kTopShift>
DS_DEV Selection radix_select(const u64* cand, int count, u32 want, RadixScratch& scratch) {
  Selection selection = {0ull, 0ull};
  for (int shift = kTopShift; shift >= 0; shift -= 8) {
    for (int i = threadIdx.x; i < 256; i += kThreads) scratch.hist[i] = 0u;
    __syncthreads();
    for (int i = threadIdx.x; i < count; i += kThreads) {
      const u64 c = cand[i];
      if ((c & selection.mask) == selection.prefix)
        atomicAdd(&scratch.hist[(c >> shift) & 255u], 1u);
    }
    __syncthreads();
    if (warp_id() == 0) {
      // Lane l owns digits 8l..8l+7; find the digit where the count from the top reaches want.
      const u32 lane = lane_id();
      u32 bins[8];
      u32 lane_total = 0;
#pragma unroll
      for (int j = 0; j < 8; ++j) {
        bins[j] = scratch.hist[lane * 8u + j];
        lane_total += bins[j];
      }
      u32 above = warp_suffix_sum(lane_total) - lane_total;
#pragma unroll
      for (int j = 7; j >= 0; --j) {
        if (above < want && want <= above + bins[j]) {
          scratch.digit = lane * 8u + u32(j);
          scratch.want = want - above;
          scratch.in_digit = bins[j];
        }
        above += bins[j];
      }
    }
    __syncthreads();
    want = scratch.want;
    selection.prefix |= u64(scratch.digit) << shift;
    selection.mask |= 255ull << shift;
    if (scratch.in_digit == want) break;
  }
  return selection;
}

}  // namespace ds
