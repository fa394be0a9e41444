// In-place bitonic sort of a power-of-two number of 64-bit words in shared memory, best first.
#pragma once
#include "common.cuh"

namespace ds {

// by_low_word: order by the low 32 bits only (the complemented column: ascending column).
template <int kThreads>
DS_DEV void bitonic_sort_descending(u64* data, int size, bool by_low_word) {
  const u64 key_mask = by_low_word ? 0xffffffffull : ~0ull;
  for (int block = 2; block <= size; block <<= 1) {
    for (int stride = block >> 1; stride > 0; stride >>= 1) {
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
  }
}

}  // namespace ds
