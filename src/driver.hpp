// The CUDA driver API, loaded with dlopen so that everything but a launch works without a GPU.
#pragma once

#include <cuda.h>

#include <string>

namespace deepselect {

#define DS_DRIVER_FUNCTIONS(X)    \
  X(cuInit)                       \
  X(cuDriverGetVersion)           \
  X(cuDeviceGetCount)             \
  X(cuDeviceGet)                  \
  X(cuDeviceGetName)              \
  X(cuDeviceGetAttribute)         \
  X(cuDevicePrimaryCtxRetain)     \
  X(cuDevicePrimaryCtxRelease)    \
  X(cuCtxSetCurrent)              \
  X(cuCtxGetCurrent)              \
  X(cuCtxGetDevice)               \
  X(cuCtxGetId)                   \
  X(cuCtxPushCurrent)             \
  X(cuCtxPopCurrent)              \
  X(cuCtxSynchronize)             \
  X(cuStreamGetCtx)               \
  X(cuModuleLoadData)             \
  X(cuModuleUnload)               \
  X(cuModuleGetFunction)          \
  X(cuFuncSetAttribute)           \
  X(cuFuncGetAttribute)           \
  X(cuLaunchKernelEx)             \
  X(cuOccupancyMaxActiveClusters) \
  X(cuGetErrorName)               \
  X(cuGetErrorString)             \
  X(cuMemAlloc)                   \
  X(cuMemFree)                    \
  X(cuMemcpyHtoD)                 \
  X(cuMemcpyDtoH)                 \
  X(cuMemcpyDtoD)                 \
  X(cuMemsetD8)                   \
  X(cuMemsetD32)                  \
  X(cuStreamCreate)               \
  X(cuStreamDestroy)              \
  X(cuStreamSynchronize)          \
  X(cuEventCreate)                \
  X(cuEventRecord)                \
  X(cuEventSynchronize)           \
  X(cuEventElapsedTime)           \
  X(cuEventDestroy)               \
  X(cuStreamBeginCapture)         \
  X(cuStreamEndCapture)           \
  X(cuGraphGetEdges)              \
  X(cuGraphInstantiateWithFlags)  \
  X(cuGraphLaunch)                \
  X(cuGraphExecDestroy)           \
  X(cuGraphDestroy)

// Function pointers with the prototypes of this toolkit's cuda.h.
struct Driver {
#define DS_DRIVER_MEMBER(name) decltype(&::name) name = nullptr;
  DS_DRIVER_FUNCTIONS(DS_DRIVER_MEMBER)
#undef DS_DRIVER_MEMBER
};

// The loaded and initialized driver, or nullptr when there is none (no libcuda, no device,
// cuInit failing); driver_unavailable_reason() then says why. Loaded once per process.
const Driver* driver_or_null();
const std::string& driver_unavailable_reason();

// The driver, or an Error with the reason when it is unavailable.
const Driver& driver();

// Throws Error("<what>: CUDA_ERROR_X (text)") when result is not CUDA_SUCCESS.
void check_cuda(CUresult result, const char* what);

// Retains device ordinal's primary context, makes it current and returns it (for tools and
// tests; applications bring their own context).
CUcontext use_primary_context(int ordinal);

// Makes a context current for a scope and restores the previous one; pushes nothing when the
// context is current already.
class ContextScope {
 public:
  explicit ContextScope(CUcontext context);
  ~ContextScope();
  ContextScope(const ContextScope&) = delete;
  ContextScope& operator=(const ContextScope&) = delete;

 private:
  bool pushed_ = false;
};

}  // namespace deepselect
