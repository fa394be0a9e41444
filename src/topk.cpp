// The public entry point: validate, plan, get the kernel, launch.
#include <array>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <mutex>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "driver.hpp"
#include "float_bits.hpp"
#include "launch.hpp"
#include "params.cuh"
#include "plan.hpp"
#include "registry.hpp"
#include "topk_internal.hpp"
#include "tuning_table.hpp"

namespace deepselect {
namespace {

constexpr int kMaxK = 4096;
constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
// The kernel indexes a row's elements (plus alignment, a block and a prefetch stride of slack)
// with int.
constexpr int64_t kMaxN = kInt32Max - 65536;
// rows * cluster CTAs must fit the grid's x dimension.
constexpr int64_t kMaxRows = kInt32Max / kMaxCluster;

void require(bool condition, const char* argument, const std::string& message) {
  if (!condition) throw ArgumentError(argument, message);
}

bool aligned(const void* pointer, size_t alignment) {
  return reinterpret_cast<uintptr_t>(pointer) % alignment == 0;
}

int64_t index_bytes(IndexType type) {
  return type == IndexType::i64 ? 8 : 4;
}

// Rejects stride_name unless count rows of stride elements of element_bytes each stay within
// int64 bytes.
void require_rows_fit(int64_t count, const char* count_name, int64_t stride,
                      const char* stride_name, int64_t element_bytes) {
  require(
      stride <= std::numeric_limits<int64_t>::max() / element_bytes / std::max<int64_t>(count, 1),
      stride_name,
      fmt::format("{} * {} = {} * {} overflows", count_name, stride_name, count, stride));
}

// The arguments with defaults resolved, after every host-side check.
struct Checked {
  int64_t ld = 0;
  int64_t ld_idx = 0;
  int64_t ld_val = 0;
  int64_t ld_raw = 0;
  int64_t ld_page_table = 0;
  uint32_t fill_value_bits = 0;
};

void validate_decode_bounds(const TopkArgs& a) {
  require(a.next_n >= 1, "next_n", fmt::format("{} is not >= 1", a.next_n));
  require(a.seq_lens == nullptr || (a.begin == nullptr && a.end == nullptr), "seq_lens",
          "cannot be combined with begin/end (decode bounds replace them)");
}

void validate_page_table(const TopkArgs& a, Checked& checked) {
  if (a.page_table == nullptr) {
    require(a.row_to_batch == nullptr, "row_to_batch", "needs page_table");
    require(a.page_size == 0, "page_size", fmt::format("{} needs page_table", a.page_size));
    require(a.raw_indices == nullptr, "raw_indices", "needs page_table");
    return;
  }
  require(a.page_size >= 1, "page_size", fmt::format("{} is not >= 1", a.page_size));
  require(a.page_table_rows >= 1, "page_table_rows",
          fmt::format("{} is not >= 1", a.page_table_rows));
  require(a.page_table_cols >= 1, "page_table_cols",
          fmt::format("{} is not >= 1", a.page_table_cols));
  checked.ld_page_table = a.ld_page_table == 0 ? a.page_table_cols : a.ld_page_table;
  require(checked.ld_page_table >= a.page_table_cols, "ld_page_table",
          fmt::format("{} is less than page_table_cols = {}", a.ld_page_table, a.page_table_cols));
  require_rows_fit(a.page_table_rows, "page_table_rows", checked.ld_page_table, "ld_page_table", 4);
  checked.ld_raw = a.ld_raw == 0 ? a.k : a.ld_raw;
  require(a.raw_indices == nullptr || checked.ld_raw >= a.k, "ld_raw",
          fmt::format("{} is less than k = {}", a.ld_raw, a.k));
  if (a.raw_indices != nullptr)
    require_rows_fit(a.rows, "rows", checked.ld_raw, "ld_raw", index_bytes(a.index_type));
  require(aligned(a.raw_indices, static_cast<size_t>(index_bytes(a.index_type))), "raw_indices",
          "is not aligned to its element size");
}

// Every int32 device array the call may read or write (misaligned, the kernel would fault).
void validate_int32_arrays(const TopkArgs& a) {
  for (const auto& [array, name] : {std::pair<const void*, const char*>{a.k_per_row, "k_per_row"},
                                    {a.begin, "begin"},
                                    {a.end, "end"},
                                    {a.index_offset, "index_offset"},
                                    {a.row_status, "row_status"},
                                    {a.seq_lens, "seq_lens"},
                                    {a.page_table, "page_table"},
                                    {a.row_to_batch, "row_to_batch"}}) {
    require(aligned(array, 4), name, "is not 4-byte aligned");
  }
}

Checked validate(const TopkArgs& a) {
  require(a.dtype == DType::f32 || a.dtype == DType::bf16 || a.dtype == DType::f16, "dtype",
          fmt::format("unsupported value {}", static_cast<int>(a.dtype)));
  require(a.index_type == IndexType::i32 || a.index_type == IndexType::i64, "index_type",
          fmt::format("unsupported value {}", static_cast<int>(a.index_type)));
  require(a.order == Order::unsorted || a.order == Order::by_value || a.order == Order::by_index,
          "order", fmt::format("unsupported value {}", static_cast<int>(a.order)));
  require(a.nan_policy == NanPolicy::nan_is_largest || a.nan_policy == NanPolicy::nan_is_smallest,
          "nan_policy", fmt::format("unsupported value {}", static_cast<int>(a.nan_policy)));
  require(a.k >= 1 && a.k <= kMaxK, "k", fmt::format("{} is not in 1..{}", a.k, kMaxK));
  require(a.rows >= 0 && a.rows <= kMaxRows, "rows",
          fmt::format("{} is not in 0..{}", a.rows, kMaxRows));
  require(a.n >= 0 && a.n <= kMaxN, "n", fmt::format("{} is not in 0..{}", a.n, kMaxN));
  Checked checked;
  checked.ld = a.ld == 0 ? a.n : a.ld;
  require(checked.ld >= a.n, "ld", fmt::format("{} is less than n = {}", a.ld, a.n));
  const int64_t element = static_cast<int64_t>(dtype_bytes(a.dtype));
  require_rows_fit(a.rows, "rows", checked.ld, "ld", element);
  checked.ld_idx = a.ld_idx == 0 ? a.k : a.ld_idx;
  require(checked.ld_idx >= a.k, "ld_idx", fmt::format("{} is less than k = {}", a.ld_idx, a.k));
  require_rows_fit(a.rows, "rows", checked.ld_idx, "ld_idx", index_bytes(a.index_type));
  checked.ld_val = a.ld_val == 0 ? a.k : a.ld_val;
  require(a.values == nullptr || checked.ld_val >= a.k, "ld_val",
          fmt::format("{} is less than k = {}", a.ld_val, a.k));
  if (a.values != nullptr) require_rows_fit(a.rows, "rows", checked.ld_val, "ld_val", element);
  require(a.index_type == IndexType::i64 ||
              (a.fill_index >= std::numeric_limits<int32_t>::min() && a.fill_index <= kInt32Max),
          "fill_index", fmt::format("{} does not fit the int32 indices", a.fill_index));
  if (a.rows > 0) {
    require(a.indices != nullptr, "indices", "is null");
    require(aligned(a.indices, static_cast<size_t>(index_bytes(a.index_type))), "indices",
            "is not aligned to its element size");
    require(a.x != nullptr || a.n == 0, "x", "is null");
    require(aligned(a.x, static_cast<size_t>(element)), "x", "is not aligned to its element size");
    require(aligned(a.values, static_cast<size_t>(element)), "values",
            "is not aligned to its element size");
  }
  validate_decode_bounds(a);
  validate_page_table(a, checked);
  validate_int32_arrays(a);
  const double fill = a.fill_value.value_or(a.largest ? -std::numeric_limits<double>::infinity()
                                                      : std::numeric_limits<double>::infinity());
  checked.fill_value_bits = to_dtype_bits(a.dtype, fill);
  return checked;
}

uint32_t flags_of(const TopkArgs& a) {
  uint32_t flags = 0;
  if (a.largest) flags |= ds::kFlagLargest;
  if (a.nan_policy == NanPolicy::nan_is_smallest) flags |= ds::kFlagNanSmallest;
  if (a.index_type == IndexType::i64) flags |= ds::kFlagIndex64;
  if (a.order == Order::by_value) flags |= ds::kFlagOrderByValue;
  if (a.order == Order::by_index) flags |= ds::kFlagOrderByIndex;
  return flags;
}

RowBounds bounds_of(const TopkArgs& a) {
  return a.seq_lens != nullptr ? RowBounds::decode : RowBounds::range;
}

// Decode bounds (seq_lens) bound the rows' lengths in plan_spec already.
RowLengths lengths_of(const TopkArgs& a) {
  return a.begin != nullptr || a.end != nullptr ? RowLengths::bounded : RowLengths::full;
}

Epilogue epilogue_of(const TopkArgs& a) {
  return a.page_table != nullptr ? Epilogue::page_table : Epilogue::plain;
}

Arch arch_of_device(CUdevice device) {
  int major = 0;
  int minor = 0;
  check_cuda(
      driver().cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device),
      "cuDeviceGetAttribute");
  check_cuda(
      driver().cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device),
      "cuDeviceGetAttribute");
  return Arch::of_compute_capability(major, minor);
}

