// deepselect::topk on the GPU against the CPU reference, bit for bit.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "compile_ahead.hpp"
#include "device_buffer.hpp"
#include "driver.hpp"
#include "dtype_bits.hpp"
#include "gpu_check.hpp"
#include "plan.hpp"
#include "registry.hpp"
#include "sample_keep.cuh"
#include "test_support.hpp"
#include "topk_internal.hpp"

namespace deepselect::testing {
namespace {

constexpr uint64_t kSuiteSeed = 20240611;
constexpr int kRandomCases = 4 * kSpecPeriod;

// Rows of 131069 columns (odd, so that most rows start unaligned) of one distribution.
CaseSpec long_rows(int seed, DType dtype, int64_t rows, int k, Dist dist) {
  CaseSpec spec;
  spec.seed = static_cast<uint64_t>(seed);
  spec.dtype = dtype;
  spec.rows = rows;
  spec.n = 131069;
  spec.k = k;
  spec.dist = dist;
  return spec;
}

// The planner splits the case's rows over 8 or 16 CTAs whose buffers hold their parts whole (a
// part of the aligned view, 16-byte vectors, rounded up; templates/topk_kernel.cuh resident_part).
void check_plan_holds_parts_whole(const CaseSpec& spec, const DeviceInfo& device) {
  const KernelSpec plan = plan_spec(spec.dtype, spec.k, spec.rows, spec.n, device);
  const int64_t part = (spec.n + 16 + plan.cluster - 1) / plan.cluster + 8;
  CHECK(plan.cluster >= 8);
  CHECK(plan.buffer_words() >= part);
}

// Calls visit(row, point, plan, column, vec) for each point (16-byte vector) of each row's sample,
// as the kernel that the planner picks for the problem draws it (sample_keep.cuh: its buffer caps
// the sample); the point's vector is columns column..column + vec - 1. Needs rows at the
// allocation's 256-byte alignment (x_shift 0).
template <class Visit>
void for_each_sample_point(const Problem& problem, Visit&& visit) {
  const int bytes = problem.dtype == DType::f32 ? 4 : 2;
  const int vec = 16 / bytes;
  const int capacity =
      plan_spec(problem.dtype, problem.k, problem.rows, problem.n, device_info(nullptr))
          .buffer_words();
  for (int64_t r = 0; r < problem.rows; ++r) {
    const auto head = static_cast<int>(r * problem.stride() * bytes % 16 / bytes);
    const int first_vector = (head + vec - 1) / vec;
    const int vectors = (head + static_cast<int>(problem.n)) / vec - first_vector;
    const ds::RowSample plan =
        ds::plan_sample(problem.k, vectors, vec, static_cast<int>(problem.n), capacity);
    REQUIRE(plan.points > 0);
    REQUIRE(plan.want < problem.k);
    const uint32_t seed = ds::row_seed(kBlockOrderSeed, static_cast<uint32_t>(r));
    for (int point = 0; point < plan.points; ++point) {
      const uint32_t v = ds::sample_vector(static_cast<uint32_t>(point), plan, seed, vec);
      const int64_t column = (first_vector + int64_t{v}) * vec - head;
      visit(r, point, plan, column, vec);
    }
  }
}

// Sets every element of each row's sample above all the others, so that fewer than k of the
// row beat the sample's threshold and the kernel must scan the row again without it.
void put_best_in_sample(Problem& problem) {
  for_each_sample_point(
      problem, [&](int64_t r, int point, const ds::RowSample&, int64_t column, int vec) {
        for (int j = 0; j < vec; ++j) {
          problem.x[r * problem.stride() + column + j] = encode(1000.0 + point, problem.dtype);
        }
      });
}

// Makes the sample's best `want` NaN (the best value, by default) while the row holds fewer
// than k of them, with the row's smallest value in the sample too (its column then shapes the
// radix select's bin edges). The threshold must be a word some element has: a bin edge between
// +inf's key and NaN's reads as a NaN limit, which made whole blocks pass the filter.
void put_nan_best_in_sample(Problem& problem) {
  const int64_t stride = problem.stride();
  for (uint32_t& bits : problem.x) {
    if (!is_nan_bits(bits, problem.dtype) && decode(bits, problem.dtype) < -2.9) {
      bits = encode(-2.9, problem.dtype);
    }
  }
  int64_t marked_row = -1;
  for_each_sample_point(
      problem, [&](int64_t r, int point, const ds::RowSample& plan, int64_t column, int vec) {
        const int nan_points = (plan.want + vec - 1) / vec;
        if (point < nan_points) {
          for (int j = 0; j < vec; ++j)
            problem.x[r * stride + column + j] = nan_bits(problem.dtype, 0, 1);
        } else if (marked_row != r && column >= 4096 && column < 8192) {
          problem.x[r * stride + column] = encode(-3.0, problem.dtype);
          marked_row = r;
        }
      });
}

// Puts the sample's threshold at a value T that fewer than k beat, with more than k of the row
// tied at T: a run of whole blocks at columns [8192, 40960) and, from column 65536 on, every
// 37th element. The sample holds T but for its last want - 1 elements, which are better, so that
// the threshold is the sample's first tie, in the row's first 512 columns. The row's best k are
// then the better ones, the sample's ties and the run's first ties. A filter that took ties
// with the threshold's value where a thread has few of them (Change 88, bench/results/NOTES.md)
// and then counted them as beating the sample's threshold picked the sparse ties instead. The
// rest of the row lies below T.
void put_threshold_among_ties(Problem& problem) {
  const double sign = problem.largest ? 1.0 : -1.0;
  const uint32_t tie = encode(sign, problem.dtype);
  const int64_t stride = problem.stride();
  for (int64_t r = 0; r < problem.rows; ++r) {
    for (int64_t c = 0; c < problem.n; ++c) {
      uint32_t& bits = problem.x[r * stride + c];
      const bool tied = (c >= 8192 && c < 40960) || (c >= 65536 && c % 37 == 0);
      bits = tied ? tie : encode(sign * (-1.0 - 1e-6 * static_cast<double>(c)), problem.dtype);
    }
  }
  for_each_sample_point(
      problem, [&](int64_t r, int point, const ds::RowSample& plan, int64_t column, int vec) {
        for (int j = 0; j < vec; ++j) {
          const int element = point * vec + j;
          const bool better = element >= plan.points * vec - (plan.want - 1);
          problem.x[r * stride + column + j] =
              better ? encode(sign * (2.0 + element), problem.dtype) : tie;
        }
      });
}

// Fills each row so that the digit floor's first digit lies in one CTA's part alone: the columns
// of part `holder` (of `cluster` parts, 64 columns in from both ends: the parts are 16-byte
// vectors of the aligned view) hold values rising within [2, 2.49) (f32: distinct; 16-bit: ~32
// keys, tied) or NaN, the rest of the row values below 1, and five values above the digit in the
// first part and five in the last where those are not the holder's, whose shares then lie before
// and after the holder's in CTA 0's buffer. Values are negated for `smallest`.
void put_digit_in_one_part(Problem& problem, int cluster, int holder, bool nan) {
  const double sign = problem.largest ? 1.0 : -1.0;
  const int64_t part = (problem.n + cluster - 1) / cluster;
  const int64_t lo = holder * part + 64;
  const int64_t hi = (holder + 1) * part - 64;
  for (int64_t r = 0; r < problem.rows; ++r) {
    uint32_t* row = &problem.x[r * problem.stride()];
    for (int64_t c = 0; c < problem.n; ++c) {
      const double rise = static_cast<double>(c - lo) / static_cast<double>(hi - lo);
      if (c >= lo && c < hi) {
        row[c] = nan ? nan_bits(problem.dtype, false, 1u)
                     : encode(sign * (2.0 + 0.49 * rise), problem.dtype);
      } else {
        row[c] = encode(sign * (1.0 - 1e-6 * static_cast<double>(c)), problem.dtype);
      }
    }
    for (int i = 0; i < 5; ++i) {
      if (holder != 0) row[64 + i] = encode(sign * (10.0 + i), problem.dtype);
      if (holder != cluster - 1) row[problem.n - 70 + i] = encode(sign * (20.0 + i), problem.dtype);
    }
  }
}

// spec's rows on every distribution, largest and smallest in turn, then normal rows whose sample
// misleads (put_best_in_sample) and whose sample's threshold lies in a tie
// (put_threshold_among_ties). Case `index` (counted on) takes the seed seed_base + index.
void check_every_distribution_and_sample(const std::string& name, CaseSpec spec, uint64_t seed_base,
                                         int& index) {
  for (Dist dist : kAllDists) {
    spec.dist = dist;
    spec.largest = index % 2 == 0;
    spec.seed = seed_base + static_cast<uint64_t>(index);
    CHECK(check_on_gpu(name + " " + std::to_string(index++), spec));
  }
  spec.dist = Dist::normal;
  CHECK(check_on_gpu(name + " misled " + std::to_string(index++), spec, put_best_in_sample));
  CHECK(check_on_gpu(name + " sample in a tie " + std::to_string(index++), spec,
                     put_threshold_among_ties));
}

// Runs spec's case through topk_with_spec on the planner's kernel as `choose` changes it, and
// compares every output with the reference.
void check_on_kernel(const std::string& label, const CaseSpec& spec,
                     const std::function<void(KernelSpec&)>& choose) {
  CAPTURE(label);
  CAPTURE(describe(spec));
  const Problem problem = make_problem(spec);
  const GpuOutput output =
      run_on_gpu(problem, spec.layout, [&](const TopkArgs& args, CUstream stream) {
        KernelSpec kernel = planned_spec(args, stream);
        choose(kernel);
        topk_with_spec(args, kernel, stream);
      });
  CHECK(first_mismatch(problem, spec.layout, reference_topk(problem), output) == "");
}

}  // namespace

// DEEPSELECT_TEST_GPU_CASE=<i> runs only case i, to reproduce a failure.
TEST_CASE("gpu: randomized suite") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  const char* only = std::getenv("DEEPSELECT_TEST_GPU_CASE");
  std::vector<int> indices;
  std::vector<CaseSpec> specs;
  for (int i = 0; i < kRandomCases; ++i) {
    if (only != nullptr && std::atoi(only) != i) continue;
    indices.push_back(i);
    specs.push_back(random_spec(kSuiteSeed, i));
  }
  compile_ahead(specs);
  for (size_t c = 0; c < specs.size(); ++c) {
    CAPTURE(indices[c]);
    CHECK(check_on_gpu("case " + std::to_string(indices[c]), specs[c]));
  }
}

