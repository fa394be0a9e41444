// CPU checks that the generators produce the distributions they are named after.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "data_gen.hpp"
#include "dtype_bits.hpp"
#include "spec.hpp"

namespace deepselect::testing {
namespace {

std::vector<double> sample(Dist dist, DType dtype, size_t count, uint64_t stream = 0) {
  std::vector<uint32_t> bits(count);
  std::mt19937_64 rng = make_rng(42, stream);
  generate(dist, dtype, bits, rng);
  std::vector<double> values;
  for (uint32_t b : bits) values.push_back(decode(b, dtype));
  return values;
}

double fraction(const std::vector<double>& values, bool (*predicate)(double)) {
  return static_cast<double>(std::count_if(values.begin(), values.end(), predicate)) /
         static_cast<double>(values.size());
}

}  // namespace

TEST_CASE("data gen: distributions have their shape") {
  constexpr size_t kCount = 100000;
  for (DType dtype : {DType::f32, DType::bf16, DType::f16}) {
    CAPTURE(dtype_name(dtype));
    const std::vector<double> relu = sample(Dist::relu_ties, dtype, kCount);
    const double zeros = fraction(relu, [](double v) { return v == 0.0; });
    CHECK(zeros > 0.88);
    CHECK(zeros < 0.92);
    CHECK(*std::min_element(relu.begin(), relu.end()) == 0.0);

    const std::vector<double> narrow = sample(Dist::narrow, dtype, kCount);
    CHECK(fraction(narrow, [](double v) { return std::fabs(v - 3.0) < 0.15; }) > 0.999);

    const std::vector<double> up = sample(Dist::ascending, dtype, kCount);
    const std::vector<double> down = sample(Dist::descending, dtype, kCount);
    CHECK(std::is_sorted(up.begin(), up.end()));
    CHECK(std::is_sorted(down.rbegin(), down.rend()));
    CHECK(up.front() < up.back());

    const std::vector<double> quantized = sample(Dist::quantized, dtype, kCount);
    CHECK(fraction(quantized, [](double v) { return v * 32.0 == std::round(v * 32.0); }) > 0.99);

    const std::vector<double> constant = sample(Dist::constant, dtype, kCount);
    CHECK(std::count(constant.begin(), constant.end(), constant[0]) == kCount);

    const std::vector<double> specials = sample(Dist::specials, dtype, kCount);
    CHECK(std::any_of(specials.begin(), specials.end(), [](double v) { return std::isnan(v); }));
    CHECK(std::count(specials.begin(), specials.end(), INFINITY) > 0);
    CHECK(std::count(specials.begin(), specials.end(), -INFINITY) > 0);
    CHECK(std::any_of(specials.begin(), specials.end(),
                      [](double v) { return v == 0.0 && std::signbit(v); }));
    const std::vector<double> short_specials = sample(Dist::specials, dtype, 8);
    CHECK(std::any_of(short_specials.begin(), short_specials.end(),
                      [](double v) { return !std::isfinite(v) || v == 0.0; }));
  }
}

TEST_CASE("data gen: a (seed, stream) pair always gives the same data") {
  for (Dist dist : kAllDists) {
    CAPTURE(dist_name(dist));
    const std::vector<double> first = sample(dist, DType::bf16, 1000, 5);
    const std::vector<double> again = sample(dist, DType::bf16, 1000, 5);
    CHECK(
        std::equal(first.begin(), first.end(), again.begin(), again.end(),
                   [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }));
  }
  CHECK(sample(Dist::normal, DType::f32, 100, 1) != sample(Dist::normal, DType::f32, 100, 2));
}

TEST_CASE("data gen: random_nan gives NaNs of both signs") {
  std::mt19937_64 rng(9);
  for (DType dtype : {DType::f32, DType::bf16, DType::f16}) {
    bool negative = false;
    bool positive = false;
    for (int i = 0; i < 64; ++i) {
      const uint32_t bits = random_nan(dtype, rng);
      CHECK(is_nan_bits(bits, dtype));
      (std::signbit(decode(bits, dtype)) ? negative : positive) = true;
    }
    CHECK(negative);
    CHECK(positive);
  }
}

}  // namespace deepselect::testing
