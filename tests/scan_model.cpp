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

// The kernel's sample of an f32 row (16-byte vectors of 4, the row 16-byte aligned): the
// threshold below which its best `want` lie, or none when the row gets no sample.
std::optional<Scored> sample_threshold(std::span<const Scored> row, int keep, int capacity,
                                       uint32_t seed) {
  constexpr int kVec = 4;
  const auto vectors = static_cast<int>(static_cast<int64_t>(row.size()) / kVec);
  const ds::RowSample plan =
      ds::plan_sample(keep, vectors, kVec, static_cast<int>(row.size()), capacity);
  if (plan.points == 0) return std::nullopt;
  std::vector<Scored> sample;
  for (int point = 0; point < plan.points; ++point) {
    const uint32_t v = ds::sample_vector(static_cast<uint32_t>(point), plan, seed, kVec);
    for (int j = 0; j < kVec; ++j) sample.push_back(row[static_cast<size_t>(v) * kVec + j]);
  }
  std::nth_element(sample.begin(), sample.begin() + (plan.want - 1), sample.end(), better);
  return sample[plan.want - 1];
}

}  // namespace

ScanStats model_scan(std::span<const Scored> row, int k, int64_t block, int64_t block2,
                     uint32_t seed, uint32_t row_index, bool sampled, int buffer_words) {
  const auto n = static_cast<int64_t>(row.size());
  const auto m = static_cast<uint32_t>((n + block - 1) / block);
  const uint32_t row_seed = ds::row_seed(seed, row_index);
  const ds::BlockOrder order(m, row_seed, /*leading=*/1);
  const int keep = static_cast<int>(std::min<int64_t>(k, n));
  ScanStats stats;
  std::vector<Scored> buffer;
  for (bool sample = sampled;; sample = false) {
    ++stats.scans;
    buffer.clear();
    stats.held.clear();
    // Only candidates better than the threshold are appended: the sample's, then the worst
    // candidate kept by the last compaction.
    std::optional<Scored> threshold =
        sample ? sample_threshold(row, keep, buffer_words, row_seed) : std::nullopt;
    const bool raised = threshold.has_value();
    for (uint32_t step = 0; step < m; ++step) {
      const int64_t lo = static_cast<int64_t>(order(step)) * block;
      const int64_t hi = std::min(lo + block, n);
      for (int64_t j = lo; j < hi; ++j) {
        if (!threshold || better(row[j], *threshold)) buffer.push_back(row[j]);
      }
      stats.held.push_back(static_cast<int64_t>(buffer.size()));
      stats.max_buffer = std::max(stats.max_buffer, stats.held.back());
      if (static_cast<int64_t>(buffer.size()) >= keep + block2) {
        stats.work += select_best(buffer, keep);
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
