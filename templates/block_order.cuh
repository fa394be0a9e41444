// The order in which a row's blocks are scanned: a pseudo-random permutation of [0, m) that
// depends only on m, the seed and `leading` (never on the data), so a run repeats exactly.
#pragma once
#include "common.cuh"

namespace ds {

DS_HD u32 mix32(u32 x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

// The first `leading` steps take blocks 0, 1, ... in column order. Ties at the threshold go to
// the lower column, so a scan that starts at the row's first columns lets no tied element of a
// later block in: on a plateau at the threshold (relu_ties: zeros, until k larger values are
// seen) a random first block would let in the ties of every block left of it. The other blocks
// follow a 4-round Feistel network on 2*half_bits bits, walked until it lands inside the rest.
struct BlockOrder {
  u32 m;
  u32 leading;
  u32 half_bits;
  u32 keys[4];

  DS_HD BlockOrder(u32 m_, u32 seed, u32 leading_)
      : m(m_), leading(leading_ < m_ ? leading_ : m_), half_bits(1) {
    while ((1u << (2u * half_bits)) < m - leading) ++half_bits;
    for (u32 r = 0; r < 4; ++r) keys[r] = mix32(seed + 0x9e3779b9u * (r + 1u));
  }

  DS_HD u32 round_trip(u32 i) const {
    const u32 mask = (1u << half_bits) - 1u;
    u32 left = i >> half_bits;
    u32 right = i & mask;
    for (u32 r = 0; r < 4; ++r) {
      const u32 next = left ^ (mix32(right ^ keys[r]) & mask);
      left = right;
      right = next;
    }
    return (left << half_bits) | right;
  }

  // The block scanned at step i (0 <= i < m).
  DS_HD u32 operator()(u32 i) const {
    if (i < leading) return i;
    const u32 rest = m - leading;
    i -= leading;
    if (rest > 1u) {
      do {
        i = round_trip(i);
      } while (i >= rest);
    }
    return leading + i;
  }
};

DS_HD u32 row_seed(u32 seed, u32 row) {
  return mix32(seed ^ mix32(row + 0x632be5abu));
}

}  // namespace ds
