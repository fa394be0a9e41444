// A CPU model of the DeepSelect scan (seeds/DeepSelect-deep-dive.md) in the kernel's block
// order, to check the buffer bound, exactness and the compaction work before any GPU runs.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "reference.hpp"

namespace deepselect::testing {

struct ScanStats {
  int64_t max_buffer = 0;         // candidates held after appending a block
  int64_t work = 0;               // W: elements fed to all selections, the final one included
  int scans = 0;                  // 2 when the sample's threshold misled and the row was rescanned
  std::vector<int64_t> held;      // candidates held after each step's appends (the last scan)
  std::vector<int32_t> selected;  // columns of the result, best first
};

// Scans row (its elements scored under the call's order) in blocks of `block` elements, visited
// in ds::BlockOrder(m, ds::row_seed(seed, row_index), 1) order (as one CTA per row does),
// compacting to k whenever the buffer holds at least k + block2 candidates. With `sampled`, the
// threshold starts at the row sample's (ds::plan_sample, as the kernel's for f32, whose buffer of
// `buffer_words` caps the sample: KernelSpec::buffer_words), and a scan that then ends with
// fewer than k candidates runs again without it.
ScanStats model_scan(std::span<const Scored> row, int k, int64_t block, int64_t block2,
                     uint32_t seed, uint32_t row_index, bool sampled, int buffer_words);

// The seed's bound on E[W] for an order whose first block is fixed, m = ceil(N/B):
// (1 + k/B2)(k + B + B2)(1 + H_{m-1}). The seed's proof gives H_m for a uniformly random order;
// with the first block fixed, step i >= 2 draws uniformly from the i - 1 random blocks seen so
// far, and the first appends at most B.
double work_bound(int64_t n, int k, int64_t block, int64_t block2);

}  // namespace deepselect::testing
