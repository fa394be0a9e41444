#include "registry.hpp"

#include <fmt/format.h>

#include "driver.hpp"
#include "launch.hpp"

namespace deepselect {
namespace {

bool is_unloadable_image(CUresult result) {
  return result == CUDA_ERROR_INVALID_IMAGE || result == CUDA_ERROR_NO_BINARY_FOR_GPU ||
         result == CUDA_ERROR_INVALID_PTX || result == CUDA_ERROR_UNSUPPORTED_PTX_VERSION;
}

// Clusters of spec's kernel (at one launch's block size and shared memory) that the GPU holds
// at once.
int resident_clusters(CUfunction function, const KernelSpec& spec) {
  const auto cluster = static_cast<unsigned>(spec.cluster);
  return max_active_clusters(function,
                             LaunchConfig()
                                 .with_grid(cluster)
                                 .with_block(static_cast<unsigned>(spec.threads))
                                 .with_smem(static_cast<unsigned>(spec.dynamic_smem_bytes()))
                                 .with_cluster(cluster));
}

}  // namespace

KernelRegistry& KernelRegistry::global() {
  static KernelRegistry registry(CubinStore::global());
  return registry;
}

const LoadedKernel& KernelRegistry::get(const KernelSpec& spec, CUcontext context) {
  unsigned long long context_id = 0;
  check_cuda(driver().cuCtxGetId(context, &context_id), "cuCtxGetId");
  const Key key{spec, context_id};
  Slot* slot = nullptr;
  {
    std::shared_lock lock(mutex_);
    auto found = slots_.find(key);
    if (found != slots_.end()) slot = found->second.get();
  }
  if (slot == nullptr) {
    std::unique_lock lock(mutex_);
    auto& owned = slots_[key];
    if (!owned) owned = std::make_unique<Slot>();
    slot = owned.get();
  }
  // call_once rethrows a failed load and lets the next caller try again.
  std::call_once(slot->once, [&] { slot->kernel = load(spec, context); });
  return slot->kernel;
}

LoadedKernel KernelRegistry::load(const KernelSpec& spec, CUcontext context) {
  const Driver& cu = driver();
  ContextScope scope(context);
  LoadedKernel kernel;
  kernel.spec = spec;
  std::shared_ptr<const Cubin> cubin = store_.get(spec);
  CUresult result = cu.cuModuleLoadData(&kernel.module, cubin->bytes.data());
  if (is_unloadable_image(result) && cubin->origin != CubinOrigin::compiled) {
    fmt::print(stderr, "deepselect: warning: cached cubin for {} failed to load; rebuilding\n",
               spec.to_string());
    store_.evict(spec);
    cubin = store_.get(spec);
    result = cu.cuModuleLoadData(&kernel.module, cubin->bytes.data());
  }
  check_cuda(result, "cuModuleLoadData");
  ++module_loads_;
  kernel.origin = cubin->origin;
  check_cuda(cu.cuModuleGetFunction(&kernel.function, kernel.module, cubin->symbol.c_str()),
             "cuModuleGetFunction");
  // Static shared memory counts against the default 48 KB too, so any dynamic amount may need
  // the larger limit: set it whenever the kernel takes dynamic shared memory.
  const size_t smem = spec.dynamic_smem_bytes();
  if (smem > 0) {
    check_cuda(
        cu.cuFuncSetAttribute(kernel.function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                              static_cast<int>(smem)),
        "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)");
  }
  if (spec.cluster > kMaxPortableCluster) {
    check_cuda(cu.cuFuncSetAttribute(kernel.function,
                                     CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1),
               "cuFuncSetAttribute(NON_PORTABLE_CLUSTER_SIZE_ALLOWED)");
  }
  if (spec.cluster > 1) kernel.resident_clusters = resident_clusters(kernel.function, spec);
  return kernel;
}

}  // namespace deepselect
