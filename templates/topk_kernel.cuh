// DeepSelect top-k, one cluster of kCluster CTAs per row. A sample of the row (sample_keep.cuh)
// sets the first threshold; then the row is scanned in blocks of kB elements, the first block
// first and the rest in a fixed pseudo-random order (BlockOrder); elements better than the
// threshold are appended to a shared-memory candidate buffer, which a radix select compacts back
// to k (raising the threshold) whenever it holds k + kB2. A scan that ends with fewer than k
// candidates (the sample misled) runs again without the sample. Candidates are (key, ~column)
// words, so integer order is the contract's total order and a plateau of equal values cannot grow
// the buffer. With kCluster > 1 the CTAs share the sample and the row's block order (CTA r takes
// steps r, r + kCluster, ...); the other CTAs then store their candidates into CTA 0's buffer
// through distributed shared memory, and CTA 0 selects the best k (when they do not fit its buffer,
// the CTAs first select together, histograms summed across the cluster). A CTA whose part of the
// row fits the buffer whole skips the scan and takes the elements of its part that beat the
// sample's threshold (in a cluster, from a copy of the part that lands in shared memory while the
// sample is selected).
#pragma once
#include "bitonic_sort.cuh"
#include "block_order.cuh"
#include "block_primitives.cuh"
#include "column_bits.cuh"
#include "float_mask.cuh"
#include "grid_dependency.cuh"
#include "half_compare.cuh"
#include "keys.cuh"
#include "params.cuh"
#include "radix_select.cuh"
#include "resident_part.cuh"
#include "sample_keep.cuh"
#include "threshold.cuh"

namespace ds {

// What the CTA that split a digit floor's digit alone tells CTA 0 (`told` set): its share's
// unused slots [gap_at, gap_at + gap) in CTA 0's buffer, and the digit it split to, [floor,
// floor + span], with how many of the digit's keys the row keeps. Sent as three 8-byte words.
struct alignas(8) SplitFloor {
  u32 told;
  u32 gap_at;
  u32 gap;
  u32 floor;
  u32 span;
  u32 want;
};

template <int kThreads>
struct TopkScratch {
  RadixScratch radix;
  u32 warp_totals[2][kThreads / 32];
  u64 warp_min[kThreads / 32];
  // Candidates after this CTA's own phase, with bit 31 (cluster_total's kSawNan) set where it
  // saw NaN: read by the cluster's other CTAs, one remote load for both.
  u32 final_count;
  u32 kept_count;         // of those, the ones the cluster-wide select kept
  int block_of_step[64];  // the block order, filled 32 steps at a time by warp 0
  // digit_floor's counts of the CTAs of lower rank: their keys above the digit, and in it; and
  // the most of the digit's keys that one CTA holds.
  u32 lower_above_digit;
  u32 lower_in_digit;
  u32 most_in_digit;
  // Written into CTA 0's by the CTA that split the floor's digit alone.
  SplitFloor split;
  // CTA 0's: where the shares land (select_across_cluster), one arrival per CTA of the cluster.
  u64 gathered;
};

// kRowPath: kRowsWhole where every row of the launch is held whole (resident_part.cuh), which
// the host checks (KernelSpec::holds_rows_whole), so the kernel carries no scan; kRowsScanned
// where the host wants every row scanned (the scan takes any row), so it carries no resident
// load. Code that no row of a launch executes still costs these kernels: without the scan, the
// 8- and 16-CTA kernels ran their rows 6-9% faster (bench/results/NOTES.md, v125), and without
// the resident load the lone 16-bit CTAs scanning long rows 3-4% (v128).
template <class T, int kKMax, int kB, int kB2, int kThreads, int kCluster, int kStages, int kBounds,
          int kEpilogue, int kRowPath = kRowsAny>
struct TopkRow {
  typedef typename T::Raw Raw;
  static const int kPerThread = kB / kThreads;
  static const int kVec = 16 / T::kBytes;
  // A buffer of k + B2 + B takes any block's appends after any step. A lone CTA's holds one
  // vector per thread of a block past k + B2 instead, which leaves room for a third CTA per SM
  // (f32, k = 2048: 64 -> 40 KB): a step whose appends would overflow it compacts and appends
  // vector by vector (append_by_vectors), which the sample's threshold makes rare (NOTES.md,
  // tenth session: no step of the modelled rows). A cluster's CTAs (one per SM) keep the whole
  // block, which sizes the parts they take whole. src/spec.cpp buffer_words() mirrors this.
  static const int kVectorRound = kThreads * kVec;
  // A lone CTA with four stages filters two staged blocks per block-wide scan and its barrier
  // (a step's fixed part: bench/results/NOTES.md, v52), its stages two pairs: one filtered while
  // the other loads. Elsewhere one block per scan, its stages a ring.
  static const int kBlocksPerScan = kCluster == 1 && kStages == 4 ? 2 : 1;
  static const int kStageGroups = kStages / kBlocksPerScan;
  static const int kCapacity = kKMax + kB2 + (kCluster > 1 ? kB : kVectorRound);
  // Before a step the buffer holds fewer than k + B2 candidates (the scan compacts at that), so
  // only a buffer without room for a step's whole blocks past them can overflow.
  static const bool kStepMayOverflow = kCapacity < kKMax + kB2 + kBlocksPerScan * kB;
  static const int kWarps = kThreads / 32;
  static_assert(kPerThread % kVec == 0 && kPerThread <= 32, "bad B / threads");
  static_assert(kStages >= 2, "the scan overlaps a block's load with the previous one's filter");
  // Candidates each thread moves per barrier when compacting.
  static const int kPerChunk = 8;
  static const int kChunk = kPerChunk * kThreads;
  // Candidates past keep that a compaction during the scan may leave (the final one leaves
  // none): a radix pass ends once its bin holds few enough extra.
  static const u32 kSlack = kB2 / 4;
  // A 16-bit key's lone selects rank a small kept bin (radix_select says why).
  static const bool kRankSmallBins = T::kKeyBits < 32;
  // The last select of a lone CTA's long bf16 rows at k = 1025..2048 (the 256-thread kernels,
  // which scan) splits a bin of one key by its columns next (ColumnRanges): with 7 mantissa bits
  // the k-th key holds more words than rank_in_bin ranks (~80 in a normal row of 131,072; f16's
  // 10 bits put ~10 there). Elsewhere it cost more than it saved (bench/results/NOTES.md, Change
  // 83: dsa-bf16-b256 k = 2048 normal -4.2%, relu_ties +0.5%, ascending +1.2%).
  static const bool kLastSelectByColumns =
      T::kMantissaBits == 7 && kCluster == 1 && kKMax == 2048 && kThreads == 256;

  // A full block's copies from one address (copy_async_16_strided) where the kernel scans its
  // rows and has the registers: the lone 16-bit CTAs and the 2- and 4-CTA clusters. The f32 lone
  // CTAs (three per SM) spill with them, and the 8- and 16-CTA clusters take their parts whole
  // (bench/results/NOTES.md, Change 84: sample-b256 +1%, prefill-128k +1..4%, decode-b1 +0.8%).
  static const bool kStridedCopies =
      (kCluster == 1 && T::kBytes == 2) || kCluster == 2 || kCluster == 4;

  const TopkParams& p;
  u64* cand;
  Raw* stages;
  TopkScratch<kThreads>& scratch;
  const Raw* row_x;  // x + row * ld: columns are relative to it
  int row;
  u32 rank;   // this CTA's part of the row
  int first;  // the row's first column (begin)
  int head;   // elements between the 16-byte aligned origin and the first column
  int span;   // head + row length: the scanned range of the aligned view
  u32 nan_key;
  u32 invert;
  u64 threshold;    // the current k-th candidate; only better ones are appended
  Threshold limit;  // the same, in the float domain of the filter
  float orient;     // +1 for largest, -1 for smallest
  int count;        // candidates in the buffer
  u32 parity;       // which warp_totals buffer the next scan uses
  bool saw_nan;
  bool check_nan;  // the call wants row_status, so every NaN must be seen
  int before_me;   // a cluster's candidates in the CTAs of lower rank (cluster_total, or digits)
  // The cluster's candidates (`known_total`) and before_me are known without cluster_total
  // (load_resident_best_digits).
  bool shares_known;
  bool tells_split;  // this CTA split the floor's digit alone and tells CTA 0 (scratch.split)
  int known_total;
  // With shares_known: the key range of the floor's digit and how many of the cluster's
  // candidates in it the row keeps (those above it are all kept).
  Extremes floor_bin;
  u32 want_in_floor_bin;

  // Offset inside a block of this thread's element e: 16-byte vectors, coalesced per warp.
  DS_DEV static int offset_of(u32 e) {
    return int((e / kVec) * (kThreads * kVec) + threadIdx.x * kVec + e % kVec);
  }

  DS_DEV const Raw* origin() const { return row_x + first - head; }

  // Starts loading block `block` (of the aligned view) into stage `stage`. A thread writes only
  // the slots of its own elements (offset_of), the ones it alone reads afterwards.
  DS_DEV void load_block(int block, int stage) {
    const int lo = block * kB;
    const int hi = min(lo + kB, span);
    Raw* destination = stages + stage * kB;
    if (lo >= head && hi - lo == kB) {
      if constexpr (kStridedCopies) {
        // One 64-bit add: the offset in 32 bits first.
        const int offset = int(threadIdx.x) * kVec;
        copy_async_16_strided<kPerThread / kVec, kThreads * 16>(
            shared_address(destination + offset), origin() + (lo + offset));
      } else {
#pragma unroll
        for (int v = 0; v < kPerThread / kVec; ++v) {
          const int offset = (v * kThreads + int(threadIdx.x)) * kVec;
          copy_async_16(destination + offset, origin() + lo + offset);
        }
      }
      return;
    }
    // A block at either end of the row: vector by vector (copy_vector).
#pragma unroll
    for (int v = 0; v < kPerThread / kVec; ++v) {
      const int offset = (v * kThreads + int(threadIdx.x)) * kVec;
      copy_vector(destination + offset, (lo + offset) / kVec);
    }
  }

  // The column of element e of the aligned view: negative for the elements before a row that
  // starts past a 16-byte boundary.
  DS_DEV int view_column(int e) const {
    return first - head + e;
  }

