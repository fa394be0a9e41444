// The running threshold of the scan in the float domain, so that the hot filter loop takes an
// element in two float compares (topk_kernel.cuh, classify_vectors). Values are oriented (negated
// for "smallest"), so "better" is always "greater".
#pragma once
#include "keys.cuh"

namespace ds {

template <class T>
DS_DEV float to_float(u32 raw);

template <>
DS_DEV float to_float<F32>(u32 raw) {
  return __uint_as_float(raw);
}
template <>
DS_DEV float to_float<BF16>(u32 raw) {
  return __uint_as_float(raw << 16);
}
template <>
DS_DEV float to_float<F16>(u32 raw) {
  float value;
  asm("{.reg .b16 h; cvt.u16.u32 h, %1; cvt.f32.f16 %0, h;}" : "=f"(value) : "r"(raw));
  return value;
}

// An element (oriented value x, column c) beats the threshold when
//   x > value, or x == value and c < column, or x is NaN and c < nan_column.
// The k-th candidate being a NaN is expressed by value = +-inf and the columns.
struct Threshold {
  float value;
  u32 column;
  u32 nan_column;

  DS_DEV static Threshold everything() { return Threshold{-__int_as_float(0x7f800000), ~0u, ~0u}; }
  DS_DEV static Threshold nothing() { return Threshold{__int_as_float(0x7f800000), 0u, 0u}; }

  // The threshold a candidate word sets. nan_key and invert are the call's key policy;
  // orient is +1 for largest and -1 for smallest.
  template <class T>
  DS_DEV static Threshold of_candidate(u64 cand, u32 nan_key, u32 invert, float orient) {
    const u32 all = T::kSign | (T::kSign - 1u);
    const u32 key = u32(cand >> 32) ^ invert;  // the key before inversion
    const u32 c = candidate_column(cand);
    const bool nan_best = (nan_key ^ invert) == all;
    if (key == nan_key) {
      Threshold t = nan_best ? nothing() : everything();
      t.nan_column = c;
      return t;
    }
    return Threshold{orient * to_float<T>(raw_of_key<T>(key)), c, nan_best ? ~0u : 0u};
  }
};

}  // namespace ds
