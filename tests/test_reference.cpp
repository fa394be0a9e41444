// Hand-written cases for the CPU reference, so that it can be trusted as the oracle.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <vector>

#include "reference.hpp"

namespace deepselect::testing {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr uint32_t kNanA = 0x7fc00001u;
constexpr uint32_t kNanB = 0xffa00002u;  // negative, signalling payload
const float kNaN = std::bit_cast<float>(kNanA);

uint32_t bits(float value) {
  return std::bit_cast<uint32_t>(value);
}

// An f32 problem whose rows all have n = rows[0].size().
Problem f32_problem(const std::vector<std::vector<float>>& rows, int k) {
  Problem problem;
  problem.rows = static_cast<int64_t>(rows.size());
  problem.n = static_cast<int64_t>(rows[0].size());
  problem.k = k;
  for (const std::vector<float>& row : rows) {
    for (float value : row) problem.x.push_back(bits(value));
  }
  return problem;
}

std::vector<int64_t> indices(const Result& result, int64_t row) {
  const auto first = result.indices.begin() + row * result.k;
  return {first, first + result.k};
}

std::vector<uint32_t> values(const Result& result, int64_t row) {
  const auto first = result.values.begin() + row * result.k;
  return {first, first + result.k};
}

using I = std::vector<int64_t>;
using V = std::vector<uint32_t>;

}  // namespace

TEST_CASE("reference: ties prefer the lower column") {
  Problem problem = f32_problem({{1, 3, 3, 2, 3}}, 2);
  problem.order = Order::by_value;
  CHECK(indices(reference_topk(problem), 0) == I{1, 2});
  problem.k = 4;
  CHECK(indices(reference_topk(problem), 0) == I{1, 2, 4, 3});
  problem.largest = false;
  CHECK(indices(reference_topk(problem), 0) == I{0, 3, 1, 2});
}

TEST_CASE("reference: -0.0 equals +0.0 and keeps its bits") {
  Problem problem = f32_problem({{-0.0f, 0.0f, -1.0f, -0.0f}}, 2);
  problem.order = Order::by_value;
  Result result = reference_topk(problem);
  CHECK(indices(result, 0) == I{0, 1});
  CHECK(values(result, 0) == V{0x80000000u, 0u});
  problem.largest = false;
  problem.k = 3;
  result = reference_topk(problem);
  CHECK(indices(result, 0) == I{2, 0, 1});
  CHECK(values(result, 0) == V{bits(-1.0f), 0x80000000u, 0u});
}

TEST_CASE("reference: NaN under both policies, largest and smallest") {
  Problem problem = f32_problem({{1.0f, kNaN, kInf, -kInf, 0.0f}}, 2);
  problem.x[4] = kNanB;
  problem.order = Order::by_value;
  Result result = reference_topk(problem);
  CHECK(indices(result, 0) == I{1, 4});  // NaNs are equal: the lower column first
  CHECK(values(result, 0) == V{kNanA, kNanB});
  problem.nan_policy = NanPolicy::nan_is_smallest;
  CHECK(indices(reference_topk(problem), 0) == I{2, 0});
  problem.largest = false;
  CHECK(indices(reference_topk(problem), 0) == I{1, 4});  // NaN is the smallest: the best
  problem.nan_policy = NanPolicy::nan_is_largest;
  CHECK(indices(reference_topk(problem), 0) == I{3, 0});
  problem.k = 5;
  CHECK(indices(reference_topk(problem), 0) == I{3, 0, 2, 1, 4});  // NaN last
}

TEST_CASE("reference: fill slots, default and given fill values") {
  Problem problem = f32_problem({{2.0f, 1.0f}}, 4);
  problem.order = Order::by_value;
  Result result = reference_topk(problem);
  CHECK(result.selected[0] == 2);
  CHECK(indices(result, 0) == I{0, 1, -1, -1});
  CHECK(values(result, 0) == V{bits(2.0f), bits(1.0f), bits(-kInf), bits(-kInf)});
  problem.largest = false;
  CHECK(values(reference_topk(problem), 0) == V{bits(1.0f), bits(2.0f), bits(kInf), bits(kInf)});
  problem.fill_index = 1LL << 40;
  problem.fill_value = 0.1;
  result = reference_topk(problem);
  CHECK(indices(result, 0) == I{1, 0, 1LL << 40, 1LL << 40});
  CHECK(values(result, 0)[3] == bits(0.1f));
  problem.dtype = DType::bf16;
  problem.x = {0x3f80u, 0x4000u};  // 1.0, 2.0
  CHECK(values(reference_topk(problem), 0) == V{0x3f80u, 0x4000u, 0x3dcdu, 0x3dcdu});
  problem.dtype = DType::f16;
  problem.x = {0x3c00u, 0x4000u};  // 1.0, 2.0
  problem.fill_value = 65520.0;    // rounds to +inf in f16
  CHECK(values(reference_topk(problem), 0) == V{0x3c00u, 0x4000u, 0x7c00u, 0x7c00u});
}

