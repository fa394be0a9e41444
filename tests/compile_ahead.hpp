// The kernels of a list of GPU test cases, compiled ahead on every hardware thread: run one at a
// time, each case that is the first to use a kernel waits for NVRTC alone, and those waits were
// most of a GPU check's time (bench/results/NOTES.md, ninth session).
#pragma once

#include <vector>

#include "plan.hpp"
#include "spec.hpp"
#include "topk_case.hpp"

namespace deepselect::testing {

// The distinct specs that topk() plans for the cases on `device`, in the cases' order. A case
// the call refuses before planning (no rows, k outside the buckets) adds none.
std::vector<KernelSpec> planned_kernels(const std::vector<CaseSpec>& cases,
                                        const DeviceInfo& device);

// Compiles planned_kernels for the current context's GPU into the global cubin store, several at
// once. A head start only: a kernel that fails to compile here fails again in its case's call,
// which reports it.
void compile_ahead(const std::vector<CaseSpec>& cases);

}  // namespace deepselect::testing
