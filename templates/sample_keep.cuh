// The row sample that sets a scan's first threshold: where its elements lie and how many of them
// the threshold keeps. The kernel's rule, which the CPU model of the scan (tests/scan_model.cpp)
// follows too.
#pragma once
#include "block_order.cuh"
#if !defined(__CUDACC__)
#include <math.h>
#endif

namespace ds {

// Elements a sample reads at most: one 16-byte vector from each of kSampleElements / kVec equal
// stretches of the row, at most one per kSampleStretch vectors.
static const int kSampleElements = 4096;
static const int kSampleStretch = 8;
static const int kSampleMinPoints = 64;

// A sample of `sampled` of the row's `total` elements, were it uniform, holds about keep *
// sampled / total of the row's best keep. Keeping that many of the sample's best plus five
// standard deviations and 8 sets a threshold that at least keep of the row beat, unless the
// sample misled (about one row in 10^6 of rows with independent elements; more often where a
// vector's neighbouring elements rank alike, since each point reads a whole vector): the scan
// then ends with fewer than keep candidates and the row is scanned again without it.
DS_HD int sample_keep(int keep, int sampled, int total) {
  const float expected = float(keep) * float(sampled) / float(total > sampled ? total : sampled);
  const int margin = int(expected + 5.0f * sqrtf(expected)) + 8;
  return keep < margin ? keep : margin;
}

struct RowSample {
  int points;   // 16-byte vectors read; 0 when the row is too short for a sample to pay
  int want;     // the sample's best ones that the threshold keeps
  u32 stretch;  // vectors / points: the first `longer` points' stretches have one more vector
  u32 longer;
};

// The sample of a row of `vectors` whole 16-byte vectors of `vec` elements each, `total`
// elements in all, for a buffer of `capacity` words. A sample that keeps more than a quarter of
// itself would filter little.
DS_HD RowSample plan_sample(int keep, int vectors, int vec, int total, int capacity) {
  const int by_stretch = vectors / kSampleStretch;
  const int most = (capacity < kSampleElements ? capacity : kSampleElements) / vec;
  const int points = by_stretch < most ? by_stretch : most;
  if (keep <= 0 || points < kSampleMinPoints) return RowSample{0, 0, 0u, 0u};
  const int want = sample_keep(keep, points * vec, total);
  if (4 * want > points * vec) return RowSample{0, 0, 0u, 0u};
  return RowSample{points, want, u32(vectors / points), u32(vectors % points)};
}

// The vector (0 <= v < vectors) of sample point `point`: a pseudo-random place in the point's
// stretch of the row, so that rows whose values follow their columns (ascending, periodic) are
// sampled evenly, and random rows uniformly.
DS_HD u32 sample_vector(u32 point, const RowSample& sample, u32 seed) {
  const u32 lo = point * sample.stretch + (point < sample.longer ? point : sample.longer);
  const u32 length = sample.stretch + (point < sample.longer ? 1u : 0u);
  const u32 hash = mix32(seed ^ (point * 0x9e3779b9u));
  return lo + u32((u64(hash) * length) >> 32);
}

}  // namespace ds
