#include "bench_check.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "driver.hpp"
#include "gpu_check.hpp"
#include "spec.hpp"

namespace deepselect::cli {
namespace {

constexpr int64_t kSampleRows = 16;

std::vector<int64_t> sample_rows(int64_t rows) {
  const int64_t count = std::min(rows, kSampleRows);
  std::vector<int64_t> sample;
  for (int64_t i = 0; i < count; ++i) {
    sample.push_back(count == 1 ? 0 : i * (rows - 1) / (count - 1));
  }
  return sample;
}

testing::Problem sampled_problem(const BenchShape& shape, int k, const BenchInputs& inputs,
                                 const std::vector<int64_t>& sample) {
  testing::Problem problem;
  problem.dtype = shape.dtype;
  problem.rows = static_cast<int64_t>(sample.size());
  problem.n = shape.n;
  problem.k = k;
  problem.order = shape.order;
  for (const int64_t row : sample) {
    const auto first = inputs.first.begin() + static_cast<ptrdiff_t>(row * shape.n);
    problem.x.insert(problem.x.end(), first, first + static_cast<ptrdiff_t>(shape.n));
    if (!inputs.ends.empty()) problem.end.push_back(inputs.ends[static_cast<size_t>(row)]);
  }
  return problem;
}

// The sampled rows of a dense rows x k output, then the guard bytes after its last row (which
// is sampled), so that writes past the output show.
std::vector<uint8_t> sampled_bytes(const std::vector<uint8_t>& all,
                                   const std::vector<int64_t>& sample, int64_t rows,
                                   size_t row_bytes) {
  std::vector<uint8_t> bytes;
  for (const int64_t row : sample) {
    const auto first = all.begin() + static_cast<ptrdiff_t>(static_cast<size_t>(row) * row_bytes);
    bytes.insert(bytes.end(), first, first + static_cast<ptrdiff_t>(row_bytes));
  }
  bytes.insert(bytes.end(),
               all.begin() + static_cast<ptrdiff_t>(static_cast<size_t>(rows) * row_bytes),
               all.end());
  return bytes;
}

testing::GpuOutput run_poisoned(const BenchShape& shape, int k, const BenchInputs& inputs, bool pdl,
                                CUstream stream) {
  const size_t slots = static_cast<size_t>(shape.rows) * static_cast<size_t>(k);
  // The poison and the guard after each output that first_mismatch expects.
  testing::DeviceBuffer indices(slots * sizeof(int32_t) + testing::kGuardBytes);
  testing::DeviceBuffer values(slots * dtype_bytes(shape.dtype) + testing::kGuardBytes);
  indices.fill(testing::kPoison);
  values.fill(testing::kPoison);
  check_cuda(driver().cuCtxSynchronize(), "cuCtxSynchronize after the memsets");
  TopkArgs args = topk_args(shape, k, inputs.buffers.front()->at<const void>(),
                            inputs.ends_pointer(), indices.at<void>(), values.at<void>());
  args.pdl = pdl;
  topk(args, stream);
  check_cuda(driver().cuStreamSynchronize(stream), "cuStreamSynchronize after topk");
  testing::GpuOutput output;
  output.indices = indices.download();
  output.values = values.download();
  return output;
}

// The sampled rows of a whole rows x k output against the reference.
std::string compare_sample(const BenchShape& shape, int k, const BenchInputs& inputs,
                           const testing::GpuOutput& all) {
  const std::vector<int64_t> sample = sample_rows(shape.rows);
  const testing::Problem problem = sampled_problem(shape, k, inputs, sample);
  const testing::Result expected = testing::reference_topk(problem);
  const auto k_slots = static_cast<size_t>(k);
  testing::GpuOutput output;
  output.indices = sampled_bytes(all.indices, sample, shape.rows, k_slots * sizeof(int32_t));
  output.values = sampled_bytes(all.values, sample, shape.rows, k_slots * dtype_bytes(shape.dtype));
  testing::Layout layout;
  layout.values = true;
  layout.row_status = false;
  const std::string mismatch = testing::first_mismatch(problem, layout, expected, output);
  if (mismatch.empty()) return mismatch;
  return fmt::format("{} (row r is the r-th of the sampled rows {})", mismatch,
                     fmt::join(sample, ","));
}

}  // namespace

std::string check_topk(const BenchShape& shape, int k, const BenchInputs& inputs, bool pdl,
                       CUstream stream) {
  return compare_sample(shape, k, inputs, run_poisoned(shape, k, inputs, pdl, stream));
}

}  // namespace deepselect::cli
