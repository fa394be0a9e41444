// Seeded generators for the score distributions of docs/workloads.md, as raw bits of a dtype.
#pragma once

#include <array>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include <deepselect/deepselect.hpp>

namespace deepselect::testing {

enum class Dist {
  normal,     // N(0, 1)
  relu_ties,  // relu(N(0, 1) - 1.28): about 90% exact zeros
  narrow,     // N(3, 0.03)
  ascending,  // increasing along the span
  descending,
  quantized,  // round(32 N(0, 1)) / 32
  specials,   // N(0, 1) with NaN (random payloads), +-inf, -0.0, +0.0 sprinkled, maybe a -inf tail
  constant,   // one value repeated
};

inline constexpr std::array<Dist, 8> kAllDists = {
    Dist::normal,     Dist::relu_ties, Dist::narrow,   Dist::ascending,
    Dist::descending, Dist::quantized, Dist::specials, Dist::constant};

const char* dist_name(Dist dist);

// An independent generator for each (seed, stream) pair, e.g. one per row.
std::mt19937_64 make_rng(uint64_t seed, uint64_t stream);

// Row `row` of `deepselect bench`'s input buffer `buffer` of dist's rows, as raw bits: dist's
// values in out[0, end), random NaN (what a call must not read) in out[end, out.size()).
void bench_row(Dist dist, DType dtype, size_t buffer, int64_t row, std::span<uint32_t> out,
               size_t end);

// The row ends of `deepselect bench`'s ragged shapes of uniform lengths: each in 1..n.
std::vector<int32_t> bench_uniform_ends(int64_t rows, int64_t n);

// Fills out with samples of dist (ascending and descending run over the whole span).
void generate(Dist dist, DType dtype, std::span<uint32_t> out, std::mt19937_64& rng);

// A NaN with random sign and payload: the garbage around the ranges a call may read.
uint32_t random_nan(DType dtype, std::mt19937_64& rng);

}  // namespace deepselect::testing
