#include "device_buffer.hpp"

#include <deepselect/deepselect.hpp>

#include "driver.hpp"

namespace deepselect::testing {

PrimaryContext::PrimaryContext() {
  check_cuda(driver().cuDeviceGet(&device_, 0), "cuDeviceGet");
  CUcontext context = nullptr;
  check_cuda(driver().cuDevicePrimaryCtxRetain(&context, device_), "cuDevicePrimaryCtxRetain");
  check_cuda(driver().cuCtxSetCurrent(context), "cuCtxSetCurrent");
}

PrimaryContext::~PrimaryContext() {
  driver().cuDevicePrimaryCtxRelease(device_);
}

CreatedContext::CreatedContext() {
  CUdevice device = 0;
  check_cuda(driver().cuDeviceGet(&device, 0), "cuDeviceGet");
  check_cuda(driver().cuCtxCreate(&context_, nullptr, 0, device), "cuCtxCreate");
}

CreatedContext::~CreatedContext() {
  driver().cuCtxDestroy(context_);
}

DeviceBuffer::DeviceBuffer(size_t bytes) : bytes_(bytes) {
  // A zero-byte allocation fails; one spare byte keeps empty buffers valid.
  check_cuda(driver().cuMemAlloc(&ptr_, bytes + 1), "cuMemAlloc");
}

DeviceBuffer::~DeviceBuffer() {
  driver().cuMemFree(ptr_);
}

void DeviceBuffer::fill(uint8_t byte) {
  check_cuda(driver().cuMemsetD8(ptr_, byte, bytes_), "cuMemsetD8");
}

void DeviceBuffer::upload(const void* data, size_t bytes, size_t offset) {
  if (offset + bytes > bytes_) throw Error("DeviceBuffer::upload: past the end of the buffer");
  if (bytes == 0) return;
  check_cuda(driver().cuMemcpyHtoD(ptr_ + offset, data, bytes), "cuMemcpyHtoD");
}

std::vector<uint8_t> DeviceBuffer::download() const {
  std::vector<uint8_t> bytes(bytes_);
  check_cuda(driver().cuMemcpyDtoH(bytes.data(), ptr_, bytes_), "cuMemcpyDtoH");
  return bytes;
}

Stream::Stream() {
  check_cuda(driver().cuStreamCreate(&stream_, CU_STREAM_DEFAULT), "cuStreamCreate");
}

Stream::~Stream() {
  driver().cuStreamDestroy(stream_);
}

}  // namespace deepselect::testing
