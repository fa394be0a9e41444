// The GPU side of `deepselect bench`: device facts, and per-call times measured the way
// docs/workloads.md asks (buffers in rotation, one CUDA graph of many calls, event-timed
// replays, the median).
#pragma once

#include <cuda.h>

#include <cstddef>
#include <functional>
#include <string>

#include "spec.hpp"

namespace deepselect::cli {

struct GpuInfo {
  std::string name;
  int sms = 0;
  int cc_major = 0;
  int cc_minor = 0;
  int driver_version = 0;  // CUDA_VERSION style: 12080 is 12.8

  // The kernel architecture (sm_90a, sm_100a); throws ArgumentError for other GPUs.
  Arch arch() const;
};

// The device of the current context.
GpuInfo query_gpu();

// Enqueues one timed call on input buffer `buffer` of a rotation, on stream.
using BufferCall = std::function<void(size_t buffer, CUstream stream)>;

struct Timing {
  double us_per_call = 0.0;  // the median over replays of (replay time / calls)
  size_t calls = 0;          // calls per replay: whole passes over the buffers
};

// Calls once outside any graph (loading its kernels), captures whole passes over the buffers
// into one graph on stream (a non-default stream) until a replay takes >= ~1 ms, replays it
// once more to warm up, then `replays` times, each between two events.
Timing time_calls(const BufferCall& call, size_t buffers, int replays, CUstream stream);

// Wall-clock milliseconds of fn() and a synchronization of stream after it.
double wall_ms(const std::function<void()>& fn, CUstream stream);

}  // namespace deepselect::cli
