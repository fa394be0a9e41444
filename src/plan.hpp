// The planner: which kernel spec and launch shape serve a problem.
#pragma once

#include <vector>

#include "spec.hpp"

namespace deepselect {

// The spec for dtype and runtime k (1..4096) on arch: the smallest k bucket holding k.
KernelSpec plan_spec(DType dtype, int k, Arch arch);

// Every spec plan_spec can return for arch (what `precompile` builds by default).
std::vector<KernelSpec> planner_specs(Arch arch);

// The k buckets, ascending.
const std::vector<int>& k_buckets();

}  // namespace deepselect