TEST_CASE("gpu: determinism") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  CaseSpec batch;  // ties everywhere, unsorted: the bytes must still repeat
  batch.rows = 16;
  batch.n = 131072;
  batch.k = 2048;
  batch.dist = Dist::relu_ties;
  CaseSpec single = batch;  // one long row, which a plan may split across CTAs
  single.dtype = DType::bf16;
  single.rows = 1;
  single.n = 1048576;
  single.k = 512;
  single.dist = Dist::quantized;
  for (const CaseSpec& spec : {batch, single}) {
    CAPTURE(describe(spec));
    const Problem problem = make_problem(spec);
    const GpuOutput first = run_on_gpu(problem, spec.layout);
    CHECK(first_mismatch(problem, spec.layout, reference_topk(problem), first) == "");
    for (int rerun = 1; rerun < 20; ++rerun) {
      CAPTURE(rerun);
      const GpuOutput again = run_on_gpu(problem, spec.layout);
      CHECK(again.indices == first.indices);
      CHECK(again.values == first.values);
      CHECK(again.row_status == first.row_status);
    }
  }
}

// The sparse-attention indexer's decode step: k = 2048 of up to 128K scores per query row,
// next_n query rows per sequence, indices translated through the KV cache's page table.
TEST_CASE("gpu: indexer decode shapes with decode bounds and the page table") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  int index = 0;
  for (DType dtype : {DType::f32, DType::bf16}) {
    // One CTA per row, 8-CTA clusters and 16-CTA clusters.
    for (int64_t rows : {int64_t{128}, int64_t{8}, int64_t{2}}) {
      for (bool page_table : {false, true}) {
        CaseSpec spec;
        spec.seed = 500 + static_cast<uint64_t>(index);
        spec.dtype = dtype;
        spec.rows = rows;
        spec.n = 131072;
        spec.k = 2048;
        spec.dist = Dist::normal;
        spec.bounds = Bounds::decode;
        spec.next_n = 2;
        spec.page_table = page_table;
        spec.layout.values = false;
        spec.layout.raw_indices = page_table;
        CHECK(check_on_gpu("indexer " + std::to_string(index++), spec));
      }
    }
  }
}

// The threshold starts at the row sample's (templates/sample_keep.cuh). Rows whose values
// follow their columns must be sampled evenly (no second scan, checked by the CPU model) and
// selected exactly, largest and smallest.
TEST_CASE("gpu: rows whose values follow their columns") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  int index = 0;
  for (DType dtype : {DType::f32, DType::bf16}) {
    for (int64_t rows : {int64_t{70}, int64_t{40}, int64_t{1}}) {  // 1 CTA per row, 2, and 16
      for (int k : {64, 2048}) {
        for (Dist dist : {Dist::descending, Dist::ascending, Dist::normal}) {
          CaseSpec spec = long_rows(700 + index, dtype, rows, k, dist);
          spec.largest = dist != Dist::ascending;
          CHECK(check_on_gpu("columns " + std::to_string(index++), spec));
        }
      }
    }
  }
}

// A sample that misled makes the kernel scan the row again, on every path: scanned with one
// CTA per row, split over a cluster, and resident (each part whole in shared memory).
TEST_CASE("gpu: rows whose sample holds their best values") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  int index = 0;
  for (DType dtype : {DType::f32, DType::bf16}) {
    for (int64_t rows : {int64_t{70}, int64_t{40}, int64_t{6}, int64_t{1}}) {
      for (int k : {64, 2048}) {
        const CaseSpec spec = long_rows(800 + index, dtype, rows, k, Dist::normal);
        CHECK(check_on_gpu("misled sample " + std::to_string(index++), spec, put_best_in_sample));
      }
    }
  }
}

// Fewer than k beat the sample's threshold, which lies in a tie of more than k elements, some
// of them in whole blocks: the row must be scanned again, its ties settled by column.
TEST_CASE("gpu: rows whose sample's threshold lies in a tie that fewer than k beat") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  int index = 0;
  for (DType dtype : {DType::f32, DType::bf16}) {
    for (int k : {512, 2048}) {
      for (bool largest : {true, false}) {
        CaseSpec spec = long_rows(950 + index, dtype, 70, k, Dist::normal);
        spec.largest = largest;
        CHECK(check_on_gpu("sample in a tie " + std::to_string(index++), spec,
                           put_threshold_among_ties));
      }
    }
  }
}

