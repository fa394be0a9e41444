// The launch path end to end on a GPU: a fill_test kernel launched with a cluster attribute
// through the registry, checked record by record.
#include <cstdint>
#include <vector>

#include "launch.hpp"
#include "params.cuh"
#include "registry.hpp"
#include "test_support.hpp"

namespace deepselect {
namespace {

TEST_CASE("gpu: fill_test launches with clusters and reads distributed shared memory") {
  DS_REQUIRE_GPU();
  const Driver& cu = driver();
  const CUcontext context = use_primary_context(0);
  for (const unsigned cluster : {1u, 2u, 4u, 8u}) {
    CAPTURE(cluster);
    KernelSpec spec;
    spec.kind = KernelKind::fill_test;
    spec.threads = 128;
    spec.cluster = static_cast<int>(cluster);
    const LoadedKernel& kernel = KernelRegistry::global().get(spec, context);
    CHECK(&kernel == &KernelRegistry::global().get(spec, context));

    const unsigned blocks = 8 * cluster;
    std::vector<uint32_t> records(5 * blocks, 0xdeadbeefu);
    CUdeviceptr out = 0;
    check_cuda(cu.cuMemAlloc(&out, records.size() * 4), "cuMemAlloc");
    check_cuda(cu.cuMemcpyHtoD(out, records.data(), records.size() * 4), "cuMemcpyHtoD");
    ds::FillTestParams params{reinterpret_cast<uint32_t*>(out), static_cast<int>(blocks)};
    launch(kernel, LaunchConfig().with_grid(blocks).with_block(128).with_cluster(cluster), &params);
    check_cuda(cu.cuCtxSynchronize(), "cuCtxSynchronize");
    check_cuda(cu.cuMemcpyDtoH(records.data(), out, records.size() * 4), "cuMemcpyDtoH");
    check_cuda(cu.cuMemFree(out), "cuMemFree");
    for (unsigned block = 0; block < blocks; ++block) {
      const uint32_t* record = &records[5 * block];
      CHECK(record[0] == block);
      CHECK(record[1] == block % cluster);
      CHECK(record[2] == cluster);
      CHECK(record[3] == 128u);
      const unsigned peer = block - block % cluster + (block % cluster + 1) % cluster;
      CHECK(record[4] == 1000u + peer);
    }
  }
}

}  // namespace
}  // namespace deepselect
