// CPU checks of the dtype conversions the reference and the generators are built on.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>

#include "dtype_bits.hpp"
#include "spec.hpp"

namespace deepselect::testing {

TEST_CASE("dtype bits: every 16-bit pattern decodes and encodes back") {
  for (DType dtype : {DType::bf16, DType::f16}) {
    for (uint32_t bits = 0; bits <= 0xffffu; ++bits) {
      CAPTURE(dtype_name(dtype));
      CAPTURE(bits);
      const double value = decode(bits, dtype);
      CHECK(std::isnan(value) == is_nan_bits(bits, dtype));
      if (!std::isnan(value)) CHECK(encode(value, dtype) == bits);
    }
  }
}

TEST_CASE("dtype bits: f32 matches the hardware conversion") {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 200000; ++i) {
    const auto bits = static_cast<uint32_t>(rng());
    const float value = std::bit_cast<float>(bits);
    if (std::isnan(value)) continue;
    CHECK(encode(static_cast<double>(value), DType::f32) == bits);
    CHECK(decode(bits, DType::f32) == static_cast<double>(value));
    // A double between floats (subnormal and overflowing ranges included) rounds like a cast.
    const double between =
        std::ldexp(static_cast<double>(rng() >> 11), static_cast<int>(rng() % 320) - 200);
    CHECK(encode(between, DType::f32) == std::bit_cast<uint32_t>(static_cast<float>(between)));
  }
}

TEST_CASE("dtype bits: round to nearest even at the edges") {
  const double infinity = std::numeric_limits<double>::infinity();
  CHECK(encode(1.00390625, DType::bf16) == 0x3f80u);  // 1 + 2^-8: a tie, down to even
  CHECK(encode(1.01171875, DType::bf16) == 0x3f82u);  // 1 + 3 * 2^-8: a tie, up to even
  CHECK(encode(0.1, DType::bf16) == 0x3dcdu);
  CHECK(encode(0.1, DType::f16) == 0x2e66u);
  CHECK(encode(-0.0, DType::f16) == 0x8000u);
  CHECK(encode(65519.0, DType::f16) == 0x7bffu);
  CHECK(encode(65520.0, DType::f16) == 0x7c00u);  // the tie above the largest finite
  CHECK(encode(-1e30, DType::f16) == 0xfc00u);
  CHECK(encode(std::ldexp(1.0, -24), DType::f16) == 0x0001u);
  CHECK(encode(std::ldexp(1.0, -25), DType::f16) == 0x0000u);  // a tie, down to even zero
  CHECK(encode(std::ldexp(1.5, -25), DType::f16) == 0x0001u);
  CHECK(encode(std::ldexp(1023.5, -24), DType::f16) == 0x0400u);  // carries into the normals
  CHECK(encode(infinity, DType::bf16) == 0x7f80u);
  CHECK(encode(-infinity, DType::f32) == 0xff800000u);
  CHECK(is_nan_bits(encode(std::nan(""), DType::f16), DType::f16));
  CHECK(decode(0x3c00u, DType::f16) == 1.0);
  CHECK(decode(0x0001u, DType::bf16) == std::ldexp(1.0, -133));
  CHECK(nan_bits(DType::bf16, true, 0) == 0xff81u);
  CHECK(is_nan_bits(nan_bits(DType::f32, false, 0x400000u), DType::f32));
}

}  // namespace deepselect::testing