  // The low halves of this row's candidate words (make_candidate: ~column).
  DS_DEV LowHalves column_halves() const {
    return LowHalves{~u32(view_column(span - 1)), ~u32(first)};
  }

  // Bits of this thread's elements that lie inside the row (only partial blocks have others).
  DS_DEV static u32 valid_bits(int valid_lo, int valid_hi) {
    u32 bits = 0;
#pragma unroll
    for (int e = 0; e < kPerThread; ++e) {
      const int offset = offset_of(e);
      if (offset >= valid_lo && offset < valid_hi) bits |= 1u << e;
    }
    return bits;
  }

  // The raw bits of element j of a 16-byte vector of kVec elements.
  DS_DEV static u32 element_of(const uint4& vector, int j) {
    const u32 words[4] = {vector.x, vector.y, vector.z, vector.w};
    return T::kBytes == 4 ? words[j] : (words[j / 2] >> (16 * (j % 2))) & 0xffffu;
  }

  // The bits of kVectors 16-byte vectors' elements (bit v * kVec + j for element j of
  // vector_at(v)): `above` where x > value or x is NaN, `level` where x == value or x is NaN
  // (unordered compares). So a NaN sets both, a tie only `level`, and one pass sorts the
  // elements without a NaN test of its own; on data without ties at the threshold or NaN,
  // `level` stays empty.
  template <int kVectors, class VectorAt>
  DS_DEV void classify_vectors(VectorAt vector_at, u32* above, u32* level) const {
    uint4 vectors[kVectors];
#pragma unroll
    for (int v = 0; v < kVectors; ++v) vectors[v] = vector_at(v);
    // "smallest" as "largest" of the negated elements (exact, and NaN stays NaN), under a branch
    // that "largest" skips: the flips (f32: a multiply by orient) took 16 of a bf16 scan step's
    // ~370 instructions (bench/results/NOTES.md, Changes 84 and 86).
    if (orient < 0.0f) {
      constexpr u32 kSigns = T::kBytes == 2 ? (T::kSign << 16) | T::kSign : T::kSign;
#pragma unroll
      for (int v = 0; v < kVectors; ++v) {
        vectors[v].x ^= kSigns;
        vectors[v].y ^= kSigns;
        vectors[v].z ^= kSigns;
        vectors[v].w ^= kSigns;
      }
    }
    if constexpr (T::kBytes == 2) {
#pragma unroll
      for (int v = 0; v < kVectors; ++v) classify_packed(vectors[v], v * kVec, above, level);
    } else {
      classify_floats<kVectors>(vectors, above, level);
    }
  }

  // For 32-bit floats: two compares per element that give 1.0f or 0.0f, weighed into a float
  // per vector and the vectors' floats added, 16 bits to a float (float_mask.cuh), so that only
  // the compares take the integer ALU.
  template <int kVectors>
  DS_DEV void classify_floats(const uint4 (&vectors)[kVectors], u32* above, u32* level) const {
    constexpr int kGroup = kVectors < 4 ? kVectors : 4;  // vectors per 16 bits
    static_assert(kVec == 4 && kVectors % kGroup == 0 && kVectors <= 8, "16 bits to a float");
    float above_parts[kVectors];
    float level_parts[kVectors];
#pragma unroll
    for (int v = 0; v < kVectors; ++v) {
      const uint4 vector = vectors[v];
      float above_flags[kVec];
      float level_flags[kVec];
#pragma unroll
      for (int j = 0; j < kVec; ++j) {
        const float x = to_float<T>(element_of(vector, j));
        above_flags[j] = greater_or_nan_flag(x, limit.value);
        level_flags[j] = equal_or_nan_flag(x, limit.value);
      }
      above_parts[v] = weighted_flags(above_flags, (v % kGroup) * kVec);
      level_parts[v] = weighted_flags(level_flags, (v % kGroup) * kVec);
    }
#pragma unroll
    for (int g = 0; g < kVectors / kGroup; ++g) {
      *above |= low_bits_of(pairwise_sum<kGroup>(above_parts + g * kGroup)) << (16 * g);
      *level |= low_bits_of(pairwise_sum<kGroup>(level_parts + g * kGroup)) << (16 * g);
    }
  }

  // For 16-bit types, two oriented elements (classify_vectors) per compare.
  DS_DEV void classify_packed(const uint4& x, int first_bit, u32* above, u32* level) const {
    const u32 t = broadcast_halves<T>(limit.value);
    *above |= bits_of_halves(greater_or_nan_halves<T>(x.x, t), greater_or_nan_halves<T>(x.y, t),
                             greater_or_nan_halves<T>(x.z, t), greater_or_nan_halves<T>(x.w, t))
              << first_bit;
    *level |= bits_of_halves(equal_or_nan_halves<T>(x.x, t), equal_or_nan_halves<T>(x.y, t),
                             equal_or_nan_halves<T>(x.z, t), equal_or_nan_halves<T>(x.w, t))
              << first_bit;
  }

  // classify_vectors over this thread's vectors of a staged block at `data`.
  DS_DEV void classify(const Raw* data, u32* above, u32* level) const {
    classify_vectors<kPerThread / kVec>(
        [&](int v) {
          return *reinterpret_cast<const uint4*>(data + (v * kThreads + int(threadIdx.x)) * kVec);
        },
        above, level);
  }

  // Which of this thread's classified elements, laid out as a scan block's (column_bits.cuh)
  // from first_column on, beat the threshold: those above its value, the ties below
  // limit.column and the NaN below limit.nan_column (the threshold's value is never NaN), the
  // last two by their columns alone. Only called where `level` has bits.
  template <int kBits>
  DS_DEV u32 settle_level(u32 above, u32 level, int first_column) {
    const u32 nans = above & level;
    const u32 ties = level & ~above;
    u32 beaten = (above & ~level) | (ties & bits_below<kThreads, kVec, kBits>(
                                                first_column, threadIdx.x, limit.column));
    if (nans != 0u) {
      saw_nan = true;
      beaten |=
          nans & bits_below<kThreads, kVec, kBits>(first_column, threadIdx.x, limit.nan_column);
    }
    return beaten;
  }

  // This thread's elements of staged block `block` that beat the threshold: two float compares
  // per element, and the column masks only where some tie with it or are NaN.
  DS_DEV u32 beaten_in_block(int block, const Raw* data) {
    const int lo = block * kB;
    const int valid_lo = max(lo, head) - lo;
    const int valid_hi = min(lo + kB, span) - lo;
    u32 mask = 0;
    u32 level = 0;
    classify(data, &mask, &level);
    if (valid_lo != 0 || valid_hi != kB) {
      const u32 valid = valid_bits(valid_lo, valid_hi);
      mask &= valid;
      level &= valid;
    }
    return level != 0u ? settle_level<kPerThread>(mask, level, view_column(lo)) : mask;
  }

  // Appends the elements that beat the threshold in the staged blocks of steps first_step ..
  // first_step + kBlocksPerScan - 1 (those below `steps`; the first always is), placed by one
  // block-wide scan.
  DS_DEV void filter_blocks(int first_step, int steps, int keep) {
    u32 masks[kBlocksPerScan];
    u32 columns[kBlocksPerScan];
    u32 beaten = 0;
#pragma unroll
    for (int b = 0; b < kBlocksPerScan; ++b) {
      const int step = first_step + b;
      masks[b] = 0u;
      columns[b] = 0u;
      if (b == 0 || step < steps) {
        const int block = block_of(step);
        columns[b] = u32(view_column(block * kB));
        masks[b] = beaten_in_block(block, staged(step));
      }
      beaten += __popc(masks[b]);
    }
    u32 added;
    const u32 position = block_exclusive_sum<kWarps, kBlocksPerScan * kPerThread>(
        beaten, scratch.warp_totals[parity], &added);
    parity ^= 1u;
    if (kStepMayOverflow && count + int(added) > kCapacity) {
#pragma unroll
      for (int b = 0; b < kBlocksPerScan; ++b) {
        if (b == 0 || first_step + b < steps)
          append_by_vectors(staged(first_step + b), masks[b], columns[b], keep);
      }
      return;
    }
    u32 slot = u32(count) + position;
#pragma unroll
    for (int b = 0; b < kBlocksPerScan; ++b) {
      append_elements(staged(first_step + b), masks[b], slot, columns[b]);
      slot += __popc(masks[b]);
    }
    count += int(added);
  }

  // The block of the row that this CTA's step `step` reads (scan's ring of the block order).
  DS_DEV int block_of(int step) const {
    return scratch.block_of_step[step & 63];
  }

  // The stage that holds the block of this CTA's step `step`.
  DS_DEV const Raw* staged(int step) const {
    return stages + (step % kStages) * kB;
  }

  // Appends this thread's `mask` elements of a staged block at cand[slot..].
  DS_DEV void append_elements(const Raw* data, u32 mask, u32 slot, u32 column_base) {
    for (; mask != 0u; mask &= mask - 1u) {
      const int offset = offset_of(__ffs(mask) - 1);
      cand[slot++] =
          make_candidate(key_of<T>(u32(data[offset]), nan_key, invert), column_base + offset);
    }
  }

  // A block whose appends would overflow the buffer: one vector per thread at a time, the buffer
  // compacted before a round that would not fit (a compaction leaves at most k + B2 / 4, so
  // every round fits after one). Masks from the threshold before a compaction may keep elements
  // that no longer beat it: extra candidates, which the next compaction drops, and which still
  // beat the sample's threshold (so the scan's count of candidates that did stays a lower bound).
  DS_DEV void append_by_vectors(const Raw* data, u32 mask, u32 column_base, int keep) {
    constexpr u32 kRoundBits = (1u << kVec) - 1u;
#pragma unroll 1
    for (int v = 0; v < kPerThread / kVec; ++v) {
      const u32 round = mask & (kRoundBits << (v * kVec));
      u32 added;
      const u32 position =
          block_exclusive_sum<kWarps, kVec>(__popc(round), scratch.warp_totals[parity], &added);
      parity ^= 1u;
      if (count + int(added) > kCapacity) compact(keep, kSlack);
      append_elements(data, round, u32(count) + position, column_base);
      count += int(added);
    }
  }