// A default stream (0, legacy or per-thread) is the current context's.
CUcontext context_of(CUstream stream) {
  CUcontext context = nullptr;
  if (stream == nullptr || stream == CU_STREAM_LEGACY || stream == CU_STREAM_PER_THREAD) {
    check_cuda(driver().cuCtxGetCurrent(&context), "cuCtxGetCurrent");
  } else {
    check_cuda(driver().cuStreamGetCtx(stream, &context), "cuStreamGetCtx");
  }
  if (context == nullptr) {
    throw Error("deepselect: stream has no CUDA context (a default stream needs a current one)");
  }
  return context;
}

// The stream's context, current on this thread for the object's life: a launch, a module load
// and cuCtxGetDevice go to the thread's current context, which may be another GPU's, or none.
// Every entry point holds one; what they call runs in it.
class StreamContext {
 public:
  explicit StreamContext(CUstream stream) : context_(context_of(stream)), scope_(context_) {}
  CUcontext get() const { return context_; }

 private:
  CUcontext context_;
  ContextScope scope_;
};

CUdevice current_device() {
  CUdevice device = 0;
  check_cuda(driver().cuCtxGetDevice(&device), "cuCtxGetDevice");
  return device;
}

// The tuning table for device from the cache directory, when tuning is not disabled and a
// table with this device's fingerprint exists; entries that no longer validate are dropped.
std::optional<TuningTable> load_tuning_table(int ordinal, Arch arch) {
  const char* disabled = std::getenv("DEEPSELECT_TUNING_DISABLE");
  if (disabled != nullptr && std::string_view(disabled) == "1") return std::nullopt;
  const DeviceFingerprint fingerprint = DeviceFingerprint::of_device(ordinal);
  const std::filesystem::path file =
      TuningTable::path_for(CubinStore::global().config().cache_dir, fingerprint);
  std::string warning;
  std::optional<TuningTable> loaded = TuningTable::load(file, fingerprint, &warning);
  if (!warning.empty())
    fmt::print(stderr, "deepselect: warning: {}; using the defaults\n", warning);
  if (!loaded) return std::nullopt;
  TuningTable valid(fingerprint);
  for (const auto& [bucket, choice] : loaded->entries()) {
    try {
      choice.tuned
          .apply(plan_spec(bucket.dtype, bucket.k_bucket, int64_t{1} << bucket.rows_log2,
                           int64_t{1} << bucket.n_log2, DeviceInfo{arch, 1, nullptr}))
          .validate();
      valid.set(bucket, choice);
    } catch (const ArgumentError& error) {
      fmt::print(stderr, "deepselect: warning: tuning entry {} ignored: {}\n", bucket.to_string(),
                 error.what());
    }
  }
  return valid;
}

