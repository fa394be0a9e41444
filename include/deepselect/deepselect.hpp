// DeepSelect JIT: exact, deterministic top-k on NVIDIA GPUs (C++ API).
// The contract is docs/api.md; argument errors throw ArgumentError before anything is launched.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace deepselect {

enum class DType : int { f32 = 0, bf16 = 1, f16 = 2 };
enum class IndexType : int { i32 = 0, i64 = 1 };
enum class Order : int { unsorted = 0, by_value = 1, by_index = 2 };
enum class NanPolicy : int { nan_is_largest = 0, nan_is_smallest = 1 };

// All pointers are device pointers. Optional ones may be null.
struct TopkArgs {
  const void* x = nullptr;  // rows x ld elements of dtype; any 2/4-byte aligned base
  DType dtype = DType::f32;
  int64_t rows = 0;
  int64_t n = 0;   // row capacity (columns)
  int64_t ld = 0;  // row stride in elements; 0 means n
  int k = 0;       // 1..4096; with k_per_row it is the output width and the largest row k
  const int32_t* k_per_row = nullptr;  // per-row k, clamped to [0, k]
  const int32_t* begin = nullptr;      // row r is x[r][begin[r] .. end[r])
  const int32_t* end = nullptr;
  bool largest = true;
  Order order = Order::unsorted;
  NanPolicy nan_policy = NanPolicy::nan_is_largest;

  void* indices = nullptr;  // rows x k, stride ld_idx
  IndexType index_type = IndexType::i32;
  int64_t ld_idx = 0;                // 0 means k
  void* values = nullptr;            // optional, dtype, stride ld_val
  int64_t ld_val = 0;                // 0 means k
  int64_t fill_index = -1;           // written into slots past the valid elements, never offset
  std::optional<double> fill_value;  // default: -inf when largest, +inf otherwise
  const int32_t* index_offset = nullptr;  // added to every selected index of row r
  int32_t* row_status = nullptr;          // bit 0: the row held a NaN

  // Decode row bounds, instead of begin/end: row r is x[r][0 .. seq_lens[r / next_n] - next_n
  // + r % next_n + 1), clamped to [0, n]. seq_lens holds one length per batch entry
  // (ceil(rows / next_n) of them); next_n is the number of query rows per batch entry.
  const int32_t* seq_lens = nullptr;
  int next_n = 1;

  // Page-table epilogue for sparse attention: each selected index i (after index_offset) is
  // written as page_table[b][i / page_size] * page_size + i % page_size, where b is
  // row_to_batch[r] (absent: r / next_n). An index, batch or page outside the table, or a
  // negative table entry, writes -1; fill slots keep fill_index.
  const int32_t* page_table = nullptr;  // page_table_rows x page_table_cols, stride ld_page_table
  int64_t page_table_rows = 0;
  int64_t page_table_cols = 0;
  int64_t ld_page_table = 0;  // 0 means page_table_cols
  int page_size = 0;
  const int32_t* row_to_batch = nullptr;
  void* raw_indices = nullptr;  // optional with page_table: the untranslated indices, like
  int64_t ld_raw = 0;           // `indices` (index_type); stride, 0 means k

  // Programmatic dependent launch (sm_90+; FlashInfer's enable_pdl): the call's kernel may start
  // while the previous kernel on the stream still runs, once that kernel allows it, and waits for
  // it to complete before it reads or writes any memory. It hides the gap between kernels (in a
  // stream or a CUDA graph), which decode steps of few rows feel. Whatever pdl says, the kernel
  // waits at its start, and a next kernel launched with PDL may start as its CTAs exit: pdl
  // decides only whether this launch may overlap the kernel before it.
  bool pdl = false;
};

// Every failure of the library; the message says what went wrong.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A bad argument, detected on the host before any launch. argument() names it.
class ArgumentError : public Error {
 public:
  ArgumentError(std::string argument, const std::string& message)
      : Error("deepselect: argument '" + argument + "': " + message),
        argument_(std::move(argument)) {}
  const std::string& argument() const { return argument_; }

 private:
  std::string argument_;
};

// Selects the top k of every row on `stream`, in its context from any thread (a default stream's
// is the current one), leaving the thread's current context as it was. Never synchronizes the
// host or allocates device memory; capturable in a CUDA graph.
void topk(const TopkArgs& args, CUstream stream);

// One problem shape to tune for.
struct TuneRequest {
  DType dtype = DType::f32;
  int64_t rows = 0;
  int64_t n = 0;
  int k = 0;
};

// Measures candidate kernels for these shapes on the current context's GPU (with inputs of
// its own) and stores the winners in this GPU's tuning table under the cache directory; the
// planner uses the table, for calls whose rows are full (tuning times full rows), in processes
// that start afterwards. Returns one report line per shape. Synchronizes and allocates: call it
// at setup, not on a serving path.
std::vector<std::string> tune(const std::vector<TuneRequest>& shapes, double budget_s = 120.0);

// Library version, "MAJOR.MINOR.PATCH".
const char* version();

}  // namespace deepselect