  DS_DEV void set_threshold(u64 c) {
    threshold = c;
    limit = Threshold::of_candidate<T>(c, nan_key, invert, orient);
  }

  // Raises the threshold after a select that kept the candidates at or above `bound` (the same
  // in every thread): to the bound itself where its key is a number's, which needs no block-wide
  // minimum and its barriers (bench/results/NOTES.md, Change 122); elsewhere to the worst word
  // kept, an element's, from worst_kept() (this thread's), since a bound on a key that no value
  // has (a NaN pattern, or the one below the zeros) reads wrong in the filter's float form
  // (against a NaN limit every compare is unordered, which settle_level reads as NaN elements).
  template <class WorstKept>
  DS_DEV void raise_threshold(u64 bound, WorstKept worst_kept) {
    if (is_number_key<T>(u32(bound >> 32) ^ invert)) {
      set_threshold(bound);
    } else {
      set_threshold(block_min<kWarps>(worst_kept(), scratch.warp_min));
    }
  }

  // Appends the words source[0..n) that `wanted` accepts to cand[at..], in a fixed order, and
  // returns how many; *worst becomes the smallest appended. source may be cand itself at or
  // after `at` (an in-place compaction): each chunk is read whole before any of it is written,
  // and a chunk's words land before the chunk's end. One barrier per chunk of kChunk words.
  template <class Wanted>
  DS_DEV u32 append_if(const u64* source, int n, u32 at, Wanted wanted, u64* worst) {
    u32 appended = 0;
    for (int base = 0; base < n; base += kChunk) {
      u64 words[kPerChunk];
      u32 ballots[kPerChunk];
      u32 warp_count = 0;
#pragma unroll
      for (int q = 0; q < kPerChunk; ++q) {
        const int i = base + q * kThreads + int(threadIdx.x);
        words[q] = i < n ? source[i] : 0ull;
        ballots[q] = __ballot_sync(0xffffffffu, i < n && wanted(words[q]));
        warp_count += __popc(ballots[q]);
      }
      if (lane_id() == 0u) scratch.warp_totals[parity][warp_id()] = warp_count;
      __syncthreads();
      u32 chunk_total;
      u32 position =
          at + appended + warps_before<kWarps>(scratch.warp_totals[parity], &chunk_total);
      parity ^= 1u;
#pragma unroll
      for (int q = 0; q < kPerChunk; ++q) {
        if ((ballots[q] >> lane_id()) & 1u) {
          cand[position + __popc(ballots[q] & lanes_below_mask())] = words[q];
          *worst = words[q] < *worst ? words[q] : *worst;
        }
        position += __popc(ballots[q]);
      }
      appended += chunk_total;
    }
    return appended;
  }

  // Keeps the best `keep` candidates (keep < count), and up to `slack` more where that saves
  // radix passes, and raises the threshold to the worst one kept. `mine` bounds this thread's
  // part of the buffer, whose writes need not be visible yet.
  DS_DEV void compact(int keep, u32 slack, Extremes mine) {
    DS_COUNT(0);
    const u64 worst = keep_best(keep, slack, mine);
    DS_PHASE(11);
    set_threshold(block_min<kWarps>(worst, scratch.warp_min));
  }

  // compact() without raising the threshold; returns the smallest candidate this thread kept.
  template <class Ranges = PlainRanges>
  DS_DEV u64 keep_best(int keep, u32 slack, Extremes mine, Ranges ranges = Ranges{}) {
    const u64 bound = radix_select<kThreads, 1, kRankSmallBins>(cand, count, u32(keep), slack, mine,
                                                                scratch.radix, ranges);
    DS_PHASE(10);
    return keep_at_or_above(bound);
  }

  // Keeps the candidates c >= bound, in place, and returns the smallest this thread kept.
  DS_DEV u64 keep_at_or_above(u64 bound) {
    u64 worst = ~0ull;
    count = int(append_if(
        cand, count, 0u, [&](u64 c) { return c >= bound; }, &worst));
    return worst;
  }

  DS_DEV void compact(int keep, u32 slack) {
    compact(keep, slack, buffer_extremes());
  }

  // A CTA's own last select (keep < count): nothing reads a threshold after it (a misled
  // sample's rescan starts afresh), so a lone CTA over 16-bit keys skips compact()'s block
  // minimum and its barrier (dsa-bf16-b256 -0.7..-2.1%). The other kernels raise it still:
  // without it ptxas spills more in them, and sample-b256 and dsa-prefill-128k (f32) ran ~1%
  // slower, 16-bit rows in 4- and 16-CTA clusters at k <= 256 1.2..2.5% (bench/results/NOTES.md,
  // Changes 79 and 79b).
  static const bool kLastSelectRaisesThreshold = T::kKeyBits == 32 || kCluster > 1;
  DS_DEV void last_select(int keep, Extremes mine) {
    if constexpr (kLastSelectRaisesThreshold) {
      compact(keep, 0u, mine);
    } else if constexpr (kLastSelectByColumns) {
      keep_best(keep, 0u, mine, ColumnRanges{column_halves()});
    } else {
      keep_best(keep, 0u, mine);
    }
  }

  // This thread's bounds of the buffer, once every thread's writes to it are visible.
  DS_DEV Extremes buffer_extremes() {
    __syncthreads();
    return strided_extremes<kThreads>(cand, count);
  }

  // The final select of at most kThreads candidates (keep < count), by rank: thread i counts the
  // words above cand[i] (words are unique, the loads broadcasts) and moves it to that slot when
  // it is among the best keep, which leaves them sorted. One loop and two barriers, where a radix
  // select of a few hundred words takes passes of four barriers and an append, many of them where
  // keys tie or crowd (sample-b1 relu_ties -13.5%, ascending -9.5%: bench/results/NOTES.md,
  // twenty-third session). Only kernels with k_max below their thread count carry it: in the
  // others its unused code cost bf16-b6 1%, and 300 of 129,280 ranked among up to 512 words ran
  // 22% slower on relu_ties rows than by radix (bench/results/NOTES.md, twenty-fourth session).
  static const bool kRanksFinalSelect = kKMax < kThreads;
  DS_DEV void select_by_rank(int keep) {
    __syncthreads();
    const int i = int(threadIdx.x);
    const u64 mine = i < count ? cand[i] : 0ull;
    int above = 0;
#pragma unroll 8
    for (int j = 0; j < count; ++j) above += cand[j] > mine ? 1 : 0;
    __syncthreads();
    if (i < count && above < keep) cand[above] = mine;
    count = keep;
  }

  // The final select of a cluster whose digit floor knew the shares: every candidate above the
  // floor's digit is kept, so the radix select starts from that digit's keys and the number still
  // wanted in it. Started from the buffer's extremes, its first pass split the range above the
  // digit too, and the digit fell into few of its bins (decode-b1 and decode-b8 -11%:
  // bench/results/NOTES.md, Change 60). Every thread holds that range, so the select needs no
  // block-wide extremes; its first histogram was cleared before the CTA barrier that precedes
  // this (select_across_cluster).
  DS_DEV void select_in_floor_bin() {
    keep_at_or_above(
        radix_passes<kThreads, 1>(cand, count, want_in_floor_bin, 0u, floor_bin, scratch.radix));
  }

  // Asks L2 for elements [lo, hi) of the aligned view, one 128-byte line per thread at a time.
  DS_DEV void prefetch(int lo, int hi) const {
    constexpr int kLine = 128 / T::kBytes;
    for (int e = lo / kLine * kLine + int(threadIdx.x) * kLine; e < hi; e += kThreads * kLine) {
      asm volatile("prefetch.global.L2 [%0];" ::"l"(origin() + e));
    }
  }

  // Reads the row's sample (sample_keep.cuh) into the buffer and raises the threshold to the
  // sample's best `want` (and at most want / 16 more): to the select's bound, or the worst word
  // above it (raise_threshold). Every CTA of a cluster reads the same sample, so they share the
  // threshold. Returns false, changing nothing, when the row is too short for a sample to pay.
  // Calls after_loads() once either way, as soon as the sample's loads are issued (copies it issues
  // queue behind them). Elements [prefetch_lo, prefetch_hi) of the aligned view, which the caller
  // reads next, are asked into L2 meanwhile. The sample's words (at most a kSampleStretch-th of the
  // row) stay below a staged part (staged_part).
  template <class AfterLoads>
  DS_DEV bool sample_threshold(int keep, AfterLoads after_loads, int prefetch_lo = 0,
                               int prefetch_hi = 0) {
    const int first_vector = (head + kVec - 1) / kVec;
    const int vectors = span / kVec - first_vector;
    const RowSample sample = plan_sample(keep, vectors, kVec, span - head, kCapacity);
    if (sample.points == 0) {
      after_loads();
      return false;
    }
    prefetch(prefetch_lo, prefetch_hi);
    const u32 seed = row_seed(p.seed, u32(row));
    const u32 column_origin = u32(view_column(0));
    Extremes mine;
    constexpr int kMostPoints = kSampleElements / kVec;
    constexpr int kPointsPerThread = (kMostPoints + kThreads - 1) / kThreads;
    // Every load of this thread is issued before any is used, so that they are in flight
    // together.
    int vector_of[kPointsPerThread];
    uint4 loaded[kPointsPerThread];
#pragma unroll
    for (int q = 0; q < kPointsPerThread; ++q) {
      const int point = q * kThreads + int(threadIdx.x);
      vector_of[q] = first_vector + int(sample_vector(u32(point), sample, seed, kVec));
      if (point < sample.points) loaded[q] = load_vector(vector_of[q]);
    }
    after_loads();
#pragma unroll
    for (int q = 0; q < kPointsPerThread; ++q) {
      const int point = q * kThreads + int(threadIdx.x);
      if (point >= sample.points) break;
#pragma unroll
      for (int j = 0; j < kVec; ++j) {
        const u64 word = make_candidate(key_of<T>(element_of(loaded[q], j), nan_key, invert),
                                        column_origin + u32(vector_of[q] * kVec + j));
        cand[point * kVec + j] = word;
        mine.add(word, word);
      }
    }
    DS_PHASE(8);
    __syncthreads();
    DS_PHASE(18);
    const u64 bound = radix_select<kThreads, 1, kRankSmallBins>(
        cand, sample.points * kVec, u32(sample.want), u32(sample.want) / 16u, mine, scratch.radix);
    DS_PHASE(9);
    raise_threshold(bound, [&] {
      // Each thread reads back its own words.
      u64 worst = ~0ull;
#pragma unroll
      for (int q = 0; q < kPointsPerThread; ++q) {
        const int point = q * kThreads + int(threadIdx.x);
        if (point >= sample.points) break;
#pragma unroll
        for (int j = 0; j < kVec; ++j) {
          const u64 word = cand[point * kVec + j];
          if (word >= bound && word < worst) worst = word;
        }
      }
      return worst;
    });
    return true;
  }