TEST_CASE("reference: per-row k is clamped to [0, k]") {
  Problem problem = f32_problem({{1, 2, 3, 4}, {1, 2, 3, 4}, {1, 2, 3, 4}, {1, 2, 3, 4}}, 3);
  problem.k_per_row = {0, 2, 10, -1};
  problem.order = Order::by_value;
  const Result result = reference_topk(problem);
  CHECK(result.selected == std::vector<int32_t>{0, 2, 3, 0});
  CHECK(indices(result, 0) == I{-1, -1, -1});
  CHECK(indices(result, 1) == I{3, 2, -1});
  CHECK(indices(result, 2) == I{3, 2, 1});
  CHECK(indices(result, 3) == I{-1, -1, -1});
}

TEST_CASE("reference: begin/end are clamped, inverted bounds are empty") {
  const std::vector<float> row = {5, 1, 4, 2, 3};
  Problem problem = f32_problem({row, row, row, row, row, row}, 2);
  problem.begin = {-5, 1, 3, 9, 0, 2};
  problem.end = {2, 100, 1, 12, -3, 4};
  problem.order = Order::by_value;
  const Result result = reference_topk(problem);
  CHECK(result.selected == std::vector<int32_t>{2, 2, 0, 0, 0, 2});
  CHECK(indices(result, 0) == I{0, 1});
  CHECK(indices(result, 1) == I{2, 4});
  CHECK(indices(result, 2) == I{-1, -1});
  CHECK(indices(result, 5) == I{2, 3});
  const RowRange inverted = row_range(problem, 2);
  CHECK(inverted.begin == 3);
  CHECK(inverted.end == 3);
  problem.begin.clear();  // end alone: begin is 0
  CHECK(indices(reference_topk(problem), 5) == I{0, 2});
  problem.begin = {0, 1, 2, 3, 4, 5};
  problem.end.clear();  // begin alone: end is n
  CHECK(reference_topk(problem).selected == std::vector<int32_t>{2, 2, 2, 2, 1, 0});
}

TEST_CASE("reference: decode bounds end at seq_len - next_n + r mod next_n + 1, clamped") {
  const std::vector<float> row = {5, 1, 4, 2, 3};
  Problem problem = f32_problem({row, row, row, row, row, row}, 2);
  problem.next_n = 2;
  problem.seq_lens = {3, 100, -4};  // rows 0-1, 2-3, 4-5
  problem.order = Order::by_index;
  CHECK(row_range(problem, 0).end == 2);
  CHECK(row_range(problem, 1).end == 3);
  CHECK(row_range(problem, 2).end == 5);
  CHECK(row_range(problem, 3).end == 5);
  CHECK(row_range(problem, 4).end == 0);
  CHECK(row_range(problem, 5).end == 0);
  const Result result = reference_topk(problem);
  CHECK(result.selected == std::vector<int32_t>{2, 2, 2, 2, 0, 0});
  CHECK(indices(result, 0) == I{0, 1});
  CHECK(indices(result, 1) == I{0, 2});
  CHECK(indices(result, 2) == I{0, 2});
}

