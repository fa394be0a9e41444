// LaunchConfig: one launch's shape, a value type going to cuLaunchKernelEx.
#pragma once

#include <cuda.h>

#include "registry.hpp"

namespace deepselect {

struct LaunchConfig {
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  unsigned dynamic_smem_bytes = 0;
  unsigned cluster[3] = {1, 1, 1};  // all 1: no cluster attribute
  // Programmatic dependent launch: the grid may start while the previous kernel on the stream
  // runs. Every kernel of templates/ waits for that one first (templates/grid_dependency.cuh).
  bool pdl = false;
  CUstream stream = nullptr;

  LaunchConfig& with_grid(unsigned x, unsigned y = 1, unsigned z = 1);
  LaunchConfig& with_block(unsigned x, unsigned y = 1, unsigned z = 1);
  LaunchConfig& with_smem(unsigned bytes);
  LaunchConfig& with_cluster(unsigned x, unsigned y = 1, unsigned z = 1);
  LaunchConfig& with_pdl(bool allowed);
  LaunchConfig& on(CUstream launch_stream);
};

// Launches kernel with one by-value parameter struct. Throws Error on a failed launch.
void launch(const LoadedKernel& kernel, const LaunchConfig& config, void* params);

// Clusters of config's shape that the GPU holds at once running `function`
// (cuOccupancyMaxActiveClusters); none where it cannot run clusters of that size at all.
int max_active_clusters(CUfunction function, const LaunchConfig& config);

}  // namespace deepselect
