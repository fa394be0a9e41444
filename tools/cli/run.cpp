// `deepselect run`: the main job. On a GPU, selects the top 2048 of 64 rows of 131072 f32
// scores (a DSA decode step), checks the result on the CPU and times it. Without a GPU it
// precompiles the default kernels instead, and says so.
#include <algorithm>
#include <random>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "cubin_store.hpp"
#include "device_memory.hpp"
#include "driver.hpp"
#include "spec_list.hpp"

namespace deepselect::cli {
namespace {

constexpr int kRows = 64;
constexpr int kColumns = 131072;
constexpr int kK = 2048;
constexpr int kTimedCalls = 50;

// Rows whose selected values are not exactly the row's k largest, or whose indices are not
// distinct columns holding those values.
int count_wrong_rows(const std::vector<float>& x, const std::vector<int32_t>& indices,
                     const std::vector<float>& values) {
  int wrong = 0;
  for (int row = 0; row < kRows; ++row) {
    std::vector<float> expected(x.begin() + int64_t(row) * kColumns,
                                x.begin() + int64_t(row + 1) * kColumns);
    std::nth_element(expected.begin(), expected.begin() + kK - 1, expected.end(),
                     std::greater<float>());
    expected.resize(kK);
    std::sort(expected.begin(), expected.end());
    std::vector<float> got(values.begin() + int64_t(row) * kK,
                           values.begin() + int64_t(row + 1) * kK);
    std::vector<int32_t> columns(indices.begin() + int64_t(row) * kK,
                                 indices.begin() + int64_t(row + 1) * kK);
    bool ok = true;
    for (int slot = 0; slot < kK; ++slot) {
      const int32_t column = columns[slot];
      ok = ok && column >= 0 && column < kColumns &&
           x[int64_t(row) * kColumns + column] == got[slot];
    }
    std::sort(got.begin(), got.end());
    std::sort(columns.begin(), columns.end());
    ok = ok && got == expected &&
         std::adjacent_find(columns.begin(), columns.end()) == columns.end();
    if (!ok) ++wrong;
  }
  return wrong;
}

// Returns the number of wrong rows.
int run_on_gpu() {
  const Driver& cu = driver();
  use_primary_context(0);

  std::vector<float> x(size_t(kRows) * kColumns);
  std::mt19937_64 rng(2048);
  std::normal_distribution<float> normal;
  for (float& value : x) value = normal(rng);

  const DeviceMemory d_x(x.size() * sizeof(float));
  const DeviceMemory d_indices(size_t(kRows) * kK * sizeof(int32_t));
  const DeviceMemory d_values(size_t(kRows) * kK * sizeof(float));
  check_cuda(cu.cuMemcpyHtoD(d_x.address(), x.data(), x.size() * sizeof(float)), "cuMemcpyHtoD");
  check_cuda(cu.cuMemsetD8(d_indices.address(), 0xab, size_t(kRows) * kK * sizeof(int32_t)),
             "cuMemsetD8");

  TopkArgs args;
  args.x = d_x.get();
  args.rows = kRows;
  args.n = kColumns;
  args.k = kK;
  args.indices = d_indices.get();
  args.values = d_values.get();
  topk(args, nullptr);
  check_cuda(cu.cuCtxSynchronize(), "cuCtxSynchronize");

  std::vector<int32_t> indices(size_t(kRows) * kK);
  std::vector<float> values(size_t(kRows) * kK);
  check_cuda(cu.cuMemcpyDtoH(indices.data(), d_indices.address(), indices.size() * sizeof(int32_t)),
             "cuMemcpyDtoH");
  check_cuda(cu.cuMemcpyDtoH(values.data(), d_values.address(), values.size() * sizeof(float)),
             "cuMemcpyDtoH");
  const int wrong = count_wrong_rows(x, indices, values);

  CUevent start = nullptr;
  CUevent stop = nullptr;
  check_cuda(cu.cuEventCreate(&start, CU_EVENT_DEFAULT), "cuEventCreate");
  check_cuda(cu.cuEventCreate(&stop, CU_EVENT_DEFAULT), "cuEventCreate");
  check_cuda(cu.cuEventRecord(start, nullptr), "cuEventRecord");
  for (int call = 0; call < kTimedCalls; ++call) topk(args, nullptr);
  check_cuda(cu.cuEventRecord(stop, nullptr), "cuEventRecord");
  check_cuda(cu.cuEventSynchronize(stop), "cuEventSynchronize");
  float milliseconds = 0.0f;
  check_cuda(cu.cuEventElapsedTime(&milliseconds, start, stop), "cuEventElapsedTime");
  cu.cuEventDestroy(start);
  cu.cuEventDestroy(stop);

  fmt::print("top-{} of {} x {} f32 (normal): {} rows checked against the CPU, {} wrong\n", kK,
             kRows, kColumns, kRows, wrong);
  fmt::print(
      "mean {:.1f} us per call over {} back-to-back calls (the input stays in L2; "
      "`deepselect bench` is the honest figure)\n",
      1000.0 * milliseconds / kTimedCalls, kTimedCalls);
  return wrong;
}

void precompile_without_gpu() {
  fmt::print("no GPU here ({}): precompiling the default kernels for sm_90a instead\n",
             driver_unavailable_reason());
  CubinStore& store = CubinStore::global();
  int compiled = 0;
  int reused = 0;
  for (const KernelSpec& spec : default_specs(Arch{90})) {
    const std::shared_ptr<const Cubin> cubin = store.get(spec);
    ++(cubin->origin == CubinOrigin::compiled ? compiled : reused);
  }
  fmt::print("compiled {}, reused {} into {}\n", compiled, reused, store.cache().dir().string());
}

// Where this process's kernels came from: NVRTC, the prebuilt dir, the disk cache or memory.
void print_kernel_sources() {
  const StoreStats stats = CubinStore::global().stats();
  fmt::print("kernels: compiled {}, prebuilt {}, disk {}, memory {}\n", stats.compiles,
             stats.prebuilt_hits, stats.disk_hits, stats.memory_hits);
}

}  // namespace

void add_run(CLI::App& app) {
  app.add_subcommand("run", "Select top-k on a DSA-shaped input (precompiles without a GPU)")
      ->callback([] {
        if (driver_or_null() != nullptr) {
          const int wrong = run_on_gpu();
          print_kernel_sources();
          if (wrong != 0) throw Error("deepselect run: the GPU result is wrong");
        } else {
          precompile_without_gpu();
          print_kernel_sources();
        }
      });
}

}  // namespace deepselect::cli
