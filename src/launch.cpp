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

LaunchConfig& LaunchConfig::with_pdl(bool allowed) {
  pdl = allowed;
  return *this;
}

LaunchConfig& LaunchConfig::on(CUstream launch_stream) {
  stream = launch_stream;
  return *this;
}

namespace {

// A LaunchConfig in the driver's form, its attribute list inside it.
struct DriverLaunchConfig {
  CUlaunchAttribute attributes[2] = {};
  CUlaunchConfig config = {};

  explicit DriverLaunchConfig(const LaunchConfig& shape) {
    unsigned attribute_count = 0;
    if (shape.cluster[0] * shape.cluster[1] * shape.cluster[2] > 1) {
      CUlaunchAttribute& cluster = attributes[attribute_count++];
      cluster.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
      cluster.value.clusterDim.x = shape.cluster[0];
      cluster.value.clusterDim.y = shape.cluster[1];
      cluster.value.clusterDim.z = shape.cluster[2];
    }
    if (shape.pdl) {
      CUlaunchAttribute& pdl = attributes[attribute_count++];
      pdl.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
      pdl.value.programmaticStreamSerializationAllowed = 1;
    }
    config.gridDimX = shape.grid[0];
    config.gridDimY = shape.grid[1];
    config.gridDimZ = shape.grid[2];
    config.blockDimX = shape.block[0];
    config.blockDimY = shape.block[1];
    config.blockDimZ = shape.block[2];
    config.sharedMemBytes = shape.dynamic_smem_bytes;
    config.hStream = shape.stream;
    config.attrs = attributes;
    config.numAttrs = attribute_count;
  }
  DriverLaunchConfig(const DriverLaunchConfig&) = delete;
  DriverLaunchConfig& operator=(const DriverLaunchConfig&) = delete;
};

}  // namespace

void launch(const LoadedKernel& kernel, const LaunchConfig& config, void* params) {
  DriverLaunchConfig driver_config(config);
  void* arguments[] = {params};
  check_cuda(driver().cuLaunchKernelEx(&driver_config.config, kernel.function, arguments, nullptr),
             "cuLaunchKernelEx");
}

int max_active_clusters(CUfunction function, const LaunchConfig& config) {
  DriverLaunchConfig driver_config(config);
  int clusters = 0;
  const CUresult result =
      driver().cuOccupancyMaxActiveClusters(&clusters, function, &driver_config.config);
  if (result == CUDA_ERROR_INVALID_CLUSTER_SIZE) return 0;
  check_cuda(result, "cuOccupancyMaxActiveClusters");
  return clusters;
}

}  // namespace deepselect
