// Packed compares of two 16-bit floats at once (bf16x2, f16x2), for the filter: the mask bits of
// the eight elements of a 16-byte vector from four `set`s, two `prmt`s and two `dp4a`s, instead
// of a convert, a multiply and a compare per element.
#pragma once
#include "keys.cuh"

namespace ds {

// Each half of the result is 0xffff where that half of x is greater than that of t or either is
// NaN (the compare is unordered), else 0.
template <class T>
DS_DEV u32 greater_or_nan_halves(u32 x, u32 t);
// Each half is 0xffff where x equals t or either is NaN (unordered).
template <class T>
DS_DEV u32 equal_or_nan_halves(u32 x, u32 t);
// Both halves hold value, which is exactly representable in T (a T element or an infinity).
template <class T>
DS_DEV u32 broadcast_halves(float value);

// One packed compare for one type: instruction is the `set` that computes it.
#define DS_HALF_SET(Function, Type, instruction)                \
  template <>                                                   \
  DS_DEV u32 Function<Type>(u32 x, u32 t) {                     \
    u32 d;                                                      \
    asm(instruction " %0, %1, %2;" : "=r"(d) : "r"(x), "r"(t)); \
    return d;                                                   \
  }

// The three for one type; ptx names it in the instructions (bf16, f16).
#define DS_HALF_COMPARES(Type, ptx)                                                             \
  DS_HALF_SET(greater_or_nan_halves, Type, "set.gtu.u32." ptx "x2")                             \
  DS_HALF_SET(equal_or_nan_halves, Type, "set.equ.u32." ptx "x2")                               \
  template <>                                                                                   \
  DS_DEV u32 broadcast_halves<Type>(float value) {                                              \
    u32 d;                                                                                      \
    asm("{.reg .b16 h; cvt.rn." ptx ".f32 h, %1; mov.b32 %0, {h, h};}" : "=r"(d) : "f"(value)); \
    return d;                                                                                   \
  }

DS_HALF_COMPARES(BF16, "bf16")
DS_HALF_COMPARES(F16, "f16")
#undef DS_HALF_COMPARES
#undef DS_HALF_SET

// Bits 0..7 from the half flags of four words (word w's low half is element 2w, its high half
// element 2w + 1; a flag is 0xffff or 0): prmt takes one byte per flag, and dp4a weighs the
// bytes, each 0xff or 0, i.e. -1 or 0 as signed bytes, by -1, -2, ..., -128.
DS_DEV u32 bits_of_halves(u32 word0, u32 word1, u32 word2, u32 word3) {
  u32 low;
  u32 high;
  asm("prmt.b32 %0, %1, %2, 0x6420;" : "=r"(low) : "r"(word0), "r"(word1));
  asm("prmt.b32 %0, %1, %2, 0x6420;" : "=r"(high) : "r"(word2), "r"(word3));
  const int upper = __dp4a(int(high), int(0x80c0e0f0u), 0);
  return u32(__dp4a(int(low), int(0xf8fcfeffu), upper));
}

}  // namespace ds
