// Element values of the docs/workloads.md distributions, shared by tuning (src/tuner.cpp), which
// times candidates on them, and the tests' and benchmark's generator (tests/data_gen.cpp). The
// random draws are the caller's; the formulas are here.
#pragma once

#include <algorithm>
#include <cstddef>

namespace deepselect {

// Attention scores after a ReLU: about 90% zeros, a plateau at the threshold.
inline double relu_ties_value(double normal_draw) {
  return std::max(0.0, normal_draw - 1.28);
}

// A row whose values rise (or fall) linearly with the column, over [-4, 4).
inline double ascending_value(size_t column, size_t columns) {
  return -4.0 + 8.0 * static_cast<double>(column) / static_cast<double>(columns);
}
inline double descending_value(size_t column, size_t columns) {
  return 4.0 - 8.0 * static_cast<double>(column) / static_cast<double>(columns);
}

}  // namespace deepselect