// The planner's view of each device ordinal, looked up once per process.
struct DeviceState {
  std::once_flag once;
  DeviceInfo info;
  std::optional<TuningTable> tuning;
};

// The current context's device, as the planner sees it.
DeviceInfo current_device_info() {
  constexpr int kMaxDevices = 64;
  static std::array<DeviceState, kMaxDevices> devices;
  const CUdevice device = current_device();
  if (device < 0 || device >= kMaxDevices) {
    throw Error(fmt::format("deepselect: device ordinal {} is beyond the {} supported", device,
                            kMaxDevices));
  }
  DeviceState& state = devices[device];
  std::call_once(state.once, [&] {
    int sm_count = 0;
    check_cuda(
        driver().cuDeviceGetAttribute(&sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device),
        "cuDeviceGetAttribute");
    const Arch arch = arch_of_device(device);
    state.tuning = load_tuning_table(device, arch);
    state.info = DeviceInfo{arch, sm_count, state.tuning ? &*state.tuning : nullptr};
  });
  return state.info;
}

}  // namespace

const char* version() {
  return DEEPSELECT_VERSION;
}

namespace {

void launch_topk(const TopkArgs& a, const Checked& checked, const LoadedKernel& kernel,
                 CUstream stream) {
  const KernelSpec& spec = kernel.spec;
  ds::TopkParams params{};
  params.x = a.x;
  params.ld = checked.ld;
  params.k_per_row = a.k_per_row;
  params.begin = a.begin;
  params.end = a.end;
  params.index_offset = a.index_offset;
  params.row_status = a.row_status;
  params.indices = a.indices;
  params.ld_idx = checked.ld_idx;
  params.values = a.values;
  params.ld_val = checked.ld_val;
  params.fill_index = a.fill_index;
  params.rows = static_cast<int>(a.rows);
  params.n = static_cast<int>(a.n);
  params.k = a.k;
  params.fill_value_bits = checked.fill_value_bits;
  params.flags = flags_of(a);
  params.seed = kBlockOrderSeed;
  params.seq_lens = a.seq_lens;
  params.next_n = a.next_n;
  params.page_size = a.page_size;
  params.page_table = a.page_table;
  params.page_table_rows = a.page_table_rows;
  params.page_table_cols = a.page_table_cols;
  params.ld_page_table = checked.ld_page_table;
  params.row_to_batch = a.row_to_batch;
  params.raw_indices = a.raw_indices;
  params.ld_raw = checked.ld_raw;

  const LaunchConfig config = LaunchConfig()
                                  .with_grid(static_cast<unsigned>(a.rows * spec.cluster))
                                  .with_block(static_cast<unsigned>(spec.threads))
                                  .with_cluster(static_cast<unsigned>(spec.cluster))
                                  .with_smem(static_cast<unsigned>(spec.dynamic_smem_bytes()))
                                  .with_pdl(a.pdl)
                                  .on(stream);
  launch(kernel, config, &params);
}

// The planner's kernel for a on device, planned again with clusters of half as many CTAs while the
// GPU cannot hold all of the call's clusters at once: a cluster's CTAs share one GPC, so how many
// fit depends on the GPU's layout, which only the driver knows, once the kernel is loaded. The
// clusters that do not fit would run in a second wave. The H100's 132 SMs held 15 clusters of 8
// CTAs and 30 of 4 (bench/results/2026-12-03-h200-select/v112-v113): 16 rows of 131,072 f32 at
// k = 512 / 2048 took 22.5 / 23.3 us in 8-CTA clusters and 15.1 / 16.4 in 4-CTA ones (ascending
// 34.5 -> 16.5 at k = 2048); 31 and 32 rows 25.5-27.4 us in 4-CTA clusters and 18.9-20.7 in 2-CTA
// ones (four stages at k <= 512 then; two since v118: -1.7..-4.9% more); bf16 -23..-25%. A
// cluster the override or the tuning table sets above the limit stays: they are measured choices.
const LoadedKernel& kernel_at_once(const TopkArgs& a, DeviceInfo device, CUcontext context) {
  const auto kernel_on = [&]() -> const LoadedKernel& {
    return KernelRegistry::global().get(
        plan_spec(a.dtype, a.k, a.rows, a.n, device, bounds_of(a), epilogue_of(a), lengths_of(a)),
        context);
  };
  const LoadedKernel* kernel = &kernel_on();
  while (!kernel->holds_at_once(a.rows) && kernel->spec.cluster <= device.largest_cluster) {
    device.largest_cluster = kernel->spec.cluster / 2;
    kernel = &kernel_on();
  }
  return *kernel;
}

}  // namespace

