// One GPU test case: a compact description, drawn at random or written by hand, from which the
// input data and the reference problem are generated.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "data_gen.hpp"
#include "reference.hpp"

namespace deepselect::testing {

enum class Bounds {
  full,        // no begin/end arrays
  ragged,      // both arrays; rows full, partial, short, empty, or with bad bounds
  begin_only,  // only begin
  end_only,    // only end
  decode,      // seq_lens and next_n; lengths full, partial, shorter than k, empty or bad
};

// The thread that calls topk: this one, whose current context made the buffers, or a new one
// whose current context is none, or another context of the same GPU (both need own_stream).
enum class Caller { this_thread, thread_without_context, thread_with_other_context };

// How the call lays out its device buffers; the reference does not depend on it.
struct Layout {
  IndexType index_type = IndexType::i32;
  bool values = true;
  bool row_status = true;
  int64_t ld_idx = 0;  // 0 means k
  int64_t ld_val = 0;
  bool raw_indices = false;  // with a page table: also write the untranslated indices
  int64_t ld_raw = 0;
  int x_shift = 0;  // elements between the allocation and x: 1 makes x unaligned
  bool own_stream = false;
  Caller caller = Caller::this_thread;
  bool pdl = false;  // programmatic dependent launch
};

struct CaseSpec {
  uint64_t seed = 1;
  DType dtype = DType::f32;
  int64_t rows = 1;
  int64_t n = 1;
  int64_t ld = 0;
  int k = 1;
  std::optional<Dist> dist;  // absent: each row draws its own
  Bounds bounds = Bounds::full;
  int next_n = 1;           // rows per batch entry: decode bounds and the page table's rows
  bool page_table = false;  // translate the indices through a random page table
  bool row_to_batch = false;
  bool per_row_k = false;
  bool index_offset = false;
  bool largest = true;
  Order order = Order::unsorted;
  NanPolicy nan_policy = NanPolicy::nan_is_largest;
  int64_t fill_index = -1;
  std::optional<double> fill_value;
  Layout layout;
};

// One line with every parameter, to reproduce a failure by hand.
std::string describe(const CaseSpec& spec);

// Case `index` of a randomized suite. Every kSpecPeriod consecutive indices cover each n choice
// (1, k-1, k, k+1, 4097, 129280, 131072, 1048576) with each rows choice (1, 3, 132, 1024,
// lowered where rows * ld would pass ~20M elements) for each dtype; the rest is drawn.
inline constexpr int kSpecPeriod = 8 * 4 * 3;
CaseSpec random_spec(uint64_t suite_seed, int index);

// The inputs on the host: data of the case's distribution inside each row's valid range, NaN
// garbage everywhere else (columns before begin, past end, past n).
Problem make_problem(const CaseSpec& spec);

}  // namespace deepselect::testing