  // Scans this CTA's steps of the row's block order: steps rank, rank + kCluster, ... With
  // `sample`, the threshold starts at the row sample's (sample_threshold); returns whether it
  // did.
  DS_DEV bool scan(int keep, bool sample) {
    const int blocks = (span + kB - 1) / kB;
    // Each CTA of the cluster starts at its own leading block: the lowest columns of its steps.
    const BlockOrder order(u32(blocks), row_seed(p.seed, u32(row)), u32(kCluster));
    const int steps = blocks > int(rank) ? (blocks - int(rank) + kCluster - 1) / kCluster : 0;
    // Warp 0 computes the blocks of 32 steps at once into a ring of 64, 32 steps ahead of use.
    auto fill_order = [&](int first_step) {
      if (warp_id() == 0u) {
        const int step = first_step + int(lane_id());
        if (step < steps)
          scratch.block_of_step[step & 63] = int(order(u32(step * kCluster) + rank));
      }
    };
    fill_order(0);
    __syncthreads();
    // The stages hold kStageGroups groups of kBlocksPerScan blocks, each group one commit.
    auto load_group = [&](int group) {
#pragma unroll
      for (int b = 0; b < kBlocksPerScan; ++b) {
        const int step = group * kBlocksPerScan + b;
        if (step < steps) load_block(block_of(step), step % kStages);
      }
      copy_async_commit();
    };
    auto load_first_blocks = [&] {
#pragma unroll
      for (int group = 0; group < kStageGroups - 1; ++group) load_group(group);
    };
    // The first blocks load while the sample is selected, their copies issued after the sample's
    // loads, which they would hold up.
    const bool sampled = sample && sample_threshold(keep, load_first_blocks);
    if (!sample) load_first_blocks();
    DS_PHASE(1);
    const int groups = (steps + kBlocksPerScan - 1) / kBlocksPerScan;
    for (int group = 0; group < groups; ++group) {
      // A thread loads, filters and appends only its own slots of a stage, so the stages that
      // the previous group used are refilled, and this group's blocks read, without a barrier:
      // the group's one barrier is the filter's block-wide scan, which also publishes the order
      // that warp 0 fills (so it fills two groups before the entries are read).
      load_group(group + kStageGroups - 1);
      copy_async_wait<kStageGroups - 1>();
      filter_blocks(group * kBlocksPerScan, steps, keep);
      if (count >= keep + kB2) compact(keep, kSlack);
      const int next_fill = (group + kStageGroups + 1) * kBlocksPerScan;
      if (next_fill % 32 == 0) fill_order(next_fill);
    }
    return sampled;
  }

  // The length of this CTA's part of the aligned row view when the row is split without a scan.
  DS_DEV int resident_part() const {
    return ds::resident_part(span, room());
  }

  // This CTA's part [x, y) of the aligned view, for parts of `part` elements (resident_part).
  DS_DEV int2 part_bounds(int part) const {
    const int lo = int(rank) * part;
    return make_int2(lo, min(lo + part, span));
  }

  // The 16-byte vector at element v * kVec of the aligned view; elements outside the row are
  // not read (they may lie outside the allocation) and come back as 0.
  DS_DEV uint4 load_vector(int v) const {
    const int lo = v * kVec;
    const Raw* source = origin() + lo;
    if (lo >= head && lo + kVec <= span) return __ldg(reinterpret_cast<const uint4*>(source));
    u32 packed[4] = {0u, 0u, 0u, 0u};
#pragma unroll
    for (int j = 0; j < kVec; ++j) {
      if (lo + j >= head && lo + j < span)
        packed[j * T::kBytes / 4] |= u32(source[j]) << (8 * (j * T::kBytes % 4));
    }
    return make_uint4(packed[0], packed[1], packed[2], packed[3]);
  }

  // Copies the 16-byte vector v of the aligned view to destination: asynchronously when the row
  // covers it whole, else at once, its elements outside the row as 0 (load_vector).
  DS_DEV void copy_vector(Raw* destination, int v) const {
    const int e = v * kVec;
    if (e >= head && e + kVec <= span) {
      copy_async_16(destination, origin() + e);
    } else {
      *reinterpret_cast<uint4*>(destination) = load_vector(v);
    }
  }

  // A split row's parts load into shared memory while the sample is selected (stage_part); a
  // lone CTA's part is read from the row, asked into L2 meanwhile. Measured on the H200
  // (bench/results/NOTES.md, Change 26): staging made the 8-CTA clusters' resident rows 3-4%
  // faster, and every shape with two CTAs per SM 2-4% slower, prefill-8k's resident rows too.
  static const bool kStagedParts = kCluster > 1;

  // The kernel's dynamic shared memory: the candidate buffer, then the scan's stages.
  static const int kSharedBytes = int(sizeof(u64)) * kCapacity + T::kBytes * kStages * kB;

  // A row split over 8 or 16 CTAs that hold their parts whole takes its first threshold from the
  // histogram of its elements' top kDigitBits key bits, summed over the cluster
  // (load_resident_best_digits), rather than from a sample: exact, so never a rescan, and ready
  // sooner, since the parts land well before the sample's loads and select end
  // (bench/results/NOTES.md, Change 58). The histogram (kDigitWords, digit_histogram) lies between
  // the part's candidates and its staged copy, so only kernels whose buffer holds it beside a part
  // of a 131,072-column row take it: f32 8-CTA kernels below k = 2048 keep the sample (their buffer
  // holds such a part with 512 bytes to spare). A 16-bit part holds twice the elements, whose count
  // costs more than the sample saves (k = 200..2048: +4..+58%), but at k <= 64 the sample keeps its
  // least margin, ~8x k of the row, and the digits ran 5-26% faster (ascending f16 rows +6%):
  // bench/results/NOTES.md, twenty-fourth session.
  DS_HD static constexpr PartRoom room() {
    return PartRoom{kCapacity, kSharedBytes, T::kBytes, kCluster, kKMax, T::kKeyBits};
  }
  static const bool kDigitFloor = takes_digit_floor(room());
  // The digit kernels that carry select_in_floor_bin. At k_max <= 64 CTA 0 ranks what it holds
  // (kRanksFinalSelect): the floor digit leaves it more than kThreads words only on plateaus,
  // which the buffer's radix select takes, and without the select's code sample-b1 and 8 x 131072
  // bf16 at k = 64 ran ~1% faster. At k_max = 256 it stays: a row at k = 200 leaves CTA 0 ~800
  // words, and ran 8.4% slower without it (bench/results/NOTES.md, Changes 73b and 73c).
  static const bool kSelectsInFloorBin = kDigitFloor && kKMax > 64;
  // The sampled clusters' CTAs send the bounds of their shares with them (send_share), into the
  // warp slots past kWarps of CTA 0's select scratch, so that CTA 0's final select starts from
  // bounds known when the shares land, not from a pass over its gathered buffer and a block-wide
  // reduction after it. The digit kernels' final select starts from the floor's digit instead.
  static const bool kSendsBounds = kCluster > 1 && !kDigitFloor && kWarps + kCluster <= 32;

  // Whether a part of `part` elements is loaded resident (resident_part.cuh).
  DS_DEV static bool resident_fits(int part) {
    return ds::resident_fits(part, room());
  }

  // Where a staged part's elements wait for the resident load: the end of shared memory.
  DS_DEV Raw* staged_part(int part) const {
    return reinterpret_cast<Raw*>(reinterpret_cast<unsigned char*>(cand) + kSharedBytes) - part;
  }

  // Starts copying this CTA's part of the row into staged_part, each thread the vectors that it
  // reads in the resident load (load_round), so that no barrier is needed before them; vectors
  // that the row covers only in part are copied at once, elements outside the row as 0.
  DS_DEV void stage_part(int part) {
    const int2 bounds = part_bounds(part);
    Raw* staged = staged_part(part) - bounds.x;
    int copies = 0;
    for (int v = bounds.x / kVec + int(threadIdx.x); v * kVec < bounds.y; v += kThreads) {
      copy_vector(staged + v * kVec, v);
      // The digit count reads the first round's vectors as their groups land (for_staged_vectors).
      if (kDigitFloor && ++copies < kResidentInFlight) copy_async_commit();
    }
    if constexpr (kDigitFloor) {
      for (; copies < kResidentInFlight - 1; ++copies) copy_async_commit();  // empty groups
    }
    copy_async_commit();
  }

  // Where the resident load reads element e of the aligned view: staged[e] once this thread's
  // copies have landed, or (a lone CTA's part, staged null) the row.
  DS_DEV const Raw* resident_staged(int part) const {
    if constexpr (kStagedParts) {
      copy_async_wait<0>();
      return staged_part(part) - part_bounds(part).x;
    }
    return nullptr;
  }

  DS_DEV uint4 resident_vector(const Raw* staged, int v) const {
    if constexpr (kStagedParts) return *reinterpret_cast<const uint4*>(staged + v * kVec);
    return load_vector(v);
  }

  DS_DEV u32 resident_element(const Raw* staged, int e) const {
    if constexpr (kStagedParts) return u32(staged[e]);
    return u32(__ldg(origin() + e));
  }

  // Two CTAs per SM leave fewer registers for the resident load's vectors in flight.
  static const int kResidentInFlight = kCluster > 1 ? 4 : 2;

