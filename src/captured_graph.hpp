// A CUDA graph of what a function enqueues on a stream, captured and instantiated.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <functional>

namespace deepselect {

class CapturedGraph {
 public:
  // Captures everything record() enqueues on stream (thread-local capture mode), then
  // instantiates it. Throws Error when a step fails; a capture that record() left by throwing is
  // ended and dropped.
  CapturedGraph(CUstream stream, const std::function<void()>& record);
  ~CapturedGraph();
  CapturedGraph(const CapturedGraph&) = delete;
  CapturedGraph& operator=(const CapturedGraph&) = delete;

  void launch(CUstream stream) const;
  // Edges that let a kernel start before the one it follows ends: one between each two
  // consecutive kernels that the later one's launch asked for (LaunchConfig::pdl).
  size_t programmatic_edges() const;

 private:
  CUgraph graph_ = nullptr;
  CUgraphExec exec_ = nullptr;
};

}  // namespace deepselect
