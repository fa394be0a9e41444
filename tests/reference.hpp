// The CPU reference of docs/api.md: what one topk call must write, computed from the numeric
// values of the elements (never from the kernels' keys).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <deepselect/deepselect.hpp>

namespace deepselect::testing {

// One call's inputs on the host. Optional per-row arrays are absent when empty.
struct Problem {
  DType dtype = DType::f32;
  int64_t rows = 0;
  int64_t n = 0;
  int64_t ld = 0;           // 0 means n
  int k = 1;                // output width
  std::vector<uint32_t> x;  // rows * stride() raw bits, each in the low bits of a word
  std::vector<int32_t> k_per_row;
  std::vector<int32_t> begin;
  std::vector<int32_t> end;
  std::vector<int32_t> index_offset;
  bool largest = true;
  Order order = Order::unsorted;
  NanPolicy nan_policy = NanPolicy::nan_is_largest;
  int64_t fill_index = -1;
  std::optional<double> fill_value;
  // Decode bounds: present when seq_lens is not empty (then begin/end are empty).
  std::vector<int32_t> seq_lens;
  int next_n = 1;
  // Page-table epilogue: present when page_table is not empty.
  std::vector<int32_t> page_table;  // page_table_rows x ld_page_table
  int64_t page_table_rows = 0;
  int64_t page_table_cols = 0;
  int64_t ld_page_table = 0;  // 0 means page_table_cols
  int page_size = 0;
  std::vector<int32_t> row_to_batch;

  int64_t stride() const { return ld != 0 ? ld : n; }
  int64_t page_table_stride() const { return ld_page_table != 0 ? ld_page_table : page_table_cols; }
};

// rows x k slots, dense. Slots past selected[r] hold the fill.
struct Result {
  int k = 0;
  std::vector<int64_t> indices;      // as written: translated through the page table if any
  std::vector<int64_t> raw_indices;  // before the translation
  std::vector<uint32_t> values;
  std::vector<int32_t> row_status;
  std::vector<int32_t> selected;
};

// An element under the contract's total order: a larger (cls, score) is better, then the lower
// column. cls puts NaN above or below every number; smallest-first negates both.
struct Scored {
  double score;
  int32_t cls;
  int32_t column;
};

Scored score_of(uint32_t bits, int32_t column, DType dtype, bool largest, NanPolicy policy);
bool better(const Scored& a, const Scored& b);

// Row r's valid columns [begin, end) after clamping, and its clamped k.
struct RowRange {
  int64_t begin;
  int64_t end;
};
RowRange row_range(const Problem& problem, int64_t row);
int row_k(const Problem& problem, int64_t row);

uint32_t fill_value_bits(const Problem& problem);

// What the page-table epilogue writes for the selected index i of row r.
int64_t page_translate(const Problem& problem, int64_t row, int64_t index);

Result reference_topk(const Problem& problem);

}  // namespace deepselect::testing
