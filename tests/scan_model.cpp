#include "scan_model.hpp"

#include <algorithm>
#include <optional>

#include "block_order.cuh"
#include "sample_keep.cuh"

namespace deepselect::testing {
namespace {

// Keeps the best `keep` candidates (unordered, the worst of them last) and returns how many
// were fed in.
int64_t select_best(std::vector<Scored>& buffer, int64_t keep) {
  const auto fed = static_cast<int64_t>(buffer.size());
  if (keep < fed) {
    std::nth_element(buffer.begin(), buffer.begin() + (keep - 1), buffer.end(), better);
    buffer.resize(keep);
  }
  return fed;
}

}  // namespace

ScanStats model_scan(std::span<const Scored> row, int k, int64_t block, int64_t block2,
                     uint32_t seed, uint32_t row_index, bool sampled) {
  const auto n = static_cast<int64_t>(row.size());
  const auto m = static_cast<uint32_t>((n + block - 1) / block);
  const ds::BlockOrder order(m, ds::row_seed(seed, row_index), /*leading=*/1);
  const int keep = static_cast<int>(std::min<int64_t>(k, n));
  ScanStats stats;
  std::vector<Scored> buffer;
  for (bool first_sampled = sampled;; first_sampled = false) {
    ++stats.scans;
    buffer.clear();
    std::optional<Scored> threshold;   // the worst candidate kept, once the buffer was compacted
    bool raised = false;               // the first compaction kept fewer than keep
    bool sample_next = first_sampled;  // the next compaction is the first, and samples
    for (uint32_t step = 0; step < m; ++step) {
      const int64_t lo = static_cast<int64_t>(order(step)) * block;
      const int64_t hi = std::min(lo + block, n);
      for (int64_t j = lo; j < hi; ++j) {
        if (!threshold || better(row[j], *threshold)) buffer.push_back(row[j]);
      }
      stats.max_buffer = std::max(stats.max_buffer, static_cast<int64_t>(buffer.size()));
      if (static_cast<int64_t>(buffer.size()) >= keep + block2) {
        const auto seen = static_cast<int>(buffer.size());
        const int kept =
            sample_next ? ds::first_keep(keep, seen,
                                         static_cast<int>((static_cast<int64_t>(m) - 2) * block))
                        : keep;
        raised |= kept < keep;
        sample_next = false;
        stats.work += select_best(buffer, kept);
        threshold = buffer.back();
      }
    }
    if (!raised || static_cast<int64_t>(buffer.size()) >= keep) break;
  }
  stats.work += select_best(buffer, keep);
  std::sort(buffer.begin(), buffer.end(), better);
  for (const Scored& candidate : buffer) stats.selected.push_back(candidate.column);
  return stats;
}

double work_bound(int64_t n, int k, int64_t block, int64_t block2) {
  const int64_t m = (n + block - 1) / block;
  double harmonic = 1.0;  // the leading block: it appends at most B <= k + B + B2
  for (int64_t i = 1; i < m; ++i) harmonic += 1.0 / static_cast<double>(i);
  const auto kd = static_cast<double>(k);
  return (1.0 + kd / static_cast<double>(block2)) * (kd + static_cast<double>(block + block2)) *
         harmonic;
}

}  // namespace deepselect::testing
