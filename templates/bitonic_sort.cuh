// In-place bitonic sort of 64-bit words in shared memory, best first.
#pragma once
#include "common.cuh"

namespace ds {

// What element e keeps of its word and `other`, element e ^ stride's: the lower one of a pair
// keeps the better one where its block sorts descending.
DS_DEV u64 kept_word(u64 word, u64 other, int e, int stride, int block, u64 key_mask) {
  const bool keeps_better = ((e & stride) == 0) == ((e & block) == 0);
  return ((other & key_mask) > (word & key_mask)) == keeps_better ? other : word;
}

// The compare-exchanges `stride` apart of a merge of blocks of `block` words, through shared
// memory, a barrier after them.
template <int kThreads>
DS_DEV void exchange_in_memory(u64* data, int size, int stride, int block, u64 key_mask) {
  for (int t = threadIdx.x; t < size / 2; t += kThreads) {
    const int low = 2 * t - (t & (stride - 1));
    const int high = low + stride;
    const u64 a = data[low];
    const u64 b = data[high];
    if (((a & key_mask) < (b & key_mask)) == ((low & block) == 0)) {
      data[low] = b;
      data[high] = a;
    }
  }
  __syncthreads();
}

// The compare-exchanges of a thread's words kPartner * 32 apart: word r against word
// r ^ kPartner; `first` is word 0's element.
template <int kPartner, int kWords>
DS_DEV void exchange_in_lane(u64 (&words)[kWords], int first, int block, u64 key_mask) {
  u64 result[kWords];
#pragma unroll
  for (int r = 0; r < kWords; ++r)
    result[r] =
        kept_word(words[r], words[r ^ kPartner], first + r * 32, kPartner * 32, block, key_mask);
#pragma unroll
  for (int r = 0; r < kWords; ++r) words[r] = result[r];
}

// Size a power of two. Word r of lane L of a warp is its chunk's word r * 32 + L (a chunk of
// 32 * kWords words), so strides below 32 run between lanes, those 32 and 64 apart inside a
// thread (kWords = 4), and only the strides of a chunk and more through shared memory, a barrier
// each. One word a lane took sample-b64's sort from 45 barriers to 15 (-9.3%: Change 69); four,
// where every warp then has a chunk (size >= 4 * kThreads), cut 2,048 words on 512 threads 14%
// more, but with fewer chunks than warps the idle warps cost more than the barriers saved (v85).
// Rotating the wider strides into the lanes, two barriers a merge, cost more than it saved
// (v87: Changes 98 and 99; bench/results/NOTES.md).
template <int kThreads, int kWords>
DS_DEV void sort_in_chunks(u64* data, int count, int size, u64 key_mask) {
  static_assert(kWords == 1 || kWords == 4, "a thread's words lie 32 and 64 apart, or alone");
  constexpr int kChunk = 32 * kWords;
  const int lane = int(threadIdx.x & 31u);
  // The merges of blocks first..last over their strides below kChunk; words at or past `filled`
  // are read as zero words.
  auto merge_in_warps = [&](int first, int last, int filled) {
    for (int base = int(threadIdx.x >> 5) * kChunk; base < size; base += kThreads / 32 * kChunk) {
      u64 words[kWords];
#pragma unroll
      for (int r = 0; r < kWords; ++r) {
        const int e = base + r * 32 + lane;
        words[r] = e < filled ? data[e] : 0ull;
      }
      for (int block = first; block <= last; block <<= 1) {
        if constexpr (kWords == 4) {
          if (block >= 128) exchange_in_lane<2>(words, base + lane, block, key_mask);
          if (block >= 64) exchange_in_lane<1>(words, base + lane, block, key_mask);
        }
        for (int stride = min(block >> 1, 16); stride > 0; stride >>= 1) {
#pragma unroll
          for (int r = 0; r < kWords; ++r) {
            const u64 other = __shfl_xor_sync(0xffffffffu, words[r], stride);
            words[r] = kept_word(words[r], other, base + r * 32 + lane, stride, block, key_mask);
          }
        }
      }
#pragma unroll
      for (int r = 0; r < kWords; ++r) {
        const int e = base + r * 32 + lane;
        if (e < size) data[e] = words[r];  // sizes below 32 leave a warp's other lanes unwritten
      }
    }
    __syncthreads();
  };
  merge_in_warps(2, min(size, kChunk), count);
  for (int block = 2 * kChunk; block <= size; block <<= 1) {
    for (int stride = block >> 1; stride >= kChunk; stride >>= 1)
      exchange_in_memory<kThreads>(data, size, stride, block, key_mask);
    merge_in_warps(block, block, size);
  }
}

// Sorts data[0, count) descending (by_low_word: by the low 32 bits only, the complemented
// column: ascending column); data[count, size) becomes zero words, which sort last, where size
// is count rounded up to a power of two: the buffer must hold that many. The words must be
// non-zero and distinct under the mask (candidates are: ~column is never 0), since a
// compare-exchange keeps one of two equal ones twice. All the CTA's threads must call it, once
// data[0, count) is visible to them all.
template <int kThreads>
DS_DEV void bitonic_sort_descending(u64* data, int count, bool by_low_word) {
  const u64 key_mask = by_low_word ? 0xffffffffull : ~0ull;
  int size = 1;
  while (size < count) size <<= 1;
  if (size >= 4 * kThreads) {
    sort_in_chunks<kThreads, 4>(data, count, size, key_mask);
  } else {
    sort_in_chunks<kThreads, 1>(data, count, size, key_mask);
  }
}

}  // namespace ds
