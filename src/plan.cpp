#include "plan.hpp"

namespace deepselect {

const std::vector<int>& k_buckets() {
  static const std::vector<int> buckets = {64, 256, 512, 1024, 2048, 4096};
  return buckets;
}

KernelSpec plan_spec(DType dtype, int k, Arch arch) {
  KernelSpec spec;
  spec.kind = KernelKind::topk;
  spec.dtype = dtype;
  spec.arch = arch;
  spec.k_max = k_buckets().back();
  for (int bucket : k_buckets()) {
    if (k <= bucket) {
      spec.k_max = bucket;
      break;
    }
  }
  spec.threads = 512;
  spec.block = dtype == DType::f32 ? 4096 : 8192;
  spec.block2 = spec.k_max <= 256 ? 1024 : spec.k_max <= 512 ? 2048 : 4096;
  return spec;
}

std::vector<KernelSpec> planner_specs(Arch arch) {
  std::vector<KernelSpec> specs;
  for (DType dtype : {DType::f32, DType::bf16, DType::f16}) {
    for (int bucket : k_buckets()) specs.push_back(plan_spec(dtype, bucket, arch));
  }
  return specs;
}

}  // namespace deepselect
