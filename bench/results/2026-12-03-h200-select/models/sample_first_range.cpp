// Radix passes of the row sample's select (templates/radix_select.cuh, CPU copy) with the first
// range as today (the sample's extremes) and with a first range of the top 2^-s of that span,
// which falls back to the extremes when fewer than `want` words lie in it (one wasted pass):
// NOTES.md, twentieth session, "Waiting for the GPU" item 1. `dual` is the same first pass
// counting the whole range into a second histogram as well (no pass wasted: passes - wasted).
// The sample: 256 places of 16 adjacent elements, one at a pseudo-random place in each equal
// stretch of a bench row; 64 rows of each distribution.
// Build from the repo root after the CMake build (one command):
//   g++ -O2 -std=c++20 -I include -I tests -I src -I templates
//     bench/results/2026-12-03-h200-select/models/sample_first_range.cpp
//     build/libdeepselect_testkit.a build/libdeepselect_core.a -o build/sample_first_range
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "data_gen.hpp"
#include "radix_range.cuh"

using namespace deepselect;
using namespace deepselect::testing;

struct Outcome {
  int passes = 0;
  int reranges = 0;
  int wasted = 0;  // first passes whose top range held fewer than want words
  int64_t kept = 0;
};

// One select; top_shift 0 is today's first range.
Outcome select(const std::vector<uint64_t>& cand, uint32_t want, uint32_t slack, int top_shift) {
  Outcome out;
  const uint64_t all_low = *std::min_element(cand.begin(), cand.end());
  const uint64_t all_high = *std::max_element(cand.begin(), cand.end());
  uint64_t low = all_low, span = all_high - all_low;
  if (top_shift > 0) {
    span >>= top_shift;
    low = all_high - span;
  }
  int width = 64 - __builtin_clzll(span | 1);
  bool first = true;
  while (true) {
    ++out.passes;
    const int shift = width > 8 ? width - 8 : 0;
    std::vector<uint32_t> hist(256, 0);
    for (uint64_t c : cand)
      if (c >= low && c - low <= span) ++hist[(c - low) >> shift];
    uint32_t counted = 0, above = 0, digit = 0, in_digit = 0, new_want = 0;
    for (uint32_t h : hist) counted += h;
    if (first && top_shift > 0 && counted < want) {
      ++out.wasted;  // the fallback: the whole range
      low = all_low;
      span = all_high - all_low;
      width = 64 - __builtin_clzll(span | 1);
      first = false;
      continue;
    }
    first = false;
    for (int d = 255; d >= 0; --d) {
      if (above < want && want <= above + hist[d])
        digit = d, new_want = want - above, in_digit = hist[d];
      above += hist[d];
    }
    want = new_want;
    const ds::RadixRange next = ds::digit_range(ds::RadixRange{low, span}, digit, shift);
    low = next.low;
    span = next.span;
    width = shift;
    if (in_digit - want <= slack || shift == 0) break;
    if (2u * in_digit > counted) {
      ++out.reranges;
      uint64_t bl = ~0ull, bh = 0;
      for (uint64_t c : cand)
        if (c >= low && c - low <= span) bl = std::min(bl, c), bh = std::max(bh, c);
      low = bl;
      span = bh - bl;
      width = 64 - __builtin_clzll(span | 1);
    }
  }
  out.kept = std::count_if(cand.begin(), cand.end(), [&](uint64_t c) { return c >= low; });
  return out;
}

uint32_t key_of(uint32_t bits, DType dtype) {
  const uint32_t sign = dtype == DType::f32 ? 0x80000000u : 0x8000u;
  const uint32_t all = sign | (sign - 1u);
  return bits & sign ? ~bits & all : bits | sign;
}

int main() {
  constexpr int kN = 131072, kPlaces = 256, kAdjacent = 16, kRows = 64;
  std::printf("%-5s %-10s %5s %5s %5s | %-28s", "dtype", "dist", "k", "want", "slack",
              "today: passes reranges");
  for (int s : {4, 5, 6, 7}) std::printf(" | top 2^-%d: passes wasted dual", s);
  std::printf("\n");
  for (DType dtype : {DType::f32, DType::bf16}) {
    for (int k : {50, 512, 2048}) {
      const double expected = double(k) * kPlaces * kAdjacent / kN;
      const uint32_t want = uint32_t(expected + 5.0 * std::sqrt(expected) + 8.0);
      const uint32_t slack = want / 16u;
      for (Dist dist : kAllDists) {
        if (dist == Dist::constant) continue;
        double today_passes = 0, today_reranges = 0;
        double passes[4] = {}, wasted[4] = {};
        int wrong = 0;
        for (int row = 0; row < kRows; ++row) {
          std::vector<uint32_t> x(kN);
          bench_row(dist, dtype, 0, row, x, kN);
          std::mt19937_64 rng = make_rng(uint64_t(row), 7);
          std::vector<uint64_t> cand;
          for (int p = 0; p < kPlaces; ++p) {
            const int stretch = kN / kPlaces;
            const int at = p * stretch + int(rng() % uint64_t(stretch - kAdjacent));
            for (int j = 0; j < kAdjacent; ++j)
              cand.push_back((uint64_t(key_of(x[at + j], dtype)) << 32) |
                             uint64_t(~uint32_t(at + j)));
          }
          const Outcome today = select(cand, want, slack, 0);
          today_passes += today.passes;
          today_reranges += today.reranges;
          for (int i = 0; i < 4; ++i) {
            const Outcome top = select(cand, want, slack, 4 + i);
            passes[i] += top.passes;
            wasted[i] += top.wasted;
            if (top.kept < want || top.kept > want + slack) ++wrong;
          }
          if (today.kept < want || today.kept > want + slack) ++wrong;
        }
        std::printf("%-5s %-10s %5d %5u %5u | %12.2f %15.2f", dtype == DType::f32 ? "f32" : "bf16",
                    dist_name(dist), k, want, slack, today_passes / kRows, today_reranges / kRows);
        for (int i = 0; i < 4; ++i)
          std::printf(" | %17.2f %6.2f %4.2f", passes[i] / kRows, wasted[i] / kRows,
                      (passes[i] - wasted[i]) / kRows);
        std::printf("%s\n", wrong ? "  WRONG" : "");
      }
    }
  }
}
