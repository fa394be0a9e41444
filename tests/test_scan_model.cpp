// CPU checks of the DeepSelect scan in the kernel's block order: the buffer bound, exactness
// and the seed's bound on the compaction work.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "block_order.cuh"
#include "data_gen.hpp"
#include "parallel.hpp"
#include "plan.hpp"
#include "reference.hpp"
#include "sample_keep.cuh"
#include "scan_model.hpp"

namespace deepselect::testing {
namespace {

constexpr uint32_t kScanSeed = 0x5eed1234u;
constexpr Dist kModelDists[] = {Dist::normal,    Dist::ascending, Dist::descending,
                                Dist::relu_ties, Dist::quantized, Dist::constant};

bool is_permutation_of_range(const ds::BlockOrder& order, uint32_t m) {
  std::vector<bool> seen(m, false);
  for (uint32_t i = 0; i < m; ++i) {
    const uint32_t block = order(i);
    if (block >= m || seen[block]) return false;
    seen[block] = true;
  }
  return true;
}

std::vector<uint32_t> sequence(const ds::BlockOrder& order) {
  std::vector<uint32_t> blocks(order.m);
  for (uint32_t i = 0; i < order.m; ++i) blocks[i] = order(i);
  return blocks;
}

struct Shape {
  int64_t n;
  int k;
  int64_t block;
  int64_t block2;
};

struct RowCheck {
  ScanStats stats;
  bool matches_reference = false;
};

// The buffer of the f32 kernel that scans such rows alone (the planner's, at the shape's B and
// B2), which caps its sample.
int lone_cta_buffer_words(const Shape& shape) {
  constexpr int64_t kManyRows = 1024;
  KernelSpec spec =
      plan_spec(DType::f32, shape.k, kManyRows, int64_t{1} << 31, DeviceInfo{Arch{90}});
  spec.block = static_cast<int>(shape.block);
  spec.block2 = static_cast<int>(shape.block2);
  return spec.buffer_words();
}

// 20 rows of dist; each row is scanned by the model and compared with the reference.
std::vector<RowCheck> check_rows(const Shape& shape, Dist dist, bool sampled) {
  constexpr int kRows = 20;
  Problem problem;
  problem.rows = kRows;
  problem.n = shape.n;
  problem.k = shape.k;
  problem.order = Order::by_value;
  problem.x.resize(kRows * shape.n);
  parallel_for(kRows, [&](int64_t r) {
    std::mt19937_64 rng = make_rng(static_cast<uint64_t>(dist) * 1000 + 17, r);
    generate(dist, DType::f32, std::span(problem.x).subspan(r * shape.n, shape.n), rng);
  });
  const Result expected = reference_topk(problem);
  std::vector<RowCheck> checks(kRows);
  parallel_for(kRows, [&](int64_t r) {
    std::vector<Scored> row;
    row.reserve(shape.n);
    for (int64_t c = 0; c < shape.n; ++c) {
      row.push_back(score_of(problem.x[r * shape.n + c], static_cast<int32_t>(c), DType::f32, true,
                             NanPolicy::nan_is_largest));
    }
    RowCheck& check = checks[r];
    check.stats = model_scan(row, shape.k, shape.block, shape.block2, kScanSeed,
                             static_cast<uint32_t>(r), sampled, lone_cta_buffer_words(shape));
    const auto first = expected.indices.begin() + r * shape.k;
    check.matches_reference =
        std::equal(check.stats.selected.begin(), check.stats.selected.end(), first,
                   first + expected.selected[r]) &&
        static_cast<int32_t>(check.stats.selected.size()) == expected.selected[r];
  });
  return checks;
}

}  // namespace

TEST_CASE("scan model: BlockOrder is a permutation of 0..m-1") {
  for (uint32_t leading : {0u, 1u, 8u}) {
    for (uint32_t m = 1; m <= 5000; ++m) {
      CAPTURE(leading);
      CAPTURE(m);
      CHECK(is_permutation_of_range(ds::BlockOrder(m, ds::row_seed(kScanSeed, m), leading), m));
    }
  }
  for (uint32_t m : {65536u, 65537u, 1000003u, 1u << 21}) {
    CAPTURE(m);
    CHECK(is_permutation_of_range(ds::BlockOrder(m, ds::row_seed(7u, m), 1u), m));
  }
}

TEST_CASE("scan model: BlockOrder takes the leading blocks first, in column order") {
  for (uint32_t leading : {1u, 2u, 8u}) {
    for (uint32_t m : {1u, 2u, 7u, 8u, 9u, 32u, 1000u}) {
      CAPTURE(leading);
      CAPTURE(m);
      const std::vector<uint32_t> blocks =
          sequence(ds::BlockOrder(m, ds::row_seed(kScanSeed, m), leading));
      for (uint32_t i = 0; i < std::min(leading, m); ++i) CHECK(blocks[i] == i);
    }
  }
  // The rest is not left in column order.
  const std::vector<uint32_t> blocks = sequence(ds::BlockOrder(1000u, kScanSeed, 1u));
  CHECK_FALSE(std::is_sorted(blocks.begin(), blocks.end()));
}

TEST_CASE("scan model: BlockOrder depends only on (m, seed, leading)") {
  for (uint32_t m : {2u, 3u, 17u, 64u, 1000u, 4097u}) {
    for (uint32_t row : {0u, 1u, 131u}) {
      CAPTURE(m);
      CAPTURE(row);
      const uint32_t seed = ds::row_seed(kScanSeed, row);
      const std::vector<uint32_t> first = sequence(ds::BlockOrder(m, seed, 1u));
      // Walking another order in between shows there is no hidden state.
      sequence(ds::BlockOrder(m + 1, seed ^ 1u, 1u));
      CHECK(sequence(ds::BlockOrder(m, seed, 1u)) == first);
      if (m >= 17) {
        CHECK(sequence(ds::BlockOrder(m, ds::row_seed(kScanSeed, row + 1), 1u)) != first);
      }
    }
  }
}

TEST_CASE("row sample: a place of adjacent vectors in each stretch of the row, as planned") {
  // Up to the longest rows of 8-element vectors whose element count fits an int.
  for (const int vectors : {512, 513, 1000, 8191, 32767, 32768, 1 << 20, (1 << 28) - 3}) {
    for (const int vec : {4, 8}) {
      CAPTURE(vectors);
      CAPTURE(vec);
      const ds::RowSample plan = ds::plan_sample(64, vectors, vec, vectors * vec, 1 << 30);
      const uint32_t group = ds::sample_group(vec);
      CHECK(static_cast<int>(group) * vec == ds::kSamplePlace);
      const int places = std::min(vectors / ds::kSampleStretch, ds::kSampleElements / vec) /
                         static_cast<int>(group);
      REQUIRE(plan.points == places * static_cast<int>(group));
      CHECK(plan.want >= 64LL * plan.points / vectors);
      CHECK(plan.want > ds::kSamplePlace);
      CHECK(4 * plan.want <= plan.points * vec);
      // Stretch i spans [i * vectors / places, (i + 1) * vectors / places) up to rounding: each
      // place's vectors lie in its own stretch, adjacent, and the stretches cover the row, one
      // after the other.
      uint32_t end_of_last = 0;
      bool inside = true;
      for (int place = 0; place < places; ++place) {
        const auto i = static_cast<uint32_t>(place);
        const uint32_t lo = i * plan.stretch + std::min(i, plan.longer);
        const uint32_t hi = lo + plan.stretch + (i < plan.longer ? 1u : 0u);
        const uint32_t first = ds::sample_vector(i * group, plan, 0x5eedu, vec);
        inside &= lo == end_of_last && first >= lo && first + group <= hi;
        for (uint32_t j = 1; j < group; ++j)
          inside &= ds::sample_vector(i * group + j, plan, 0x5eedu, vec) == first + j;
        end_of_last = hi;
      }
      CHECK(inside);
      CHECK(end_of_last == static_cast<uint32_t>(vectors));
    }
  }
  // Too short for a sample, or a sample that would keep more than a quarter of itself.
  CHECK(ds::plan_sample(2048, 511, 4, 511 * 4, 1 << 30).points == 0);
  CHECK(ds::plan_sample(2048, 2048, 4, 8192, 1 << 30).points == 0);
  CHECK(ds::plan_sample(0, 1 << 20, 4, 1 << 22, 1 << 30).points == 0);
  // The buffer bounds the sample.
  CHECK(ds::plan_sample(64, 1 << 20, 4, 1 << 22, 1344).points == 1344 / 4);
}

// Where keep lies under the sample's margin, the threshold is the sample's (keep + 1)-th best, so
// a sample that holds the row's best keep (for keep = 1, one row in total / sampled) still leaves
// keep elements that beat it: no second scan.
TEST_CASE("scan model: a sample holding the row's best few does not mislead") {
  constexpr int64_t kN = 100000;
  constexpr int kVec = 4;
  constexpr uint32_t kRow = 3;
  for (const int k : {1, 2, 5}) {
    CAPTURE(k);
    std::vector<Scored> row;
    for (int64_t c = 0; c < kN; ++c)
      row.push_back(Scored{static_cast<double>(c % 1000), 0, static_cast<int32_t>(c)});
    const ds::RowSample plan =
        ds::plan_sample(k, static_cast<int>(kN / kVec), kVec, static_cast<int>(kN), 1 << 30);
    REQUIRE(plan.points > 0);
    CHECK(plan.want == k + 1);
    // The sample's first k elements become the row's best.
    const uint32_t first = ds::sample_vector(0u, plan, ds::row_seed(kScanSeed, kRow), kVec);
    for (int j = 0; j < k; ++j) row[first * kVec + static_cast<uint32_t>(j)].score = 1e6 + j;
    const ScanStats stats = model_scan(row, k, 4096, 1024, kScanSeed, kRow, true, 1 << 20);
    CHECK(stats.scans == 1);
    REQUIRE(static_cast<int>(stats.selected.size()) == k);
    for (int j = 0; j < k; ++j)
      CHECK(stats.selected[j] == static_cast<int32_t>(first * kVec) + k - 1 - j);
  }
}

TEST_CASE("scan model: buffer bound, exact result and the seed's work bound") {
  const Shape shapes[] = {
      // The CPU-model table of docs/workloads.md.
      {131072, 2048, 4096, 4096},
      {131072, 2048, 1024, 1024},
      {131072, 512, 8192, 4096},
      {1048576, 1024, 8192, 4096},
      {129280, 50, 4096, 1024},
      {32768, 2048, 4096, 4096},
      {8192, 2048, 1024, 1024},
      // Small B2 against B, k = 1, N near k, a partial last block, N < k, B = 1.
      {1000, 7, 64, 32},
      {100000, 1, 256, 1},
      {5000, 4096, 512, 512},
      {4097, 4096, 1024, 4096},
      {3000, 4096, 1024, 1024},
      {777, 50, 1, 1},
  };
  for (const Shape& shape : shapes) {
    for (const Dist dist : kModelDists) {
      CAPTURE(shape.n);
      CAPTURE(shape.k);
      CAPTURE(shape.block);
      CAPTURE(shape.block2);
      CAPTURE(dist_name(dist));
      const std::vector<RowCheck> checks = check_rows(shape, dist, /*sampled=*/false);
      double total_work = 0.0;
      int64_t max_buffer = 0;
      for (const RowCheck& check : checks) {
        CHECK(check.matches_reference);
        CHECK(check.stats.max_buffer <= shape.k + shape.block + shape.block2);
        total_work += static_cast<double>(check.stats.work);
        max_buffer = std::max(max_buffer, check.stats.max_buffer);
      }
      const double mean_work = total_work / static_cast<double>(checks.size());
      const double bound = work_bound(shape.n, shape.k, shape.block, shape.block2);
      const auto n = static_cast<double>(shape.n);
      std::printf(
          "scan model N=%lld k=%d B=%lld B2=%lld %-10s mean W=%.3f N bound=%.3f N "
          "max buffer=%lld\n",
          static_cast<long long>(shape.n), shape.k, static_cast<long long>(shape.block),
          static_cast<long long>(shape.block2), dist_name(dist), mean_work / n, bound / n,
          static_cast<long long>(max_buffer));
      // The seed proves the bound for k <= N only.
      if (shape.k <= shape.n) CHECK(mean_work <= bound);
    }
  }
}

// The kernel's threshold starts at its row sample's (ds::plan_sample): the result must stay
// exact and the buffer within its bound on every distribution, no row of them may be scanned
// twice (the sample is spread over the row, so rows whose values follow their columns are sampled
// evenly), and the compaction work must not grow.
TEST_CASE("scan model: the row sample's threshold stays exact and never misleads") {
  const Shape shapes[] = {
      {131072, 2048, 4096, 2048}, {131072, 512, 4096, 2048}, {129280, 50, 4096, 1024},
      {32768, 2048, 4096, 2048},  {100000, 1, 256, 1},       {5000, 4096, 512, 512},
  };
  for (const Shape& shape : shapes) {
    for (const Dist dist : kModelDists) {
      CAPTURE(shape.n);
      CAPTURE(shape.k);
      CAPTURE(dist_name(dist));
      const std::vector<RowCheck> checks = check_rows(shape, dist, /*sampled=*/true);
      const std::vector<RowCheck> plain = check_rows(shape, dist, /*sampled=*/false);
      int rescanned = 0;
      double work = 0.0;
      double plain_work = 0.0;
      for (size_t r = 0; r < checks.size(); ++r) {
        CHECK(checks[r].matches_reference);
        CHECK(checks[r].stats.max_buffer <= shape.k + shape.block + shape.block2);
        rescanned += checks[r].stats.scans - 1;
        work += static_cast<double>(checks[r].stats.work);
        plain_work += static_cast<double>(plain[r].stats.work);
      }
      const double per_row = static_cast<double>(checks.size()) * static_cast<double>(shape.n);
      std::printf(
          "scan model sampled N=%lld k=%d %-10s rows scanned twice %d/%zu, W %.3f N (%.3f N)\n",
          static_cast<long long>(shape.n), shape.k, dist_name(dist), rescanned, checks.size(),
          work / per_row, plain_work / per_row);
      CHECK(rescanned == 0);
      CHECK(work <= plain_work);
    }
  }
}

}  // namespace deepselect::testing
