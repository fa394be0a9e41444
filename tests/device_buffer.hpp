// RAII for the GPU tests: the primary context of device 0, device memory and a stream.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace deepselect::testing {

// Retains device 0's primary context and makes it current; releases it when destroyed.
class PrimaryContext {
 public:
  PrimaryContext();
  ~PrimaryContext();
  PrimaryContext(const PrimaryContext&) = delete;
  PrimaryContext& operator=(const PrimaryContext&) = delete;

 private:
  CUdevice device_ = 0;
};

// A new context of device 0 (not its primary one), current on the creating thread until
// destroyed.
class CreatedContext {
 public:
  CreatedContext();
  ~CreatedContext();
  CreatedContext(const CreatedContext&) = delete;
  CreatedContext& operator=(const CreatedContext&) = delete;
  CUcontext get() const { return context_; }

 private:
  CUcontext context_ = nullptr;
};

class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  size_t bytes() const { return bytes_; }
  // The device address `offset` bytes into the buffer, as the pointer type TopkArgs takes.
  template <class T>
  T* at(size_t offset = 0) const {
    return reinterpret_cast<T*>(static_cast<uintptr_t>(ptr_ + offset));
  }
  void fill(uint8_t byte);
  void upload(const void* data, size_t bytes, size_t offset = 0);
  std::vector<uint8_t> download() const;

 private:
  CUdeviceptr ptr_ = 0;
  size_t bytes_ = 0;
};

// A blocking stream, so that it orders after the synchronous memory calls above.
class Stream {
 public:
  Stream();
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  CUstream get() const { return stream_; }

 private:
  CUstream stream_ = nullptr;
};

}  // namespace deepselect::testing
