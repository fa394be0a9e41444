#include "float_bits.hpp"

#include <bit>
#include <cmath>

namespace deepselect {
namespace {

uint32_t float_to_bf16(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  if (std::isnan(value)) return (bits >> 16) | 0x40u;
  const uint32_t rounding = 0x7fffu + ((bits >> 16) & 1u);
  return (bits + rounding) >> 16;
}

uint32_t float_to_f16(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  const uint32_t sign = (bits >> 16) & 0x8000u;
  const uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return sign | 0x7e00u;   // NaN
  if (magnitude >= 0x477ff000u) return sign | 0x7c00u;  // rounds to inf
  if (magnitude < 0x38800000u) {
    // Subnormal half (or zero): scale into the 10-bit mantissa with round to nearest even.
    const float scaled = std::fabs(value) * 16777216.0f;  // 2^24
    return sign | static_cast<uint32_t>(std::nearbyint(scaled));
  }
  const uint32_t rebased = magnitude - 0x38000000u;  // exponent bias 127 -> 15
  const uint32_t rounding = 0xfffu + ((rebased >> 13) & 1u);
  return sign | ((rebased + rounding) >> 13);
}

}  // namespace

uint32_t to_dtype_bits(DType dtype, double value) {
  const float single = static_cast<float>(value);
  switch (dtype) {
    case DType::f32:
      return std::bit_cast<uint32_t>(single);
    case DType::bf16:
      return float_to_bf16(single);
    case DType::f16:
      return float_to_f16(single);
  }
  return 0;
}

}  // namespace deepselect