  // This thread's vectors of one round of the resident load (vector base + u * kThreads +
  // threadIdx.x of the aligned view for u < kResidentInFlight); those at or past `hi` read 0.
  DS_DEV void load_round(const Raw* staged, int base, int hi,
                         uint4 (&vectors)[kResidentInFlight]) const {
#pragma unroll
    for (int u = 0; u < kResidentInFlight; ++u) {
      const int v = base + u * kThreads + int(threadIdx.x);
      vectors[u] = v * kVec < hi ? resident_vector(staged, v) : make_uint4(0u, 0u, 0u, 0u);
    }
  }

  // Bounds of candidates whose keys lie in [min_key, max_key]; none when min_key > max_key.
  DS_DEV static Extremes key_bounds(u32 min_key, u32 max_key) {
    Extremes bounds;
    if (min_key <= max_key) bounds.add(u64(min_key) << 32, (u64(max_key) << 32) | 0xffffffffull);
    return bounds;
  }

  // Takes every element of this CTA's part of the row as a candidate, at its own place (the
  // whole part fits the buffer, and nothing beats a threshold yet). Returns bounds of this
  // thread's candidates.
  DS_DEV Extremes load_resident_whole(int part) {
    const int2 bounds = part_bounds(part);
    const int lo = bounds.x;
    const int hi = bounds.y;
    const int valid_lo = max(lo, head);
    const u32 column_origin = u32(view_column(0));
    const Raw* staged = resident_staged(part);
    u32 min_key = ~0u;
    u32 max_key = 0u;
    bool nan_seen = false;
    for (int base = lo / kVec; base * kVec < hi; base += kResidentInFlight * kThreads) {
      uint4 vectors[kResidentInFlight];
      load_round(staged, base, hi, vectors);
#pragma unroll
      for (int u = 0; u < kResidentInFlight; ++u) {
        const int first_e = (base + u * kThreads + int(threadIdx.x)) * kVec;
        if (first_e >= hi) continue;
        const bool whole = first_e >= valid_lo && first_e + kVec <= hi;
#pragma unroll
        for (int j = 0; j < kVec; ++j) {
          const int e = first_e + j;
          if (!whole && (e < valid_lo || e >= hi)) continue;
          const u32 raw = element_of(vectors[u], j);
          nan_seen |= is_nan_bits<T::kSign, T::kInf>(raw);
          const u32 key = key_of<T>(raw, nan_key, invert);
          min_key = min(min_key, key);
          max_key = max(max_key, key);
          cand[e - valid_lo] = make_candidate(key, column_origin + u32(e));
        }
      }
    }
    count = max(hi - valid_lo, 0);
    saw_nan |= nan_seen;
    return key_bounds(min_key, max_key);
  }

  static const int kRoundVectors = kResidentInFlight * kThreads;
  static const int kRoundBits = kResidentInFlight * kVec;

  // The key of the element that bit u * kVec + j of a round's vectors stands for.
  DS_DEV u32 round_key(const uint4 (&vectors)[kResidentInFlight], int bit) const {
    return key_of<T>(element_of(vectors[bit / kVec], bit % kVec), nan_key, invert);
  }

  // The element of the aligned view that bit u * kVec + j of a round at vector `base` stands
  // for: element j of vector u.
  DS_DEV static int round_element(int base, int bit) {
    return (base + (bit / kVec) * kThreads + int(threadIdx.x)) * kVec + bit % kVec;
  }

  // Calls visit(base, vectors, valid) for each round of this CTA's part (load_round), valid
  // holding the bits of the round's elements that lie in the row and the part.
  template <class Visit>
  DS_DEV void for_part_rounds(int part, const Raw* staged, Visit visit) const {
    const int2 bounds = part_bounds(part);
    const int valid_lo = max(bounds.x, head);
    for (int base = bounds.x / kVec; base * kVec < bounds.y; base += kRoundVectors) {
      uint4 vectors[kResidentInFlight];
      load_round(staged, base, bounds.y, vectors);
      visit(base, vectors, round_valid(base, valid_lo, bounds.y));
    }
  }

  // Calls visit(vector, valid) for each of this thread's vectors of its staged part in the
  // order of for_part_rounds, valid holding the bits of the vector's elements that lie in the
  // row and the part. Vector u of the first round is read once stage_part's group u has landed,
  // so the first are visited while the others arrive.
  template <class Visit>
  DS_DEV void for_staged_vectors(int part, Visit visit) const {
    const int2 bounds = part_bounds(part);
    const int valid_lo = max(bounds.x, head);
    const Raw* staged = staged_part(part) - bounds.x;
    for (int base = bounds.x / kVec; base * kVec < bounds.y; base += kRoundVectors) {
      const u32 valid = round_valid(base, valid_lo, bounds.y);
#pragma unroll
      for (int u = 0; u < kResidentInFlight; ++u) {
        copy_async_wait_most<kResidentInFlight - 1>(kResidentInFlight - 1 - u);
        const int v = base + u * kThreads + int(threadIdx.x);
        const uint4 vector = v * kVec < bounds.y ? resident_vector(staged, v) : uint4{};
        visit(vector, (valid >> (u * kVec)) & ((1u << kVec) - 1u));
      }
    }
  }

  // The bits of the round at vector `base` whose elements lie in [valid_lo, hi).
  DS_DEV u32 round_valid(int base, int valid_lo, int hi) const {
    // Only the rounds at the part's ends hold elements outside it.
    if (base * kVec >= valid_lo && (base + kRoundVectors) * kVec <= hi)
      return kRoundBits == 32 ? ~0u : (1u << kRoundBits) - 1u;
    u32 valid = 0;
#pragma unroll
    for (int bit = 0; bit < kRoundBits; ++bit) {
      const int e = round_element(base, bit);
      if (e >= valid_lo && e < hi) valid |= 1u << bit;
    }
    return valid;
  }

  // Takes the elements of this CTA's part of the row that `take(base, vectors, valid)` marks in
  // each round as candidates, in a fixed order (by round, then thread): the whole part fits the
  // buffer, so nothing is compacted. Returns bounds of this thread's candidates.
  template <class Take>
  DS_DEV Extremes load_resident_taking(int part, Take take) {
    const u32 column_origin = u32(view_column(0));
    const Raw* staged = resident_staged(part);
    u32 min_key = ~0u;
    u32 max_key = 0u;
    for_part_rounds(
        part, staged, [&](int base, const uint4(&vectors)[kResidentInFlight], u32 valid) {
          u32 taken = take(base, vectors, valid);
          u32 added;
          u32 slot = u32(count) + block_exclusive_sum<kWarps, kRoundBits>(
                                      __popc(taken), scratch.warp_totals[parity], &added);
          parity ^= 1u;
          count += int(added);
          // The few elements taken are read again, from L1 or shared memory, by their index.
          for (; taken != 0u; taken &= taken - 1u) {
            const int e = round_element(base, __ffs(taken) - 1);
            const u32 key = key_of<T>(resident_element(staged, e), nan_key, invert);
            min_key = min(min_key, key);
            max_key = max(max_key, key);
            cand[slot++] = make_candidate(key, column_origin + u32(e));
          }
        });
    return key_bounds(min_key, max_key);
  }

  // The elements of this CTA's part that beat the threshold.
  DS_DEV Extremes load_resident_filtered(int part) {
    return load_resident_taking(
        part, [&](int base, const uint4(&vectors)[kResidentInFlight], u32 valid) {
          u32 taken = 0;
          u32 level = 0;
          classify_vectors<kResidentInFlight>([&](int u) { return vectors[u]; }, &taken, &level);
          taken &= valid;
          level &= valid;
          if (level != 0u) taken = settle_level<kRoundBits>(taken, level, view_column(base * kVec));
          return taken;
        });
  }

  // Where a split part's digit histogram of `round` lies: past the candidate words the part can
  // make and below the staged part (resident_fits), so that the CTA's candidates do not overwrite
  // it while the cluster's other CTAs read it. kDigitBins counts, then their sums per 32 digits.
  // Where two fit there the rounds alternate between them: a CTA counts a round while its peers
  // may still read the last one's, and every one of them has passed its reads of the round before
  // (digit_floor's cluster barrier), so no barrier comes between rounds.
  DS_DEV u32* digit_histogram(int part, int round) const {
    u32* first = reinterpret_cast<u32*>(cand + part);
    return digit_histograms_alternate(part, room()) ? first + (round & 1) * kDigitWords : first;
  }