// f32 rows of 131,072+ columns that fit two CTAs per SM: a lone CTA scans them 32 elements a
// thread per step (B = 8192, src/plan.cpp block_for), on every distribution, ordered both ways,
// and with samples that mislead.
TEST_CASE("gpu: long f32 rows that a lone CTA scans at B = 8192") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  const DeviceInfo device = device_info(nullptr);
  int index = 0;
  for (int64_t n : {int64_t{131072}, int64_t{151936}}) {
    for (int k : {50, 1024, 2048}) {
      CaseSpec spec = long_rows(1200 + index, DType::f32, 200, k, Dist::normal);
      spec.n = n;
      REQUIRE(plan_spec(DType::f32, k, spec.rows, n, device).block == 8192);
      check_every_distribution_and_sample("B = 8192", spec, 1200, index);
    }
  }
}

// Full f32 rows that 16-CTA clusters split over up to all the SMs (src/plan.cpp wide_f32_rows):
// six and seven clusters at once, rows of odd length (most start past a 16-byte boundary) and
// aligned ones, on every distribution, ordered both ways, and with samples that mislead.
TEST_CASE("gpu: full f32 rows that 16-CTA clusters split over up to all the SMs") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  const DeviceInfo device = device_info(nullptr);
  int index = 0;
  for (auto [rows, n] : {std::pair<int64_t, int64_t>{6, 100003}, {7, 131072}}) {
    for (int k : {50, 700, 2048}) {
      CaseSpec spec = long_rows(1800 + index, DType::f32, rows, k, Dist::normal);
      spec.n = n;
      REQUIRE(plan_spec(DType::f32, k, rows, n, device).cluster == 16);
      check_every_distribution_and_sample("16-CTA rows", spec, 1800, index);
    }
  }
}

// 16-bit rows that a lone CTA scans two staged blocks per block-wide scan (src/plan.cpp
// paired_blocks_when_scanning): an odd number of blocks (the last pair holds one) in rows of odd
// length (most start past a 16-byte boundary), 32 blocks (the block order's ring refilled), every
// distribution, both orders, a misled sample and the sample's threshold in a tie.
TEST_CASE("gpu: 16-bit rows that a lone CTA scans two blocks per block scan") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  const DeviceInfo device = device_info(nullptr);
  int index = 0;
  for (DType dtype : {DType::bf16, DType::f16}) {
    for (int64_t n : {int64_t{131075}, int64_t{262144}}) {
      for (int k : {300, 1000}) {
        CaseSpec spec = long_rows(1700 + index, dtype, 100, k, Dist::normal);
        spec.n = n;
        const KernelSpec plan = plan_spec(dtype, k, spec.rows, n, device);
        REQUIRE(plan.cluster == 1);
        REQUIRE(plan.stages == 4);
        check_every_distribution_and_sample("paired blocks", spec, 1700, index);
      }
    }
  }
}

// A kernel built without its resident load (RowPath::scanned, which the planner gives lone 16-bit
// CTAs, lone f32 256-thread CTAs at B = 8192 and f32 2-CTA clusters over full rows they hold no
// part of whole) scans every row, whatever its length, so topk_with_spec takes it for any rows:
// rows of k - 1, k + 1 and a few thousand columns (each distribution at each length), empty, short
// and ragged rows, per-row k, every order, x unaligned, on the suite's lone 16-bit kernels, three
// lone f32 ones (sample-b256's and 200 x 131072 k = 2048's among them; the B = 4096 one is no
// planner kernel), four 2-CTA clusters (dsa-decode-b64's and one at two stages among them; the
// bf16 one is no planner kernel) and the 8- and 16-CTA kernels of the digit floor, whose parts of
// such rows are short or empty.
TEST_CASE("gpu: kernels built without their resident load take rows of any length") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  const std::vector<const char*> kernel_texts = {
      "dtype=bf16 k_max=512 B=8192 B2=2048 threads=256 cluster=1 stages=4",
      "dtype=f16 k_max=2048 B=8192 B2=4096 threads=256 cluster=1 stages=2",
      "dtype=bf16 k_max=64 B=8192 B2=1024 threads=256 cluster=1 stages=2",
      "dtype=f32 k_max=2048 B=4096 B2=2048 threads=256 cluster=1 stages=2",
      "dtype=f32 k_max=1024 B=8192 B2=1024 threads=256 cluster=1 stages=2",
      "dtype=f32 k_max=2048 B=8192 B2=2048 threads=256 cluster=1 stages=2",
      "dtype=f32 k_max=512 B=8192 B2=2048 threads=512 cluster=2 stages=4",
      "dtype=f32 k_max=2048 B=8192 B2=4096 threads=512 cluster=2 stages=3",
      "dtype=f32 k_max=4096 B=8192 B2=1024 threads=512 cluster=2 stages=2",
      "dtype=bf16 k_max=64 B=8192 B2=1024 threads=512 cluster=2 stages=2",
      "dtype=f32 k_max=2048 B=4096 B2=16384 threads=512 cluster=8 stages=2",
      "dtype=bf16 k_max=64 B=8192 B2=1024 threads=512 cluster=16 stages=2"};
  int index = 0;
  for (size_t kernel_index = 0; kernel_index < kernel_texts.size(); ++kernel_index) {
    const char* kernel_text = kernel_texts[kernel_index];
    const KernelSpec text_spec = KernelSpec::parse(kernel_text);
    for (size_t dist_index = 0; dist_index < kAllDists.size(); ++dist_index) {
      CaseSpec spec;
      spec.seed = 3100 + static_cast<uint64_t>(index);
      std::mt19937_64 rng(spec.seed);
      spec.dtype = text_spec.dtype;
      spec.rows = 9;
      spec.k = std::array{text_spec.k_max, text_spec.k_max - 13, 1}[rng() % 3];
      const int64_t lengths[] = {spec.k - 1, spec.k + 1, 6007, 40001};
      spec.n = std::max<int64_t>(lengths[(kernel_index + dist_index) % 4], 1);
      spec.ld = spec.n + static_cast<int64_t>(rng() % 3);
      spec.dist = kAllDists[dist_index];
      spec.bounds = std::array{Bounds::ragged, Bounds::full, Bounds::begin_only}[rng() % 3];
      spec.per_row_k = rng() % 3 == 0;
      spec.order = std::array{Order::unsorted, Order::by_value, Order::by_index}[rng() % 3];
      spec.largest = rng() % 2 == 0;
      spec.nan_policy = rng() % 2 == 0 ? NanPolicy::nan_is_smallest : NanPolicy::nan_is_largest;
      spec.layout.x_shift = static_cast<int>(rng() % 2);
      CAPTURE(kernel_text);
      check_on_kernel("scanned " + std::to_string(index++), spec, [&](KernelSpec& kernel) {
        kernel = KernelSpec::parse(kernel_text, kernel);
        kernel.row_path = RowPath::scanned;
      });
    }
  }
}

