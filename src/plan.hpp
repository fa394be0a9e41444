// The planner: which kernel spec and launch shape serve a problem.
#pragma once

#include <cstdint>
#include <vector>

#include "spec.hpp"

namespace deepselect {

// The most CTAs that share one row (a non-portable cluster size: see kMaxPortableCluster).
constexpr int kMaxCluster = 16;

class TuningTable;

// What the planner needs to know of the GPU.
struct DeviceInfo {
  Arch arch;
  int sm_count = 132;
  const TuningTable* tuning = nullptr;  // this GPU's tuning table, if one was measured
  // The most CTAs the planner may split a row over: topk() plans again with half as many while
  // the GPU cannot hold all of a call's clusters at once.
  int largest_cluster = kMaxCluster;
};

// Whether every row of a call spans its n columns, or some may end sooner (begin / end arrays,
// decode bounds): the planner splits rows wider where it measured full ones only.
enum class RowLengths : int { full, bounded };

// The path the planner builds spec for, over rows of up to n columns (all n long where
// full_rows): whole for an 8- or 16-CTA kernel that holds every such row whole, scanned for a
// lone 16-bit CTA, a lone f32 256-thread CTA at B = 8192 (k <= 2048) or an f32 2-CTA cluster over
// full rows it holds no part of whole, else any.
RowPath row_path_for(const KernelSpec& spec, int64_t n, bool full_rows);

// Whether a call's rows all span n: `lengths` says so and no decode bounds cut them. The planner
// takes wide clusters and the tuning table's choices (timed on full rows) only for such rows.
bool spans_full_rows(RowBounds bounds, RowLengths lengths);

// The spec for dtype and runtime k (1..4096) over `rows` rows of `n` columns on device: the
// smallest k bucket holding k, and a cluster of CTAs per row when the rows alone cannot fill
// the GPU; then, for full rows (those that tuning times), the tuning table's choice for the
// shape's bucket, if it has one; then DEEPSELECT_PLAN_OVERRIDE (which cannot change bounds and
// epilogue: they are the call's); then the row path (row_path_for), unless the override gives
// one: rows=whole on a kernel that does not hold rows of n columns whole throws ArgumentError
// naming DEEPSELECT_PLAN_OVERRIDE.
// Decode bounds make the rows' lengths bounded whatever `lengths` says (spans_full_rows).
KernelSpec plan_spec(DType dtype, int k, int64_t rows, int64_t n, const DeviceInfo& device,
                     RowBounds bounds = RowBounds::range, Epilogue epilogue = Epilogue::plain,
                     RowLengths lengths = RowLengths::full);

// A call's options that select a kernel variant.
struct KernelOptions {
  RowBounds bounds = RowBounds::range;
  Epilogue epilogue = Epilogue::plain;
};

// The options `precompile` builds for dtype and k bucket: plain for every one; also decode
// bounds and the page table, alone and together, for the sparse-attention indexer's buckets
// (f32 and bf16 at k_max 2048). Other combinations compile on first use.
std::vector<KernelOptions> precompiled_options(DType dtype, int k_bucket);

// What `precompile` builds by default for arch: every spec plan_spec can return, for each
// dtype and k bucket with its precompiled_options.
std::vector<KernelSpec> planner_specs(Arch arch);

// The k buckets, ascending.
const std::vector<int>& k_buckets();

}  // namespace deepselect
