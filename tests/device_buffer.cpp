#include "device_buffer.hpp"

#include <dlfcn.h>

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

namespace {

// cuCtxCreate and cuCtxDestroy, which only tests call, looked up here rather than in the
// library's table of what it needs (by the symbols cuda.h maps the names to).
#define DS_SYMBOL(name) #name
#define DS_EXPANDED_SYMBOL(name) DS_SYMBOL(name)
struct ContextFunctions {
  decltype(&::cuCtxCreate) create = nullptr;
  decltype(&::cuCtxDestroy) destroy = nullptr;
};

const ContextFunctions& context_functions() {
  static const ContextFunctions functions = [] {
    ContextFunctions found;
    void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) throw Error("CreatedContext: libcuda.so.1 does not load");
    found.create =
        reinterpret_cast<decltype(found.create)>(dlsym(library, DS_EXPANDED_SYMBOL(cuCtxCreate)));
    found.destroy =
        reinterpret_cast<decltype(found.destroy)>(dlsym(library, DS_EXPANDED_SYMBOL(cuCtxDestroy)));
    if (found.create == nullptr || found.destroy == nullptr)
      throw Error("CreatedContext: the CUDA driver lacks cuCtxCreate or cuCtxDestroy");
    return found;
  }();
  return functions;
}
#undef DS_EXPANDED_SYMBOL
#undef DS_SYMBOL

}  // namespace

CreatedContext::CreatedContext() {
  CUdevice device = 0;
  check_cuda(driver().cuDeviceGet(&device, 0), "cuDeviceGet");
  check_cuda(context_functions().create(&context_, nullptr, 0, device), "cuCtxCreate");
}

CreatedContext::~CreatedContext() {
  context_functions().destroy(context_);
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