// f32 rows that 2-CTA clusters over nearly every SM scan through four stages at k <= 512 and three
// above (three at k <= 512 too where they take two thirds to seven eighths of the SMs; two on
// fewer: the halved clusters of the GPU test of topk()'s plans), and that 4-CTA clusters scan
// through three at k <= 1024 (src/plan.cpp deeper_stages_in_small_clusters): sample-b64's rows and
// rows of odd length (most start past a 16-byte boundary), each k bucket that takes them, every
// distribution, both orders, a misled sample and the sample's threshold in a tie; then sorted by
// value, as sampling wants them.
TEST_CASE("gpu: f32 rows that 2- and 4-CTA clusters scan through three or four stages") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  CUcontext current = nullptr;
  check_cuda(driver().cuCtxGetCurrent(&current), "cuCtxGetCurrent");
  const DeviceInfo device = device_info(nullptr);
  struct SplitRows {
    std::string name;
    int64_t rows;
    int cluster;
    int stages;
    std::vector<int> ks;
    uint64_t seed_base;
  };
  // On 132 SMs: 65 rows in 2-CTA clusters (130 CTAs), 22 in 4-CTA ones (88 CTAs), 49 in 2-CTA
  // ones (98 CTAs, under seven eighths of the SMs).
  const SplitRows splits[] = {
      {"2-CTA four stages", device.sm_count / 2 - 1, 2, 4, {50, 200, 512}, 2000},
      {"2-CTA three stages", device.sm_count / 2 - 1, 2, 3, {1024, 2048}, 2000},
      {"4-CTA three stages", device.sm_count / 6, 4, 3, {50, 512, 1000}, 2100},
      {"2-CTA three stages at k <= 512", device.sm_count * 3 / 8, 2, 3, {50, 512}, 2400}};
  int index = 0;
  for (const SplitRows& split : splits) {
    for (int64_t n : {int64_t{129280}, int64_t{131075}}) {
      for (int k : split.ks) {
        CaseSpec spec = long_rows(static_cast<int>(split.seed_base) + index, DType::f32, split.rows,
                                  k, Dist::normal);
        spec.n = n;
        const KernelSpec plan = plan_spec(DType::f32, k, spec.rows, n, device);
        REQUIRE(plan.cluster == split.cluster);
        REQUIRE(plan.stages == split.stages);
        if (!KernelRegistry::global().get(plan, current).holds_at_once(spec.rows)) {
          MESSAGE("skipped ", split.name, " at k = ", k, ": the GPU cannot hold ", spec.rows,
                  " clusters of ", split.cluster, " CTAs at once, so topk() plans smaller ones");
          continue;
        }
        check_every_distribution_and_sample(split.name, spec, split.seed_base, index);
        spec.order = Order::by_value;
        spec.seed = split.seed_base + static_cast<uint64_t>(index);
        CHECK(check_on_gpu(split.name + " by value " + std::to_string(index++), spec));
      }
    }
  }
  // Past 64 steps a CTA (B = 8192): warp 0 refills the block order's ring of 64 twice while
  // three or four stages are in flight.
  for (int k : {64, 1024}) {
    // (check_every_distribution_and_sample gives each case its seed.)
    CaseSpec longest = long_rows(0, DType::f32, device.sm_count / 2 - 1, k, Dist::normal);
    longest.n = 1100003;
    const KernelSpec plan = plan_spec(DType::f32, k, longest.rows, longest.n, device);
    REQUIRE(plan.cluster == 2);
    REQUIRE(plan.stages == (k <= 512 ? 4 : 3));
    REQUIRE(longest.n / 2 > 64 * int64_t{plan.block});
    check_every_distribution_and_sample("2-CTA deeper stages, 68 steps a CTA", longest, 2200,
                                        index);
  }
}

// The sample's best are NaN: the scan must end with fewer than k and scan again, on one CTA per
// row and split rows, aligned and unaligned, with row_status off (so ties and NaN at the
// threshold are settled a whole block at a time).
TEST_CASE("gpu: rows whose sample's best are NaN") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  int index = 0;
  for (DType dtype : {DType::f32, DType::bf16}) {
    for (int64_t rows : {int64_t{70}, int64_t{40}}) {
      for (int64_t n : {int64_t{131072}, int64_t{131069}}) {
        for (int k : {2048, 4096}) {
          CaseSpec spec = long_rows(900 + index, dtype, rows, k, Dist::normal);
          spec.n = n;
          spec.layout.row_status = false;
          CHECK(
              check_on_gpu("NaN sample " + std::to_string(index++), spec, put_nan_best_in_sample));
        }
      }
    }
  }
}

// Rows a lone CTA scans without a sample (too short for one to pay at this k): the first
// blocks pass the filter whole, more than its buffer holds past k + B2, so appends go vector by
// vector with compactions between (templates/topk_kernel.cuh append_by_vectors); ascending rows
// keep it so for most blocks, which come in random order.
TEST_CASE("gpu: rows too short for a sample, whose blocks overflow a lone CTA's buffer") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  int index = 0;
  for (DType dtype : {DType::f32, DType::bf16}) {
    for (int k : {2048, 4096}) {
      for (int64_t n : {int64_t{9000}, int64_t{9001}, int64_t{10240}}) {
        const int vec = 16 / static_cast<int>(dtype_bytes(dtype));
        const int vectors = static_cast<int>(n) / vec;
        REQUIRE(ds::plan_sample(k, vectors, vec, static_cast<int>(n), 1 << 30).points == 0);
        for (Dist dist : {Dist::ascending, Dist::descending, Dist::relu_ties, Dist::normal}) {
          CaseSpec spec = long_rows(1000 + index, dtype, 70, k, dist);
          spec.n = n;
          CHECK(check_on_gpu("no sample " + std::to_string(index++), spec));
        }
      }
    }
  }
}

// Up to four rows at k <= 2048 split over 16-CTA clusters (src/plan.cpp cluster_for): long rows
// scanned; parts taken whole whose sample is larger than the part (templates/topk_kernel.cuh
// resident_fits: the staged part lies above the sample's words); rows without a sample; and
// samples that mislead, scanned and whole.
TEST_CASE("gpu: rows split over 16-CTA clusters") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  const DeviceInfo device = device_info(nullptr);
  int index = 0;
  for (DType dtype : {DType::f32, DType::bf16}) {
    for (int64_t rows : {int64_t{1}, int64_t{3}, int64_t{4}}) {
      for (int k : {1, 50, 1024, 2048}) {
        for (int64_t n : {int64_t{129280}, int64_t{40001}, int64_t{20000}, int64_t{1000}}) {
          CaseSpec spec = long_rows(1100 + index, dtype, rows, k, Dist::normal);
          spec.n = n;
          if (rows * 2 * kMaxCluster <= device.sm_count)
            CHECK(plan_spec(dtype, k, rows, n, device).cluster == kMaxCluster);
          CHECK(check_on_gpu("16-CTA cluster " + std::to_string(index++), spec));
          if ((k == 50 || k == 2048) && n > 20000)
            CHECK(check_on_gpu("16-CTA cluster misled " + std::to_string(index++), spec,
                               put_best_in_sample));
        }
      }
    }
  }
}

