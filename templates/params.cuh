// Kernel arguments, one struct shared by the host and the device so that both agree on layout.
#pragma once
#include "common.cuh"

namespace ds {

enum TopkFlags : u32 {
  kFlagLargest = 1u << 0,
  kFlagNanSmallest = 1u << 1,
  kFlagIndex64 = 1u << 2,
  kFlagOrderByValue = 1u << 3,
  kFlagOrderByIndex = 1u << 4,
};

// The values of deepselect::RowBounds, deepselect::Epilogue and deepselect::RowPath (src/spec.hpp).
enum RowBoundsKind { kBoundsRange = 0, kBoundsDecode = 1 };
enum EpilogueKind { kEpiloguePlain = 0, kEpiloguePageTable = 1 };
enum RowPathKind { kRowsAny = 0, kRowsWhole = 1, kRowsScanned = 2 };

struct TopkParams {
  const void* x;
  i64 ld;
  const int* k_per_row;
  const int* begin;
  const int* end;
  const int* index_offset;
  int* row_status;
  void* indices;
  i64 ld_idx;
  void* values;
  i64 ld_val;
  i64 fill_index;
  int rows;
  int n;
  int k;
  u32 fill_value_bits;
  u32 flags;
  u32 seed;
  // Decode bounds (kBoundsDecode).
  const int* seq_lens;
  int next_n;
  // Page-table epilogue (kEpiloguePageTable).
  int page_size;
  const int* page_table;
  i64 page_table_rows;
  i64 page_table_cols;
  i64 ld_page_table;
  const int* row_to_batch;
  void* raw_indices;
  i64 ld_raw;
};

struct ReadFloorParams {
  const void* x;
  i64 ld;
  const int* begin;
  const int* end;
  u32* sink;
  int rows;
  int n;
};

struct FillTestParams {
  u32* out;  // one record of 5 words per CTA
  int count;
};

}  // namespace ds
