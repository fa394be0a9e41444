// Masks of 32-bit float compares built on the FMA pipe: a `set` gives 1.0f or 0.0f per element,
// and float multiply-adds place the flags as bits, where selects and integer adds would take
// the integer ALU, the scan's busiest pipe (bench/results/NOTES.md, nineteenth session).
#pragma once
#include "common.cuh"

namespace ds {

// 1.0f where x > t or either is NaN (unordered), else 0.0f.
DS_DEV float greater_or_nan_flag(float x, float t) {
  float d;
  asm("set.gtu.f32.f32 %0, %1, %2;" : "=f"(d) : "f"(x), "f"(t));
  return d;
}

// 1.0f where x == t or either is NaN (unordered), else 0.0f.
DS_DEV float equal_or_nan_flag(float x, float t) {
  float d;
  asm("set.equ.f32.f32 %0, %1, %2;" : "=f"(d) : "f"(x), "f"(t));
  return d;
}

// flags[j] * 2^(first + j) summed, for 0/1 flags: exact while first + kCount <= 24.
template <int kCount>
DS_DEV float weighted_flags(const float (&flags)[kCount], int first) {
  float sum = flags[0] * float(1u << first);
#pragma unroll
  for (int j = 1; j < kCount; ++j) sum = __fmaf_rn(flags[j], float(1u << (first + j)), sum);
  return sum;
}

// parts[0] + ... + parts[kCount - 1], added in pairs (a shorter chain than one by one).
template <int kCount>
DS_DEV float pairwise_sum(const float* parts) {
  if constexpr (kCount == 1) {
    return parts[0];
  } else {
    return pairwise_sum<kCount / 2>(parts) + pairwise_sum<kCount - kCount / 2>(parts + kCount / 2);
  }
}

// The 16 low bits of a float holding an integer below 2^16: 2^23 added, the integer lies in the
// low bits of the mantissa.
DS_DEV u32 low_bits_of(float integer) {
  return __float_as_uint(integer + 8388608.0f) & 0xffffu;
}

}  // namespace ds
