// Per-call device time the way docs/workloads.md asks: input buffers in rotation, one CUDA
// graph of many calls, event-timed replays, the median. Used by `deepselect bench` and tuning.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <functional>

namespace deepselect {

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

}  // namespace deepselect
