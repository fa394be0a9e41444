/* DeepSelect JIT: exact, deterministic top-k on NVIDIA GPUs (C ABI, for other languages).
 * The same contract as deepselect.hpp; pointers are device pointers; stream is a CUstream. */
#ifndef DEEPSELECT_H
#define DEEPSELECT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { DS_F32 = 0, DS_BF16 = 1, DS_F16 = 2 };
enum { DS_INDEX_I32 = 0, DS_INDEX_I64 = 1 };
enum { DS_UNSORTED = 0, DS_BY_VALUE = 1, DS_BY_INDEX = 2 };
enum { DS_NAN_IS_LARGEST = 0, DS_NAN_IS_SMALLEST = 1 };

/* Return codes of ds_topk. */
enum { DS_OK = 0, DS_ERROR_ARGUMENT = 1, DS_ERROR_RUNTIME = 2 };

/* Fields may be appended before version 1.0: build against the header of the library you load,
 * and fill the struct with ds_topk_args_init first (a zeroed struct has next_n 0, an error). */
typedef struct ds_topk_args {
  const void* x;
  int32_t dtype;
  int64_t rows;
  int64_t n;
  int64_t ld; /* 0 means n */
  int32_t k;
  const int32_t* k_per_row;
  const int32_t* begin;
  const int32_t* end;
  int32_t largest; /* nonzero: largest */
  int32_t order;
  int32_t nan_policy;
  void* indices;
  int32_t index_type;
  int64_t ld_idx; /* 0 means k */
  void* values;
  int64_t ld_val; /* 0 means k */
  int64_t fill_index;
  int32_t has_fill_value; /* zero: -inf for largest, +inf for smallest */
  double fill_value;
  const int32_t* index_offset;
  int32_t* row_status;
  /* Decode row bounds (instead of begin/end): row r is [0, seq_lens[r / next_n] - next_n +
   * r % next_n + 1). next_n: 1 by default. */
  const int32_t* seq_lens;
  int32_t next_n;
  /* Page-table epilogue: indices become page_table[b][i / page_size] * page_size +
   * i % page_size with b = row_to_batch[r] (NULL: r / next_n); raw_indices (optional) gets
   * the untranslated ones. */
  const int32_t* page_table;
  int64_t page_table_rows;
  int64_t page_table_cols;
  int64_t ld_page_table; /* 0 means page_table_cols */
  int32_t page_size;
  const int32_t* row_to_batch;
  void* raw_indices;
  int64_t ld_raw; /* 0 means k */
  /* Nonzero: programmatic dependent launch (TopkArgs::pdl in deepselect.hpp says what it does). */
  int32_t pdl;
} ds_topk_args;

/* Sets every field to its default (largest, unsorted, int32, fill_index -1, next_n 1, ...). */
void ds_topk_args_init(ds_topk_args* args);

/* sizeof(ds_topk_args) as this library was built: a caller built against another version's
 * header (whose struct may lack appended fields) checks it before ds_topk_args_init. */
size_t ds_topk_args_size(void);

/* Runs top-k on stream (a CUstream; NULL for the current context's default stream).
 * Returns DS_OK, or an error code with the message in ds_last_error(). */
int ds_topk(const ds_topk_args* args, void* stream);

/* The message of this thread's last ds_topk call when it failed ("" after a success: every call
 * clears it). The pointer holds until this thread's next ds_topk call; bindings whose tasks move
 * between threads (goroutines, async runtimes) read it on the calling thread right after. */
const char* ds_last_error(void);
/* For DS_ERROR_ARGUMENT: the name of the bad argument ("" otherwise), held as ds_last_error's. */
const char* ds_last_error_argument(void);

const char* ds_version(void);

#ifdef __cplusplus
}
#endif

#endif /* DEEPSELECT_H */
