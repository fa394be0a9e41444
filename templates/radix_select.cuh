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
  u32 hist[2][256];  // passes alternate: one is counted while the other is cleared
  u32 digit;
  u32 want;
  u32 in_digit;
  u64 warp_and[32];
  u64 warp_or[32];
};

// The bits on which cand[0..count) all agree, as (mask of agreeing high bits, their value):
// digits above the first disagreeing bit need no histogram pass.
template <int kThreads>
DS_DEV Selection common_high_bits(const u64* cand, int count, RadixScratch& scratch) {
  u64 all_and = ~0ull;
  u64 all_or = 0ull;
  for (int i = threadIdx.x; i < count; i += kThreads) {
    const u64 c = cand[i];
    all_and &= c;
    all_or |= c;
  }
  const u32 and_low = __reduce_and_sync(0xffffffffu, u32(all_and));
  const u32 and_high = __reduce_and_sync(0xffffffffu, u32(all_and >> 32));
  const u32 or_low = __reduce_or_sync(0xffffffffu, u32(all_or));
  const u32 or_high = __reduce_or_sync(0xffffffffu, u32(all_or >> 32));
  if (lane_id() == 0u) {
    scratch.warp_and[warp_id()] = (u64(and_high) << 32) | and_low;
    scratch.warp_or[warp_id()] = (u64(or_high) << 32) | or_low;
  }
  __syncthreads();
  all_and = ~0ull;
  all_or = 0ull;
  for (int w = 0; w < kThreads / 32; ++w) {
    all_and &= scratch.warp_and[w];
    all_or |= scratch.warp_or[w];
  }
  const u64 differing = all_and ^ all_or;
  if (differing == 0ull) return Selection{all_and, ~0ull};
  // Bits above the highest differing one agree.
  const int highest = 63 - __clzll(differing);
  const u64 agree = highest == 63 ? 0ull : ~0ull << (highest + 1);
  return Selection{all_and & agree, agree};
}

// Finds the selection of the best `want` of cand[0..count) (want < count), one 8-bit digit
// at a time from the highest bit on which the candidates differ, stopping as soon as the
// digit that holds the want-th candidate holds exactly the ones still wanted.
// Two barriers per digit: the warps other than warp 0 clear the next digit's histogram while
// warp 0 scans this one. The first histogram is cleared before common_high_bits' barrier.
template <int kThreads>
DS_DEV Selection radix_select(const u64* cand, int count, u32 want, RadixScratch& scratch) {
  static_assert(kThreads >= 64, "the histogram clear needs a warp besides warp 0");
  for (int i = threadIdx.x; i < 256; i += kThreads) scratch.hist[0][i] = 0u;
  Selection selection = common_high_bits<kThreads>(cand, count, scratch);
  const int top = selection.mask == ~0ull ? -1 : 63 - __clzll(~selection.mask);
  int pass = 0;
  for (int high = top; high >= 0; high -= 8, pass ^= 1) {
    const int shift = high >= 7 ? high - 7 : 0;
    u32* hist = scratch.hist[pass];
    // Four words per thread per round keep loads in flight; a warp whose counted lanes all
    // hit one bin (a plateau) adds once, others add per lane.
    for (int base = 0; base < count; base += 4 * kThreads) {
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        const int i = base + q * kThreads + int(threadIdx.x);
        const u64 c = i < count ? cand[i] : 0ull;
        const bool counted = i < count && (c & selection.mask) == selection.prefix;
        const u32 counting = __ballot_sync(0xffffffffu, counted);
        if (counting == 0u) continue;
        const u32 digit = u32(c >> shift) & 255u;
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
    selection.prefix |= u64(scratch.digit) << shift;
    selection.mask |= 255ull << shift;
    if (scratch.in_digit == want) break;
  }
  return selection;
}

}  // namespace ds
