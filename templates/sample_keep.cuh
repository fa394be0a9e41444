// How many candidates a scan's first compaction keeps: the kernel's rule, which the CPU model of
// the scan (tests/scan_model.cpp) follows too.
#pragma once
#include "common.cuh"
#if !defined(__CUDACC__)
#include <math.h>
#endif

namespace ds {

// The first compaction has seen `seen` elements (all of them in the buffer: the threshold let
// everything in) of at least `total` that the CTA scans. Were the seen ones a uniform sample,
// about keep * seen / total of them would beat the row's keep-th; keeping that many plus five
// standard deviations and 8, not keep, raises the threshold far above the seen ones' keep-th, and
// later blocks append a fraction of what they would. The result stays exact when the scan ends
// with keep candidates or more (all beat the raised threshold, so the best keep are among them);
// otherwise the row is scanned again without it (a row whose first blocks hold its largest
// values).
DS_HD int first_keep(int keep, int seen, int total) {
  const float expected = float(keep) * float(seen) / float(total > seen ? total : seen);
  const int margin = int(expected + 5.0f * sqrtf(expected)) + 8;
  return keep < margin ? keep : margin;
}

}  // namespace ds
