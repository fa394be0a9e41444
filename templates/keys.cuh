// Order-preserving keys: a larger key is a better element under the contract's value order.
#pragma once
#include "common.cuh"

namespace ds {

// Maps the raw bits of an IEEE value (sign bit kSign, +inf bits kInf) to an unsigned key whose
// order is the numeric order: -0.0 and +0.0 get the same key, NaN gets nan_key (the top key when
// NaN ranks above +inf, 0 when below -inf), and invert (0 or all ones) turns it around for
// "smallest".
template <u32 kSign, u32 kInf>
DS_HD u32 ordered_key(u32 raw, u32 nan_key, u32 invert) {
  const u32 all = kSign | (kSign - 1u);
  const u32 mag = raw & (kSign - 1u);
  u32 key = (raw & kSign) ? (~raw & all) : (raw | kSign);
  key = mag == 0u ? kSign : key;
  key = mag > kInf ? nan_key : key;
  return key ^ invert;
}

template <u32 kSign, u32 kInf>
DS_HD bool is_nan_bits(u32 raw) {
  return (raw & (kSign - 1u)) > kInf;
}

// A candidate: the key in the high word, the complemented column in the low word, so that
// comparing candidates as integers is the contract's total order (value, then lower column).
DS_HD u64 make_candidate(u32 key, u32 column) {
  return (u64(key) << 32) | u64(~column);
}
DS_HD u32 candidate_column(u64 cand) {
  return ~u32(cand);
}

struct F32 {
  typedef u32 Raw;
  static const int kBytes = 4;
  static const int kKeyBits = 32;
  static const int kMantissaBits = 23;
  static const u32 kSign = 0x80000000u;
  static const u32 kInf = 0x7f800000u;
};
struct BF16 {
  typedef u16 Raw;
  static const int kBytes = 2;
  static const int kKeyBits = 16;
  static const int kMantissaBits = 7;
  static const u32 kSign = 0x8000u;
  static const u32 kInf = 0x7f80u;
};
struct F16 {
  typedef u16 Raw;
  static const int kBytes = 2;
  static const int kKeyBits = 16;
  static const int kMantissaBits = 10;
  static const u32 kSign = 0x8000u;
  static const u32 kInf = 0x7c00u;
};

template <class T>
DS_HD u32 key_of(u32 raw, u32 nan_key, u32 invert) {
  return ordered_key<T::kSign, T::kInf>(raw, nan_key, invert);
}

// The raw bits of a number's key (before inversion): key_of's inverse, except for the keys that
// stand for several raw values (both zeros, every NaN), which give one of them.
template <class T>
DS_HD u32 raw_of_key(u32 key) {
  const u32 all = T::kSign | (T::kSign - 1u);
  return (key & T::kSign) ? (key ^ T::kSign) : (~key & all);
}

// Whether `key` (before inversion) is a number's, so that a word with it reads exactly as a
// threshold (Threshold::of_candidate): neither a NaN pattern's (their bits all take nan_key) nor
// the one between the negatives and the zeros, which -0.0 would have had (key_of gives both zeros
// kSign).
template <class T>
DS_HD bool is_number_key(u32 key) {
  return key != T::kSign - 1u && !is_nan_bits<T::kSign, T::kInf>(raw_of_key<T>(key));
}

// The key NaN gets, and the inversion mask, for the call's policy.
template <class T>
DS_HD u32 nan_key_for(bool nan_smallest) {
  return nan_smallest ? 0u : (T::kSign | (T::kSign - 1u));
}
template <class T>
DS_HD u32 invert_for(bool largest) {
  return largest ? 0u : (T::kSign | (T::kSign - 1u));
}

}  // namespace ds
