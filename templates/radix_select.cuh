// Shared-memory radix select over candidates (unique 64-bit words, larger is better).
#pragma once
#include "block_primitives.cuh"

namespace ds {

struct RadixScratch {
  u32 hist[2][256];  // passes alternate: one is counted while the other is cleared
  u32 digit;
  u32 want;
  u32 in_digit;
  u64 warp_min[32];
  u64 warp_max[32];
};

DS_DEV u64 warp_min_u64(u64 value) {
  const u32 high = __reduce_min_sync(0xffffffffu, u32(value >> 32));
  const u32 low = __reduce_min_sync(0xffffffffu, u32(value >> 32) == high ? u32(value) : ~0u);
  return (u64(high) << 32) | low;
}

DS_DEV u64 warp_max_u64(u64 value) {
  const u32 high = __reduce_max_sync(0xffffffffu, u32(value >> 32));
  const u32 low = __reduce_max_sync(0xffffffffu, u32(value >> 32) == high ? u32(value) : 0u);
  return (u64(high) << 32) | low;
}

// The smallest and largest of cand[0..count), in every thread.
template <int kThreads>
DS_DEV void block_min_max(const u64* cand, int count, RadixScratch& scratch, u64* lowest,
                          u64* highest) {
  u64 low = ~0ull;
  u64 high = 0ull;
  for (int i = threadIdx.x; i < count; i += kThreads) {
    const u64 c = cand[i];
    low = c < low ? c : low;
    high = c > high ? c : high;
  }
  low = warp_min_u64(low);
  high = warp_max_u64(high);
  if (lane_id() == 0u) {
    scratch.warp_min[warp_id()] = low;
    scratch.warp_max[warp_id()] = high;
  }
  __syncthreads();
#pragma unroll
  for (int w = 0; w < kThreads / 32; ++w) {
    const u64 warp_low = scratch.warp_min[w];
    const u64 warp_high = scratch.warp_max[w];
    low = warp_low < low ? warp_low : low;
    high = warp_high > high ? warp_high : high;
  }
  *lowest = low;
  *highest = high;
}

// Returns a bound such that the candidates c >= bound are the best `want` of cand[0..count)
// (want < count) and at most `slack` more. Each pass splits the range [low, low + 2^width) that
// holds the want-th candidate into 256 equal bins (the first range spans the candidates'
// minimum to maximum, so the bins follow the data, not fixed key bits), and keeps the bin where
// the count from the top reaches want; it stops when that bin holds at most `slack` candidates
// past the wanted ones (slack 0: the exact want-th). Two barriers per pass: the warps other than
// warp 0 clear the next histogram while warp 0 scans this one.
template <int kThreads>
DS_DEV u64 radix_select(const u64* cand, int count, u32 want, u32 slack, RadixScratch& scratch) {
  static_assert(kThreads >= 64, "the histogram clear needs a warp besides warp 0");
  for (int i = threadIdx.x; i < 256; i += kThreads) scratch.hist[0][i] = 0u;
  u64 low;
  u64 high;
  block_min_max<kThreads>(cand, count, scratch, &low, &high);
  // Offsets from low that lie in the current range are <= span (2^width - 1).
  u64 span = high - low;
  int width = 64 - __clzll(span);
  int pass = 0;
  while (true) {
    const int shift = width > 8 ? width - 8 : 0;
    u32* hist = scratch.hist[pass];
    // Four words per thread per round keep loads in flight; a warp whose counted lanes all
    // hit one bin (a plateau) adds once, others add per lane.
    for (int base = 0; base < count; base += 4 * kThreads) {
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        const int i = base + q * kThreads + int(threadIdx.x);
        const u64 c = i < count ? cand[i] : 0ull;
        const u64 offset = c - low;
        const bool counted = i < count && c >= low && offset <= span;
        const u32 counting = __ballot_sync(0xffffffffu, counted);
        if (counting == 0u) continue;
        const u32 digit = u32(offset >> shift);
        const int leader = __ffs(counting) - 1;
        const u32 leader_digit = __shfl_sync(0xffffffffu, digit, leader);
        if (__all_sync(0xffffffffu, !counted || digit == leader_digit)) {
          if (int(lane_id()) == leader) atomicAdd(&hist[digit], u32(__popc(counting)));
        } else if (counted) {
          atomicAdd(&hist[digit], 1u);
        }
      }
    }
    __syncthreads();
    if (warp_id() == 0) {
      // Lane l owns digits 8l..8l+7; find the digit where the count from the top reaches want.
      const u32 lane = lane_id();
      u32 bins[8];
      u32 lane_total = 0;
#pragma unroll
      for (int j = 0; j < 8; ++j) {
        bins[j] = hist[lane * 8u + j];
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
    } else {
      u32* next = scratch.hist[pass ^ 1];
      for (int i = int(threadIdx.x) - 32; i < 256; i += kThreads - 32) next[i] = 0u;
    }
    __syncthreads();
    want = scratch.want;
    low += u64(scratch.digit) << shift;
    span = shift == 0 ? 0ull : (1ull << shift) - 1ull;
    width = shift;
    // A bin of width 1 holds one word (they are unique), so shift 0 always ends it.
    if (scratch.in_digit - want <= slack || shift == 0) return low;
    pass ^= 1;
  }
}

}  // namespace ds
