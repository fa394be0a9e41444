// topk launches in its stream's context, whatever context its thread has current: another one
// of the same GPU, or none (a worker thread that never touched CUDA); and it leaves that
// thread's current context as it found it.
#include <deepselect/deepselect.hpp>

#include <string>
#include <vector>

#include "device_buffer.hpp"
#include "gpu_check.hpp"
#include "test_support.hpp"

using namespace deepselect;
using namespace deepselect::testing;

TEST_CASE("gpu: calls from a thread whose current context is another one, or none") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  std::vector<CaseSpec> cases(3);
  cases[0].rows = 2;  // 16-CTA clusters
  cases[0].n = 131072;
  cases[0].k = 2048;
  cases[0].dist = Dist::normal;
  cases[1].dtype = DType::bf16;  // 8-CTA clusters, ragged rows
  cases[1].rows = 6;
  cases[1].n = 131072;
  cases[1].k = 512;
  cases[1].dist = Dist::relu_ties;
  cases[1].bounds = Bounds::ragged;
  cases[2].dtype = DType::f16;  // lone CTAs
  cases[2].rows = 300;
  cases[2].n = 40000;
  cases[2].k = 1024;
  for (Caller caller : {Caller::thread_without_context, Caller::thread_with_other_context}) {
    for (size_t i = 0; i < cases.size(); ++i) {
      CaseSpec spec = cases[i];
      spec.seed = 2100 + i;
      spec.layout.own_stream = true;
      spec.layout.caller = caller;
      CHECK(check_on_gpu("context", spec));
    }
  }
}

TEST_CASE("gpu: a call on a default stream from a thread without a context is an error") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  DeviceBuffer x(1000 * sizeof(float));
  DeviceBuffer indices(10 * sizeof(int32_t));
  indices.fill(0xab);
  TopkArgs args;
  args.x = x.at<const void>();
  args.rows = 1;
  args.n = 1000;
  args.k = 10;
  args.indices = indices.at<void>();
  for (CUstream stream : {CUstream{nullptr}, CU_STREAM_LEGACY, CU_STREAM_PER_THREAD}) {
    const std::string error = failure_on_new_thread([&] { topk(args, stream); });
    CHECK(error.find("stream has no CUDA context") != std::string::npos);
  }
  for (uint8_t byte : indices.download()) CHECK(byte == 0xab);
}
