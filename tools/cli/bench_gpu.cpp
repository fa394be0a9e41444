#include "bench_gpu.hpp"

#include <fmt/format.h>

#include "driver.hpp"

namespace deepselect::cli {

Arch GpuInfo::arch() const {
  return Arch::of_compute_capability(cc_major, cc_minor);
}

GpuInfo query_gpu() {
  const Driver& cu = driver();
  CUdevice device = 0;
  check_cuda(cu.cuCtxGetDevice(&device), "cuCtxGetDevice");
  GpuInfo info;
  char name[256] = {};
  check_cuda(cu.cuDeviceGetName(name, sizeof(name), device), "cuDeviceGetName");
  info.name = name;
  const auto attribute = [&](CUdevice_attribute which, int& value) {
    check_cuda(cu.cuDeviceGetAttribute(&value, which, device), "cuDeviceGetAttribute");
  };
  attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, info.sms);
  attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, info.cc_major);
  attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, info.cc_minor);
  check_cuda(cu.cuDriverGetVersion(&info.driver_version), "cuDriverGetVersion");
  return info;
}

}  // namespace deepselect::cli
