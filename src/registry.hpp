// Kernels loaded into CUDA contexts: (spec, context) -> CUfunction. One module load per pair
// however many threads ask; the warm path takes a shared lock and allocates nothing.
#pragma once

#include <cuda.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

#include "cubin_store.hpp"
#include "spec.hpp"

namespace deepselect {

struct LoadedKernel {
  KernelSpec spec;
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  CubinOrigin origin = CubinOrigin::compiled;
  // For clusters of two or more CTAs: how many of them the GPU holds at once
  // (cuOccupancyMaxActiveClusters), which the GPU's layout sets (a cluster's CTAs share a GPC).
  int resident_clusters = 0;

  // Whether `clusters` clusters of this kernel run at once (always so for lone CTAs: a call's
  // rows take as many waves as they need).
  bool holds_at_once(int64_t clusters) const {
    return spec.cluster == 1 || clusters <= resident_clusters;
  }
};

class KernelRegistry {
 public:
  explicit KernelRegistry(CubinStore& store) : store_(store) {}

  // The kernel for spec in context (which need not be current). Throws Error/CompileError.
  const LoadedKernel& get(const KernelSpec& spec, CUcontext context);

  long module_loads() const { return module_loads_.load(); }

  // The registry over CubinStore::global().
  static KernelRegistry& global();

 private:
  struct Key {
    KernelSpec spec;
    unsigned long long context_id;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& key) const noexcept {
      return KernelSpecHash{}(key.spec) ^ (key.context_id * 0x9e3779b97f4a7c15ull);
    }
  };
  struct Slot {
    std::once_flag once;
    LoadedKernel kernel;
  };

  LoadedKernel load(const KernelSpec& spec, CUcontext context);

  CubinStore& store_;
  std::shared_mutex mutex_;
  std::unordered_map<Key, std::unique_ptr<Slot>, KeyHash> slots_;
  std::atomic<long> module_loads_{0};
};

}  // namespace deepselect
