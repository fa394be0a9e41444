// The kernels the GPU suite compiles ahead (compile_ahead.hpp): the planner's own for each case,
// as run_on_gpu calls topk, once each.
#include <doctest/doctest.h>

#include <vector>

#include "compile_ahead.hpp"

namespace deepselect::testing {

TEST_CASE("compile ahead: one kernel per distinct plan, each as topk plans its case") {
  DeviceInfo h200;
  h200.arch = Arch{90};
  h200.sm_count = 132;
  CaseSpec plain;
  plain.rows = 4;
  plain.n = 5000;
  plain.k = 64;
  CaseSpec reordered = plain;  // the order and the data are the call's, not the kernel's
  reordered.seed = 9;
  reordered.order = Order::by_value;
  CaseSpec paged = plain;
  paged.bounds = Bounds::decode;
  paged.page_table = true;
  CaseSpec long_bf16 = plain;
  long_bf16.dtype = DType::bf16;
  long_bf16.rows = 1;
  long_bf16.n = 131072;
  long_bf16.k = 2048;
  CaseSpec no_rows = plain;
  no_rows.rows = 0;
  CaseSpec k_too_large = plain;
  k_too_large.k = 5000;

  const std::vector<KernelSpec> kernels =
      planned_kernels({plain, reordered, paged, long_bf16, no_rows, k_too_large}, h200);
  REQUIRE(kernels.size() == 3);
  CHECK(kernels[0] == plan_spec(DType::f32, 64, 4, 5000, h200));
  CHECK(kernels[1] ==
        plan_spec(DType::f32, 64, 4, 5000, h200, RowBounds::decode, Epilogue::page_table));
  CHECK(kernels[1].bounds == RowBounds::decode);
  CHECK(kernels[1].epilogue == Epilogue::page_table);
  CHECK(kernels[2] == plan_spec(DType::bf16, 2048, 1, 131072, h200));
  CHECK(kernels[2].cluster > 1);
}

}  // namespace deepselect::testing
