// The GPU side of `deepselect bench`: device facts (timing is in src/graph_timing.hpp).
#pragma once

#include <cuda.h>

#include <cstddef>
#include <functional>
#include <string>

#include "graph_timing.hpp"
#include "spec.hpp"

namespace deepselect::cli {

using deepselect::BufferCall;
using deepselect::Timing;

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

}  // namespace deepselect::cli
