// IEEE bit patterns of the supported dtypes, written independently of templates/keys.cuh so
// that the reference checks it rather than repeating it.
#pragma once

#include <cstddef>
#include <cstdint>

#include <deepselect/deepselect.hpp>

namespace deepselect::testing {

struct Format {
  int exponent_bits;
  int mantissa_bits;
};

Format format_of(DType dtype);

// The exact value of raw bits (held in the low bits); every dtype fits a double exactly.
double decode(uint32_t bits, DType dtype);
// Rounds to nearest, ties to even, overflowing to +-inf; a NaN becomes the quiet NaN.
uint32_t encode(double value, DType dtype);
bool is_nan_bits(uint32_t bits, DType dtype);
// Raw bits of a NaN with the given sign and payload (payload 0 is replaced by 1).
uint32_t nan_bits(DType dtype, bool negative, uint32_t payload);

}  // namespace deepselect::testing