void topk(const TopkArgs& a, CUstream stream) {
  const Checked checked = validate(a);
  if (a.rows == 0) return;
  const StreamContext context(stream);
  launch_topk(a, checked, kernel_at_once(a, current_device_info(), context.get()), stream);
}

DeviceInfo device_info(CUstream stream) {
  const StreamContext context(stream);
  return current_device_info();
}

KernelSpec planned_spec(const TopkArgs& args, CUstream stream) {
  return planned_spec(args, device_info(stream), stream);
}

const LoadedKernel& planned_kernel(const TopkArgs& args, CUstream stream) {
  return planned_kernel(args, device_info(stream), stream);
}

KernelSpec planned_spec(const TopkArgs& args, const DeviceInfo& device, CUstream stream) {
  return planned_kernel(args, device, stream).spec;
}

const LoadedKernel& planned_kernel(const TopkArgs& args, const DeviceInfo& device,
                                   CUstream stream) {
  validate(args);
  const StreamContext context(stream);
  return kernel_at_once(args, device, context.get());
}

void topk_with_spec(const TopkArgs& a, const KernelSpec& spec, CUstream stream) {
  const Checked checked = validate(a);
  spec.validate();
  if (spec.kind != KernelKind::topk || spec.dtype != a.dtype || spec.k_max < a.k ||
      spec.bounds != bounds_of(a) || spec.epilogue != epilogue_of(a)) {
    throw ArgumentError("spec", fmt::format("{} cannot serve dtype {} with k = {} and these "
                                            "row bounds and epilogue",
                                            spec.to_string(), dtype_name(a.dtype), a.k));
  }
  spec.require_rows_held(a.n, "spec");
  if (a.rows == 0) return;
  const StreamContext context(stream);
  if (!(spec.arch == current_device_info().arch)) {
    throw ArgumentError("spec", fmt::format("{} is not for this GPU", spec.to_string()));
  }
  launch_topk(a, checked, KernelRegistry::global().get(spec, context.get()), stream);
}

}  // namespace deepselect