// Rows split over 8 or 16 CTAs that hold their parts whole: f32 rows, and 16-bit rows at k <= 64,
// take their first threshold from the cluster's histogram of key digits
// (templates/topk_kernel.cuh, load_resident_best_digits), in one round or, where the first would
// keep too many (narrow rows), two; a plateau at the k-th value leaves more than CTA 0 holds
// (constant rows), which the cluster then selects together. 16-bit rows at larger k take the
// sample's. Every distribution, both orientations and NaN policies, aligned and unaligned rows.
TEST_CASE("gpu: split rows held whole, every distribution") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  const DeviceInfo device = device_info(nullptr);
  int index = 0;
  for (DType dtype : {DType::f32, DType::bf16, DType::f16}) {
    for (int64_t rows : {int64_t{2}, int64_t{8}}) {  // 16-CTA and 8-CTA clusters
      for (Dist dist : kAllDists) {
        CaseSpec spec =
            long_rows(1400 + index, dtype, rows, std::array{1, 50, 512, 2048}[index % 4], dist);
        spec.n = index % 3 == 0 ? 20000 : 131069;
        spec.largest = index % 2 == 0;
        spec.nan_policy =
            index / 2 % 2 == 0 ? NanPolicy::nan_is_largest : NanPolicy::nan_is_smallest;
        spec.order = std::array{Order::unsorted, Order::by_value, Order::by_index}[index % 3];
        INFO(describe(spec));
        check_plan_holds_parts_whole(spec, device);
        CHECK(check_on_gpu("held whole " + std::to_string(index++), spec));
      }
    }
  }
}

// f32 rows held whole by 8- and 16-CTA clusters: CTA 0 ranks what it holds, or selects within
// the digit floor's digit by radix (templates/topk_kernel.cuh, select_in_floor_bin), or over its
// whole buffer where a plateau at the k-th value leaves it more than it ranks at k <= 64;
// after one floor round or two (ascending rows: the first digit holds a whole part). Spread
// values, ties, plateaus (quantized), several k per distribution, ragged row ends, both
// orientations.
TEST_CASE("gpu: split f32 rows held whole, CTA 0's select within the floor digit") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  const DeviceInfo device = device_info(nullptr);
  int index = 0;
  for (int64_t rows : {int64_t{1}, int64_t{8}}) {  // 16-CTA and 8-CTA clusters
    for (Dist dist : {Dist::normal, Dist::relu_ties, Dist::quantized, Dist::ascending}) {
      for (int k : {2048, 700, 200, 64}) {
        CaseSpec spec = long_rows(1500 + index, DType::f32, rows, k, dist);
        spec.n = rows == 1 ? 131072 : 65536;
        spec.largest = index % 2 == 0;
        spec.bounds = index % 3 == 0 ? Bounds::ragged : Bounds::full;
        INFO(describe(spec));
        check_plan_holds_parts_whole(spec, device);
        CHECK(check_on_gpu("floor digit " + std::to_string(index++), spec));
      }
    }
  }
}

// Rows held whole by 8- and 16-CTA clusters whose digit floor finds the first digit in one CTA's
// part, with more of the row than half of CTA 0's buffer, so that a second round of digits
// follows, of which one CTA holds every key: that CTA splits the digit alone, leaves unused slots
// in its share of CTA 0's buffer, and CTA 0 closes them (templates/topk_kernel.cuh,
// load_resident_best_digits, take_split_floor). Holders at the first, a middle and the last part;
// values spread, tied (16-bit keys) or NaN; shares before and after the holder's; ascending and
// descending rows too; both orientations, every output order, values and row_status.
TEST_CASE("gpu: split rows whose floor digit lies in one CTA's part") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  const DeviceInfo device = device_info(nullptr);
  int index = 0;
  for (const auto& [dtype, rows, k] : {std::tuple{DType::f32, int64_t{1}, 2048},
                                       {DType::f32, int64_t{2}, 700},
                                       {DType::f32, int64_t{1}, 50},
                                       {DType::f32, int64_t{9}, 2048},
                                       {DType::bf16, int64_t{2}, 50},
                                       {DType::bf16, int64_t{9}, 64}}) {
    CaseSpec spec = long_rows(2500 + index, dtype, rows, k, Dist::normal);
    const int cluster = plan_spec(dtype, k, rows, spec.n, device).cluster;
    for (int holder : {0, cluster / 2 - 1, cluster - 1}) {
      for (bool nan : {false, true}) {
        spec.seed = 2500 + static_cast<uint64_t>(index);
        spec.largest = index % 2 == 0;
        spec.nan_policy = spec.largest ? NanPolicy::nan_is_largest : NanPolicy::nan_is_smallest;
        spec.order = std::array{Order::unsorted, Order::by_value, Order::by_index}[index % 3];
        INFO(describe(spec), " holder ", holder, nan ? " NaN" : "");
        check_plan_holds_parts_whole(spec, device);
        CHECK(check_on_gpu(
            "digit in one part " + std::to_string(index++), spec,
            [&](Problem& problem) { put_digit_in_one_part(problem, cluster, holder, nan); }));
      }
    }
    for (Dist dist : {Dist::ascending, Dist::descending}) {
      spec.dist = dist;
      spec.seed = 2500 + static_cast<uint64_t>(index);
      spec.largest = index % 2 == 0;
      INFO(describe(spec));
      CHECK(check_on_gpu("digit in one part " + std::to_string(index++), spec));
    }
  }
}

// The 8- and 16-CTA kernels built without their scan (RowPath::whole) take rows up to the
// longest their CTAs hold whole at the worst 16-byte alignment; a column more takes the kernel
// with its scan. Both lengths, rows at every alignment (odd strides, a shifted x), full and
// ragged, on f32 and 16-bit kernels of both cluster sizes.
TEST_CASE("gpu: rows at the longest that kernels without their scan hold whole") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  const DeviceInfo device = device_info(nullptr);
  int index = 0;
  for (const auto& [dtype, rows, k] : {std::tuple{DType::f32, int64_t{1}, 2048},
                                       {DType::f32, int64_t{9}, 2048},
                                       {DType::f32, int64_t{2}, 50},
                                       {DType::bf16, int64_t{6}, 512},
                                       {DType::f16, int64_t{2}, 64}}) {
    const KernelSpec planned = plan_spec(dtype, k, rows, 131072, device);
    REQUIRE(planned.row_path == RowPath::whole);
    const int64_t longest = longest_row_held_whole(planned, 131072);
    for (int64_t n : {longest, longest + 1}) {
      CaseSpec spec = long_rows(2700 + index, dtype, rows, k, Dist::normal);
      spec.n = n;
      spec.ld = n + 1 + index % 2;
      spec.layout.x_shift = index % 2;
      spec.bounds = index % 3 == 2 ? Bounds::ragged : Bounds::full;
      spec.dist = index % 4 < 2 ? Dist::normal : Dist::ascending;
      spec.largest = index % 2 == 0;
      INFO(describe(spec));
      CHECK((plan_spec(dtype, k, rows, n, device).row_path == RowPath::whole) == (n == longest));
      CHECK(check_on_gpu("longest held whole " + std::to_string(index++), spec));
    }
  }
}

// A lone NaN in the last CTA's part of a row held whole by an 8- or 16-CTA cluster: CTA 0, which
// writes row_status, learns of it only from that CTA's NaN digit, which the digit floor reads
// without cluster_total (f32 rows, and 16-bit rows at k <= 64). Odd rows hold the NaN, even rows
// none; NaN never chosen (nan_is_smallest) leaves row_status the only witness.
TEST_CASE("gpu: a NaN only in the last part of split rows held whole") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  int index = 0;
  for (const auto& [dtype, k] : {std::pair{DType::f32, 2048}, std::pair{DType::bf16, 50}}) {
    for (int64_t rows : {int64_t{2}, int64_t{8}}) {
      for (NanPolicy policy : {NanPolicy::nan_is_largest, NanPolicy::nan_is_smallest}) {
        for (bool largest : {true, false}) {
          CaseSpec spec = long_rows(1500 + index, dtype, rows, k, Dist::normal);
          spec.largest = largest;
          spec.nan_policy = policy;
          spec.layout.row_status = true;
          INFO(describe(spec));
          CHECK(check_on_gpu("NaN in the last part " + std::to_string(index++), spec,
                             [](Problem& problem) {
                               for (int64_t r = 1; r < problem.rows; r += 2) {
                                 problem.x[r * problem.stride() + problem.n - 1 - r] =
                                     nan_bits(problem.dtype, false, 1u);
                               }
                             }));
        }
      }
    }
  }
}

