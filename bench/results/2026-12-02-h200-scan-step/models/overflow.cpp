// How often a scan step would overflow a candidate buffer of k + B2 + R words instead of
// k + B + B2 (the next session's occupancy change: NOTES.md, "Waiting for the GPU" item 1). The
// kernel's scan as tests/scan_model.cpp models it (the sample's threshold first, the kernel's
// block order, compaction to k at k + B2), 40 f32 rows per distribution; a step overflows when
// the candidates held after its appends exceed k + B2 + R, and must then compact first and
// filter its block again (and by quarters when even k + its appends exceed the buffer).
// Built against the test kit (repo root, after the build):
//   g++ -O2 -std=c++20 -I tests -I templates -I src -I include \
//     bench/results/2026-12-02-h200-scan-step/models/overflow.cpp tests/scan_model.cpp \
//     build/libdeepselect_testkit.a build/libdeepselect_core.a -lfmt -ldl -lpthread -o
//     /tmp/overflow
#include <cstdio>
#include <random>
#include <vector>

#include "data_gen.hpp"
#include "reference.hpp"
#include "scan_model.hpp"

using namespace deepselect;
using namespace deepselect::testing;

int main() {
  struct Shape {
    const char* name;
    int64_t n;
    int k;
    int64_t block;
    int64_t block2;
  };
  const Shape shapes[] = {{"dsa-prefill-128k row", 131072, 2048, 4096, 2048},
                          {"sample-b256 row", 151936, 1024, 4096, 2048},
                          {"dsa-decode-b256 longest row", 32768, 2048, 4096, 2048}};
  const Dist dists[] = {Dist::normal, Dist::relu_ties, Dist::ascending, Dist::descending};
  const int64_t reserves[] = {0, 512, 1024, 2048};
  constexpr int kRows = 40;
  std::printf("%-28s %-10s %6s %8s", "shape", "dist", "steps", "rescans");
  for (int64_t r : reserves) std::printf("  R=%-4lld rows/steps/big", static_cast<long long>(r));
  std::printf("\n");
  for (const Shape& shape : shapes) {
    for (Dist dist : dists) {
      int64_t steps = 0, rescans = 0;
      std::vector<int64_t> overflow_steps(std::size(reserves)), overflow_rows(std::size(reserves)),
          big_steps(std::size(reserves));
      for (int r = 0; r < kRows; ++r) {
        std::vector<uint32_t> x(shape.n);
        std::mt19937_64 rng = make_rng(static_cast<uint64_t>(dist) * 1000 + 29, r);
        generate(dist, DType::f32, std::span(x), rng);
        std::vector<Scored> row;
        row.reserve(shape.n);
        for (int64_t c = 0; c < shape.n; ++c)
          row.push_back(
              score_of(x[c], static_cast<int32_t>(c), DType::f32, true, NanPolicy::nan_is_largest));
        const ScanStats stats = model_scan(row, shape.k, shape.block, shape.block2, 0x5eed1234u,
                                           static_cast<uint32_t>(r), true);
        steps += static_cast<int64_t>(stats.held.size());
        rescans += stats.scans - 1;
        for (size_t i = 0; i < std::size(reserves); ++i) {
          const int64_t capacity = shape.k + shape.block2 + reserves[i];
          bool any = false;
          int64_t before = 0;  // held before the step: after the last one, less its compaction
          for (int64_t held : stats.held) {
            if (held > capacity) {
              ++overflow_steps[i];
              any = true;
              // Even a buffer compacted to k first cannot take this step's appends whole.
              if (shape.k + (held - before) > capacity) ++big_steps[i];
            }
            before = held >= shape.k + shape.block2 ? shape.k : held;
          }
          overflow_rows[i] += any ? 1 : 0;
        }
      }
      std::printf("%-28s %-10s %6lld %8lld", shape.name, dist_name(dist),
                  static_cast<long long>(steps), static_cast<long long>(rescans));
      for (size_t i = 0; i < std::size(reserves); ++i)
        std::printf("  %10lld/%5lld/%4lld", static_cast<long long>(overflow_rows[i]),
                    static_cast<long long>(overflow_steps[i]),
                    static_cast<long long>(big_steps[i]));
      std::printf("\n");
    }
  }
  return 0;
}
