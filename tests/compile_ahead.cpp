#include "compile_ahead.hpp"

#include <algorithm>
#include <exception>

#include "cubin_store.hpp"
#include "parallel.hpp"
#include "topk_internal.hpp"

namespace deepselect::testing {

std::vector<KernelSpec> planned_kernels(const std::vector<CaseSpec>& cases,
                                        const DeviceInfo& device) {
  std::vector<KernelSpec> kernels;
  for (const CaseSpec& spec : cases) {
    if (spec.rows < 1 || spec.k < 1 || spec.k > k_buckets().back()) continue;
    // As run_on_gpu calls topk: decode bounds are the seq_lens, the epilogue the page table.
    const KernelSpec kernel =
        plan_spec(spec.dtype, spec.k, spec.rows, spec.n, device,
                  spec.bounds == Bounds::decode ? RowBounds::decode : RowBounds::range,
                  spec.page_table ? Epilogue::page_table : Epilogue::plain);
    if (std::find(kernels.begin(), kernels.end(), kernel) == kernels.end()) {
      kernels.push_back(kernel);
    }
  }
  return kernels;
}

void compile_ahead(const std::vector<CaseSpec>& cases) {
  const std::vector<KernelSpec> kernels = planned_kernels(cases, device_info(nullptr));
  parallel_for(static_cast<int64_t>(kernels.size()), [&](int64_t i) {
    try {
      CubinStore::global().get(kernels[static_cast<size_t>(i)]);
    } catch (const std::exception&) {
      // Reported by the case that launches it.
    }
  });
}

}  // namespace deepselect::testing