// 16-bit rows held whole by 8- or 16-CTA clusters (the digit floor at k <= 64, the sample's
// threshold above: templates/topk_kernel.cuh, kDigitFloor) with every output option, per-row k
// (0 among them), ragged and decode bounds, on rows whose k-th value is tied across CTAs
// (constant, quantized, relu_ties) or not.
TEST_CASE("gpu: 16-bit rows held whole by clusters, every output option") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  const DeviceInfo device = device_info(nullptr);
  int index = 0;
  for (DType dtype : {DType::bf16, DType::f16}) {
    for (int64_t rows : {int64_t{2}, int64_t{8}}) {  // 16-CTA and 8-CTA clusters
      for (Dist dist : {Dist::normal, Dist::constant, Dist::quantized, Dist::relu_ties}) {
        CaseSpec spec =
            long_rows(1600 + index, dtype, rows, std::array{512, 7, 2048}[index % 3], dist);
        std::mt19937_64 rng(spec.seed);
        spec.n = std::array<int64_t, 3>{131069, 131072, 65537}[rng() % 3];
        spec.bounds = std::array{Bounds::full, Bounds::ragged, Bounds::decode}[rng() % 3];
        spec.next_n = 2;
        spec.per_row_k = rng() % 2 == 0;
        spec.index_offset = rng() % 2 == 0;
        spec.page_table = rng() % 2 == 0;
        spec.row_to_batch = spec.page_table && rng() % 2 == 0;
        spec.largest = rng() % 2 == 0;
        spec.order = std::array{Order::unsorted, Order::unsorted, Order::by_value}[rng() % 3];
        spec.nan_policy = rng() % 2 == 0 ? NanPolicy::nan_is_largest : NanPolicy::nan_is_smallest;
        spec.fill_index = std::array<int64_t, 3>{-1, 7, INT32_MIN}[rng() % 3];
        spec.fill_value = rng() % 2 == 0 ? std::optional<double>(-1.5) : std::nullopt;
        spec.layout.index_type = rng() % 2 == 0 ? IndexType::i32 : IndexType::i64;
        spec.layout.ld_idx = spec.k + 3;
        spec.layout.ld_val = spec.k + 1;
        spec.layout.raw_indices = spec.page_table && rng() % 2 == 0;
        spec.layout.x_shift = static_cast<int>(rng() % 2);
        INFO(describe(spec));
        check_plan_holds_parts_whole(spec, device);
        CHECK(check_on_gpu("16-bit held whole " + std::to_string(index++), spec));
      }
    }
  }
}

// topk() plans only clusters that the GPU holds all of at once (cuOccupancyMaxActiveClusters: a
// cluster's CTAs share a GPC), halving the CTAs per row where the planner's clusters do not fit:
// on the H100, 16 rows in 8-CTA clusters and 31 in 4-CTA ones did not. Rows 1 to 66 of 129,280
// columns (every cluster size on a GPU of 132 SMs), full and bounded, each dtype, k = 50 and 2048;
// then the rows that a halved cluster serves, checked against the reference.
TEST_CASE("gpu: topk() plans only clusters that the GPU holds at once") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  CUcontext current = nullptr;
  check_cuda(driver().cuCtxGetCurrent(&current), "cuCtxGetCurrent");
  const DeviceInfo device = device_info(nullptr);
  constexpr int64_t kMostRows = 66;
  constexpr int64_t kColumns = 129280;
  DeviceBuffer x(static_cast<size_t>(kMostRows) * kColumns * sizeof(float));
  DeviceBuffer indices(static_cast<size_t>(kMostRows) * 2048 * sizeof(int32_t));
  DeviceBuffer ends(static_cast<size_t>(kMostRows) * sizeof(int32_t));
  std::map<std::string, int> resident;  // a planned spec -> its clusters the GPU holds at once
  std::vector<CaseSpec> halved;
  for (DType dtype : {DType::f32, DType::bf16, DType::f16}) {
    for (int k : {50, 2048}) {
      for (int64_t rows = 1; rows <= kMostRows; ++rows) {
        for (bool full : {true, false}) {
          INFO(dtype_name(dtype), " k=", k, " rows=", rows, " full=", full);
          TopkArgs args;
          args.x = x.at<const void>();
          args.dtype = dtype;
          args.rows = rows;
          args.n = kColumns;
          args.k = k;
          args.indices = indices.at<void>();
          if (!full) args.end = ends.at<const int32_t>();
          const RowLengths lengths = full ? RowLengths::full : RowLengths::bounded;
          const auto kernel_of = [&](const DeviceInfo& on) -> const LoadedKernel& {
            return KernelRegistry::global().get(
                plan_spec(dtype, k, rows, kColumns, on, RowBounds::range, Epilogue::plain, lengths),
                current);
          };
          const KernelSpec planned = planned_spec(args, nullptr);
          const LoadedKernel& unchecked = kernel_of(device);
          const LoadedKernel& kernel = KernelRegistry::global().get(planned, current);
          if (planned.cluster > 1) resident[planned.to_string()] = kernel.resident_clusters;
          CHECK(kernel.holds_at_once(rows));
          if (unchecked.holds_at_once(rows)) {
            CHECK(planned == unchecked.spec);
            continue;
          }
          // The largest cluster that fits: twice as many CTAs per row would not.
          CHECK(planned.cluster < unchecked.spec.cluster);
          DeviceInfo twice = device;
          twice.largest_cluster = planned.cluster * 2;
          CHECK_FALSE(kernel_of(twice).holds_at_once(rows));
          if (full && (halved.empty() || halved.back().rows != rows || halved.back().k != k)) {
            halved.push_back(long_rows(2300 + static_cast<int>(halved.size()), dtype, rows, k,
                                       halved.size() % 2 == 0 ? Dist::normal : Dist::ascending));
          }
        }
      }
    }
  }
  for (const auto& [spec, clusters] : resident) {
    MESSAGE("the GPU holds ", clusters, " clusters of ", spec, " at once");
  }
  for (size_t i = 0; i < halved.size(); ++i) {
    INFO(describe(halved[i]));
    CHECK(check_on_gpu("halved cluster " + std::to_string(i), halved[i]));
  }
}

