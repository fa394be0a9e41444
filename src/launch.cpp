#include "launch.hpp"

#include "driver.hpp"

namespace deepselect {

LaunchConfig& LaunchConfig::with_grid(unsigned x, unsigned y, unsigned z) {
  grid[0] = x;
  grid[1] = y;
  grid[2] = z;
  return *this;
}

LaunchConfig& LaunchConfig::with_block(unsigned x, unsigned y, unsigned z) {
  block[0] = x;
  block[1] = y;
  block[2] = z;
  return *this;
}

LaunchConfig& LaunchConfig::with_smem(unsigned bytes) {
  dynamic_smem_bytes = bytes;
  return *this;
}

LaunchConfig& LaunchConfig::with_cluster(unsigned x, unsigned y, unsigned z) {
  cluster[0] = x;
  cluster[1] = y;
  cluster[2] = z;
  return *this;
}

LaunchConfig& LaunchConfig::on(CUstream launch_stream) {
  stream = launch_stream;
  return *this;
}

void launch(const LoadedKernel& kernel, const LaunchConfig& config, void* params) {
  CUlaunchAttribute attributes[1] = {};
  unsigned attribute_count = 0;
  if (config.cluster[0] * config.cluster[1] * config.cluster[2] > 1) {
    CUlaunchAttribute& cluster = attributes[attribute_count++];
    cluster.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    cluster.value.clusterDim.x = config.cluster[0];
    cluster.value.clusterDim.y = config.cluster[1];
    cluster.value.clusterDim.z = config.cluster[2];
  }
  CUlaunchConfig launch_config = {};
  launch_config.gridDimX = config.grid[0];
  launch_config.gridDimY = config.grid[1];
  launch_config.gridDimZ = config.grid[2];
  launch_config.blockDimX = config.block[0];
  launch_config.blockDimY = config.block[1];
  launch_config.blockDimZ = config.block[2];
  launch_config.sharedMemBytes = config.dynamic_smem_bytes;
  launch_config.hStream = config.stream;
  launch_config.attrs = attributes;
  launch_config.numAttrs = attribute_count;
  void* arguments[] = {params};
  check_cuda(driver().cuLaunchKernelEx(&launch_config, kernel.function, arguments, nullptr),
             "cuLaunchKernelEx");
}

}  // namespace deepselect