  // The elements of this CTA's part whose keys reach the cluster's key floor: the lowest key
  // such that keep of the row's elements reach it, to kDigitBits bits (all the cluster's CTAs
  // must call it). Each round counts the part's keys in [floor, floor + span] into a histogram of
  // their next kDigitBits bits and raises the floor by the digit where the cluster's count from
  // the top reaches what is still wanted (digit_floor). A second round, on the first's digit
  // alone, runs when the first would take more than half of CTA 0's buffer (a narrow
  // distribution), and a third, down to one key, when the second would still take more than a
  // part or CTA 0's buffer (a plateau), whose words the CTAs then take by rank; what still does
  // not fit CTA 0 the cluster selects together. NaN, whose key is the lowest or the highest, has a
  // first-round digit of its own. The histograms tell each CTA how many of the cluster's elements
  // at or above the floor the CTAs of lower rank hold: where its candidates go in CTA 0's buffer,
  // with no cluster barrier to count them first (shares_known).
  // Where a later round's digit lies in one CTA's part alone (the last part of an ascending row),
  // that CTA, the holder, splits it by itself in the next round's histogram: its rounds read no
  // other CTA, and the other CTAs take their elements at the digit's floor at once (they hold none
  // in it). The shares stay those of the digit; the holder's takes fewer words, and CTA 0 learns
  // how many and the holder's digit (take_split_floor).
  DS_DEV Extremes load_resident_best_digits(int part, int keep) {
    const bool alternate = digit_histograms_alternate(part, room());
    u32* hist = nullptr;
    // Keys k with floor <= k <= floor + span are counted; after the last round, the floor's digit.
    u32 floor = 0u;
    u32 span = ~0u;
    int shift = T::kKeyBits - kDigitBits;
    u32 want = u32(keep);
    u32 cluster_taken = 0;  // the cluster's elements at or above the floor
    u32 lower = 0;          // those in the CTAs of lower rank
    bool alone = false;     // this CTA held the floor's digit and split it alone
    // Before the rounds' cluster barriers, after which a holder may tell CTA 0.
    if (rank == 0u && threadIdx.x == 0) scratch.split.told = 0u;
    for (int round = 0;; ++round) {
      // The other CTAs read the last round's histogram until they have its floor.
      if (round > 0 && !alternate) cluster_sync_local();
      hist = digit_histogram(part, round);
      count_digits(part, hist, floor, span, shift);
      const u32 nan_digit = (nan_key ^ invert) >> shift;
      if (round == 0) saw_nan |= hist[nan_digit] != 0u;
      // With nothing to keep the part is read for NaN alone; what it takes is dropped.
      if (keep == 0) break;
      const u32 digit = digit_floor(hist, want, round == 0 ? nan_digit : ~0u);
      const RadixRange next = digit_range(RadixRange{floor, span}, digit, shift);
      floor = u32(next.low);
      span = u32(next.span);
      DS_PHASE(9);
      cluster_taken = u32(keep) - scratch.radix.want + scratch.radix.in_digit;
      lower += scratch.lower_above_digit;
      // A later round while the first would take more than half of CTA 0's buffer, and the
      // second more than the shares can be known for (a plateau: the third's digit is one key).
      const u32 most = round == 0 ? u32(kCapacity / 2) : u32(min(part, kCapacity));
      if (shift == 0 || cluster_taken <= most) break;
      want = scratch.radix.want;
      shift = max(shift - kDigitBits, 0);
      if (scratch.most_in_digit == scratch.radix.in_digit) {
        alone = hist[digit] != 0u;
        // The holder counts into the next round's histogram, once the others have read this one
        // where it is the same.
        if (!alternate) cluster_sync_local();
        hist = digit_histogram(part, round + 1);
        break;
      }
    }
    const u32 shared_taken = cluster_taken;
    if (alone) {
      const int2 bounds = part_bounds(part);
      const AloneFloor split =
          split_digit_alone(staged_part(part) - bounds.x, bounds.x / kVec, max(bounds.x, head),
                            bounds.y, hist, nan_key, invert, AloneFloor{floor, span, cluster_taken},
                            shift, want, u32(keep), u32(min(part, kCapacity)), scratch.radix);
      floor = split.floor;
      span = split.span;
      cluster_taken = split.taken;
    }
    // Shares that fit below CTA 0's histogram may be stored there while the cluster reads it.
    shares_known = keep > 0 && shared_taken <= u32(min(part, kCapacity));
    // Otherwise, on a floor of one key: the row keeps its words of lowest column, and the CTAs'
    // parts are column ranges in rank order, so a CTA whose lower ranks hold as many of them as
    // are wanted takes none (the cluster then takes at most one CTA's more than it wants, where
    // the whole plateau took a select across the cluster: bench/results/NOTES.md, v77), and the
    // shares are counted after the take (cluster_total).
    const bool floor_key_unwanted =
        keep > 0 && !shares_known && span == 0u && scratch.lower_in_digit >= scratch.radix.want;
    if (shares_known) {
      before_me = int(lower + scratch.lower_in_digit);
      known_total = int(shared_taken);
      floor_bin = key_bounds(floor, floor + span);
      want_in_floor_bin = scratch.radix.want;
    }
    // 32-bit compares in the take loop (64-bit ones cost the rows that never pin the key 1-3%:
    // v79); a floor key of all ones that is unwanted takes nothing.
    const u32 lowest_taken = floor + (floor_key_unwanted ? 1u : 0u);
    const u32 takes = floor_key_unwanted && lowest_taken == 0u ? 0u : ~0u;
    auto reaching_floor = [&](int, const uint4(&vectors)[kResidentInFlight], u32 valid) {
      u32 taken = 0;
#pragma unroll
      for (int bit = 0; bit < kRoundBits; ++bit)
        taken |= u32(round_key(vectors, bit) >= lowest_taken) << bit;
      return taken & valid & takes;
    };
    DS_PHASE(16);
    const Extremes bounds = load_resident_taking(part, reaching_floor);
    // The holder's share keeps unused slots (its take is uniform in its threads by now); CTA 0
    // learns where with the shares (send_share).
    tells_split = alone && shares_known;
    if (tells_split && threadIdx.x == 0) {
      scratch.split = SplitFloor{1u,   u32(before_me + count), shared_taken - cluster_taken, floor,
                                 span, scratch.radix.want};
    }
    return bounds;
  }

  // Each warp's sums of the histogram's counts per 32 digits, past its kDigitBins counts.
  DS_DEV static void sum_digit_groups(u32* hist) {
    for (int group = int(warp_id()); group < kDigitGroups; group += kWarps) {
      const u32 sum = __reduce_add_sync(0xffffffffu, hist[group * 32 + int(lane_id())]);
      if (lane_id() == 0u) hist[kDigitBins + group] = sum;
    }
  }

  // A digit floor's range [floor, floor + span] and the cluster's elements at or above it.
  struct AloneFloor {
    u32 floor;
    u32 span;
    u32 taken;
  };

  // The holder's rounds of load_resident_best_digits over its part alone, from `from` (the digit
  // it holds) with `shift` and `want` for the next: each counts the part's keys in the range by
  // their next kDigitBits bits, and the digit where the count from the top reaches want (this
  // CTA's counts are the cluster's there) becomes the range, until the cluster takes at most
  // `most` or the digit is one key; scratch's want is the last digit's. Out of line, so that the
  // rounds, which few rows take, cost the kernel's other paths no registers or code in their way:
  // in line they made every digit kernel's rows 2-9% slower (bench/results/NOTES.md, v121-v122).
  // In kernels without their scan (rows=whole) the other rows ran within -0.4..+1.3% (bf16 at
  // k = 64 +2.2%), the ascending ones -7..-10% (v131).
  static __device__ __noinline__ AloneFloor split_digit_alone(
      const Raw* staged, int first_vector, int valid_lo, int hi, u32* hist, u32 nan_key, u32 invert,
      AloneFloor from, int shift, u32 want, u32 keep, u32 most, RadixScratch& radix) {
    static_assert(kDigitGroups == 64, "a lane reads two groups' sums");
    const u32 hist_at = shared_address(hist);
    for (;;) {
      for (int i = threadIdx.x; i < kDigitBins; i += kThreads) hist[i] = 0u;
      __syncthreads();
      for (int v = first_vector + int(threadIdx.x); v * kVec < hi; v += kThreads) {
        const uint4 vector = *reinterpret_cast<const uint4*>(staged + v * kVec);
#pragma unroll
        for (int j = 0; j < kVec; ++j) {
          const int e = v * kVec + j;
          const u32 offset = key_of<T>(element_of(vector, j), nan_key, invert) - from.floor;
          if (e >= valid_lo && e < hi && offset <= from.span)
            add_one_shared(hist_at + ((offset >> shift) << 2));
        }
      }
      __syncthreads();
      sum_digit_groups(hist);
      __syncthreads();
      if (warp_id() == 0u) {
        const u32 lane = lane_id();
        const u32 groups[2] = {hist[kDigitBins + lane * 2u], hist[kDigitBins + lane * 2u + 1u]};
        locate_digit(groups, want, 0u, radix);
        __syncwarp();
        const u32 group = radix.digit;
        const u32 want_in_group = radix.want;
        __syncwarp();
        const u32 bins[1] = {hist[group * 32u + lane]};
        locate_digit(bins, want_in_group, group * 32u, radix);
      }
      __syncthreads();
      const RadixRange next = digit_range(RadixRange{from.floor, from.span}, radix.digit, shift);
      from = AloneFloor{u32(next.low), u32(next.span), keep - radix.want + radix.in_digit};
      if (shift == 0 || from.taken <= most) return from;
      want = radix.want;
      shift = max(shift - kDigitBits, 0);
    }
  }

  // Counts this CTA's keys in [floor, floor + span] into `hist`, cleared first, by their bits from
  // `shift` up (all its threads must call it; the counts are complete when it returns).
  DS_DEV void count_digits(int part, u32* hist, u32 floor, u32 span, int shift) {
    const u32 hist_at = shared_address(hist);
    for (int i = threadIdx.x; i < kDigitBins; i += kThreads) hist[i] = 0u;
    __syncthreads();
    DS_PHASE(1);
    for_staged_vectors(part, [&](const uint4& vector, u32 valid) {
#pragma unroll
      for (int j = 0; j < kVec; ++j) {
        const u32 offset = key_of<T>(element_of(vector, j), nan_key, invert) - floor;
        if (((valid >> j) & 1u) != 0u && offset <= span)
          add_one_shared(hist_at + ((offset >> shift) << 2));
      }
    });
    __syncthreads();
    DS_PHASE(8);
  }

