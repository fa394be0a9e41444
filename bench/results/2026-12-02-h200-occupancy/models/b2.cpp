// The CPU scan model (tests/scan_model.cpp) on 131072-column rows: work W and compactions per row for
// B2 = 1024 / 2048 / 4096, bf16 and f32, k = 2048 / 1024 (NOTES.md, eleventh session, v5). Built
// as models/overflow.cpp is (bench/results/2026-12-02-h200-scan-step/models/), at commit d91a60a
// (model_scan has since taken the kernel's buffer size, which caps the sample).
#include <cstdio>
#include <random>
#include <vector>
#include "data_gen.hpp"
#include "reference.hpp"
#include "scan_model.hpp"
using namespace deepselect;
using namespace deepselect::testing;
int main() {
  for (DType dtype : {DType::bf16, DType::f32}) {
    for (int k : {2048, 1024}) {
      for (Dist dist : {Dist::normal, Dist::relu_ties, Dist::ascending}) {
        for (int64_t b2 : {1024, 2048, 4096}) {
          int64_t work = 0, compactions = 0, rescans = 0, steps = 0;
          for (int r = 0; r < 20; ++r) {
            std::vector<uint32_t> x(131072);
            std::mt19937_64 rng = make_rng(static_cast<uint64_t>(dist) * 1000 + 29, r);
            generate(dist, dtype, std::span(x), rng);
            std::vector<Scored> row;
            for (int64_t c = 0; c < 131072; ++c)
              row.push_back(score_of(x[c], int32_t(c), dtype, true, NanPolicy::nan_is_largest));
            const ScanStats s = model_scan(row, k, 4096, b2, 0x5eed1234u, uint32_t(r), true);
            work += s.work; rescans += s.scans - 1; steps += s.held.size();
            for (int64_t h : s.held) compactions += h >= k + b2;
          }
          std::printf("%s k=%d %-10s B2=%lld  W/row %8.0f  compactions/row %5.2f  rescans %lld\n",
                      dtype == DType::bf16 ? "bf16" : "f32", k, dist_name(dist), (long long)b2,
                      work / 20.0, compactions / 20.0, (long long)rescans);
        }
      }
    }
  }
}
