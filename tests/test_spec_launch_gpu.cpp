// Specs other than the planner's defaults (what tuning may pick) launch and agree with them.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "device_buffer.hpp"
#include "gpu_check.hpp"
#include "test_support.hpp"
#include "topk_internal.hpp"

namespace deepselect {
namespace {

// Each row's selected indices, sorted.
std::vector<int32_t> sorted_rows(const std::vector<uint8_t>& bytes, int rows, int k) {
  std::vector<int32_t> indices(static_cast<size_t>(rows) * k);
  std::memcpy(indices.data(), bytes.data(), indices.size() * sizeof(int32_t));
  for (int row = 0; row < rows; ++row) {
    std::sort(indices.begin() + row * k, indices.begin() + (row + 1) * k);
  }
  return indices;
}

TEST_CASE("gpu: specs a tuning table may choose select what the planner's default selects") {
  DS_REQUIRE_GPU();
  const testing::PrimaryContext context;
  constexpr int kRows = 7;
  constexpr int kN = 50000;
  constexpr int kK = 1000;
  std::vector<uint16_t> x(static_cast<size_t>(kRows) * kN);
  std::mt19937 rng(11);
  for (uint16_t& value : x)
    value = static_cast<uint16_t>(0x3c00u + rng() % 0x0400u);  // bf16 in [0.5, 1)
  testing::DeviceBuffer d_x(x.size() * sizeof(uint16_t));
  d_x.upload(x.data(), x.size() * sizeof(uint16_t));
  testing::DeviceBuffer d_indices(static_cast<size_t>(kRows) * kK * sizeof(int32_t));
  TopkArgs args;
  args.x = d_x.at<const void>();
  args.dtype = DType::bf16;
  args.rows = kRows;
  args.n = kN;
  args.k = kK;
  args.indices = d_indices.at<void>();
  const KernelSpec planned = planned_spec(args, nullptr);
  d_indices.fill(0xab);
  topk(args, nullptr);
  const std::vector<int32_t> expected = sorted_rows(d_indices.download(), kRows, kK);

  // 48 KB of dynamic shared memory plus the static scratch: needs the raised limit.
  KernelSpec at_48k = planned;
  at_48k.block = 2048;
  at_48k.threads = 256;
  at_48k.block2 = 2048;
  at_48k.cluster = 1;
  at_48k.row_path = RowPath::any;  // the planned 8-CTA kernel's; a lone CTA scans these rows
  REQUIRE(at_48k.dynamic_smem_bytes() == 48 * 1024);
  KernelSpec wide = planned;
  wide.block = 8192;
  wide.block2 = 4096;
  wide.threads = 1024;
  wide.stages = 3;
  wide.cluster = 4;
  wide.row_path = RowPath::any;
  for (const KernelSpec& spec : {at_48k, wide}) {
    INFO(spec.to_string());
    d_indices.fill(0xab);
    topk_with_spec(args, spec, nullptr);
    CHECK(sorted_rows(d_indices.download(), kRows, kK) == expected);
  }

  // From a thread with no current context, on a stream of this one.
  const testing::Stream stream;
  d_indices.fill(0xab);
  REQUIRE(testing::failure_on_new_thread([&] { topk_with_spec(args, wide, stream.get()); }) == "");
  check_cuda(driver().cuStreamSynchronize(stream.get()), "cuStreamSynchronize");
  CHECK(sorted_rows(d_indices.download(), kRows, kK) == expected);
}

}  // namespace
}  // namespace deepselect
