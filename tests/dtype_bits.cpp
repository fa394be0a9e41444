#include "dtype_bits.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace deepselect::testing {
namespace {

struct Layout {
  int mantissa_bits;
  int bias;
  uint32_t sign;
  uint32_t exponent_mask;  // in place
  uint32_t mantissa_mask;
};

Layout layout_of(DType dtype) {
  const Format format = format_of(dtype);
  const int m = format.mantissa_bits;
  const uint32_t all_exponent = (1u << format.exponent_bits) - 1u;
  return {m, (1 << (format.exponent_bits - 1)) - 1, 1u << (format.exponent_bits + m),
          all_exponent << m, (1u << m) - 1u};
}

}  // namespace

Format format_of(DType dtype) {
  switch (dtype) {
    case DType::f32:
      return {8, 23};
    case DType::bf16:
      return {8, 7};
    case DType::f16:
      return {5, 10};
  }
  throw Error("dtype_bits: unknown dtype");
}

double decode(uint32_t bits, DType dtype) {
  const Layout l = layout_of(dtype);
  const uint32_t exponent = (bits & l.exponent_mask) >> l.mantissa_bits;
  const uint32_t mantissa = bits & l.mantissa_mask;
  double magnitude;
  if ((bits & l.exponent_mask) == l.exponent_mask) {
    magnitude = mantissa != 0 ? std::numeric_limits<double>::quiet_NaN()
                              : std::numeric_limits<double>::infinity();
  } else if (exponent == 0) {
    magnitude = std::ldexp(static_cast<double>(mantissa), 1 - l.bias - l.mantissa_bits);
  } else {
    magnitude = std::ldexp(static_cast<double>(mantissa | (l.mantissa_mask + 1u)),
                           static_cast<int>(exponent) - l.bias - l.mantissa_bits);
  }
  return (bits & l.sign) != 0 ? -magnitude : magnitude;
}

uint32_t encode(double value, DType dtype) {
  const Layout l = layout_of(dtype);
  const uint32_t sign = std::signbit(value) ? l.sign : 0u;
  if (std::isnan(value)) return sign | l.exponent_mask | ((l.mantissa_mask + 1u) >> 1);
  const double magnitude = std::fabs(value);
  if (std::isinf(magnitude)) return sign | l.exponent_mask;
  if (magnitude == 0.0) return sign;
  int binary_exponent = 0;
  std::frexp(magnitude, &binary_exponent);
  // The unbiased exponent of the result; below the normal range the quantum stays at 2^(1-bias).
  const int exponent = std::max(binary_exponent - 1, 1 - l.bias);
  // An integer in [0, 2^(m+1)]: the significand with its hidden bit, rounded to even. Adding it
  // to the biased exponent minus one lets subnormals, normals and a rounding carry all land in
  // the right field.
  const double significand = std::nearbyint(std::ldexp(magnitude, l.mantissa_bits - exponent));
  const int64_t bits = (static_cast<int64_t>(exponent + l.bias - 1) << l.mantissa_bits) +
                       static_cast<int64_t>(significand);
  if (bits >= static_cast<int64_t>(l.exponent_mask)) return sign | l.exponent_mask;
  return sign | static_cast<uint32_t>(bits);
}

bool is_nan_bits(uint32_t bits, DType dtype) {
  const Layout l = layout_of(dtype);
  return (bits & l.exponent_mask) == l.exponent_mask && (bits & l.mantissa_mask) != 0;
}

uint32_t nan_bits(DType dtype, bool negative, uint32_t payload) {
  const Layout l = layout_of(dtype);
  const uint32_t mantissa = payload & l.mantissa_mask;
  return (negative ? l.sign : 0u) | l.exponent_mask | (mantissa != 0 ? mantissa : 1u);
}

}  // namespace deepselect::testing