TEST_CASE("reference: the page table translates selected indices; -1 for what it cannot") {
  Problem problem = f32_problem({{1, 2, 3, 4, 5, 6}, {6, 5, 4, 3, 2, 1}, {1, 1, 1, 1, 1, 1}}, 4);
  problem.page_size = 2;
  problem.page_table_rows = 2;
  problem.page_table_cols = 2;  // pages 0 and 1: columns 0..3
  problem.ld_page_table = 3;
  problem.page_table = {7, -1, 99, 4, 5, 99};
  problem.row_to_batch = {0, 1, 2};  // row 2 points outside the table
  problem.order = Order::by_index;
  const Result result = reference_topk(problem);
  // Row 0 selects columns 2..5: page 1 is unallocated, page 2 is past the table.
  CHECK(indices(result, 0) == I{-1, -1, -1, -1});
  // Row 1 selects 0..3: pages 4 and 5 of batch entry 1.
  CHECK(indices(result, 1) == I{8, 9, 10, 11});
  CHECK(indices(result, 2) == I{-1, -1, -1, -1});
  CHECK(std::vector<int64_t>(result.raw_indices.begin(), result.raw_indices.begin() + 4) ==
        I{2, 3, 4, 5});
  problem.row_to_batch.clear();  // row r is batch entry r / next_n
  problem.index_offset = {-2, 0, 0};
  const Result shifted = reference_topk(problem);
  CHECK(indices(shifted, 0) == I{14, 15, -1, -1});  // indices 0..3 after the offset
  CHECK(page_translate(problem, 0, -1) == -1);
  problem.k = 8;  // the fill is never translated
  CHECK(indices(reference_topk(problem), 1)[7] == -1);
  problem.fill_index = 12345;
  CHECK(indices(reference_topk(problem), 1)[7] == 12345);
}

TEST_CASE("reference: index_offset shifts selected indices, never the fill") {
  Problem problem = f32_problem({{1, 2}, {3, 4}}, 3);
  problem.index_offset = {-1, 1000};
  problem.begin = {1, 0};
  problem.order = Order::by_index;
  const Result result = reference_topk(problem);
  CHECK(indices(result, 0) == I{0, -1, -1});
  CHECK(indices(result, 1) == I{1000, 1001, -1});
}

TEST_CASE("reference: orders") {
  Problem problem = f32_problem({{1, 5, 3, 5, 2, 4}}, 4);
  problem.order = Order::by_value;
  CHECK(indices(reference_topk(problem), 0) == I{1, 3, 5, 2});
  problem.order = Order::by_index;
  CHECK(indices(reference_topk(problem), 0) == I{1, 2, 3, 5});
  problem.largest = false;
  CHECK(indices(reference_topk(problem), 0) == I{0, 2, 4, 5});
  problem.order = Order::unsorted;
  std::vector<int64_t> set = indices(reference_topk(problem), 0);
  std::sort(set.begin(), set.end());
  CHECK(set == I{0, 2, 4, 5});
}

TEST_CASE("reference: row_status marks NaN in the valid range only, whatever k") {
  Problem problem = f32_problem({{kNaN, 1, 2}, {kNaN, 1, 2}, {1, 2, 3}}, 1);
  problem.begin = {0, 1, 0};
  problem.k_per_row = {0, 1, 1};
  CHECK(reference_topk(problem).row_status == std::vector<int32_t>{1, 0, 0});
}

TEST_CASE("reference: rows follow the stride, columns past n are never read") {
  Problem problem = f32_problem({{1, 2, 9, 7, 8, 9}}, 2);
  problem.rows = 2;
  problem.n = 2;
  problem.ld = 3;  // row 0 is {1, 2}, row 1 is {7, 8}
  problem.order = Order::by_value;
  const Result result = reference_topk(problem);
  CHECK(indices(result, 0) == I{1, 0});
  CHECK(values(result, 1) == V{bits(8.0f), bits(7.0f)});
}

TEST_CASE("reference: 16-bit dtypes compare decoded values") {
  Problem problem;
  problem.rows = 1;
  problem.n = 6;
  problem.k = 3;
  problem.order = Order::by_value;
  problem.dtype = DType::f16;
  // 1.0, -2.0, 0.5, +inf, -0.0, NaN
  problem.x = {0x3c00u, 0xc000u, 0x3800u, 0x7c00u, 0x8000u, 0x7e01u};
  problem.nan_policy = NanPolicy::nan_is_smallest;
  CHECK(indices(reference_topk(problem), 0) == I{3, 0, 2});
  problem.largest = false;
  CHECK(indices(reference_topk(problem), 0) == I{5, 1, 4});
  problem.dtype = DType::bf16;
  // 1.0, -2.0, 0.5, +inf, -0.0, NaN, where a plain integer order would differ
  problem.x = {0x3f80u, 0xc000u, 0x3f00u, 0x7f80u, 0x8000u, 0xffc1u};
  problem.nan_policy = NanPolicy::nan_is_largest;
  CHECK(indices(reference_topk(problem), 0) == I{1, 4, 2});
  CHECK(values(reference_topk(problem), 0) == V{0xc000u, 0x8000u, 0x3f00u});
}

}  // namespace deepselect::testing
