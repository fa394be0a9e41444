// Shared-memory radix select over candidates (unique 64-bit words, larger is better).
#pragma once
#include "block_primitives.cuh"
#include "radix_range.cuh"

namespace ds {

struct RadixScratch {
  u32 hist[2][256];  // passes alternate: one is counted while the other is cleared
  u32 digit;
  u32 want;
  u32 in_digit;
  u32 counted;    // the words the pass counted, over all its bins
  u32 uncounted;  // where a pass adds the words outside its range (never read)
  // The warps' extremes (block_extremes), then in CTA 0 of a cluster at kWarps + r the bounds of
  // the share that CTA r sent it (topk_kernel.cuh, send_share).
  u64 warp_min[32];
  u64 warp_max[32];
  u64 cta_min;  // this CTA's extremes, read by the other CTAs of a shared select
  u64 cta_max;
  u64 ranked;  // the bound rank_in_bin found
};

// Words a bin may hold for rank_in_bin to finish a select: one per thread of two warps.
static const u32 kRankedWords = 64;

// Lower and upper bounds of a set of candidates: a thread's part, then the block's.
struct Extremes {
  u64 low = ~0ull;
  u64 high = 0ull;

  DS_DEV void add(u64 low_bound, u64 high_bound) {
    low = low_bound < low ? low_bound : low;
    high = high_bound > high ? high_bound : high;
  }
};

// This thread's part of cand[0..count): its elements threadIdx.x, threadIdx.x + kThreads, ...
template <int kThreads>
DS_DEV Extremes strided_extremes(const u64* cand, int count) {
  Extremes extremes;
  for (int i = threadIdx.x; i < count; i += kThreads) extremes.add(cand[i], cand[i]);
  return extremes;
}

// The block's extremes from every thread's, in every thread.
template <int kThreads>
DS_DEV Extremes block_extremes(Extremes mine, RadixScratch& scratch) {
  const u64 low = warp_min(mine.low);
  const u64 high = warp_max(mine.high);
  if (lane_id() == 0u) {
    scratch.warp_min[warp_id()] = low;
    scratch.warp_max[warp_id()] = high;
  }
  __syncthreads();
  // Lane w reads warp w's: a warp reduction, not a loop over the warps in every thread (whose
  // 64-bit compares took a fifth of a select: bench/results/NOTES.md, nineteenth session).
  const bool holds = lane_id() < u32(kThreads / 32);
  Extremes block;
  block.low = warp_min(holds ? scratch.warp_min[lane_id()] : ~0ull);
  block.high = warp_max(holds ? scratch.warp_max[lane_id()] : 0ull);
  return block;
}

// The extremes of the candidates of the first kShared CTAs of the cluster (all of them must
// call it), from every thread's, in every thread. A CTA's cta_min and cta_max are read by the
// others between the cluster barrier here and the next cluster barrier of the select.
template <int kThreads, int kShared>
DS_DEV Extremes shared_extremes(Extremes mine, RadixScratch& scratch) {
  Extremes all = block_extremes<kThreads>(mine, scratch);
  if (kShared > 1) {
    if (threadIdx.x == 0) {
      scratch.cta_min = all.low;
      scratch.cta_max = all.high;
    }
    cluster_sync_local();
    for (u32 rank = 0; rank < u32(kShared); ++rank)
      all.add(*peer_shared(&scratch.cta_min, rank), *peer_shared(&scratch.cta_max, rank));
  }
  return all;
}

// The want-th best of the `held` (<= kRankedWords) candidates in [low, low + span], found by
// rank: they are gathered into `cleared` (256 zeroed words; its last counts them), and each of
// the first `held` threads counts the gathered words above its own. One loop over the
// candidates and two barriers, where a radix pass takes a loop, two barriers and warp 0's scan
// of the bins, and an exact select's last pass is often followed by more (a bf16 key's columns).
template <int kThreads>
DS_DEV u64 rank_in_bin(const u64* cand, int count, u64 low, u64 span, u32 want, u32 held,
                       u32* cleared, RadixScratch& scratch) {
  static_assert(kThreads >= int(kRankedWords) && 2 * kRankedWords < 256, "gather room");
  u64* gathered = reinterpret_cast<u64*>(cleared);
  for (int i = threadIdx.x; i < count; i += kThreads) {
    const u64 c = cand[i];
    if (c - low <= span) gathered[atomicAdd(&cleared[255], 1u)] = c;
  }
  __syncthreads();
  if (threadIdx.x < held) {
    const u64 mine = gathered[threadIdx.x];
    u32 above = 0;
    for (u32 j = 0; j < held; ++j) above += gathered[j] > mine ? 1u : 0u;
    // Words are unique, so exactly one has want - 1 above it.
    if (above == want - 1u) scratch.ranked = mine;
  }
  __syncthreads();
  return scratch.ranked;
}

// Warp 0's search of a histogram whose lane l holds the counts of digits first_digit + l * kPer
// + j in bins[j] (every lane must call it): the digit where the count from the top reaches want
// (1 <= want <= the total) goes to scratch.digit, want's rank inside that digit to scratch.want,
// the digit's count to scratch.in_digit, and the histogram's total to scratch.counted.
template <int kPer>
DS_DEV void locate_digit(const u32 (&bins)[kPer], u32 want, u32 first_digit,
                         RadixScratch& scratch) {
  const u32 lane = lane_id();
  u32 lane_total = 0;
#pragma unroll
  for (int j = 0; j < kPer; ++j) lane_total += bins[j];
  const u32 from_lane = warp_suffix_sum(lane_total);
  if (lane == 0u) scratch.counted = from_lane;
  u32 above = from_lane - lane_total;
#pragma unroll
  for (int j = kPer - 1; j >= 0; --j) {
    if (above < want && want <= above + bins[j]) {
      scratch.digit = first_digit + lane * u32(kPer) + u32(j);
      scratch.want = want - above;
      scratch.in_digit = bins[j];
    }
    above += bins[j];
  }
}

// Counts the candidates in [low, low + span] into the 256 bins of `hist` by (c - low) >> shift.
// A thread reads its words of a round, then counts them (measured no faster than counting each
// as it is read: bench/results/NOTES.md, Change 25). Every word adds on its own: a vote that let
// a warp whose lanes share a bin add once made the select slower (Change 27). Words outside the
// range add to `uncounted`, so that no add is under a branch (each branch computed its bin's
// shared address anew: NOTES.md, nineteenth session); a word below low wraps to an offset above
// span (low + span <= ~0). Shared addresses are 32-bit (Change 57).
template <int kThreads>
DS_DEV void count_bins(const u64* cand, int count, u64 low, u64 span, int shift, u32* hist,
                       u32& uncounted) {
  constexpr int kPerRound = 8;
  const u32 hist_at = shared_address(hist);
  const u32 uncounted_at = shared_address(&uncounted);
  for (int base = 0; base < count; base += kPerRound * kThreads) {
    u32 at[kPerRound];
#pragma unroll
    for (int q = 0; q < kPerRound; ++q) {
      const int i = base + q * kThreads + int(threadIdx.x);
      const u64 offset = (i < count ? cand[i] : 0ull) - low;
      at[q] = i < count && offset <= span ? hist_at + (u32(offset >> shift) << 2) : uncounted_at;
    }
#pragma unroll
    for (int q = 0; q < kPerRound; ++q) add_one_shared(at[q]);
  }
}

// The first pass's histogram, cleared (radix_passes wants a barrier between this and it).
template <int kThreads>
DS_DEV void clear_first_hist(RadixScratch& scratch) {
  for (int i = threadIdx.x; i < 256; i += kThreads) scratch.hist[0][i] = 0u;
}

// radix_select's passes from the range `all`, which every thread holds (the block's or the
// shared CTAs' extremes, or a range the caller knows bounds the candidates), once
// scratch.hist[0] is clear and every thread has passed a barrier since.
template <int kThreads, int kShared, bool kRankSmallBin = false, class Ranges = PlainRanges>
DS_DEV u64 radix_passes(const u64* cand, int count, u32 want, u32 slack, Extremes all,
                        RadixScratch& scratch, Ranges ranges = Ranges{}) {
  static_assert(kThreads >= 64, "the histogram clear needs a warp besides warp 0");
  static_assert(!kRankSmallBin || kShared == 1, "the other CTAs read a shared select's histograms");
  u64 low = ranges.first_low(all.low);
  // Offsets from low that lie in the current range are <= span (2^width - 1).
  u64 span = all.high - low;
  int width = 64 - __clzll(span);
  int pass = 0;
  while (true) {
    DS_COUNT(1);
    DS_PHASE(15);
    const int shift = width > 8 ? width - 8 : 0;
    u32* hist = scratch.hist[pass];
    count_bins<kThreads>(cand, count, low, span, shift, hist, scratch.uncounted);
    DS_PHASE(12);
    if (kShared > 1) {
      cluster_sync_local();
    } else {
      __syncthreads();
    }
    DS_PHASE(13);
    if (warp_id() == 0) {
      // Lane l owns digits 8l..8l+7; find the digit where the count from the top reaches want.
      const u32 lane = lane_id();
      u32 bins[8];
#pragma unroll
      for (int j = 0; j < 8; ++j) bins[j] = hist[lane * 8u + j];
      for (u32 rank = 1; rank < u32(kShared); ++rank) {
        const u32* peer_hist = peer_shared(hist, (cluster_rank() + rank) % u32(kShared));
#pragma unroll
        for (int j = 0; j < 8; ++j) bins[j] += peer_hist[lane * 8u + j];
      }
      locate_digit(bins, want, 0u, scratch);
    } else {
      u32* next = scratch.hist[pass ^ 1];
      for (int i = int(threadIdx.x) - 32; i < 256; i += kThreads - 32) next[i] = 0u;
    }
    __syncthreads();
    DS_PHASE(14);
    want = scratch.want;
    const u32 in_digit = scratch.in_digit;
    const u32 counted = scratch.counted;
    const RadixRange next = ranges.kept(digit_range(RadixRange{low, span}, scratch.digit, shift));
    low = next.low;
    span = next.span;
    width = Ranges::kNarrows ? 64 - __clzll(span) : shift;
    // A bin of width 1 holds one word (they are unique), so shift 0 always ends it.
    if (in_digit - want <= slack || shift == 0) return low;
    pass ^= 1;
    // The buffer for the next pass, just cleared, holds the bin's words instead.
    if (kRankSmallBin && in_digit <= kRankedWords)
      return rank_in_bin<kThreads>(cand, count, low, span, want, in_digit, scratch.hist[pass],
                                   scratch);
    // A bin that holds most of what the pass counted (a plateau of equal keys, or a narrow
    // distribution) is split next along its own words' extremes: splitting its nominal range,
    // a plateau would take a pass for every 8 bits above its columns' spread.
    if (2u * in_digit > counted) {
      DS_COUNT(2);
      Extremes in_bin;
      for (int i = threadIdx.x; i < count; i += kThreads) {
        const u64 c = cand[i];
        if (c >= low && c - low <= span) in_bin.add(c, c);
      }
      const Extremes bin = shared_extremes<kThreads, kShared>(in_bin, scratch);
      low = bin.low;
      span = bin.high - bin.low;
      width = 64 - __clzll(span);
    }
  }
}

// Returns a bound such that the candidates c >= bound are the best `want` of cand[0..count)
// (want < count) and at most `slack` more. `mine` bounds this thread's part of the candidates
// (strided_extremes, or whatever the caller knows). Each pass splits the range [low, low +
// 2^width) that holds the want-th candidate into 256 equal bins (the first range spans the
// candidates' minimum to maximum, so the bins follow the data, not fixed key bits; so does a kept
// bin holding most of a pass's words, which is narrowed to its words' extremes), and keeps the bin
// where the count from the top reaches want, no further than the range's end (digit_range); it
// stops when that bin holds at most `slack` candidates past the wanted ones (slack 0: the exact
// want-th). Two barriers per pass: the warps other than warp 0 clear the next histogram while
// warp 0 scans this one. With kShared > 1 the first kShared CTAs of the cluster (all of them must
// call it) select together over the union of their buffers, `want` counting over the union:
// extremes and histograms are combined through distributed shared memory, one cluster barrier per
// pass, and every CTA derives the same bound. A CTA's histogram is read by the others only
// between the cluster barrier of its pass and the next pass's barrier, so clearing the other
// buffer meanwhile is safe. kRankSmallBin (16-bit keys) lets a lone select rank a kept bin of
// at most kRankedWords words (rank_in_bin): there it holds one key's columns, which take two
// more passes and a re-range. A 32-bit key's next pass mostly ends the select, and ranking
// measured no faster there (bench/results/NOTES.md, Change 55). `ranges` may narrow the first
// range and each kept bin (radix_range.cuh: ColumnRanges splits a bin of one key by its row's
// columns next).
template <int kThreads, int kShared, bool kRankSmallBin = false, class Ranges = PlainRanges>
DS_DEV u64 radix_select(const u64* cand, int count, u32 want, u32 slack, Extremes mine,
                        RadixScratch& scratch, Ranges ranges = Ranges{}) {
  if (kShared == 1) clear_first_hist<kThreads>(scratch);
  const Extremes all = shared_extremes<kThreads, kShared>(mine, scratch);
  if (kShared > 1) {
    // Cleared only now, so that a shared select may follow another: the other CTAs read this
    // CTA's histograms of the earlier one until they reach the barrier above.
    clear_first_hist<kThreads>(scratch);
    __syncthreads();
  }
  return radix_passes<kThreads, kShared, kRankSmallBin>(cand, count, want, slack, all, scratch,
                                                        ranges);
}
}  // namespace ds
