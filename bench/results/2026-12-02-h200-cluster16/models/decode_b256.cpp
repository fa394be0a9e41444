// The CPU scan model (tests/scan_model.cpp) over dsa-decode-b256's rows as `deepselect bench`
// draws them (uniform lengths 1..32768, buffer 0 of each distribution), at the planner's lone-CTA
// kernel (B 4096, B2 2048, a 5,120-word buffer), by row length: work W (words fed to selects),
// compactions and rescans for normal and relu_ties (NOTES.md, twelfth session). Rows up to the
// buffer are taken whole by the kernel; the model scans them too. Build from the repo root after
// the CMake build (one command):
//   g++ -O2 -std=c++20 -I include -I tests -I src -I templates
//     bench/results/2026-12-02-h200-cluster16/models/decode_b256.cpp tests/scan_model.cpp
//     build/libdeepselect_testkit.a build/libdeepselect_core.a -o build/decode_b256
#include <algorithm>
#include <cstdio>
#include <vector>

#include "data_gen.hpp"
#include "reference.hpp"
#include "scan_model.hpp"

using namespace deepselect;
using namespace deepselect::testing;

int main() {
  constexpr int kRows = 256, kN = 32768, kK = 2048, kBuffer = 5120;
  const std::vector<int32_t> ends = bench_uniform_ends(kRows, kN);
  const int64_t bins[] = {0, 2048, 5120, 11008, 20480, 32769};
  for (Dist dist : {Dist::normal, Dist::relu_ties}) {
    std::printf("%s\n", dist_name(dist));
    for (int b = 0; b + 1 < 6; ++b) {
      int rows = 0, rescans = 0;
      int64_t work = 0, compactions = 0, max_buffer = 0;
      for (int r = 0; r < kRows; ++r) {
        if (ends[r] <= bins[b] || ends[r] > bins[b + 1]) continue;
        std::vector<uint32_t> x(kN);
        bench_row(dist, DType::f32, 0, r, x, size_t(ends[r]));
        std::vector<Scored> row;
        for (int64_t c = 0; c < ends[r]; ++c)
          row.push_back(score_of(x[c], int32_t(c), DType::f32, true, NanPolicy::nan_is_largest));
        const ScanStats s = model_scan(row, kK, 4096, 2048, 0x5eed0001u, uint32_t(r), true, kBuffer);
        ++rows;
        work += s.work;
        rescans += s.scans - 1;
        max_buffer = std::max(max_buffer, s.max_buffer);
        for (int64_t h : s.held) compactions += h >= kK + 2048;
      }
      std::printf("  lengths (%6lld, %6lld]: %3d rows, W/row %7.0f, compactions/row %5.2f, "
                  "rescans %d, most held %lld\n",
                  (long long)bins[b], (long long)bins[b + 1], rows, rows ? work / double(rows) : 0.0,
                  rows ? compactions / double(rows) : 0.0, rescans, (long long)max_buffer);
    }
  }
}
