// In-place sorts of 64-bit words in shared memory, best first: a bitonic network, whose merges
// past a warp's chunk go by rank where each thread holds one word.
#pragma once
#include "common.cuh"

namespace ds {

// What element e keeps of its word and `other`, element e ^ stride's: the lower one of a pair
// keeps the better one where its block sorts descending.
DS_DEV u64 kept_word(u64 word, u64 other, int e, int stride, int block) {
  const bool keeps_better = ((e & stride) == 0) == ((e & block) == 0);
  return (other > word) == keeps_better ? other : word;
}

// The compare-exchanges `stride` apart of a merge of blocks of `block` words, through shared
// memory, a barrier after them.
template <int kThreads>
DS_DEV void exchange_in_memory(u64* data, int size, int stride, int block) {
  for (int t = threadIdx.x; t < size / 2; t += kThreads) {
    const int low = 2 * t - (t & (stride - 1));
    const int high = low + stride;
    const u64 a = data[low];
    const u64 b = data[high];
    if ((a < b) == ((low & block) == 0)) {
      data[low] = b;
      data[high] = a;
    }
  }
  __syncthreads();
}

// The compare-exchanges of a thread's words kPartner * 32 apart: word r against word
// r ^ kPartner; `first` is word 0's element.
template <int kPartner, int kWords>
DS_DEV void exchange_in_lane(u64 (&words)[kWords], int first, int block) {
  u64 result[kWords];
#pragma unroll
  for (int r = 0; r < kWords; ++r)
    result[r] = kept_word(words[r], words[r ^ kPartner], first + r * 32, kPartner * 32, block);
#pragma unroll
  for (int r = 0; r < kWords; ++r) words[r] = result[r];
}

// The merges of runs of 32 words, each best first, into one run of `size` (a power of two, at
// most kThreads) by rank: each thread's word moves to its place in its merged pair of runs, its
// offset in its own run plus the words of the other run better than it, which a binary search
// counts (the words are distinct). Two barriers a merge, where the bitonic network takes one a
// stride; unrolled, each search's steps are constants.
template <int kThreads>
DS_DEV void merge_runs_by_rank(u64* data, int size) {
  const int e = int(threadIdx.x);
#pragma unroll
  for (int run = 32; run < kThreads; run <<= 1) {
    if (run >= size) break;
    u64 word = 0ull;
    int place = 0;
    if (e < size) {
      word = data[e];
      const int own = e & ~(run - 1);
      const u64* other = data + (own ^ run);
      // The other run's words better than this one are a prefix of it.
      int better = 0;
#pragma unroll
      for (int step = run >> 1; step > 0; step >>= 1) {
        if (other[better + step - 1] > word) better += step;
      }
      if (other[better] > word) ++better;
      place = min(own, own ^ run) + (e - own) + better;
    }
    __syncthreads();
    if (e < size) data[place] = word;
    __syncthreads();
  }
}

// Runs exchanges(words, base) over the warps' chunks of data[0, size) (32 * kWords words from
// `base`, word r of lane L at base + r * 32 + L), loaded into registers (words at or past `filled`
// read as size - e, small and distinct) and stored back, a barrier after them.
template <int kThreads, int kWords, class Exchanges>
DS_DEV void exchange_chunks_in_warps(u64* data, int size, int filled, Exchanges exchanges) {
  constexpr int kChunk = 32 * kWords;
  const int lane = int(threadIdx.x & 31u);
  for (int base = int(threadIdx.x >> 5) * kChunk; base < size; base += kThreads / 32 * kChunk) {
    u64 words[kWords];
#pragma unroll
    for (int r = 0; r < kWords; ++r) {
      const int e = base + r * 32 + lane;
      words[r] = e < filled ? data[e] : u64(size - e);
    }
    exchanges(words, base);
#pragma unroll
    for (int r = 0; r < kWords; ++r) {
      const int e = base + r * 32 + lane;
      if (e < size) data[e] = words[r];  // sizes below 32 leave a warp's other lanes unwritten
    }
  }
  __syncthreads();
}

// Size a power of two. Word r of lane L of a warp is its chunk's word r * 32 + L (a chunk of
// 32 * kWords words), so strides below 32 run between lanes, those 32 and 64 apart inside a
// thread (kWords = 4), and only the strides of a chunk and more through shared memory, a barrier
// each. One word a lane took sample-b64's sort from 45 barriers to 15 (-9.3%: Change 69); four,
// where every warp then has a chunk (size >= 4 * kThreads), cut 2,048 words on 512 threads 14%
// more, but with fewer chunks than warps the idle warps cost more than the barriers saved (v85).
// Rotating the wider strides into the lanes, two barriers a merge, cost more than it saved
// (v87: Changes 98 and 99; bench/results/NOTES.md). With one word a thread (size <= kThreads),
// the chunks end all best first and merge by rank (merge_runs_by_rank): 512 words 9 barriers.
template <int kThreads, int kWords>
DS_DEV void sort_in_chunks(u64* data, int count, int size) {
  static_assert(kWords == 1 || kWords == 4, "a thread's words lie 32 and 64 apart, or alone");
  constexpr int kChunk = 32 * kWords;
  const int lane = int(threadIdx.x & 31u);
  // The compare-exchanges below kChunk apart of a merge of blocks of `block` words (those below
  // it), each block ordered as element bit `order` says. Where block is a constant (unrolled),
  // or any block past the chunk, which takes every stride, no stride is under a branch.
  auto exchange_in_chunk = [&](u64(&words)[kWords], int base, int block, int order) {
    if constexpr (kWords == 4) {
      if (block >= 128) exchange_in_lane<2>(words, base + lane, order);
      if (block >= 64) exchange_in_lane<1>(words, base + lane, order);
    }
#pragma unroll
    for (int stride = 16; stride > 0; stride >>= 1) {
      if (stride >= block) continue;
#pragma unroll
      for (int r = 0; r < kWords; ++r) {
        const u64 other = __shfl_xor_sync(0xffffffffu, words[r], stride);
        words[r] = kept_word(words[r], other, base + r * 32 + lane, stride, order);
      }
    }
  };
  // The chunks sorted, alternately best and worst first, as the bitonic merges of larger blocks
  // need; all best first where they then merge by rank.
  const int chunk = min(size, kChunk);
  const bool by_rank = kWords == 1 && size > kChunk && size <= kThreads;
  exchange_chunks_in_warps<kThreads, kWords>(data, size, count, [&](u64(&words)[kWords], int base) {
#pragma unroll
    for (int block = 2; block <= kChunk; block <<= 1) {
      if (block > chunk) break;
      exchange_in_chunk(words, base, block, by_rank && block == chunk ? size : block);
    }
  });
  if (by_rank) {
    merge_runs_by_rank<kThreads>(data, size);
    return;
  }
  for (int block = 2 * kChunk; block <= size; block <<= 1) {
    for (int stride = block >> 1; stride >= kChunk; stride >>= 1)
      exchange_in_memory<kThreads>(data, size, stride, block);
    exchange_chunks_in_warps<kThreads, kWords>(
        data, size, size,
        [&](u64(&words)[kWords], int base) { exchange_in_chunk(words, base, 2 * kChunk, block); });
  }
}

// Swaps the halves of data[0, count)'s words: sorted whole, they then sort by their low words.
template <int kThreads>
DS_DEV void swap_halves(u64* data, int count) {
  for (int i = threadIdx.x; i < count; i += kThreads) data[i] = (data[i] << 32) | (data[i] >> 32);
  __syncthreads();
}

// Sorts data[0, count) descending (by_low_word: by the low 32 bits only, the complemented
// column: ascending column); data[count, size) becomes words below 2^12, which sort last, where
// size is count rounded up to a power of two: the buffer must hold that many. The words must be
// distinct and at least 2^31 (candidates are: ~column, column < 2^31). All the CTA's threads
// must call it, once data[0, count) is visible to them all. Whole words compare in two
// instructions, where a mask of the low word cost four more at every compare-exchange.
template <int kThreads>
DS_DEV void bitonic_sort_descending(u64* data, int count, bool by_low_word) {
  if (by_low_word) swap_halves<kThreads>(data, count);
  int size = 1;
  while (size < count) size <<= 1;
  if (size >= 4 * kThreads) {
    sort_in_chunks<kThreads, 4>(data, count, size);
  } else {
    sort_in_chunks<kThreads, 1>(data, count, size);
  }
  if (by_low_word) swap_halves<kThreads>(data, count);
}

}  // namespace ds