// Split rows held whole whose k-th value is a plateau larger than a part: a last digit round
// pins its key, and each CTA takes the key's words only where its lower ranks hold fewer than
// are wanted (templates/topk_kernel.cuh load_resident_best_digits). relu_ties rows where a tenth
// of the row is positive and k is more (the zeros tie at the k-th largest) or where k takes the
// smallest (zeros are nine tenths), constant rows, and ragged rows whose short ones end in the
// zeros; 16-CTA (2 rows; 6 full f32 rows of 131,072) and 8-CTA (6 rows) clusters, f32 and, at
// k <= 64, bf16. Then constant rows whose CTAs hold 1,084 columns each, at k = 1084 (CTA 1's lower
// ranks hold exactly the wanted words: it takes none) and 1085 (one fewer: it takes them all).
TEST_CASE("gpu: split rows whose k-th value is a plateau larger than a part") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  const DeviceInfo device = device_info(nullptr);
  int index = 0;
  for (DType dtype : {DType::f32, DType::bf16}) {
    for (int64_t rows : {int64_t{2}, int64_t{6}}) {
      for (auto [n, k, largest] : {std::tuple{int64_t{17312}, 2048, true},
                                   {int64_t{17313}, 1500, true},
                                   {int64_t{40000}, 700, false},
                                   {int64_t{40000}, 2048, false},
                                   {int64_t{131072}, 50, false}}) {
        if (dtype != DType::f32 && k > 64) continue;
        for (Dist dist : {Dist::relu_ties, Dist::constant}) {
          CaseSpec spec = long_rows(1900 + index, dtype, rows, k, dist);
          spec.n = n;
          spec.largest = largest;
          spec.bounds = index % 3 == 2 ? Bounds::ragged : Bounds::full;
          spec.order = std::array{Order::unsorted, Order::by_value, Order::by_index}[index % 3];
          INFO(describe(spec));
          check_plan_holds_parts_whole(spec, device);
          CHECK(check_on_gpu("plateau " + std::to_string(index++), spec));
        }
      }
    }
  }
  for (int k : {1084, 1085}) {
    CaseSpec spec = long_rows(1900 + index, DType::f32, 2, k, Dist::constant);
    spec.n = 17312;
    INFO(describe(spec));
    REQUIRE(plan_spec(spec.dtype, k, spec.rows, spec.n, device).cluster == 16);
    CHECK(check_on_gpu("plateau " + std::to_string(index++), spec));
  }
}

// `deepselect bench`'s bf16 rows of dsa-bf16-b256 (its normal buffer 2) at k = 2048: row 202's
// final select narrowed a bin to its words and then counted words past the narrowed range again
// (templates/radix_range.cuh), kept 2047 of 2048, and the row was scanned a second time
// (bench/results/2026-12-02-h200-cluster16, v6). Its result must be exact.
TEST_CASE("gpu: the bench's bf16 row whose select ran past its narrowed range") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  CaseSpec spec = long_rows(1200, DType::bf16, 203, 2048, Dist::normal);
  spec.n = 131072;
  spec.layout.values = false;
  spec.layout.row_status = false;
  const auto bench_rows = [](Problem& problem) {
    const auto n = static_cast<size_t>(problem.n);
    for (int64_t r = 0; r < problem.rows; ++r) {
      bench_row(Dist::normal, DType::bf16, 2, r,
                std::span(problem.x).subspan(static_cast<size_t>(r * problem.stride()), n), n);
    }
  };
  CHECK(check_on_gpu("bench bf16 row 202", spec, bench_rows));
}

// The last select of a lone CTA over long bf16 rows at k = 1025..2048 starts its bins at key
// boundaries and clamps a kept key to the row's columns (templates/radix_range.cuh, ColumnRanges):
// rows whose k-th best value lies at their first and last columns too (a tie there), which start
// past a 16-byte boundary and end short of n, must still select exactly, largest and smallest,
// one key of few columns (normal values) and of many (ascending ones).
TEST_CASE("gpu: long bf16 rows whose k-th value also lies at their first and last columns") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  const DeviceInfo device = device_info(nullptr);
  int index = 0;
  for (int k : {1100, 2048}) {
    for (bool largest : {true, false}) {
      for (Dist dist : {Dist::normal, Dist::ascending}) {
        CaseSpec spec = long_rows(1600 + index, DType::bf16, 70, k, dist);
        spec.n = 131072;
        spec.largest = largest;
        INFO(describe(spec));
        const KernelSpec plan = plan_spec(spec.dtype, spec.k, spec.rows, spec.n, device);
        CHECK(plan.cluster == 1);
        CHECK(plan.threads == 256);
        CHECK(plan.k_max == 2048);
        const auto tie_at_ends = [&](Problem& problem) {
          problem.begin.resize(static_cast<size_t>(problem.rows));
          problem.end.resize(static_cast<size_t>(problem.rows));
          for (int64_t r = 0; r < problem.rows; ++r) {
            const int32_t begin = 1 + static_cast<int32_t>(r % 7);
            const int32_t end = static_cast<int32_t>(problem.n - r % 5);
            problem.begin[static_cast<size_t>(r)] = begin;
            problem.end[static_cast<size_t>(r)] = end;
            uint32_t* row = problem.x.data() + r * problem.stride();
            std::vector<Scored> scored;
            for (int32_t c = begin; c < end; ++c)
              scored.push_back(score_of(row[c], c, problem.dtype, largest, problem.nan_policy));
            std::nth_element(scored.begin(), scored.begin() + (k - 1), scored.end(), better);
            const uint32_t kth = row[scored[static_cast<size_t>(k - 1)].column];
            row[begin] = kth;
            row[end - 1] = kth;
          }
        };
        CHECK(check_on_gpu("k-th at the ends " + std::to_string(index++), spec, tie_at_ends));
      }
    }
  }
}

// Rows that their k takes whole, wanted for their indices alone, are written without being read
// by lone CTAs (templates/topk_kernel.cuh run; 3 rows run in clusters, which read them): in both
// orders that allow it, beside rows of the same call that are selected (ragged and decode bounds
// of up to 3000 columns) and in calls where every row is such a row (n = 2000). The options that
// still apply are drawn per case. The rows hold NaN and infinities, which such rows never look at.
TEST_CASE("gpu: rows that k takes whole, indices only") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  int index = 0;
  for (DType dtype : {DType::f32, DType::bf16}) {
    for (int64_t rows : {int64_t{3}, int64_t{300}}) {
      for (Bounds bounds : {Bounds::ragged, Bounds::decode, Bounds::full}) {
        for (Order order : {Order::unsorted, Order::by_index}) {
          CaseSpec spec;
          spec.seed = 1300 + static_cast<uint64_t>(index);
          std::mt19937_64 rng(spec.seed);
          spec.dtype = dtype;
          spec.rows = rows;
          spec.n = bounds == Bounds::full ? 2000 : 3000;
          // Every full row (2000 columns) is one that k takes whole.
          spec.k = bounds == Bounds::full ? std::array{2048, 4096}[rng() % 2]
                                          : std::array{512, 2048, 4096}[rng() % 3];
          spec.dist = Dist::specials;
          spec.bounds = bounds;
          spec.next_n = 2;
          spec.order = order;
          spec.per_row_k = rng() % 2 == 0;
          spec.index_offset = rng() % 2 == 0;
          spec.page_table = bounds == Bounds::decode || rng() % 3 == 0;
          spec.row_to_batch = spec.page_table && rng() % 2 == 0;
          const bool index64 = rng() % 2 == 0;
          spec.layout.index_type = index64 ? IndexType::i64 : IndexType::i32;
          spec.fill_index =
              std::array<int64_t, 4>{-1, 7, INT32_MIN, index64 ? int64_t{1} << 40 : -1}[rng() % 4];
          spec.layout.values = false;
          spec.layout.row_status = false;
          spec.layout.ld_idx = spec.k + 3;
          spec.layout.raw_indices = spec.page_table && rng() % 2 == 0;
          CHECK(check_on_gpu("taken whole " + std::to_string(index++), spec));
        }
      }
    }
  }
}

