#include "data_gen.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "dtype_bits.hpp"
#include "workload_values.hpp"

namespace deepselect::testing {
namespace {

template <class Sample>
void fill_with(DType dtype, std::span<uint32_t> out, Sample&& sample) {
  for (size_t i = 0; i < out.size(); ++i) out[i] = encode(sample(i), dtype);
}

// Overwrites a few elements with special values (more of them in short spans, so that short
// rows see them too) and, half of the time, a -inf tail.
void sprinkle_specials(DType dtype, std::span<uint32_t> out, std::mt19937_64& rng) {
  const double infinity = std::numeric_limits<double>::infinity();
  const double rate = std::max(0.01, 4.0 / static_cast<double>(out.size()));
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  for (uint32_t& element : out) {
    const double u = uniform(rng) / rate;
    if (u >= 1.0) continue;
    const int kind = static_cast<int>(u * 5.0);
    const double specials[] = {infinity, -infinity, -0.0, 0.0};
    element = kind == 4 ? random_nan(dtype, rng) : encode(specials[kind], dtype);
  }
  if (rng() % 2 == 0) {
    const size_t tail = rng() % (out.size() / 2 + 1);
    for (size_t i = out.size() - tail; i < out.size(); ++i) out[i] = encode(-infinity, dtype);
  }
}

}  // namespace

const char* dist_name(Dist dist) {
  switch (dist) {
    case Dist::normal:
      return "normal";
    case Dist::relu_ties:
      return "relu_ties";
    case Dist::narrow:
      return "narrow";
    case Dist::ascending:
      return "ascending";
    case Dist::descending:
      return "descending";
    case Dist::quantized:
      return "quantized";
    case Dist::specials:
      return "specials";
    case Dist::constant:
      return "constant";
  }
  return "?";
}

std::mt19937_64 make_rng(uint64_t seed, uint64_t stream) {
  std::seed_seq sequence{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32),
                         static_cast<uint32_t>(stream), static_cast<uint32_t>(stream >> 32)};
  return std::mt19937_64(sequence);
}

void bench_row(Dist dist, DType dtype, size_t buffer, int64_t row, std::span<uint32_t> out,
               size_t end) {
  const uint64_t buffer_seed = (static_cast<uint64_t>(dist) + 1) << 40 | buffer;
  std::mt19937_64 rng = make_rng(buffer_seed, static_cast<uint64_t>(row));
  for (size_t c = end; c < out.size(); ++c) out[c] = random_nan(dtype, rng);
  generate(dist, dtype, out.first(end), rng);
}

std::vector<int32_t> bench_uniform_ends(int64_t rows, int64_t n) {
  std::mt19937_64 rng = make_rng(0xbe9c4, static_cast<uint64_t>(rows));
  std::uniform_int_distribution<int64_t> length(1, std::max<int64_t>(n, 1));
  std::vector<int32_t> ends(static_cast<size_t>(rows));
  for (int32_t& end : ends) end = static_cast<int32_t>(std::min(length(rng), n));
  return ends;
}

void generate(Dist dist, DType dtype, std::span<uint32_t> out, std::mt19937_64& rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  const size_t columns = std::max<size_t>(out.size(), 1);
  switch (dist) {
    case Dist::normal:
      fill_with(dtype, out, [&](size_t) { return normal(rng); });
      break;
    case Dist::relu_ties:
      fill_with(dtype, out, [&](size_t) { return relu_ties_value(normal(rng)); });
      break;
    case Dist::narrow:
      fill_with(dtype, out, [&](size_t) { return 3.0 + 0.03 * normal(rng); });
      break;
    case Dist::ascending:
      fill_with(dtype, out, [&](size_t i) { return ascending_value(i, columns); });
      break;
    case Dist::descending:
      fill_with(dtype, out, [&](size_t i) { return descending_value(i, columns); });
      break;
    case Dist::quantized:
      fill_with(dtype, out, [&](size_t) { return std::round(32.0 * normal(rng)) / 32.0; });
      break;
    case Dist::specials:
      fill_with(dtype, out, [&](size_t) { return normal(rng); });
      sprinkle_specials(dtype, out, rng);
      break;
    case Dist::constant: {
      const double value = normal(rng);
      fill_with(dtype, out, [&](size_t) { return value; });
      break;
    }
  }
}

uint32_t random_nan(DType dtype, std::mt19937_64& rng) {
  const uint64_t bits = rng();
  return nan_bits(dtype, (bits & 1u) != 0, static_cast<uint32_t>(bits >> 32));
}

}  // namespace deepselect::testing
