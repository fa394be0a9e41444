// `deepselect bench`: the suite of docs/workloads.md (or one shape) timed as it says: per call,
// over rotating DRAM-resident buffers, in CUDA-graph replays, next to the read floor of the same
// bytes, each result checked against the CPU reference in the same run. Exit status 2 without
// a GPU, 1 on a mismatch.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench_check.hpp"
#include "bench_gpu.hpp"
#include "bench_inputs.hpp"
#include "bench_report.hpp"
#include "bench_suite.hpp"
#include "commands.hpp"
#include "driver.hpp"
#include "launch.hpp"
#include "params.cuh"
#include "registry.hpp"
#include "spec_list.hpp"
#include "topk_internal.hpp"
#include "tuning_table.hpp"

namespace deepselect::cli {
namespace {

constexpr int64_t kMaxGridY = 65535;  // the read floor puts rows on grid y

struct BenchOptions {
  bool suite = false;
  std::string shape;
  int64_t rows = 0;
  int64_t n = 0;
  int k = 0;
  std::string dtype = "f32";
  std::string order = "unsorted";
  std::string ragged = "none";
  int64_t prefix = 0;
  bool values = false;
  std::string dists = "normal,relu_ties,ascending";
  std::string json;
  int replays = 20;
  std::string only;
  bool pdl = false;
};

BenchShape custom_shape(const BenchOptions& o) {
  if (o.rows <= 0 || o.n <= 0 || o.k <= 0) {
    throw ArgumentError("--rows/--n/--k", "a custom shape needs all three, positive");
  }
  if (o.rows > kMaxGridY) {
    throw ArgumentError("--rows", fmt::format("{} is more than {}", o.rows, kMaxGridY));
  }
  BenchShape shape;
  shape.name = "custom";
  shape.rows = o.rows;
  shape.n = o.n;
  shape.ks = {o.k};
  shape.dtype = parse_dtype(o.dtype);
  shape.order = parse_order(o.order);
  shape.ragged = parse_ragged(o.ragged);
  shape.prefix = o.prefix;
  shape.values = o.values;
  buffer_count(shape);  // throws when two buffers would not fit
  return shape;
}

std::vector<BenchShape> named_shape(const std::string& name) {
  std::vector<BenchShape> shapes;
  std::string names;
  for (const BenchShape& shape : suite_shapes()) {
    if (shape.name == name) shapes.push_back(shape);
    names += (names.empty() ? "" : ", ") + shape.name;
  }
  if (shapes.empty()) {
    throw ArgumentError("--shape", fmt::format("unknown shape '{}' (the suite: {})", name, names));
  }
  return shapes;
}

std::vector<BenchShape> selected_shapes(const BenchOptions& o) {
  std::vector<BenchShape> shapes;
  if (o.rows != 0 || o.n != 0 || o.k != 0) {
    shapes = {custom_shape(o)};
  } else if (!o.shape.empty()) {
    shapes = named_shape(o.shape);
  } else {
    shapes = suite_shapes();
  }
  std::erase_if(shapes,
                [&](const BenchShape& s) { return s.name.find(o.only) == std::string::npos; });
  if (shapes.empty()) throw ArgumentError("--only", fmt::format("no shape matches '{}'", o.only));
  return shapes;
}

// The first call of the process, on the first shape of the run (so that a plan override made for
// the shapes asked for need not fit another shape's kernel).
ColdStart measure_cold_start(const BenchShape& shape, CUstream stream) {
  const int k = shape.ks.front();
  testing::DeviceBuffer x(static_cast<size_t>(shape.rows * shape.n) * dtype_bytes(shape.dtype));
  testing::DeviceBuffer indices(static_cast<size_t>(shape.rows * k) * sizeof(int32_t));
  x.fill(0);
  check_cuda(driver().cuCtxSynchronize(), "cuCtxSynchronize");
  const TopkArgs args =
      topk_args(shape, k, x.at<const void>(), nullptr, indices.at<void>(), nullptr);
  ColdStart cold;
  cold.spec = fmt::format("{} ({} x {} {} k={})", shape.name, shape.rows, shape.n,
                          dtype_name(shape.dtype), k);
  const StoreStats before = CubinStore::global().stats();
  cold.first_ms = wall_ms([&] { topk(args, stream); }, stream);
  const StoreStats after = CubinStore::global().stats();
  cold.first_call = {after.compiles - before.compiles, after.prebuilt_hits - before.prebuilt_hits,
                     after.disk_hits - before.disk_hits, after.memory_hits - before.memory_hits};
  cold.second_ms = wall_ms([&] { topk(args, stream); }, stream);
  return cold;
}

Timing time_topk(const BenchShape& shape, int k, const BenchInputs& inputs, const BenchOptions& o,
                 CUstream stream) {
  const size_t slots = static_cast<size_t>(shape.rows) * static_cast<size_t>(k);
  testing::DeviceBuffer indices(slots * sizeof(int32_t));
  const auto values =
      shape.values ? std::make_unique<testing::DeviceBuffer>(slots * dtype_bytes(shape.dtype))
                   : nullptr;
  const BufferCall call = [&](size_t buffer, CUstream on) {
    TopkArgs args =
        topk_args(shape, k, inputs.buffers[buffer]->at<const void>(), inputs.ends_pointer(),
                  indices.at<void>(), values ? values->at<void>() : nullptr);
    args.pdl = o.pdl;
    topk(args, on);
  };
  return time_calls(call, inputs.buffers.size(), o.replays, stream);
}

// The kernel that topk() launches for shape at k (its resident_clusters: a plan override or a
// tuning table may set clusters that the GPU does not hold all at once).
const LoadedKernel& kernel_launched(const BenchShape& shape, int k, const BenchInputs& inputs,
                                    CUstream stream) {
  testing::DeviceBuffer indices(static_cast<size_t>(shape.rows) * static_cast<size_t>(k) *
                                sizeof(int32_t));
  return planned_kernel(topk_args(shape, k, inputs.buffers.front()->at<const void>(),
                                  inputs.ends_pointer(), indices.at<void>(), nullptr),
                        stream);
}

// CTAs per row: rows * chunks >= 4 x the SMs, but at least one 16-byte load per thread.
unsigned floor_chunks(const BenchShape& shape, const GpuInfo& gpu, int threads) {
  const int64_t wanted = (4 * gpu.sms + shape.rows - 1) / shape.rows;
  const int64_t row_bytes = shape.n * static_cast<int64_t>(dtype_bytes(shape.dtype));
  const int64_t most = std::max<int64_t>(1, row_bytes / (16 * threads));
  return static_cast<unsigned>(std::clamp<int64_t>(wanted, 1, most));
}

Timing time_floor(const BenchShape& shape, const BenchInputs& inputs, const GpuInfo& gpu,
                  const BenchOptions& o, CUstream stream) {
  CUcontext context = nullptr;
  check_cuda(driver().cuCtxGetCurrent(&context), "cuCtxGetCurrent");
  const LoadedKernel& kernel =
      KernelRegistry::global().get(read_floor_spec(shape.dtype, gpu.arch()), context);
  testing::DeviceBuffer sink(sizeof(uint32_t));
  const auto threads = static_cast<unsigned>(kernel.spec.threads);
  const LaunchConfig config = LaunchConfig()
                                  .with_grid(floor_chunks(shape, gpu, kernel.spec.threads),
                                             static_cast<unsigned>(shape.rows))
                                  .with_block(threads)
                                  .with_pdl(o.pdl);
  const BufferCall call = [&](size_t buffer, CUstream on) {
    ds::ReadFloorParams params{inputs.buffers[buffer]->at<const void>(),
                               shape.n,
                               nullptr,
                               inputs.ends_pointer(),
                               sink.at<uint32_t>(),
                               static_cast<int>(shape.rows),
                               static_cast<int>(shape.n)};
    LaunchConfig launch_config = config;
    launch(kernel, launch_config.on(on), &params);
  };
  return time_calls(call, inputs.buffers.size(), o.replays, stream);
}

// Times and checks every k of shape on one distribution, printing a row for each.
void measure(const BenchShape& shape, testing::Dist dist, const GpuInfo& gpu, const BenchOptions& o,
             CUstream stream, std::vector<Measurement>& results) {
  const BenchInputs inputs = make_inputs(shape, dist);
  const Timing floor = time_floor(shape, inputs, gpu, o, stream);
  for (const int k : shape.ks) {
    Measurement m;
    m.shape = shape;
    m.dist = dist;
    m.k = k;
    m.buffers = inputs.buffers.size();
    m.valid_bytes =
        valid_elements(shape, inputs.ends) * static_cast<int64_t>(dtype_bytes(shape.dtype));
    m.floor = floor;
    m.topk = time_topk(shape, k, inputs, o, stream);
    m.mismatch = check_topk(shape, k, inputs, o.pdl, stream);
    const LoadedKernel& kernel = kernel_launched(shape, k, inputs, stream);
    m.kernel = kernel.spec;
    m.clusters_at_once = kernel.resident_clusters;
    print_row(m);
    results.push_back(std::move(m));
  }
}

void bench(const BenchOptions& o) {
  const std::vector<BenchShape> shapes = selected_shapes(o);
  const std::vector<testing::Dist> dists = parse_dists(o.dists);
  if (driver_or_null() == nullptr) {
    fmt::print(stderr, "deepselect bench: no GPU: {}\n", driver_unavailable_reason());
    throw CLI::RuntimeError(2);
  }
  use_primary_context(0);
  const GpuInfo gpu = query_gpu();
  print_gpu(gpu);
  const DeviceInfo planner_view = device_info(nullptr);
  fmt::print("plan: {}\n",
             planner_view.tuning != nullptr
                 ? fmt::format("this GPU's tuning table ({} entries; full rows only, ragged "
                               "shapes keep the defaults)",
                               planner_view.tuning->size())
                 : std::string("built-in defaults (no tuning table, or "
                               "DEEPSELECT_TUNING_DISABLE=1)"));
  fmt::print("launch: {}\n", o.pdl ? "programmatic dependent (--pdl): each timed call, top-k and "
                                     "floor alike, may start while the one before it runs"
                                   : "plain (each call starts once the one before it ends)");
  const testing::Stream stream;
  const ColdStart cold = measure_cold_start(shapes.front(), stream.get());
  print_cold_start(cold);
  print_table_header();
  std::vector<Measurement> results;
  for (const BenchShape& shape : shapes) {
    for (const testing::Dist dist : dists) measure(shape, dist, gpu, o, stream.get(), results);
  }
  print_kernels(results);
  print_summary(results);
  if (!o.json.empty()) write_json(o.json, gpu, cold, o.replays, o.pdl, results);
  if (std::any_of(results.begin(), results.end(),
                  [](const Measurement& m) { return !m.mismatch.empty(); })) {
    throw Error("deepselect bench: a result differs from the CPU reference (MISMATCH above)");
  }
}

void add_shape_options(CLI::App& command, BenchOptions& o) {
  CLI::Option* suite = command.add_flag(
      "--suite", o.suite, "Run the docs/workloads.md suite (the default without a shape)");
  CLI::Option* shape = command.add_option("--shape", o.shape, "Run one suite shape by name");
  CLI::Option* rows = command.add_option("--rows", o.rows, "Custom shape: rows");
  CLI::Option* n = command.add_option("--n", o.n, "Custom shape: columns (the row stride too)");
  CLI::Option* k = command.add_option("--k", o.k, "Custom shape: k");
  for (CLI::Option* custom : {rows, n, k}) custom->excludes(suite)->excludes(shape);
  shape->excludes(suite);
  command.add_option("--dtype", o.dtype, "Custom shape: f32, bf16 or f16")->capture_default_str();
  command.add_option("--order", o.order, "Custom shape: unsorted, by_value or by_index")
      ->capture_default_str();
  command
      .add_option("--ragged", o.ragged,
                  "Custom shape: none, uniform (lengths 1..n) or causal (row i: prefix + i + 1)")
      ->capture_default_str();
  command.add_option("--prefix", o.prefix, "Custom shape: the causal prefix")
      ->capture_default_str();
  command.add_flag("--values", o.values, "Custom shape: the timed calls write values too");
}

}  // namespace

void add_bench(CLI::App& app) {
  auto options = std::make_shared<BenchOptions>();
  CLI::App* command = app.add_subcommand(
      "bench", "Time top-k on the workloads.md suite against the read floor (needs a GPU)");
  add_shape_options(*command, *options);
  command->add_option("--dists", options->dists, "Comma-separated distributions")
      ->capture_default_str();
  command->add_option("--only", options->only, "Only the shapes whose name contains this");
  command->add_option("--replays", options->replays, "Timed graph replays (median)")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  command->add_option("--json", options->json, "Write every result to this JSON file");
  command->add_flag("--pdl", options->pdl,
                    "Launch the timed calls (top-k and the floor) with programmatic dependent "
                    "launch, as an engine passing pdl would");
  command->callback([options] { bench(*options); });
}

}  // namespace deepselect::cli
