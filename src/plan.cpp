#include "plan.hpp"

namespace deepselect {

const std::vector<int>& k_buckets() {
  static const std::vector<int> buckets = {64, 256, 512, 1024, 2048, 4096};
  return buckets;
}

namespace {

// The smallest power of two that gives every SM a CTA, at most kMaxCluster.
int cluster_for(int64_t rows, int sm_count) {
  int cluster = 1;
  while (cluster < kMaxCluster && rows * cluster < sm_count) cluster *= 2;
  return cluster;
}

}  // namespace

KernelSpec plan_spec(DType dtype, int k, int64_t rows, const DeviceInfo& device) {
  KernelSpec spec;
  spec.kind = KernelKind::topk;
  spec.dtype = dtype;
  spec.arch = device.arch;
  spec.cluster = cluster_for(rows, device.sm_count);
  spec.stages = 3;
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
  const DeviceInfo device{arch, kMaxCluster};
  for (DType dtype : {DType::f32, DType::bf16, DType::f16}) {
    for (int bucket : k_buckets()) {
      for (int rows = kMaxCluster; rows >= 1; rows /= 2) {
        specs.push_back(plan_spec(dtype, bucket, rows, device));
      }
    }
  }
  return specs;
}

}  // namespace deepselect