// The sort of sorted outputs (templates/bitonic_sort.cuh) at sizes of 2 to 4,096 words on CTAs
// of 128 to 1024 threads: each of its forms (one word a thread, merged by rank; one word a lane;
// four words a lane from four words a thread), by value with ties (quantized rows) and by index,
// rows of every length against k (ragged bounds), indices and values compared slot by slot with
// the reference.
TEST_CASE("gpu: sorted outputs at every sort size and thread count") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  int index = 0;
  for (int threads : {128, 256, 512, 1024}) {
    for (int k : {2, 100, 128, 129, 300, 512, 1000, 2048, 4096}) {
      for (Order order : {Order::by_value, Order::by_index}) {
        CaseSpec spec;
        spec.seed = 1400 + static_cast<uint64_t>(index);
        spec.dtype = index % 3 == 0 ? DType::bf16 : DType::f32;
        spec.rows = 5;
        spec.n = 6007;
        spec.k = k;
        spec.dist = index / 2 % 2 == 0 ? Dist::quantized : Dist::normal;
        spec.bounds = index / 4 % 2 == 0 ? Bounds::ragged : Bounds::full;
        spec.order = order;
        spec.largest = index % 5 != 0;
        CAPTURE(threads);
        // A lone CTA of `threads`, eight elements a thread per block; one k bucket for every k
        // (eight kernels to compile).
        check_on_kernel("sort " + std::to_string(index++), spec, [&](KernelSpec& kernel) {
          kernel.k_max = 4096;
          kernel.cluster = 1;
          kernel.threads = threads;
          kernel.block = 8 * threads;
          kernel.block2 = 1024;
          kernel.stages = 2;
          kernel.row_path = RowPath::any;
        });
      }
    }
  }
}

// Small enough to run under compute-sanitizer memcheck and racecheck.
TEST_CASE("gpu: sanitizer subset") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  const int sms = device_info(nullptr).sm_count;
  std::vector<CaseSpec> cases(17);
  cases[0].rows = 3;  // ragged rows, every output option, unaligned x, odd strides
  cases[0].n = 300;
  cases[0].ld = 301;
  cases[0].k = 7;
  cases[0].bounds = Bounds::ragged;
  cases[0].per_row_k = true;
  cases[0].index_offset = true;
  cases[0].layout = {.index_type = IndexType::i64,
                     .values = true,
                     .row_status = true,
                     .ld_idx = 9,
                     .ld_val = 8,
                     .x_shift = 1,
                     .own_stream = true};
  cases[1].dtype = DType::bf16;  // specials, smallest first, NaN smallest
  cases[1].rows = 2;
  cases[1].n = 5000;
  cases[1].ld = 5003;
  cases[1].k = 50;
  cases[1].dist = Dist::specials;
  cases[1].largest = false;
  cases[1].order = Order::by_value;
  cases[1].nan_policy = NanPolicy::nan_is_smallest;
  cases[1].layout.x_shift = 1;
  cases[2].dtype = DType::f16;  // k near n, sorted by index, a given fill
  cases[2].n = 4097;
  cases[2].k = 4096;
  cases[2].dist = Dist::normal;
  cases[2].bounds = Bounds::end_only;
  cases[2].order = Order::by_index;
  cases[2].fill_index = 7;
  cases[2].fill_value = -1.5;
  cases[3].rows = 4;  // huge tie sets, begin only, no values
  cases[3].n = 20000;
  cases[3].k = 512;
  cases[3].dist = Dist::relu_ties;
  cases[3].bounds = Bounds::begin_only;
  cases[3].layout.values = false;
  cases[4].dist = Dist::normal;  // the smallest problem
  cases[5].rows = 2;             // ascending, several blocks per row, by value
  cases[5].n = 70001;
  cases[5].k = 2048;
  cases[5].dist = Dist::ascending;
  cases[5].order = Order::by_value;
  cases[5].layout.x_shift = 1;
  cases[6].dtype = DType::bf16;  // decode bounds through a page table, raw indices too
  cases[6].rows = 6;
  cases[6].n = 9000;
  cases[6].k = 64;
  cases[6].bounds = Bounds::decode;
  cases[6].next_n = 3;
  cases[6].page_table = true;
  cases[6].row_to_batch = true;
  cases[6].index_offset = true;
  cases[6].layout.raw_indices = true;
  cases[6].layout.ld_raw = 65;
  cases[7].rows = 66;  // one CTA per row on 132 SMs, scanned twice: the sample misled
  cases[7].n = 40000;
  cases[7].k = 64;
  cases[7].dist = Dist::normal;
  cases[8].rows = 8;  // 8-CTA clusters held whole, narrow rows: two rounds of key digits
  cases[8].n = 40000;
  cases[8].k = 512;
  cases[8].dist = Dist::narrow;
  cases[9].dtype = DType::bf16;  // 16-CTA clusters held whole, ties across CTAs
  cases[9].rows = 2;
  cases[9].n = 131069;
  cases[9].k = 512;
  cases[9].dist = Dist::quantized;
  cases[9].layout.x_shift = 1;
  cases[10].dtype = DType::f16;  // 8-CTA clusters held whole, every value tied, by value
  cases[10].rows = 8;
  cases[10].n = 65537;
  cases[10].k = 2048;
  cases[10].dist = Dist::constant;
  cases[10].order = Order::by_value;
  cases[11].rows = 1;  // a 16-CTA cluster held whole: CTA 0 selects within the floor digit
  cases[11].n = 131072;
  cases[11].k = 2048;
  cases[11].dist = Dist::normal;
  cases[12].rows = sms / 2 - 1;  // 2-CTA clusters over nearly every SM: four stages, refilled
  cases[12].n = 100003;
  cases[12].k = 200;
  cases[12].dist = Dist::normal;
  cases[13].rows = 50;  // the same at k = 1024 over three quarters of the SMs: three stages
  cases[13].n = 100003;
  cases[13].k = 1000;
  cases[13].dist = Dist::ascending;
  cases[14].rows = 20;  // 4-CTA clusters on 132 SMs, parts scanned in three stages, each refilled
  cases[14].n = 200003;
  cases[14].k = 700;
  cases[14].dist = Dist::relu_ties;
  cases[15].rows = 1;  // a 16-CTA cluster held whole whose first digit lies in CTA 7's part
  cases[15].n = 131069;
  cases[15].k = 2048;
  cases[16].dtype = DType::bf16;  // full rows past a lone CTA's buffer: no resident load
  cases[16].rows = sms / 2 + 3;
  cases[16].n = 8197;
  cases[16].ld = 8200;
  cases[16].k = 500;
  cases[16].dist = Dist::relu_ties;
  cases[16].layout.x_shift = 1;
  CHECK(plan_spec(DType::bf16, 500, cases[16].rows, 8197, device_info(nullptr)).row_path ==
        RowPath::scanned);
  const std::function<void(Problem&)> digit_in_part_7 = [](Problem& problem) {
    put_digit_in_one_part(problem, kMaxCluster, 7, false);
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    cases[i].seed = 100 + i;
    CHECK(check_on_gpu("sanitizer " + std::to_string(i), cases[i],
                       i == 7    ? put_best_in_sample
                       : i == 15 ? digit_in_part_7
                                 : std::function<void(Problem&)>()));
  }
}

}  // namespace deepselect::testing
