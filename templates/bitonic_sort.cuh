// In-place bitonic sort of a power-of-two number of 64-bit words in shared memory, best first.
#pragma once
#include "common.cuh"

namespace ds {

// by_low_word: order by the low 32 bits only (the complemented column: ascending column).
// Compare-exchanges of words less than 32 places apart run between the lanes of a warp (word e
// in lane e % 32), so that only the strides of 32 and more take a barrier each: 512 words take 15
// barriers instead of 45 (sample-b64 -9.3%: bench/results/NOTES.md, Change 69).
template <int kThreads>
DS_DEV void bitonic_sort_descending(u64* data, int size, bool by_low_word) {
  const u64 key_mask = by_low_word ? 0xffffffffull : ~0ull;
  // The merges of blocks first..last (powers of two), each over its strides below 32.
  auto merge_in_warps = [&](int first, int last) {
    for (int base = 0; base < size; base += kThreads) {
      const int e = base + int(threadIdx.x);
      u64 word = e < size ? data[e] : 0ull;
      for (int block = first; block <= last; block <<= 1) {
        for (int stride = min(block >> 1, 16); stride > 0; stride >>= 1) {
          const u64 other = __shfl_xor_sync(0xffffffffu, word, stride);
          // The lower word of a pair keeps the better one where its block sorts descending.
          const bool keeps_better = ((e & stride) == 0) == ((e & block) == 0);
          if (((other & key_mask) > (word & key_mask)) == keeps_better) word = other;
        }
      }
      if (e < size) data[e] = word;
    }
    __syncthreads();
  };
  merge_in_warps(2, min(size, 32));
  for (int block = 64; block <= size; block <<= 1) {
    for (int stride = block >> 1; stride >= 32; stride >>= 1) {
      for (int t = threadIdx.x; t < size / 2; t += kThreads) {
        const int low = 2 * t - (t & (stride - 1));
        const int high = low + stride;
        const bool descending = (low & block) == 0;
        const u64 a = data[low];
        const u64 b = data[high];
        if (((a & key_mask) < (b & key_mask)) == descending) {
          data[low] = b;
          data[high] = a;
        }
      }
      __syncthreads();
    }
    merge_in_warps(block, block);
  }
}

}  // namespace ds
