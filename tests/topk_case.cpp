#include "topk_case.hpp"
#include "spec.hpp"

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <limits>
#include <span>

#include "dtype_bits.hpp"
#include "parallel.hpp"

namespace deepselect::testing {
namespace {

constexpr int32_t kInt32Max = std::numeric_limits<int32_t>::max();
constexpr int32_t kInt32Min = std::numeric_limits<int32_t>::min();
// Keeps one case's host work (generation, reference) to a fraction of a second.
constexpr int64_t kMaxElements = int64_t{20} << 20;

template <class T, size_t N>
T pick(const std::array<T, N>& choices, std::mt19937_64& rng) {
  return choices[rng() % N];
}

int32_t uniform(int64_t lo, int64_t hi, std::mt19937_64& rng) {  // [lo, hi]
  return static_cast<int32_t>(lo +
                              static_cast<int64_t>(rng() % static_cast<uint64_t>(hi - lo + 1)));
}

struct RawBounds {
  int32_t begin;
  int32_t end;
};

// A row's begin/end as the caller passes them, bad ones included (the device clamps them).
RawBounds draw_bounds(Bounds bounds, int32_t n, int k, std::mt19937_64& rng) {
  switch (bounds) {
    case Bounds::full:
      return {0, n};
    case Bounds::begin_only:
      return {pick(std::array{0, uniform(0, n, rng), -5, n + 3}, rng), n};
    case Bounds::end_only:
      return {0, pick(std::array{n, uniform(0, n, rng), n + 100, kInt32Max, -1}, rng)};
    case Bounds::ragged:
    case Bounds::decode:  // drawn per batch entry: draw_seq_len
      break;
  }
  const int32_t b = uniform(0, n, rng);
  switch (rng() % 13) {  // well-formed bounds twice as often as each bad kind
    case 0:
    case 1:
      return {0, n};
    case 2:
    case 3:
      return {b, uniform(b, n, rng)};
    case 4:
    case 5:
      return {0, uniform(1, n, rng)};  // a causal prefix
    case 6:
    case 7: {
      const int32_t length = uniform(0, std::min(k, n), rng);  // shorter than k
      const int32_t start = uniform(0, n - length, rng);
      return {start, start + length};
    }
    case 8:
      return {b, b};
    case 9:
      return {b, pick(std::array{n + 1, n + 1000, kInt32Max}, rng)};
    case 10:
      return {uniform(1, n, rng) + 1, uniform(0, 1, rng)};  // begin > end
    case 11:
      return {-uniform(1, 1000, rng), uniform(0, n, rng)};
    default:
      return {b, -uniform(1, 5, rng)};
  }
}

// A batch entry's seq_len as the caller passes it: bad ones included (the device clamps the
// rows' bounds to [0, n]).
int32_t draw_seq_len(int32_t n, int k, int next_n, std::mt19937_64& rng) {
  switch (rng() % 9) {
    case 0:
    case 1:
      return n;
    case 2:
    case 3:
      return uniform(std::min(next_n, n), n, rng);
    case 4:
    case 5:
      return uniform(0, std::min(k, n), rng);  // rows shorter than k
    case 6:
      return pick(std::array{0, 1, -3, kInt32Min}, rng);
    case 7:
      return pick(std::array{n + 1, n + next_n, kInt32Max}, rng);
    default:
      return uniform(0, n, rng);
  }
}

// Keeps the page table's host copy small.
constexpr int64_t kMaxPageTableEntries = int64_t{4} << 20;
// Table entries stay below this so that a translated index fits int32.
constexpr int32_t kMaxPage = 1 << 23;

// A random page table for the problem: random page numbers (repeats allowed), some unallocated
// (-1), sometimes fewer pages than the rows need or fewer batch entries than the rows have,
// and, with row_to_batch, rows that point outside the table.
void add_page_table(const CaseSpec& spec, Problem& problem) {
  std::mt19937_64 rng = make_rng(spec.seed, ~uint64_t{0});
  const int64_t batches = (spec.rows + spec.next_n - 1) / spec.next_n;
  problem.page_size = pick(std::array{1, 16, 64, 128}, rng);
  while (batches * ((spec.n + problem.page_size - 1) / problem.page_size) > kMaxPageTableEntries)
    problem.page_size *= 2;
  const int64_t pages_needed = (spec.n + problem.page_size - 1) / problem.page_size;
  problem.page_table_cols = rng() % 4 == 0 ? std::max<int64_t>(1, pages_needed / 2) : pages_needed;
  problem.ld_page_table = pick(std::array<int64_t, 2>{0, problem.page_table_cols + 3}, rng);
  problem.page_table_rows = rng() % 4 == 0 ? std::max<int64_t>(1, batches / 2) : batches;
  problem.page_table.resize(problem.page_table_rows * problem.page_table_stride());
  for (int32_t& entry : problem.page_table)
    entry = rng() % 16 == 0 ? -1 : uniform(0, kMaxPage / problem.page_size, rng);
  if (!spec.row_to_batch) return;
  problem.row_to_batch.resize(spec.rows);
  for (int32_t& batch : problem.row_to_batch) {
    batch = rng() % 10 == 0
                ? pick(std::array<int32_t, 3>{-1, static_cast<int32_t>(batches), 1 << 30}, rng)
                : uniform(0, batches - 1, rng);
  }
}

int32_t draw_row_k(int k, std::mt19937_64& rng) {
  return pick(std::array{0, 1, k, k + 7, -2, uniform(0, k, rng)}, rng);
}

// With a page table, offsets that keep most indices inside it, so that the translation is
// checked on real pages rather than on -1.
int32_t draw_index_offset(int64_t row, int64_t n, int32_t begin, bool paged, std::mt19937_64& rng) {
  if (paged) return rng() % 2 == 0 ? -begin : uniform(-7, 7, rng);
  switch (rng() % 4) {
    case 0:
      return -begin;  // row-relative indices
    case 1:
      return static_cast<int32_t>(row * n);  // global indices
    case 2:                                  // int32 indices past INT32_MAX wrap
      return kInt32Max - uniform(0, n, rng);
    default:
      return uniform(-(1 << 30), 1 << 30, rng);
  }
}

const char* bounds_name(Bounds bounds) {
  switch (bounds) {
    case Bounds::full:
      return "full";
    case Bounds::ragged:
      return "ragged";
    case Bounds::begin_only:
      return "begin_only";
    case Bounds::end_only:
      return "end_only";
    case Bounds::decode:
      return "decode";
  }
  return "?";
}

const char* order_name(Order order) {
  switch (order) {
    case Order::unsorted:
      return "unsorted";
    case Order::by_value:
      return "by_value";
    case Order::by_index:
      return "by_index";
  }
  return "?";
}

const char* caller_name(Caller caller) {
  switch (caller) {
    case Caller::this_thread:
      return "this_thread";
    case Caller::thread_without_context:
      return "thread_without_context";
    case Caller::thread_with_other_context:
      return "thread_with_other_context";
  }
  return "?";
}

std::string fill_value_text(const std::optional<double>& fill_value) {
  if (!fill_value) return "default";
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", *fill_value);
  return text;
}

}  // namespace

std::string describe(const CaseSpec& spec) {
  const Layout& l = spec.layout;
  char text[512];
  std::snprintf(
      text, sizeof text,
      "%s rows=%" PRId64 " n=%" PRId64 " ld=%" PRId64
      " k=%d dist=%s bounds=%s next_n=%d pages=%d/%d/%d k_per_row=%d "
      "offset=%d %s %s %s fill=(%" PRId64 ", %s) %s ld_idx=%" PRId64 " values=%d ld_val=%" PRId64
      " status=%d shift=%d stream=%s caller=%s pdl=%d"
      " seed=%" PRIu64,
      dtype_name(spec.dtype), spec.rows, spec.n, spec.ld, spec.k,
      spec.dist ? dist_name(*spec.dist) : "mixed", bounds_name(spec.bounds), spec.next_n,
      spec.page_table, spec.row_to_batch, l.raw_indices, spec.per_row_k, spec.index_offset,
      spec.largest ? "largest" : "smallest", order_name(spec.order),
      spec.nan_policy == NanPolicy::nan_is_largest ? "nan_largest" : "nan_smallest",
      spec.fill_index, fill_value_text(spec.fill_value).c_str(),
      l.index_type == IndexType::i32 ? "i32" : "i64", l.ld_idx, l.values, l.ld_val, l.row_status,
      l.x_shift, l.own_stream ? "own" : "null", caller_name(l.caller), l.pdl, spec.seed);
  return text;
}

CaseSpec random_spec(uint64_t suite_seed, int index) {
  std::mt19937_64 rng = make_rng(suite_seed, static_cast<uint64_t>(index));
  CaseSpec spec;
  spec.seed = rng();
  spec.dtype = std::array{DType::f32, DType::bf16, DType::f16}[(index / 32) % 3];
  spec.k = pick(std::array{1, 7, 50, 512, 1000, 2048, 4096}, rng);
  const std::array<int64_t, 8> ns = {
      1, std::max(1, spec.k - 1), spec.k, spec.k + 1, 4097, 129280, 131072, 1048576};
  spec.n = ns[index % 8];
  spec.ld = pick(std::array<int64_t, 5>{0, spec.n, spec.n + 1, spec.n + 2, spec.n + 7}, rng);
  // On a 132-SM H200 the planner gives these 8, 8, 4, 2, 1 and 1 CTAs per row.
  const std::array<int64_t, 6> row_counts = {1, 3, 20, 50, 132, 1024};
  for (int choice = (index / 8) % 6; choice >= 0; --choice) {
    spec.rows = row_counts[choice];
    if (spec.rows * std::max(spec.ld, spec.n) <= kMaxElements) break;
  }
  const int dist = static_cast<int>(rng() % (kAllDists.size() + 1));
  if (dist < static_cast<int>(kAllDists.size())) spec.dist = kAllDists[dist];
  spec.bounds = pick(std::array{Bounds::full, Bounds::full, Bounds::ragged, Bounds::ragged,
                                Bounds::begin_only, Bounds::end_only, Bounds::decode},
                     rng);
  spec.next_n = pick(std::array{1, 1, 2, 3, 4}, rng);
  spec.page_table = rng() % 3 == 0;
  spec.row_to_batch = spec.page_table && rng() % 3 == 0;
  spec.per_row_k = rng() % 3 == 0;
  spec.index_offset = rng() % 3 == 0;
  spec.largest = rng() % 2 == 0;
  spec.order = pick(std::array{Order::unsorted, Order::by_value, Order::by_index}, rng);
  spec.nan_policy = rng() % 2 == 0 ? NanPolicy::nan_is_largest : NanPolicy::nan_is_smallest;

  Layout& layout = spec.layout;
  layout.index_type = rng() % 2 == 0 ? IndexType::i32 : IndexType::i64;
  spec.fill_index =
      pick(std::array<int64_t, 8>{-1, -1, -1, -1, 0, kInt32Max, kInt32Min, 123456789}, rng);
  if (layout.index_type == IndexType::i64 && rng() % 4 == 0) {
    spec.fill_index = pick(std::array<int64_t, 2>{int64_t{1} << 40, -(int64_t{1} << 50)}, rng);
  }
  const double infinity = std::numeric_limits<double>::infinity();
  const std::array<std::optional<double>, 11> fill_values = {
      std::nullopt, std::nullopt, std::nullopt, 0.0,  -0.0,     -1.5,
      0.1,          65520.0,      1.00390625,   1e30, -infinity};
  spec.fill_value = pick(fill_values, rng);
  layout.values = rng() % 4 != 0;
  layout.row_status = rng() % 2 == 0;
  const std::array<int64_t, 4> output_strides = {0, spec.k, spec.k + 1, spec.k + 3};
  layout.ld_idx = pick(output_strides, rng);
  layout.ld_val = pick(output_strides, rng);
  layout.raw_indices = spec.page_table && rng() % 2 == 0;
  layout.ld_raw = pick(output_strides, rng);
  layout.x_shift = static_cast<int>(rng() % 2);
  layout.own_stream = rng() % 2 == 0;
  return spec;
}

Problem make_problem(const CaseSpec& spec) {
  Problem problem;
  problem.dtype = spec.dtype;
  problem.rows = spec.rows;
  problem.n = spec.n;
  problem.ld = spec.ld;
  problem.k = spec.k;
  problem.largest = spec.largest;
  problem.order = spec.order;
  problem.nan_policy = spec.nan_policy;
  problem.fill_index = spec.fill_index;
  problem.fill_value = spec.fill_value;
  const int64_t stride = problem.stride();
  problem.x.resize(spec.rows * stride);
  if (spec.bounds == Bounds::ragged || spec.bounds == Bounds::begin_only) {
    problem.begin.resize(spec.rows);
  }
  if (spec.bounds == Bounds::ragged || spec.bounds == Bounds::end_only) {
    problem.end.resize(spec.rows);
  }
  if (spec.per_row_k) problem.k_per_row.resize(spec.rows);
  if (spec.index_offset) problem.index_offset.resize(spec.rows);
  const auto n = static_cast<int32_t>(spec.n);
  problem.next_n = spec.next_n;
  if (spec.bounds == Bounds::decode) {
    std::mt19937_64 rng = make_rng(spec.seed, ~uint64_t{1});
    problem.seq_lens.resize((spec.rows + spec.next_n - 1) / spec.next_n);
    for (int32_t& length : problem.seq_lens) length = draw_seq_len(n, spec.k, spec.next_n, rng);
  }
  if (spec.page_table) add_page_table(spec, problem);
  parallel_for(spec.rows, [&](int64_t r) {
    std::mt19937_64 rng = make_rng(spec.seed, static_cast<uint64_t>(r));
    const RawBounds bounds = draw_bounds(spec.bounds, n, spec.k, rng);
    if (!problem.begin.empty()) problem.begin[r] = bounds.begin;
    if (!problem.end.empty()) problem.end[r] = bounds.end;
    if (spec.per_row_k) problem.k_per_row[r] = draw_row_k(spec.k, rng);
    const RowRange range = row_range(problem, r);
    if (spec.index_offset) {
      problem.index_offset[r] =
          draw_index_offset(r, spec.n, static_cast<int32_t>(range.begin), spec.page_table, rng);
    }
    const std::span<uint32_t> row = std::span(problem.x).subspan(r * stride, stride);
    for (int64_t c = 0; c < stride; ++c) {
      if (c < range.begin || c >= range.end) row[c] = random_nan(spec.dtype, rng);
    }
    const Dist dist = spec.dist.value_or(kAllDists[rng() % kAllDists.size()]);
    generate(dist, spec.dtype, row.subspan(range.begin, range.end - range.begin), rng);
  });
  return problem;
}

}  // namespace deepselect::testing
