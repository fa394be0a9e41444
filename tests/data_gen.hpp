// Seeded generators for the score distributions of docs/workloads.md, as raw bits of a dtype.
#pragma once

#include <array>
#include <cstdint>
#include <random>
#include <span>

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

// The seed of `deepselect bench`'s input buffer `buffer` of dist's rows; row r of it draws from
// make_rng(seed, r).
uint64_t bench_buffer_seed(Dist dist, size_t buffer);

// Fills out with samples of dist (ascending and descending run over the whole span).
void generate(Dist dist, DType dtype, std::span<uint32_t> out, std::mt19937_64& rng);

// A NaN with random sign and payload: the garbage around the ranges a call may read.
uint32_t random_nan(DType dtype, std::mt19937_64& rng);

}  // namespace deepselect::testing
