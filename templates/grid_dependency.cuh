// Programmatic dependent launch (PTX griddepcontrol, sm_90 and later). A grid launched with
// CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION may start before the previous kernel on
// its stream ends, once every CTA of that kernel has called griddepcontrol.launch_dependents or
// exited; griddepcontrol.wait then orders it after that kernel (for a grid launched without the
// attribute the wait returns at once). Every kernel of templates/ starts with
// start_after_prior_grids, so the attribute is the launch's choice alone (LaunchConfig::pdl).
#pragma once
#include "common.cuh"

namespace ds {

// Called by every thread before its first read or write of global memory: waits until the grids
// this one depends on have completed and their writes are visible. It never calls
// launch_dependents: a next grid launched with the attribute starts as this one's CTAs exit.
// Let start at every CTA's start, the next call made dsa-decode-b256 (ragged rows) 18% slower;
// started as CTAs exit, it lost on no suite shape (bench/results/NOTES.md, v80).
DS_DEV void start_after_prior_grids() {
  asm volatile("griddepcontrol.wait;\n" ::: "memory");
}

}  // namespace ds
