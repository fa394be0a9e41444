#include "plan.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tuning_table.hpp"

namespace deepselect {

const std::vector<int>& k_buckets() {
  static const std::vector<int> buckets = {64, 256, 512, 1024, 2048, 4096};
  return buckets;
}

namespace {

// The largest k bucket that splits a row over kMaxCluster CTAs.
constexpr int kLargestWideClusterK = 2048;

// Full f32 rows of more than 65,536 columns that 16-CTA clusters split over at most all the SMs
// (topk() plans smaller clusters again where the GPU's layout holds fewer at once: eight rows
// ran in two waves on the H200, +75%): halving each CTA's part of the row (more than 8,192 columns
// on 8 CTAs) saves more than the wider gather costs, which for 16-bit rows, half the bytes a part,
// it does not. Measured on the H200 against 8-CTA clusters
// (bench/results/2026-12-03-h200-select/v73-v75): 5 / 6 / 7 x 131072 k = 2048 12.8-13.0 ->
// 11.1-11.3 us (-13%, relu_ties -13%, ascending -34%); 6 x 131072 k = 512 / 1024 -13..-15%
// (ascending -8 / -12%); 7 x 129280 k = 50 -25% (relu_ties -35%, ascending +4%), k = 256 -11%
// (relu_ties +13%, ascending -3%); 6 x 81920 / 98304 / 262144 k = 2048 -12.7 / -12.4 / -17%;
// 5 x 151936 k = 1024 -9.5% (ascending +10%); 6 x 100003 k = 700 -10% (ascending +16.5%). Not
// taken: 6 x 65536 (+8%), 16-bit rows (5-7 x 131072 bf16 k = 512 +8..10%, k = 64 +11%), rows of
// unknown lengths (6 x 131072 ragged 1..n, k = 2048: +11%, relu_ties +62%).
bool wide_f32_rows(DType dtype, int64_t rows, int64_t n, bool full_rows, const DeviceInfo& device) {
  return dtype == DType::f32 && full_rows && n > 65536 && rows * kMaxCluster <= device.sm_count;
}

// The smallest power of two that gives half the SMs a CTA, at most kMaxPortableCluster.
// Measured on the H200 (bench/results/NOTES.md): 64 rows ran fastest with 2 CTAs per row, 1 row
// with 8; larger clusters lost on more rows (measured when CTA 0 still merged the peers
// serially). Rows that 16-CTA clusters split over at most half the SMs take them at k <= 2048,
// where each CTA's part of the row outweighs the larger cluster's gather: 1 row of 131072 at
// k = 50 / 256 / 1024 18.7 / 16.4 / 17.7 -> 15.4 / 15.5 / 16.9 us, 4 rows 19.9 / 17.0 / 18.0 ->
// 16.9 / 16.1 / 17.4 (bench/results/2026-12-02-h200-cluster16); at k = 2048, since the peers
// store their candidates into CTA 0, 1 / 2 / 4 rows 13.83 / 14.16 / 14.39 -> 13.39 / 13.76 /
// 14.06 us (bench/results/2026-12-03-h200-select/v10); 8 rows of 65536 lost, 13.05 -> 21.48.
// Full f32 rows of more than 65,536 columns take them on up to all the SMs (wide_f32_rows). No
// cluster takes more CTAs than device.largest_cluster, which topk() lowers where the GPU cannot
// hold a call's clusters at once.
int cluster_for(DType dtype, int k_max, int64_t rows, int64_t n, bool full_rows,
                const DeviceInfo& device) {
  const int largest_portable = std::min(kMaxPortableCluster, device.largest_cluster);
  int cluster = 1;
  while (cluster < largest_portable && rows * cluster * 2 < device.sm_count) cluster *= 2;
  const bool wide = device.largest_cluster >= kMaxCluster && k_max <= kLargestWideClusterK &&
                    (rows * kMaxCluster * 2 <= device.sm_count ||
                     wide_f32_rows(dtype, rows, n, full_rows, device));
  return cluster == kMaxPortableCluster && wide ? kMaxCluster : cluster;
}

// DEEPSELECT_PLAN_OVERRIDE="B=8192 stages=4": fields that replace the planner's choice in
// every plan, for measuring candidate specs; the fields it does not give keep the planner's (so
// `cluster=1` on rows the planner gives 2-CTA f32 clusters keeps their stages), and the thread
// count, B and the row path, unless it gives them, follow the overridden kernel.
// Read once per process.
const std::string& plan_override() {
  static const std::string text = [] {
    const char* value = std::getenv("DEEPSELECT_PLAN_OVERRIDE");
    return std::string(value != nullptr ? value : "");
  }();
  return text;
}

// Whether the override gives the field `name` (as in "name=value"), which then stands; a field
// it does not give and that follows the kernel (the thread count, B, the row path) the planner
// derives again for the overridden kernel.
bool override_gives(std::string_view name) {
  static const std::vector<std::string> given = [] {
    std::vector<std::string> names;
    for (std::string_view field : spec_fields(plan_override()))
      names.emplace_back(field.substr(0, field.find('=')));
    return names;
  }();
  return std::ranges::find(given, name) != given.end();
}

// A row split over a cluster leaves at most one CTA per SM, so a CTA may take a larger buffer
// at no cost in occupancy. At k = 2048 with up to four CTAs per row, B2 = 4096 means fewer
// compactions: measured on the H200 (bench/results/2026-11-30-h200-split-defaults): dsa-decode-b1
// 63 -> 57 us, -b8 53 -> 46, and relu_ties and ascending rows faster too. Larger blocks (B = 8192),
// which tuning also picks for two CTAs per row on normal data, made ascending rows 1.4x slower.
// With 8-CTA clusters (5 to 16 rows) at k <= 2048, B2 = 16384 lets each CTA hold its whole
// part of a row of up to 8 x (k + 20480) columns (at most 208 KB of shared memory for f32), and
// the kernel then skips the scan and selects once over the cluster's parts: dsa-decode-b1 51 ->
// 36 us (bench/results/2026-11-30-h200-resident-rows); 8 rows of 131072 at k = 64 / 256 / 1024
// (normal) 20.0 / 17.5 / 18.4 -> 16.1 / 16.8 / 17.5 us, dsa-bf16-b6 (k = 512) 19.6 -> 17.9
// (bench/results/2026-12-02-h200-cluster16, v5 and v7). 16-CTA clusters keep the default below
// k = 2048: whole parts gained 2-4% on normal rows there and lost 1-5% on ascending ones. At
// k = 2048 their B2 = 4096 holds a part of 8,192 columns whole with a misaligned head's vector
// too (aligned rows timed the same with 2048 and 4096: 2026-12-03-h200-select/v10).
void larger_buffer_when_split(KernelSpec& spec) {
  if (spec.cluster == kMaxPortableCluster && spec.k_max <= 2048) {
    spec.block2 = 16384;
  } else if (spec.cluster > 1 && spec.k_max == 2048) {
    spec.block2 = 4096;
  }
}

// The buffer, in words, of spec's kernel at `threads` threads (a lone CTA's grows with them).
int buffer_words_at(KernelSpec spec, int threads) {
  spec.threads = threads;
  return spec.buffer_words();
}

// Whether a lone CTA scans rows of n columns: neither of its buffers, at 256 or 512 threads, holds
// them.
bool lone_cta_scans(const KernelSpec& spec, int64_t n) {
  return n > buffer_words_at(spec, 512);
}

// A lone CTA that scans its rows runs 256 threads, 16 elements each per scan step, which halves
// the step's fixed cost per element (its block-wide scan and barrier, the load's addresses).
// Measured on the H200 (bench/results/NOTES.md, Change 29): dsa-prefill-128k -4.4%,
// dsa-bf16-b256 -13..-21%, sample-b256 -6%. It takes a row whole (one load, one select) when the
// row's 16-byte aligned view fits its buffer (templates/topk_kernel.cuh resident_fits, which a
// call's aligned rows of up to n columns do here). Rows that only the 512-thread buffer holds run
// 512, taken whole at two CTAs per SM rather than scanned at three; rows the 256-thread buffer
// holds run 256, three CTAs per SM. Measured on the H200 at k = 2048, 2048 rows
// (bench/results/2026-12-02-h200-occupancy/v3): 6144 columns 512 whole 114 us, 256 scanning
// 131; 4096 columns 512 whole 73 us, 256 whole 59. A cluster's CTAs run 512 for their selects.
int threads_for(const KernelSpec& spec, int64_t n) {
  if (spec.cluster > 1) return 512;
  return n <= buffer_words_at(spec, 256) || lone_cta_scans(spec, n) ? 256 : 512;
}

// Rows of 131,072+ columns that fit two CTAs per SM (rows <= 2 x SMs): a lone CTA may scan them
// with more shared memory at no cost in occupancy (block_for, paired_blocks_when_scanning), and
// they are long enough that a scan step's fixed part outweighs a short row's first blocks.
bool long_rows_in_one_wave(int64_t rows, int64_t n, const DeviceInfo& device) {
  return n >= 131072 && rows <= 2 * static_cast<int64_t>(device.sm_count);
}

// A scan step's fixed part (the block-wide scan and barrier, the block order, the loads'
// addresses) outweighs the classify of few elements, so B = 8192 where it gives a thread more
// of them per step and fits: a lone 256-thread CTA over 16-bit elements (32 each, all that a
// step's 32-bit masks hold), and the 512-thread CTAs of clusters of 2, 4 and 16 (16 each). An
// 8-CTA cluster's buffer (B2 = 16384 to hold its parts whole) leaves no room for larger blocks.
// Measured on the H200 (bench/results/2026-12-02-h200-blocks, v1 and v2): dsa-bf16-b256 k = 512
// / 1024 / 2048 normal 51.3 / 53.7 / 59.1 -> 42.0 / 44.5 / 50.2 us, relu_ties -15..-17%,
// ascending -8..-11%; dsa-decode-b64 (2-CTA clusters) -7.4%, ascending -8.5%; sample-b64 -6%;
// sample-b1 (16-CTA clusters) -5.3%, ascending +1.2%. Not taken: 512-thread lone CTAs at B = 8192
// (nothing), 16-bit lone CTAs at 64 elements per thread (B = 16384 at 256 threads: k = 2048 +34%
// for its shared memory; 128 threads at B = 8192: +10..16%).
// A lone 256-thread CTA over f32 takes B = 8192 too (32 elements each, 104 KB of shared memory at
// k = 2048: two CTAs per SM, not three) where that costs no occupancy, since the rows fit two
// CTAs per SM anyway, and where its rows are long (>= 131,072 columns), since a short row's
// first blocks pass the filter whole, more than the buffer holds past k + B2. Measured on the
// H200 against B = 4096 (bench/results/2026-12-03-h200-select/v64): sample-b256 (256 x 151936,
// k = 1024) 54.0 -> 50.4 us (-6.2..-6.6%, every distribution), 256 x 151936 k = 50 -4%, 256 x
// 262144 k = 1024 -6% (ascending -2.5%), 264 x 131072 k = 2048 -3..-4.5%. Not taken (v63):
// dsa-decode-b256 (rows of 1..32,768 columns: +18%, relu_ties +35%), dsa-prefill-128k (1,024
// rows: within 0.2%); k = 4096 (112 KB: one CTA per SM).
int block_for(const KernelSpec& spec, int64_t rows, int64_t n, const DeviceInfo& device) {
  if (spec.cluster > 1) return spec.cluster == kMaxPortableCluster ? 4096 : 8192;
  if (spec.threads != 256) return 4096;
  const bool long_f32_rows = long_rows_in_one_wave(rows, n, device) && spec.k_max <= 2048;
  return dtype_bytes(spec.dtype) == 2 || long_f32_rows ? 8192 : 4096;
}

// B2 of a lone CTA that scans its rows, where it is not the default's (rows it takes whole keep
// their buffer: a smaller one would scan them, 2048 x 4000 at k = 1000 +30%).
// - f32 at k = 513..1024 compacts at k + 1024, not k + 2048: the smaller select more than pays
//   for the more frequent compactions. Measured on the H200 against B2 = 2048
//   (bench/results/2026-12-02-h200-blocks/v13/b2): sample-b256 (256 x 151936, k = 1024) 70.5 ->
//   66.1 us, relu_ties and ascending -5%; 256 rows of 16384 / 65536 / 262144 at k = 1000 -3 / -4
//   / -4% (ascending -3 / -9 / -4%); 1024 x 32768 at k = 600 -15%. Not taken: 16-bit elements
//   (dsa-bf16-b256 k = 1024 +2..3%), k = 2048 (256 x 131072 ascending +5%, 512 x 20000 +2.5%).
// - 16-bit elements at k = 1025..2048 in rows of at least 131,072 columns compact at k + 4096:
//   the candidates that beat the sample's threshold (a normal row keeps ~3,600 of 131,072 and
//   ~4,400 of 262,144; more where the threshold's key ties) then wait for the final select, where
//   at k + 2048 they took a compaction during the scan as well. 96 KB of shared memory against
//   80 still fits two CTAs per SM. Measured on the H200 against B2 = 2048
//   (bench/results/2026-12-03-h200-select/v46): dsa-bf16-b256 k = 2048 normal 42.9 -> 40.9 us,
//   relu_ties -4.8%, ascending +1%; 256 x 131072 f16 -4.9 / -6% / +1%. Not taken: shorter rows,
//   whose ~3,100 (65,536) or fewer candidates never reach k + 2048 (512 x 32768 +2%, 1024 x
//   16384 +0.3%), and k <= 1024 (dsa-bf16-b256 k = 1024 +2%, k = 512 +1%: v45).
void buffer_when_scanning(KernelSpec& spec, int64_t n) {
  if (spec.cluster > 1 || !lone_cta_scans(spec, n)) return;
  const bool narrow = dtype_bytes(spec.dtype) == 2;
  if (!narrow && spec.k_max == 1024) spec.block2 = 1024;
  if (narrow && spec.k_max == 2048 && n >= 131072) spec.block2 = 4096;
}

// A lone CTA that scans long 16-bit rows (>= 131,072 columns) at k <= 1024 stages four blocks and
// filters them two per block-wide scan (templates/topk_kernel.cuh kBlocksPerScan): half the
// steps' barriers, for 32 KB more of stages, so it takes them where its rows fit two CTAs per
// SM anyway (rows <= 2 x SMs; three fit with two stages). Measured on the H200 against one block
// per scan (bench/results/2026-12-03-h200-select/v68): dsa-bf16-b256 k = 512 / 1024 normal -4.3
// / -3.2%, relu_ties -3.0 / -2.7%, ascending +1 / +0.8%. Not taken: k = 2048 (four stages fit
// two CTAs per SM only with B2 = 1024: +1%, ascending +5%, 256 x 262144 ascending +9%), one CTA
// per SM or short rows, where the wait on both blocks' copies outweighs the barrier saved (128
// x 65536 k = 1024 +3%, 200 x 40000 k = 256 +1..5%).
void paired_blocks_when_scanning(KernelSpec& spec, int64_t rows, int64_t n,
                                 const DeviceInfo& device) {
  // Such a CTA scans these rows: at k <= 1024 its buffer holds at most 5,120 words.
  const bool lone_narrow_cta =
      spec.cluster == 1 && spec.threads == 256 && dtype_bytes(spec.dtype) == 2;
  if (lone_narrow_cta && spec.k_max <= 1024 && long_rows_in_one_wave(rows, n, device)) {
    spec.stages = 4;
  }
}

// A 2-CTA cluster over f32 rows at k <= 512 stages four blocks where the clusters take more than
// seven eighths of the SMs: cluster_for gives two CTAs a row only where they leave at most one CTA
// per SM, whose shared memory then holds the buffer and four stages of B = 8192 (at most 212 KB),
// so the scan keeps three blocks in flight. Measured on the H100 (bench/results/2026-12-03-h200-
// select/v104, the tuner's candidates, and v105): sample-b64 (64 x 129280, k = 512, by value)
// -3.8..-5.5% on normal, relu_ties and ascending rows, 64 x 129280 at k = 50 (by value) and
// k = 200 -5..-8%. Against two stages on 131,072 columns at k = 64 / 512 (v116-v117): four lose at
// 31-40 rows (+1.3..+6.7%), three win from 44 rows (-0.9..-2.6%; the rule takes them from 45,
// as at k = 1024 and 2048) and beat four up to 52 rows;
// at 56 rows they tie (four -2.8..-4.9%, three -3.4..-4.7%), at 60 and 64 four win (-4.2..-6.2%).
// This rule against four stages everywhere (v118): 31-52 rows 0..-5.6% (44 rows 0..-1.3%; ragged
// rows and by value alike), 56 rows -1.7..+1.2%.
// Below that, and at k = 1024 and 2048 (four stages pass an SM's shared memory at k = 2048; at
// k = 1024 they fit and did not pay: v118, 56-64 rows -1.0..+3.2%), the third stage pays only
// where the clusters stream over more than two thirds of the SMs at once, and on full rows.
// Measured on the H100 (v106-v109, three stages against two on 131,072 f32 columns): 48 / 56 / 64
// rows at k = 1024 -3.3 / -4.8 / -5.0% (ascending -3.5 / -4.2 / -4.5%), at k = 2048 -0.2 / -2.5 /
// -2.1% (ascending -1.1 / -0.7 / -1.6%), dsa-decode-b64 -2.3..-2.9%; but 33 / 40 rows (66 / 80
// CTAs) at k = 2048 +1.9 / +1.5% (ascending +3.3 / +1.9%) and 64 ragged rows (lengths 1..n) at
// k = 2048 +1.5%, ascending +2.4%. 16-bit rows: not measured past k = 1024's 64 rows (within 1%).
//
// A 4-CTA cluster (on 132 SMs, 16-32 rows) stages three blocks on full f32 rows at k <= 1024.
// Measured on the H100 (v110-v111, v113-v114, three stages against two on 131,072 columns, k = 50
// to 1024): 17 / 20 / 22 / 24 / 26 / 28 / 30 rows -0.7..-1.4 / -0.7..-2.4 / -1.6..-3.3 /
// -2.2..-3.5 / -2.8..-4.9 / -4.5..-5.9 / -4.6..-7.2%; four stages lost at 20 rows (+0.2..+2.0%)
// and gained less than three at 26 and 30; this rule (v115): 16 (halved 8-CTA clusters) / 17 /
// 20 / 24 / 28 / 30 rows -0.3..-1.3 / -0.4..-1.4 / -0.8..-2.2 / -2.5..-4.1 / -4.4..-5.9 /
// -4.5..-6.5%. Not taken: k = 2048 (17-24 rows +1.8..-1%, 30 rows -1.5%), ragged rows (k = 512
// +1.0..+1.6%, k = 2048 +1.1%).
void deeper_stages_in_small_clusters(KernelSpec& spec, int64_t rows, bool full_rows,
                                     const DeviceInfo& device) {
  if (dtype_bytes(spec.dtype) != 4) return;
  const int64_t sms = device.sm_count;
  if (spec.cluster == 2 && spec.k_max <= 512 && 16 * rows > 7 * sms) {
    spec.stages = 4;
  } else if (spec.cluster == 2 && spec.k_max <= 2048 && full_rows && rows * 3 > sms) {
    spec.stages = 3;
  } else if (spec.cluster == 4 && spec.k_max <= 1024 && full_rows) {
    spec.stages = 3;
  }
}

}  // namespace

// The 8- and 16-CTA kernels, which serve few rows, hold rows of up to ~130,000-230,000 columns
// whole (resident_part.cuh); for such rows their scan is code no row executes, and built without
// it they ran 6-9% faster: dsa-decode-b1 10.31 -> 9.67 us on the H200 (10.83 -> 10.08 on the
// H100), sample-b1 -6..-8%, dsa-decode-b8 -6%, dsa-bf16-b6 -7..-9%
// (bench/results/2026-12-03-h200-select/v125-v126).
// Conversely a lone CTA scans every full row longer than its buffer, and over 16-bit rows, built
// without its resident load (-22..-27% of its instructions), it ran them faster. Measured on
// H100s against the kernel with it (v128, v129): dsa-bf16-b256 k = 512 / 1024 / 2048
// -2.5..-4.2 / -2.8..-4.7 / -2.1..-3.4%; 1024 x 32768 bf16 k = 2048 -3.9..-5.4%, 4096 x 8192
// bf16 k = 512 -1.4..-2.3%, 256 x 131072 f16 k = 64 -2.1..-4.2%, 200 x 262144 bf16 k = 4096
// -0.6..-1.7%. So did f32 2-CTA clusters over full rows whose halves pass their buffer (from
// ~18,600 columns at k <= 256, ~28,700 at k = 2048; measured from 129,280 on, at three and four
// stages: v134, H100): dsa-decode-b64 -0.8..-1.2% (ascending -0.5..+0.3%), sample-b64
// -0.7..-1.3%, 49 x 131072 at k = 1024 -1.6..-1.9%; at two stages and on shorter rows (v136,
// H100) 40 x 131072 k = 64 / 1024 / 4096 -0.6..-1.8%, 40 x 65536 k = 512 -0.3..-1.7%,
// 64 x 24000 k = 64, 64 x 32768 k = 256, 64 x 49152 k = 2048 and 56 x 100000 k = 1024
// -0.9..-3.1%. So did lone 256-thread f32 CTAs at B = 8192 up to k = 2048 (which block_for plans
// for rows of >= 131,072 columns in one wave; -23% of their instructions, no local memory either
// way; v136, H100): sample-b256 -0.6..-2.1%, 200 x 131072 k = 2048 -1.4..-2.4%, 150 x 262144
// k = 512 -0.7..-1.8%. Not taken: 16-bit 2-CTA clusters (64 x 131072 bf16: k = 64 +0.6..+1.1%,
// its twin spilling; k = 2048 within 0.2%), lone f32 CTAs at B = 4096 (the 80-register one at
// k = 2048 spilled without it, dsa-prefill-128k +2.2..+2.6%), and rows of unknown lengths, short
// ones among them, which the resident load takes faster.
namespace {
bool ran_faster_scanned(const KernelSpec& spec) {
  if (dtype_bytes(spec.dtype) == 2) return spec.cluster == 1;
  const bool long_row_lone_cta =
      spec.cluster == 1 && spec.threads == 256 && spec.block == 8192 && spec.k_max <= 2048;
  return spec.cluster == 2 || long_row_lone_cta;
}
}  // namespace

RowPath row_path_for(const KernelSpec& spec, int64_t n, bool full_rows) {
  if (spec.kind != KernelKind::topk) return RowPath::any;
  if (spec.cluster >= kMaxPortableCluster && spec.holds_rows_whole(n)) return RowPath::whole;
  const bool scans_every_row = full_rows && spec.holds_no_row_whole(n);
  return scans_every_row && ran_faster_scanned(spec) ? RowPath::scanned : RowPath::any;
}

bool spans_full_rows(RowBounds bounds, RowLengths lengths) {
  return lengths == RowLengths::full && bounds == RowBounds::range;
}

KernelSpec plan_spec(DType dtype, int k, int64_t rows, int64_t n, const DeviceInfo& device,
                     RowBounds bounds, Epilogue epilogue, RowLengths lengths) {
  KernelSpec spec;
  spec.kind = KernelKind::topk;
  spec.dtype = dtype;
  spec.bounds = bounds;
  spec.epilogue = epilogue;
  spec.arch = device.arch;
  spec.stages = 2;
  spec.k_max = k_buckets().back();
  for (int bucket : k_buckets()) {
    if (k <= bucket) {
      spec.k_max = bucket;
      break;
    }
  }
  const bool full_rows = spans_full_rows(bounds, lengths);
  spec.cluster = cluster_for(dtype, spec.k_max, rows, n, full_rows, device);
  // Small enough for two CTAs per SM (at most ~110 KB of shared memory each), which measured
  // 1.35x faster than one CTA with a larger B2 at k = 2048.
  spec.block2 = spec.k_max <= 256 || spec.k_max == 4096 ? 1024 : 2048;
  larger_buffer_when_split(spec);
  spec.threads = threads_for(spec, n);
  buffer_when_scanning(spec, n);
  spec.block = block_for(spec, rows, n, device);
  paired_blocks_when_scanning(spec, rows, n, device);
  deeper_stages_in_small_clusters(spec, rows, full_rows, device);
  // The tuner times full rows, whose best kernel may lose on rows of other lengths
  // (bench/results/2026-12-03-h200-select/v104: its choices for dsa-decode-b256 and
  // dsa-prefill-8k, timed on full rows, ran their ragged rows 22-33% and 4% slower). A choice
  // replaces only the default it beat: after a planner change, a table made before it would
  // otherwise pin the old plan (v105: sample-b64 at two stages, 5% slower than four).
  if (device.tuning != nullptr && full_rows) {
    const ShapeBucket bucket =
        ShapeBucket::of(dtype, spec.k_max, std::max<int64_t>(rows, 1), std::max<int64_t>(n, 1));
    const TunedChoice* choice = device.tuning->find(bucket);
    if (choice != nullptr && choice->planned == LaunchShape::of(spec))
      spec = choice->tuned.apply(spec);
  }
  if (!plan_override().empty()) {
    // The override picks a kernel; the call's row bounds and epilogue are not its to change, and
    // the thread count and then B, unless it gives them, follow the overridden buffer and cluster.
    spec = KernelSpec::parse(plan_override(), spec);
    if (!override_gives("threads")) spec.threads = threads_for(spec, n);
    if (!override_gives("B")) spec.block = block_for(spec, rows, n, device);
    spec.bounds = bounds;
    spec.epilogue = epilogue;
  }
  if (override_gives("rows")) {
    spec.require_rows_held(n, "DEEPSELECT_PLAN_OVERRIDE");
  } else {
    spec.row_path = row_path_for(spec, n, full_rows);
  }
  return spec;
}

std::vector<KernelOptions> precompiled_options(DType dtype, int k_bucket) {
  constexpr int kIndexerBucket = 2048;
  if (dtype == DType::f16 || k_bucket != kIndexerBucket) return {KernelOptions{}};
  return {{RowBounds::range, Epilogue::plain},
          {RowBounds::decode, Epilogue::plain},
          {RowBounds::range, Epilogue::page_table},
          {RowBounds::decode, Epilogue::page_table}};
}

std::vector<KernelSpec> planner_specs(Arch arch) {
  std::vector<KernelSpec> specs;
  // Row counts 16, 15, 12, 8, 4, 2, 1 on a GPU of 2 * kMaxCluster SMs yield clusters 1, 2 (over
  // seven eighths of the SMs, three quarters and half: deeper_stages_in_small_clusters), 4, 8 and
  // 16 (8 at k buckets above kLargestWideClusterK; 16 at 2 rows too where they are full f32 rows:
  // wide_f32_rows, so both lengths), and more rows than fit two CTAs per SM the lone CTAs that
  // block_for keeps at B = 4096 and paired_blocks_when_scanning at two stages; long, short and
  // medium rows (the 512-thread buffer's length) give a lone CTA's kernels: scanning at 256
  // threads, whole at 256 and 512 (threads_for, buffer_when_scanning, block_for,
  // paired_blocks_when_scanning); a column more, the shortest full rows it scans with the
  // buffer of rows under 131,072 columns; and full long rows, the 16-bit lone CTAs', the lone f32
  // B = 8192 CTAs' and the f32 2-CTA clusters' kernels without their resident load (row_path_for).
  const DeviceInfo device{arch, 2 * kMaxCluster};
  constexpr int64_t kLongRow = int64_t(1) << 31;
  constexpr int64_t kShortRow = 1;
  const std::vector<int> row_counts = {2 * device.sm_count + 1, kMaxCluster,     kMaxCluster - 1,
                                       kMaxCluster * 3 / 4,     kMaxCluster / 2, kMaxCluster / 4,
                                       kMaxCluster / 8,         kMaxCluster / 16};
  for (DType dtype : {DType::f32, DType::bf16, DType::f16}) {
    for (int bucket : k_buckets()) {
      for (const KernelOptions& options : precompiled_options(dtype, bucket)) {
        for (int rows : row_counts) {
          const int64_t medium_row = buffer_words_at(
              plan_spec(dtype, bucket, rows, kShortRow, device, options.bounds, options.epilogue),
              512);
          for (int64_t n : {kLongRow, kShortRow, medium_row, medium_row + 1}) {
            for (RowLengths lengths : {RowLengths::bounded, RowLengths::full}) {
              const KernelSpec spec = plan_spec(dtype, bucket, rows, n, device, options.bounds,
                                                options.epilogue, lengths);
              if (std::find(specs.begin(), specs.end(), spec) == specs.end()) specs.push_back(spec);
            }
          }
        }
      }
    }
  }
  return specs;
}

}  // namespace deepselect
