// Which keys a select's bound may set the scan's threshold at (templates/keys.cuh,
// is_number_key): exactly the keys that some value other than NaN has, so that the threshold's
// float form (Threshold::of_candidate) orders elements as their words do.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "keys.cuh"

namespace deepselect::testing {
namespace {

// Every 16-bit key against the keys of every 16-bit pattern that is not NaN, under both NaN
// policies (NaN's own key is never a number's).
template <class T>
void check_every_16_bit_key() {
  for (const bool nan_smallest : {false, true}) {
    const uint32_t nan_key = ds::nan_key_for<T>(nan_smallest);
    std::vector<bool> taken(1u << 16, false);
    for (uint32_t raw = 0; raw < (1u << 16); ++raw) {
      if (!ds::is_nan_bits<T::kSign, T::kInf>(raw)) taken[ds::key_of<T>(raw, nan_key, 0u)] = true;
    }
    for (uint32_t key = 0; key < (1u << 16); ++key) {
      CAPTURE(key);
      CHECK(ds::is_number_key<T>(key) == taken[key]);
    }
  }
}

TEST_CASE("number keys: every bf16 and f16 key is a number's exactly where a value has it") {
  check_every_16_bit_key<ds::BF16>();
  check_every_16_bit_key<ds::F16>();
}

TEST_CASE("number keys: f32 keys at the zeros, the infinities and NaN, and random values") {
  using ds::F32;
  const uint32_t top = ds::nan_key_for<F32>(false);
  CHECK(top == 0xffffffffu);
  CHECK_FALSE(ds::is_number_key<F32>(top));          // NaN's when it ranks above +inf
  CHECK_FALSE(ds::is_number_key<F32>(0u));           // NaN's when it ranks below -inf
  CHECK(ds::is_number_key<F32>(0x80000000u));        // both zeros
  CHECK_FALSE(ds::is_number_key<F32>(0x7fffffffu));  // between the negatives and the zeros
  CHECK(ds::is_number_key<F32>(0x7ffffffeu));        // -1 ulp below zero
  CHECK(ds::is_number_key<F32>(0x80000001u));        // +1 ulp above zero
  const uint32_t plus_inf = ds::key_of<F32>(0x7f800000u, top, 0u);
  const uint32_t minus_inf = ds::key_of<F32>(0xff800000u, top, 0u);
  CHECK(ds::is_number_key<F32>(plus_inf));
  CHECK(ds::is_number_key<F32>(minus_inf));
  CHECK_FALSE(ds::is_number_key<F32>(plus_inf + 1u));   // a positive NaN pattern's place
  CHECK_FALSE(ds::is_number_key<F32>(minus_inf - 1u));  // a negative NaN pattern's place
  std::mt19937 rng(11);
  for (int trial = 0; trial < 200000; ++trial) {
    const auto raw = static_cast<uint32_t>(rng());
    const uint32_t key = ds::key_of<F32>(raw, top, 0u);
    CAPTURE(raw);
    if (ds::is_nan_bits<F32::kSign, F32::kInf>(raw)) {
      CHECK_FALSE(ds::is_number_key<F32>(key));
    } else {
      CHECK(ds::is_number_key<F32>(key));
    }
  }
}

}  // namespace
}  // namespace deepselect::testing
