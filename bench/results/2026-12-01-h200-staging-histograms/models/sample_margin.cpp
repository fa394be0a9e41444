// For the C++ benchmark's dsa-bf16-b256 rows (its generator and seeds: tools/cli/bench_inputs.cpp,
// 4 buffers of 256 rows) and, as a control, as many rows drawn with other seeds: how many of a
// row's elements beat the row sample's threshold (the kernel's sample: templates/sample_keep.cuh,
// seed kBlockOrderSeed) at the two ends of what the select may return (the want-th and the
// (want + want / 16)-th best sample word), against k = 2048. A row below k is scanned twice.
// Build (repo root, after the main build):
//   g++ -O2 -std=c++20 -I include -I tests -I src -I templates bench/results/2026-12-01-h200-staging-histograms/models/sample_margin.cpp \
//     build/libdeepselect_testkit.a build/libdeepselect_core.a -lfmt -o /tmp/sample_margin
#include <algorithm>
#include <cstdio>
#include <vector>

#include "data_gen.hpp"
#include "keys.cuh"
#include "sample_keep.cuh"

namespace {

constexpr int kN = 131072;
constexpr int kK = 2048;
constexpr int kVec = 8;  // bf16 elements per 16-byte vector
constexpr int kCapacity = 2048 + 4096 + 2048;
constexpr unsigned kSeed = 0x5eed0001u;  // src/topk_internal.hpp kBlockOrderSeed

struct Margins {
  int strict;  // elements at or above the want-th best sample word
  int loose;   // at or above the (want + want / 16)-th
};

Margins margins(const std::vector<uint32_t>& raw, unsigned row) {
  std::vector<ds::u64> words(kN);
  for (int c = 0; c < kN; ++c)
    words[c] = ds::make_candidate(ds::key_of<ds::BF16>(raw[c], 0xffffu, 0u), unsigned(c));
  const ds::RowSample sample = ds::plan_sample(kK, kN / kVec, kVec, kN, kCapacity);
  const unsigned seed = ds::row_seed(kSeed, row);
  std::vector<ds::u64> sampled;
  for (int p = 0; p < sample.points; ++p) {
    const unsigned v = ds::sample_vector(unsigned(p), sample, seed);
    for (int j = 0; j < kVec; ++j) sampled.push_back(words[v * kVec + j]);
  }
  std::sort(sampled.rbegin(), sampled.rend());
  const ds::u64 strict = sampled[sample.want - 1];
  const ds::u64 loose = sampled[sample.want + sample.want / 16 - 1];
  Margins m{0, 0};
  for (ds::u64 w : words) {
    m.strict += w >= strict ? 1 : 0;
    m.loose += w >= loose ? 1 : 0;
  }
  return m;
}

void survey(const char* name, uint64_t seed_base) {
  using namespace deepselect::testing;
  int below_strict = 0, below_loose = 0, least = kN;
  for (int buffer = 0; buffer < 4; ++buffer) {
    for (int row = 0; row < 256; ++row) {
      std::mt19937_64 rng =
          make_rng((static_cast<uint64_t>(Dist::normal) + 1) << 40 | (seed_base + buffer), row);
      std::vector<uint32_t> raw(kN);
      generate(Dist::normal, deepselect::DType::bf16, raw, rng);
      const Margins m = margins(raw, unsigned(row));
      below_strict += m.strict < kK ? 1 : 0;
      below_loose += m.loose < kK ? 1 : 0;
      least = std::min(least, m.strict);
    }
  }
  std::printf("%-28s 1024 rows: below k at the want-th word %d, at the (want + want/16)-th %d; "
              "fewest at the want-th %d\n",
              name, below_strict, below_loose, least);
}

}  // namespace

int main() {
  survey("bench rows (buffers 0-3)", 0);
  survey("control rows (buffers 100-103)", 100);
  return 0;
}
