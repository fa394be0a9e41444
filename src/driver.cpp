#include "driver.hpp"

#include <dlfcn.h>

#include <fmt/format.h>

#include <deepselect/deepselect.hpp>

namespace deepselect {
namespace {

struct LoadedDriver {
  Driver table;
  bool ok = false;
  std::string reason;
};

LoadedDriver load_driver() {
  LoadedDriver loaded;
  void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* error = dlerror();
    loaded.reason = fmt::format("no CUDA driver: {}", error != nullptr ? error : "dlopen failed");
    return loaded;
  }
  bool all_found = true;
  // dlsym the symbol cuda.h maps each name to (cuMemAlloc -> cuMemAlloc_v2), so that every
  // pointer has exactly the prototype it is called through.
#define DS_DRIVER_SYMBOL(name) #name
#define DS_DRIVER_EXPANDED_SYMBOL(name) DS_DRIVER_SYMBOL(name)
#define DS_DRIVER_RESOLVE(name)                                                       \
  {                                                                                   \
    const char* symbol = DS_DRIVER_EXPANDED_SYMBOL(name);                             \
    void* fn = dlsym(library, symbol);                                                \
    if (fn == nullptr) {                                                              \
      loaded.reason = fmt::format("the CUDA driver is too old: it lacks {}", symbol); \
      all_found = false;                                                              \
    }                                                                                 \
    loaded.table.name = reinterpret_cast<decltype(loaded.table.name)>(fn);            \
  }
  DS_DRIVER_FUNCTIONS(DS_DRIVER_RESOLVE)
#undef DS_DRIVER_RESOLVE
#undef DS_DRIVER_EXPANDED_SYMBOL
#undef DS_DRIVER_SYMBOL
  if (!all_found) return loaded;
  const CUresult init = loaded.table.cuInit(0);
  if (init != CUDA_SUCCESS) {
    const char* name = nullptr;
    loaded.table.cuGetErrorName(init, &name);
    loaded.reason = fmt::format("cuInit failed: {}", name != nullptr ? name : "unknown error");
    return loaded;
  }
  int count = 0;
  if (loaded.table.cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0) {
    loaded.reason = "the CUDA driver sees no GPU";
    return loaded;
  }
  loaded.ok = true;
  return loaded;
}

const LoadedDriver& loaded_driver() {
  static const LoadedDriver loaded = load_driver();
  return loaded;
}

}  // namespace

const Driver* driver_or_null() {
  const LoadedDriver& loaded = loaded_driver();
  return loaded.ok ? &loaded.table : nullptr;
}

const std::string& driver_unavailable_reason() {
  return loaded_driver().reason;
}

const Driver& driver() {
  const Driver* table = driver_or_null();
  if (table == nullptr) throw Error("deepselect: " + driver_unavailable_reason());
  return *table;
}

void check_cuda(CUresult result, const char* what) {
  if (result == CUDA_SUCCESS) return;
  const char* name = "unknown CUDA error";
  const char* text = "";
  if (const Driver* table = driver_or_null()) {
    table->cuGetErrorName(result, &name);
    table->cuGetErrorString(result, &text);
  }
  throw Error(fmt::format("deepselect: {} failed: {} ({})", what, name, text));
}

CUcontext use_primary_context(int ordinal) {
  const Driver& cu = driver();
  CUdevice device = 0;
  check_cuda(cu.cuDeviceGet(&device, ordinal), "cuDeviceGet");
  CUcontext context = nullptr;
  check_cuda(cu.cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
  check_cuda(cu.cuCtxSetCurrent(context), "cuCtxSetCurrent");
  return context;
}

ContextScope::ContextScope(CUcontext context) {
  CUcontext current = nullptr;
  check_cuda(driver().cuCtxGetCurrent(&current), "cuCtxGetCurrent");
  if (current == context) return;
  check_cuda(driver().cuCtxPushCurrent(context), "cuCtxPushCurrent");
  pushed_ = true;
}

ContextScope::~ContextScope() {
  if (!pushed_) return;
  CUcontext ignored = nullptr;
  driver().cuCtxPopCurrent(&ignored);
}

}  // namespace deepselect