  // The digit where the count from the top, over the cluster's histograms (each CTA's counted
  // into `hist`, complete), reaches want (1 <= want <= their total; all the cluster's CTAs must
  // call it), with scratch.radix's want and in_digit as locate_digit leaves them. Each CTA sums
  // its own counts per 32 digits; after one cluster barrier warp 0 of every CTA reads the
  // cluster's sums, finds the 32 digits where the count from the top reaches want, then reads
  // their counts and finds the digit. The other CTAs read `hist` until they return from it.
  // The counts of the CTAs of lower rank above the digit and in it, and the most that one CTA
  // holds in it, go to scratch, and saw_nan is set where any CTA counted a key in nan_digit
  // (none: ~0).
  DS_DEV u32 digit_floor(u32* hist, u32 want, u32 nan_digit) {
    static_assert(kDigitGroups == 64, "a lane reads two groups' sums");
    sum_digit_groups(hist);
    cluster_sync_local();
    if (warp_id() == 0u) {
      const u32 lane = lane_id();
      // The cluster's sum of words[index] over its CTAs' copies; `lower` gets the lower ranks',
      // `most` the largest one CTA's.
      auto cluster_sum = [&](const u32* words, u32 index, u32& lower, u32& most) {
        u32 sum = 0;
        lower = 0;
        most = 0;
#pragma unroll
        for (u32 r = 0; r < u32(kCluster); ++r) {
          const u32 word = peer_shared(words, r)[index];
          sum += word;
          lower += r < rank ? word : 0u;
          most = max(most, word);
        }
        return sum;
      };
      // Read beside the group sums, looked at last: a remote round of its own otherwise.
      const u32 nan_count = nan_digit != ~0u ? lane_reads_cta(hist + nan_digit) : 0u;
      u32 lower_groups[2];
      u32 unused_most;
      const u32* group_sums = hist + kDigitBins;
      const u32 groups[2] = {cluster_sum(group_sums, lane * 2u, lower_groups[0], unused_most),
                             cluster_sum(group_sums, lane * 2u + 1u, lower_groups[1], unused_most)};
      locate_digit(groups, want, 0u, scratch.radix);
      __syncwarp();
      const u32 group = scratch.radix.digit;
      const u32 want_in_group = scratch.radix.want;
      __syncwarp();
      u32 lower_bin;
      u32 most_bin;
      const u32 bins[1] = {cluster_sum(hist, group * 32u + lane, lower_bin, most_bin)};
      locate_digit(bins, want_in_group, group * 32u, scratch.radix);
      __syncwarp();
      const u32 digit_lane = scratch.radix.digit - group * 32u;
      const u32 lower_above = (lane * 2u > group ? lower_groups[0] : 0u) +
                              (lane * 2u + 1u > group ? lower_groups[1] : 0u) +
                              (lane > digit_lane ? lower_bin : 0u);
      const u32 lower_in = __shfl_sync(0xffffffffu, lower_bin, digit_lane);
      const u32 most_in = __shfl_sync(0xffffffffu, most_bin, digit_lane);
      const u32 lower_above_sum = __reduce_add_sync(0xffffffffu, lower_above);
      if (lane == 0u) {
        scratch.lower_above_digit = lower_above_sum;
        scratch.lower_in_digit = lower_in;
        scratch.most_in_digit = most_in;
      }
      saw_nan |= __any_sync(0xffffffffu, nan_count != 0u);
    }
    __syncthreads();
    return scratch.radix.digit;
  }

  // The candidates of the whole cluster (all its CTAs must call it): each CTA publishes its
  // count and whether it saw NaN, and reads every CTA's after a cluster barrier (saw_nan then
  // covers the cluster; before_me counts the lower ranks' candidates).
  DS_DEV int cluster_total() {
    constexpr u32 kSawNan = 1u << 31;
    const bool block_saw_nan = __syncthreads_or(saw_nan) != 0;
    if (threadIdx.x == 0) scratch.final_count = u32(count) | (block_saw_nan ? kSawNan : 0u);
    cluster_sync_local();
    const u32 published = lane_reads_cta(&scratch.final_count);
    const u32 theirs = published & ~kSawNan;
    saw_nan |= __any_sync(0xffffffffu, (published & kSawNan) != 0u);
    return place_shares(theirs);
  }

  // CTA r's copy of `word` in lane r (0 past the cluster), so that the cluster's remote reads are
  // in flight together.
  DS_DEV u32 lane_reads_cta(u32* word) const {
    const u32 lane = lane_id();
    return lane < u32(kCluster) ? *peer_shared(word, lane) : 0u;
  }

  // The cluster's sum of its CTAs' shares, lane r holding CTA r's; before_me becomes the sum of
  // the lower ranks'.
  DS_DEV int place_shares(u32 lane_share) {
    before_me = int(__reduce_add_sync(0xffffffffu, lane_id() < rank ? lane_share : 0u));
    return int(__reduce_add_sync(0xffffffffu, lane_share));
  }

  // After cluster_total (or a digit floor that knew the shares): the cluster's `total` candidates
  // are placed in CTA 0's buffer, in rank order, and CTA 0 selects the best `keep` of them. When
  // they do not fit its buffer, the cluster's CTAs first select the best `keep` together (one
  // radix select with histograms summed over the cluster) and each keeps its share in place.
  // Each other CTA stores its share into CTA 0's buffer itself (stores into distributed shared
  // memory do not wait for a reply, which CTA 0's loads of the peers' shares did:
  // bench/results/NOTES.md, nineteenth session), asynchronously (send_share). Returns false in
  // the other CTAs, once every CTA has passed its last read of a peer; CTA 0 then holds
  // min(keep, total) candidates, and waits for that before it leaves (run).
  DS_DEV bool select_across_cluster(int keep, int total) {
    const bool selecting = total > keep && total > kCapacity;
    if (selecting) {
      const Extremes mine = strided_extremes<kThreads>(cand, count);
      keep_at_or_above(
          radix_select<kThreads, kCluster>(cand, count, u32(keep), 0u, mine, scratch.radix));
      if (threadIdx.x == 0) scratch.kept_count = u32(count);
      cluster_sync_local();
      // The shares are the kept words now.
      total = place_shares(lane_reads_cta(&scratch.kept_count));
    }
    // No CTA reads a peer's shared memory past here; each leaves once all have said so.
    cluster_arrive_relaxed();
    if (rank != 0u) {
      // The words that this CTA's other threads took: no cluster_total barrier came between.
      if (shares_known) __syncthreads();
      send_share();
      DS_PHASE(17);
      cluster_wait();
      return false;
    }
    // The final select's passes start on a clear first histogram (kSendsBounds: radix_passes
    // after the barriers below; the floor bin's select).
    if (kSendsBounds || (kSelectsInFloorBin && shares_known))
      clear_first_hist<kThreads>(scratch.radix);
    // CTA 0's own bounds, while the shares are on their way.
    Extremes bounds;
    if constexpr (kSendsBounds)
      bounds = block_extremes<kThreads>(strided_extremes<kThreads>(cand, count), scratch.radix);
    count = total;
    // CTA 0 reads its buffer once every share has landed: no cluster barrier, whose release
    // waits on a GPU-wide membar, but each CTA's arrival with the bytes it stores.
    __syncthreads();
    if (threadIdx.x == 0) mbarrier_arrive_local(&scratch.gathered);
    mbarrier_wait(&scratch.gathered, 0u);
    DS_PHASE(5);
    if (shares_known && scratch.split.told != 0u) take_split_floor();
    if (count > keep) {
      if (kRanksFinalSelect && count <= kThreads) {
        select_by_rank(keep);
      } else if (kSelectsInFloorBin && shares_known) {  // only those kernels carry the select
        select_in_floor_bin();
      } else if constexpr (kSendsBounds) {
        for (u32 r = 1; r < u32(kCluster); ++r)
          bounds.add(scratch.radix.warp_min[kWarps + r], scratch.radix.warp_max[kWarps + r]);
        keep_at_or_above(radix_passes<kThreads, 1, kRankSmallBins>(cand, count, u32(keep), 0u,
                                                                   bounds, scratch.radix));
      } else {
        // The last select: no threshold to raise (its block-wide minimum and barrier cost
        // decode-b64 and bf16-b6 ~2%: bench/results/NOTES.md, Change 78c).
        keep_best(keep, 0u, buffer_extremes());
      }
    }
    DS_PHASE(6);
    return true;
  }

  // A CTA other than CTA 0: its candidates into CTA 0's buffer from before_me on, with what it
  // tells of a digit it split alone, or its candidates' bounds (kSendsBounds), by stores that
  // complete on CTA 0's `gathered`, at which thread 0 arrives expecting their bytes (they may land
  // before it: the count goes below zero until it does).
  DS_DEV void send_share() {
    const u32 gathered = peer_address(&scratch.gathered, 0u);
    const u32 destination = peer_address(cand, 0u) + u32(before_me) * 8u;
    Extremes mine;
    for (int i = threadIdx.x; i < count; i += kThreads) {
      const u64 word = cand[i];
      st_async_u64(destination + u32(i) * 8u, word, gathered);
      if constexpr (kSendsBounds) mine.add(word, word);
    }
    if constexpr (kSendsBounds) {
      const Extremes share = block_extremes<kThreads>(mine, scratch.radix);
      if (threadIdx.x == 0) {
        const u32 slot = u32(kWarps) + rank;
        st_async_u64(peer_address(&scratch.radix.warp_min[slot], 0u), share.low, gathered);
        st_async_u64(peer_address(&scratch.radix.warp_max[slot], 0u), share.high, gathered);
      }
    }
    if (threadIdx.x == 0) {
      u32 bytes = u32(count) * 8u + (kSendsBounds ? 16u : 0u);
      if (tells_split) {
        constexpr int kWords = int(sizeof(SplitFloor) / 8);
        const u32 told = peer_address(&scratch.split, 0u);
        for (int j = 0; j < kWords; ++j) {
          u64 word;
          memcpy(&word, reinterpret_cast<const unsigned char*>(&scratch.split) + j * 8, 8);
          st_async_u64(told + u32(j) * 8u, word, gathered);
        }
        bytes += u32(sizeof(SplitFloor));
      }
      mbarrier_arrive_expecting(gathered, bytes);
    }
  }

  // CTA 0, where a CTA split the floor's digit alone (load_resident_best_digits): the words past
  // that CTA's unused slots move down over them, and the select starts from the digit it split to.
  DS_DEV void take_split_floor() {
    const SplitFloor told = scratch.split;
    count = close_gap(cand, count, int(told.gap_at), int(told.gap));
    floor_bin = key_bounds(told.floor, told.floor + told.span);
    want_in_floor_bin = told.want;
  }

  // Moves the words of cand[at + gap .. count) down over the gap and returns the words left
  // (out of line, as split_digit_alone).
  static __device__ __noinline__ int close_gap(u64* cand, int count, int at, int gap) {
    for (int base = at; base + gap < count; base += kThreads) {
      const int i = base + int(threadIdx.x);
      const bool moves = i + gap < count;
      const u64 word = moves ? cand[i + gap] : 0ull;
      __syncthreads();
      if (moves) cand[i] = word;
    }
    __syncthreads();
    return count - gap;
  }

  DS_DEV void write_outputs(int selected) {
    const bool by_value = (p.flags & kFlagOrderByValue) != 0u;
    const bool by_index = (p.flags & kFlagOrderByIndex) != 0u;
    if ((by_value || by_index) && selected > 1)
      bitonic_sort_descending<kThreads>(cand, selected, by_index);
    DS_PHASE(20);
    write_slots(selected, [&](int slot) { return candidate_column(cand[slot]); });
  }

