// Which of a thread's elements of a scan block lie below a column, on its own so that the host
// tests can check it: the filter settles the elements tied with the threshold (and NaN) by
// their columns with these masks rather than one by one.
#pragma once
#include "common.cuh"

namespace ds {

// A block's element e of thread `thread` lies at offset (e / kVec) * kThreads * kVec + thread *
// kVec + e % kVec (16-byte vectors, coalesced per warp), so a thread's elements lie in column
// order. Returns the bits e of those whose columns, block_column + offset, lie below `column`.
// block_column is negative for a row's first block when the row starts past a 16-byte boundary
// (the elements before the row are the caller's to mask out).
template <int kThreads, int kVec, int kPerThread>
DS_HD u32 bits_below(int block_column, u32 thread, u32 column) {
  // The columns below `column` from the block's first on, clamped to the block so that the
  // rest is 32-bit arithmetic.
  constexpr int kSpan = kPerThread / kVec * kThreads * kVec;
  const i64 reach = i64(column) - block_column;
  const int below_block = reach <= 0 ? 0 : reach >= kSpan ? kSpan : int(reach);
  u32 bits = 0;
  for (int v = 0; v < kPerThread / kVec; ++v) {
    const int gap = below_block - (v * kThreads * kVec + int(thread) * kVec);
    const int below = gap <= 0 ? 0 : gap >= kVec ? kVec : gap;
    bits |= ((1u << below) - 1u) << (v * kVec);
  }
  return bits;
}

}  // namespace ds
