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

// The word with its halves swapped where `swap`: a sort by the low word sorts the swapped words
// whole, swapped as its first merge loads them and back as its last stores them (loops of their
// own, before and after, changed the code of the kernels that do not sort: NOTES.md, v166).
DS_DEV u64 swapped_if(bool swap, u64 w) {
  return swap ? (w << 32) | (w >> 32) : w;
}

// The merges of runs of 32 words, each best first, into one run of `size` (a power of two, at
// most 2 * kThreads) by rank: each word moves to its place in its merged pair of runs, its offset
// in its own run plus the words of the other run better than it, which a binary search counts
// (the words are distinct). Thread t moves words t and t + kThreads. Two barriers a merge, where
// the bitonic network takes one a stride; unrolled, each search's steps are constants. The last
// merge stores the words swapped back where `swap_out`.
template <int kThreads>
DS_DEV void merge_runs_by_rank(u64* data, int size, bool swap_out) {
  constexpr int kWordsPerThread = 2;
#pragma unroll
  for (int run = 32; run < kWordsPerThread * kThreads; run <<= 1) {
    if (run >= size) break;
    u64 word[kWordsPerThread];
    int place[kWordsPerThread];
#pragma unroll
    for (int r = 0; r < kWordsPerThread; ++r) {
      const int e = int(threadIdx.x) + r * kThreads;
      word[r] = 0ull;
      place[r] = 0;
      if (e < size) {
        word[r] = data[e];
        const int own = e & ~(run - 1);
        const u64* other = data + (own ^ run);
        // The other run's words better than this one are a prefix of it.
        int better = 0;
#pragma unroll
        for (int step = run >> 1; step > 0; step >>= 1) {
          if (other[better + step - 1] > word[r]) better += step;
        }
        if (other[better] > word[r]) ++better;
        place[r] = min(own, own ^ run) + (e - own) + better;
      }
    }
    __syncthreads();
    const bool last = 2 * run == size;
#pragma unroll
    for (int r = 0; r < kWordsPerThread; ++r) {
      if (int(threadIdx.x) + r * kThreads < size)
        data[place[r]] = swapped_if(swap_out && last, word[r]);
    }
    __syncthreads();
  }
}

// Size a power of two. Word r of lane L of a warp is its chunk's word r * 32 + L (a chunk of
// 32 * kWords words), so strides below 32 run between lanes, those 32 and 64 apart inside a
// thread (kWords = 4), and only the strides of a chunk and more through shared memory, a barrier
// each. One word a lane took sample-b64's sort from 45 barriers to 15 (-9.3%: Change 69); four,
// where every warp then has a chunk (size >= 4 * kThreads), cut 2,048 words on 512 threads 14%
// more, but with fewer chunks than warps the idle warps cost more than the barriers saved (v85).
// Rotating the wider strides into the lanes, two barriers a merge, cost more than it saved
// (v87: Changes 98 and 99; bench/results/NOTES.md). With one word a lane (size at most twice
// the threads), the chunks end all best first and merge by rank (merge_runs_by_rank): 512 words
// 9 barriers.
template <int kThreads, int kWords>
DS_DEV void sort_in_chunks(u64* data, int count, int size, bool by_low_word) {
  static_assert(kWords == 1 || kWords == 4, "a thread's words lie 32 and 64 apart, or alone");
  constexpr int kChunk = 32 * kWords;
  const int lane = int(threadIdx.x & 31u);
  // The merges of blocks first..last over their strides below kChunk; words at or past `filled`
  // are read as size - e (small and distinct). The last merge orders each block as element bit
  // `last_order` says (`last`: alternately, as a bitonic merge of larger blocks needs; `size`:
  // all best first). The words are swapped as they load where `swap_in`, as they store where
  // `swap_out`.
  auto merge_in_warps = [&](int first, int last, int filled, int last_order, bool swap_in,
                            bool swap_out) {
    for (int base = int(threadIdx.x >> 5) * kChunk; base < size; base += kThreads / 32 * kChunk) {
      u64 words[kWords];
#pragma unroll
      for (int r = 0; r < kWords; ++r) {
        const int e = base + r * 32 + lane;
        words[r] = e < filled ? swapped_if(swap_in, data[e]) : u64(size - e);
      }
      for (int block = first; block <= last; block <<= 1) {
        const int order = block == last ? last_order : block;
        if constexpr (kWords == 4) {
          if (block >= 128) exchange_in_lane<2>(words, base + lane, order);
          if (block >= 64) exchange_in_lane<1>(words, base + lane, order);
        }
        for (int stride = min(block >> 1, 16); stride > 0; stride >>= 1) {
#pragma unroll
          for (int r = 0; r < kWords; ++r) {
            const u64 other = __shfl_xor_sync(0xffffffffu, words[r], stride);
            words[r] = kept_word(words[r], other, base + r * 32 + lane, stride, order);
          }
        }
      }
#pragma unroll
      for (int r = 0; r < kWords; ++r) {
        const int e = base + r * 32 + lane;
        // Sizes below 32 leave a warp's other lanes unwritten.
        if (e < size) data[e] = swapped_if(swap_out, words[r]);
      }
    }
    __syncthreads();
  };
  if constexpr (kWords == 1) {
    merge_in_warps(2, min(size, kChunk), count, size, by_low_word, by_low_word && size <= kChunk);
    if (size > kChunk) merge_runs_by_rank<kThreads>(data, size, by_low_word);
  } else {
    merge_in_warps(2, kChunk, count, kChunk, by_low_word, false);
    for (int block = 2 * kChunk; block <= size; block <<= 1) {
      for (int stride = block >> 1; stride >= kChunk; stride >>= 1)
        exchange_in_memory<kThreads>(data, size, stride, block);
      merge_in_warps(block, block, size, block, false, by_low_word && block == size);
    }
  }
}

// Sorts data[0, count) descending (by_low_word: by the low 32 bits only, the complemented
// column: ascending column); data[count, size) is overwritten, where size is count rounded up
// to a power of two: the buffer must hold that many. The words must be distinct, and at least
// 2^31 (candidates are: ~column, column < 2^31), so that the padding (size - e) sorts last.
// All the CTA's threads must call it, once data[0, count) is visible to them all. Whole words
// compare in two instructions, where a mask of the low word cost four more at every
// compare-exchange.
template <int kThreads>
DS_DEV void bitonic_sort_descending(u64* data, int count, bool by_low_word) {
  int size = 1;
  while (size < count) size <<= 1;
  if (size >= 4 * kThreads) {
    sort_in_chunks<kThreads, 4>(data, count, size, by_low_word);
  } else {
    sort_in_chunks<kThreads, 1>(data, count, size, by_low_word);
  }
}

}  // namespace ds
