// The result check of `deepselect bench`: one call on buffer 0 with poisoned outputs, a sample
// of its rows compared with the CPU reference.
#pragma once

#include <cuda.h>

#include <string>

#include "bench_inputs.hpp"
#include "bench_suite.hpp"

namespace deepselect::cli {

// Empty when up to 16 rows spread over the shape (the first and last among them) hold exactly
// what reference_topk says (unsorted rows as sets) and nothing was written past the output;
// otherwise the first difference. pdl: the call launches as `bench --pdl` times it.
std::string check_topk(const BenchShape& shape, int k, const BenchInputs& inputs, bool pdl,
                       CUstream stream);

}  // namespace deepselect::cli
