// A CPU copy of templates/radix_select.cuh's passes, before the fix (a kept digit's whole bin)
// and after it (digit_range: the bin clipped to the range's end), NOTES.md, twelfth session, v6:
// 1. the final select of row 202 of the bench's bf16 normal buffer 2 (the candidates that beat
//    its sample's threshold, from the trace), pass by pass;
// 2. a search of the test kit's rows for whole-row selections (a lone CTA's resident path: every
//    element a candidate, the first range from the keys' bounds) that lose a word.
// Build from the repo root after the CMake build (one command):
//   g++ -O2 -std=c++20 -I include -I tests -I src
//     bench/results/2026-12-02-h200-cluster16/models/radix_passes.cpp
//     build/libdeepselect_testkit.a build/libdeepselect_core.a -o build/radix_passes
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "data_gen.hpp"

using namespace deepselect;
using namespace deepselect::testing;

// How many words >= the bound the select returns, with the old (unclipped) or fixed spans.
int64_t kept_by_select(const std::vector<uint64_t>& cand, uint64_t low, uint64_t high,
                       uint32_t want, bool fixed, bool verbose = false) {
  uint64_t span = high - low;
  int width = 64 - __builtin_clzll(span);
  while (true) {
    const int shift = width > 8 ? width - 8 : 0;
    std::vector<uint32_t> hist(256, 0);
    for (uint64_t c : cand)
      if (c >= low && c - low <= span) ++hist[(c - low) >> shift];
    uint32_t counted = 0, above = 0, digit = 0, in_digit = 0, new_want = 0;
    for (uint32_t h : hist) counted += h;
    for (int d = 255; d >= 0; --d) {
      if (above < want && want <= above + hist[d])
        digit = d, new_want = want - above, in_digit = hist[d];
      above += hist[d];
    }
    if (verbose)
      std::printf(
          "  pass: low %016llx width %d shift %d counted %u want %u -> digit %u in_digit "
          "%u want %u\n",
          (unsigned long long)low, width, shift, counted, want, digit, in_digit, new_want);
    want = new_want;
    const uint64_t start = uint64_t(digit) << shift;
    low += start;
    const uint64_t nominal = shift == 0 ? 0ull : (1ull << shift) - 1ull;
    span = fixed ? std::min(nominal, span - start) : nominal;
    width = shift;
    if (in_digit - want == 0 || shift == 0) break;
    if (2u * in_digit > counted) {
      uint64_t bl = ~0ull, bh = 0;
      for (uint64_t c : cand)
        if (c >= low && c - low <= span) bl = std::min(bl, c), bh = std::max(bh, c);
      low = bl;
      span = bh - bl;
      width = 64 - __builtin_clzll(span);
    }
  }
  return std::count_if(cand.begin(), cand.end(), [&](uint64_t c) { return c >= low; });
}

// Row 202's final select: want 2048, slack 0, the first range the candidates' extremes.
void replay_row_202() {
  constexpr int kN = 131072;
  std::vector<uint32_t> words(kN);
  bench_row(Dist::normal, DType::bf16, 2, 202, words, kN);
  const uint64_t threshold = 0x0000bff3ffffa1bbull;  // the sample's, from the trace
  std::vector<uint64_t> cand;
  for (int c = 0; c < kN; ++c) {
    const uint32_t raw = words[c] & 0xffffu;
    const uint32_t key = raw & 0x8000u ? ~raw & 0xffffu : raw | 0x8000u;
    const uint64_t word = (uint64_t(key) << 32) | uint64_t(~uint32_t(c));
    if (word > threshold) cand.push_back(word);
  }
  const uint64_t low = *std::min_element(cand.begin(), cand.end());
  const uint64_t high = *std::max_element(cand.begin(), cand.end());
  for (bool fixed : {false, true}) {
    std::printf("row 202, %zu candidates, %s:\n", cand.size(), fixed ? "fixed" : "before the fix");
    std::printf("  kept %lld of 2048\n",
                (long long)kept_by_select(cand, low, high, 2048, fixed, true));
  }
}

int main() {
  replay_row_202();
  int found = 0;
  for (DType dtype : {DType::f32, DType::bf16}) {
    for (Dist dist : {Dist::normal, Dist::quantized, Dist::narrow, Dist::relu_ties}) {
      for (int n : {3000, 5000}) {
        for (int k : {256, 1024, 2048}) {
          for (uint64_t seed = 0; seed < 400 && found < 40; ++seed) {
            std::vector<uint32_t> x(n);
            std::mt19937_64 rng = make_rng(seed, 0);
            generate(dist, dtype, x, rng);
            std::vector<uint64_t> cand;
            uint32_t min_key = ~0u, max_key = 0;
            for (int c = 0; c < n; ++c) {
              const uint32_t bits = x[c];
              const uint32_t sign = dtype == DType::f32 ? 0x80000000u : 0x8000u;
              const uint32_t all = sign | (sign - 1u);
              const uint32_t key = bits & sign ? ~bits & all : bits | sign;
              min_key = std::min(min_key, key);
              max_key = std::max(max_key, key);
              cand.push_back((uint64_t(key) << 32) | uint64_t(~uint32_t(c)));
            }
            const uint64_t low = uint64_t(min_key) << 32,
                           high = (uint64_t(max_key) << 32) | 0xffffffffull;
            const int64_t old_kept = kept_by_select(cand, low, high, k, false);
            const int64_t new_kept = kept_by_select(cand, low, high, k, true);
            if (old_kept != k || new_kept != k) {
              ++found;
              std::printf("%s %s n %d k %d seed %llu: kept %lld before the fix, %lld after\n",
                          dtype == DType::f32 ? "f32" : "bf16", dist_name(dist), n, k,
                          (unsigned long long)seed, (long long)old_kept, (long long)new_kept);
            }
          }
        }
      }
    }
  }
  std::printf("%d rows found\n", found);
}
