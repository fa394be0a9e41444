#include "codegen.hpp"

#include <fmt/format.h>

#include "params.cuh"

namespace deepselect {

static_assert(static_cast<int>(RowBounds::decode) == ds::kBoundsDecode &&
                  static_cast<int>(Epilogue::page_table) == ds::kEpiloguePageTable &&
                  static_cast<int>(RowPath::any) == ds::kRowsAny &&
                  static_cast<int>(RowPath::whole) == ds::kRowsWhole &&
                  static_cast<int>(RowPath::scanned) == ds::kRowsScanned,
              "src/spec.hpp and templates/params.cuh disagree");
namespace {

const char* dtype_traits(DType dtype) {
  switch (dtype) {
    case DType::f32:
      return "ds::F32";
    case DType::bf16:
      return "ds::BF16";
    case DType::f16:
      return "ds::F16";
  }
  return "?";
}

std::string render_topk(const KernelSpec& spec) {
  return fmt::format(
      R"(// Generated for: {spec}
#include "topk_kernel.cuh"
static_assert(sizeof(ds::TopkParams) == {params_size}, "host and device disagree on TopkParams");
extern "C" __global__ void __launch_bounds__({threads}, {min_blocks}) {symbol}(const ds::TopkParams params) {{
  ds::topk_row<{traits}, {k_max}, {block}, {block2}, {threads}, {cluster}, {stages}, {bounds}, {epilogue}, {row_path}>(params);
}}
)",
      fmt::arg("spec", spec.to_string()), fmt::arg("params_size", sizeof(ds::TopkParams)),
      fmt::arg("threads", spec.threads), fmt::arg("symbol", spec.symbol()),
      fmt::arg("traits", dtype_traits(spec.dtype)), fmt::arg("k_max", spec.k_max),
      fmt::arg("block", spec.block), fmt::arg("block2", spec.block2),
      fmt::arg("cluster", spec.cluster), fmt::arg("stages", spec.stages),
      fmt::arg("min_blocks", ctas_per_sm(spec.dynamic_smem_bytes(), spec.threads)),
      fmt::arg("bounds", static_cast<int>(spec.bounds)),
      fmt::arg("epilogue", static_cast<int>(spec.epilogue)),
      fmt::arg("row_path", static_cast<int>(spec.row_path)));
}

std::string render_fill_test(const KernelSpec& spec) {
  return fmt::format(
      R"(// Generated for: {spec}
#include "fill_test_kernel.cuh"
static_assert(sizeof(ds::FillTestParams) == {params_size}, "host and device disagree");
extern "C" __global__ void __launch_bounds__({threads}) {symbol}(const ds::FillTestParams params) {{
  ds::fill_test(params);
}}
)",
      fmt::arg("spec", spec.to_string()), fmt::arg("params_size", sizeof(ds::FillTestParams)),
      fmt::arg("threads", spec.threads), fmt::arg("symbol", spec.symbol()));
}

std::string render_read_floor(const KernelSpec& spec) {
  return fmt::format(
      R"(// Generated for: {spec}
#include "read_floor_kernel.cuh"
static_assert(sizeof(ds::ReadFloorParams) == {params_size}, "host and device disagree");
extern "C" __global__ void __launch_bounds__({threads}) {symbol}(const ds::ReadFloorParams params) {{
  ds::read_floor<{threads}, {element_bytes}>(params);
}}
)",
      fmt::arg("spec", spec.to_string()), fmt::arg("params_size", sizeof(ds::ReadFloorParams)),
      fmt::arg("threads", spec.threads), fmt::arg("symbol", spec.symbol()),
      fmt::arg("element_bytes", dtype_bytes(spec.dtype)));
}

}  // namespace

std::string render_translation_unit(const KernelSpec& spec) {
  spec.validate();
  switch (spec.kind) {
    case KernelKind::fill_test:
      return render_fill_test(spec);
    case KernelKind::read_floor:
      return render_read_floor(spec);
    case KernelKind::topk:
      break;
  }
  return render_topk(spec);
}

}  // namespace deepselect
