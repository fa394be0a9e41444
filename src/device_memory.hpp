// Device memory owned by a scope (for the library's own tools: tuning, the command line).
#pragma once

#include <cuda.h>

#include <algorithm>
#include <cstddef>

#include "driver.hpp"

namespace deepselect {

class DeviceMemory {
 public:
  explicit DeviceMemory(size_t bytes) {
    check_cuda(driver().cuMemAlloc(&address_, std::max<size_t>(bytes, 1)), "cuMemAlloc");
  }
  ~DeviceMemory() { driver().cuMemFree(address_); }
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;

  void* get() const { return reinterpret_cast<void*>(address_); }
  CUdeviceptr address() const { return address_; }

 private:
  CUdeviceptr address_ = 0;
};

}  // namespace deepselect