  // Writes the outputs of slots 0..p.k - 1: slot s < selected gets column column_of(s), the rest
  // the fill. Values, where the call wants them, come from cand[s]: a caller without candidates
  // must not want values.
  template <class ColumnOf>
  DS_DEV void write_slots(int selected, ColumnOf column_of) {
    const i64 offset = p.index_offset != nullptr ? i64(p.index_offset[row]) : 0;
    const bool index64 = (p.flags & kFlagIndex64) != 0u;
    const PageRow pages = page_row();
    for (int slot = threadIdx.x; slot < p.k; slot += kThreads) {
      i64 index = p.fill_index;
      i64 raw_index = p.fill_index;
      u32 value = p.fill_value_bits;
      if (slot < selected) {
        raw_index = i64(column_of(slot)) + offset;
        index = kEpilogue == kEpiloguePageTable ? pages.translate(raw_index, p) : raw_index;
        if (p.values != nullptr) value = value_of(cand[slot]);
      }
      store_index(p.indices, p.ld_idx, slot, index, index64);
      if (kEpilogue == kEpiloguePageTable && p.raw_indices != nullptr)
        store_index(p.raw_indices, p.ld_raw, slot, raw_index, index64);
      if (p.values != nullptr) static_cast<Raw*>(p.values)[i64(row) * p.ld_val + slot] = Raw(value);
    }
  }

  // The raw bits of the element that candidate c stands for: from its key, except where the key
  // stands for several (both zeros, every NaN), read back from the row.
  DS_DEV u32 value_of(u64 c) const {
    const u32 key = u32(c >> 32) ^ invert;
    if (key == T::kSign || key == nan_key) return u32(row_x[candidate_column(c)]);
    return raw_of_key<T>(key);
  }

  DS_DEV void store_index(void* base, i64 ld, int slot, i64 index, bool index64) const {
    if (index64) {
      static_cast<i64*>(base)[i64(row) * ld + slot] = index;
    } else {
      static_cast<int*>(base)[i64(row) * ld + slot] = int(index);
    }
  }

  // The page-table row of this row's batch entry; null when the batch is outside the table.
  struct PageRow {
    const int* entries;
    DS_DEV i64 translate(i64 index, const TopkParams& params) const {
      if (entries == nullptr || index < 0) return -1;
      const i64 page = index / params.page_size;
      if (page >= params.page_table_cols) return -1;
      const int entry = entries[page];
      return entry < 0 ? -1 : i64(entry) * params.page_size + index % params.page_size;
    }
  };

  DS_DEV PageRow page_row() const {
    if (kEpilogue != kEpiloguePageTable) return PageRow{nullptr};
    const i64 batch = p.row_to_batch != nullptr ? i64(p.row_to_batch[row]) : i64(row / p.next_n);
    if (batch < 0 || batch >= p.page_table_rows) return PageRow{nullptr};
    return PageRow{p.page_table + batch * p.ld_page_table};
  }

  // The row's [begin, end) as the call gives it; run() clamps both to [0, n]. The decode form's
  // end is clamped here already, since it is computed in 64 bits.
  DS_DEV int2 requested_bounds() const {
    if (kBounds == kBoundsDecode) {
      const int length = p.seq_lens[row / p.next_n];
      const i64 end = i64(length) - p.next_n + row % p.next_n + 1;
      return make_int2(0, int(max(min(end, i64(p.n)), i64(0))));
    }
    return make_int2(p.begin != nullptr ? p.begin[row] : 0, p.end != nullptr ? p.end[row] : p.n);
  }

  DS_DEV void start_scan(int keep) {
    count = 0;
    // With nothing to keep, scan only to look for NaN: a threshold nothing beats.
    threshold = keep > 0 ? 0ull : ~0ull;
    limit = keep > 0 ? Threshold::everything() : Threshold::nothing();
  }

  DS_DEV void run() {
    const int n = p.n;
    const int2 bounds = requested_bounds();
    const int begin = min(max(bounds.x, 0), n);
    const int end = max(min(max(bounds.y, 0), n), begin);
    const int length = end - begin;
    DS_PHASE(0);
    const int k_row = p.k_per_row != nullptr ? min(max(p.k_per_row[row], 0), p.k) : p.k;
    const int keep = min(k_row, length);
    check_nan = p.row_status != nullptr;
    // A row that k takes whole, wanted for its indices alone, in column order (which is what a
    // lone CTA's whole load below would leave for `unsorted` too): written without reading it.
    // Every row of a causal prefill up to k columns long is such a row at DSA's k. Clusters
    // serve calls of few rows, which take the general path.
    if constexpr (kCluster == 1) {
      const bool must_read_row =
          p.values != nullptr || check_nan || (p.flags & kFlagOrderByValue) != 0u;
      if (keep == length && !must_read_row) {
        write_slots(length, [&](int slot) { return u32(begin + slot); });
        return;
      }
    }

    first = begin;
    nan_key = nan_key_for<T>((p.flags & kFlagNanSmallest) != 0u);
    invert = invert_for<T>((p.flags & kFlagLargest) != 0u);
    head = int((reinterpret_cast<unsigned long long>(row_x + begin) & 15ull) / T::kBytes);
    span = length > 0 ? head + length : 0;
    parity = 0;
    saw_nan = false;
    orient = (p.flags & kFlagLargest) != 0u ? 1.0f : -1.0f;
    // A part of the row that fits the buffer whole is loaded at once, filtered by the sample's
    // threshold (no scan), and selected once (over the cluster's parts when the row is split).
    const int part = resident_part();
    constexpr bool kWholeRows = kRowPath == kRowsWhole;
    const bool resident = kWholeRows || (kRowPath == kRowsAny && resident_fits(part));
    const bool reading = keep > 0 || check_nan;  // with nothing to keep, only NaN is looked for
    int total = 0;
    shares_known = false;
    tells_split = false;
    if (kCluster > 1 && rank == 0u && threadIdx.x == 0)
      mbarrier_init_for_cluster(&scratch.gathered, u32(kCluster));
    for (bool sample = keep > 0;; sample = false) {
      start_scan(keep);
      bool sampled = false;
      if (resident && reading) {
        if constexpr (kStagedParts) stage_part(part);
        Extremes loaded;
        if constexpr (kDigitFloor) {
          loaded = load_resident_best_digits(part, keep);
        } else {
          const int2 prefetched = kStagedParts ? make_int2(0, 0) : part_bounds(part);
          sampled = sample && sample_threshold(
                                  keep, [] {}, prefetched.x, prefetched.y);
          DS_PHASE(1);
          // Unsampled, the filter's threshold takes every element; a lone CTA takes them
          // through a direct loop, a cluster's through the filter (its kernel has no registers
          // to spare for a second loop).
          loaded =
              sampled || kCluster > 1 ? load_resident_filtered(part) : load_resident_whole(part);
        }
        DS_PHASE(2);
        if (keep == 0) count = 0;
        if (kCluster == 1 && count > keep) last_select(keep, loaded);
      } else if constexpr (!kWholeRows) {
        if (reading) {
          sampled = scan(keep, sample);
          DS_PHASE(2);
          // A cluster's CTA leaves its candidates to CTA 0's select while its share of CTA 0's
          // buffer holds them: the threshold's spread put some CTA of decode-b64's 128 above k in
          // nearly every call, and its compaction held up the call (bench/results/NOTES.md,
          // twenty-fourth session).
          if (count > (kCluster > 1 ? max(keep, kCapacity / kCluster) : keep))
            last_select(keep, buffer_extremes());
        }
      }
      DS_PHASE(3);
      total = shares_known ? known_total : kCluster > 1 ? cluster_total() : count;
      DS_PHASE(4);
      if (!sampled || total >= keep) break;
      DS_COUNT(3);
      // Fewer than keep beat the sample's threshold (a sample that misled): again without it,
      // once every CTA of the cluster has read the counts.
      if (kCluster > 1) {
        cluster_sync_local();
      } else {
        __syncthreads();
      }
    }
    if (kCluster > 1 && !select_across_cluster(keep, total)) return;
    __syncthreads();
    DS_PHASE(19);
    write_outputs(min(count, keep));
    const bool row_has_nan = __syncthreads_or(saw_nan) != 0;
    if (check_nan && threadIdx.x == 0) p.row_status[row] = row_has_nan ? 1 : 0;
    DS_PHASE(7);
    if constexpr (kCluster > 1) cluster_wait();  // the barrier select_across_cluster arrived at
  }
};

template <class T, int kKMax, int kB, int kB2, int kThreads, int kCluster, int kStages, int kBounds,
          int kEpilogue, int kRowPath = kRowsAny>
DS_DEV void topk_row(const TopkParams& params) {
  typedef TopkRow<T, kKMax, kB, kB2, kThreads, kCluster, kStages, kBounds, kEpilogue, kRowPath> Row;
  start_after_prior_grids();
  // 128-byte aligned, not at the end of the scratch: at 16 mod 32 bytes (the scratch's size)
  // the scanned shapes ran 3-11% slower (bench/results/NOTES.md, fifteenth session).
  extern __shared__ __align__(128) unsigned char dynamic_smem[];
  __shared__ TopkScratch<kThreads> scratch;
  static_assert(kThreads != 256 || sizeof(scratch) <= 3072,
                "src/codegen.cpp blocks_per_sm counts on 3 KB of static scratch at 256 threads");
  // Lone CTAs take the last row first: in a causal batch (row i covering prefix + i + 1 columns)
  // the longest rows then start first, and the short ones fill the SMs that finish early at the
  // end. Clusters serve a few rows in one wave, where the order does not matter.
  const int row = int(kCluster == 1 ? gridDim.x - 1u - blockIdx.x : blockIdx.x / kCluster);
  Row state = {params,
               reinterpret_cast<u64*>(dynamic_smem),
               reinterpret_cast<typename T::Raw*>(dynamic_smem + sizeof(u64) * Row::kCapacity),
               scratch,
               static_cast<const typename T::Raw*>(params.x) + i64(row) * params.ld,
               row,
               kCluster > 1 ? cluster_rank() : 0u};
  state.run();
}

}  // namespace ds
