// The row sample that sets a scan's first threshold: where its elements lie and how many of them
// the threshold keeps. The kernel's rule, which the CPU model of the scan (tests/scan_model.cpp)
// follows too.
#pragma once
#include "block_order.cuh"
#if !defined(__CUDACC__)
#include <math.h>
#endif

namespace ds {

// Elements a sample reads at most: kSamplePlace adjacent elements (whole 16-byte vectors: 64 bytes
// of f32, 32 of bf16; a place) from each of the row's equal stretches, at most one vector per
// kSampleStretch of the row. Reading 64 bytes at a place costs DRAM what reading 16 does: many
// CTAs sampling at once are bound by the places they open (bench/scripts/sample_loads.cu: 264 CTAs
// of 1024 places of one vector 6.9 us, of 256 places of four 2.6 us). Wider places for bf16 made
// ascending rows slower (bench/results/NOTES.md, seventeenth session).
static const int kSampleElements = 4096;
static const int kSampleStretch = 8;
static const int kSamplePlace = 16;
static const int kSampleMinPoints = 64;

// A sample of `sampled` of the row's `total` elements, were it uniform, holds about keep *
// sampled / total of the row's best keep. Keeping that many of the sample's best plus five
// standard deviations and 8 sets a threshold that at least keep of the row beat, unless the
// sample misled (about one row in 10^6 of rows with independent elements; more often where
// neighbouring elements rank alike, since each place reads kSamplePlace of them): the scan then
// ends with fewer than keep candidates and the row is scanned again without it. In a row whose
// values strictly follow its columns, the threshold lies below a whole stretch of the row per
// place it passes: five deviations and 8 pass enough of them where keep expects more than ~3 of
// the sample's elements, and a margin of at least a place's elements and one (which the
// deviations exceed above that) passes one stretch, enough below it (a sweep of ~18M plans,
// bench/results/NOTES.md, seventeenth session). Ties ranked against their columns can still
// mislead there, which costs a second scan, not the result. At most keep + 1: the sample's keep
// best beat that one's word (a word never beats itself), which a sample holding the row's best
// keep (for keep = 1, one row in total / sampled) would not.
DS_HD int sample_keep(int keep, int sampled, int total) {
  const float expected = float(keep) * float(sampled) / float(total > sampled ? total : sampled);
  const float deviations = 5.0f * sqrtf(expected) + 8.0f;
  const float least = float(kSamplePlace + 1);
  const int margin = int(expected + (deviations > least ? deviations : least));
  return keep < margin ? keep + 1 : margin;
}

struct RowSample {
  int points;   // 16-byte vectors read, sample_group's at each place; 0 when the row is too
                // short for a sample to pay
  int want;     // the sample's best ones that the threshold keeps
  u32 stretch;  // vectors / places: the first `longer` places' stretches have one more vector
  u32 longer;
};

// The adjacent vectors of `vec` elements each (4 or 8) at a sample's place.
DS_HD u32 sample_group(int vec) {
  return u32(kSamplePlace / vec);
}

// The sample of a row of `vectors` whole 16-byte vectors of `vec` elements each, `total`
// elements in all, for a buffer of `capacity` words. A sample that keeps more than a quarter of
// itself would filter little.
DS_HD RowSample plan_sample(int keep, int vectors, int vec, int total, int capacity) {
  const int by_stretch = vectors / kSampleStretch;
  const int most = (capacity < kSampleElements ? capacity : kSampleElements) / vec;
  const int group = int(sample_group(vec));
  const int places = (by_stretch < most ? by_stretch : most) / group;
  const int points = places * group;
  if (keep <= 0 || points < kSampleMinPoints) return RowSample{0, 0, 0u, 0u};
  const int want = sample_keep(keep, points * vec, total);
  if (4 * want > points * vec) return RowSample{0, 0, 0u, 0u};
  return RowSample{points, want, u32(vectors / places), u32(vectors % places)};
}

// The vector (0 <= v < vectors) of the sample's `point`-th, for vectors of `vec` elements: vector
// point % group of the place point / group (sample_group), which lies at a pseudo-random place in
// its stretch of the row, so that rows whose values follow their columns (ascending, periodic) are
// sampled evenly, and random rows uniformly.
DS_HD u32 sample_vector(u32 point, const RowSample& sample, u32 seed, int vec) {
  const u32 group = sample_group(vec);
  const u32 place = point / group;
  const u32 lo = place * sample.stretch + (place < sample.longer ? place : sample.longer);
  const u32 length = sample.stretch + (place < sample.longer ? 1u : 0u);
  const u32 hash = mix32(seed ^ (place * 0x9e3779b9u));
  const u32 starts = length - group + 1u;
  return lo + u32((u64(hash) * starts) >> 32) + point % group;
}

}  // namespace ds
