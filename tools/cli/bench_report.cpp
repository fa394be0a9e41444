#include "bench_report.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "spec.hpp"

namespace deepselect::cli {
namespace {

std::string cuda_version_text(int version) {
  return fmt::format("{}.{}", version / 1000, version % 1000 / 10);
}

// Where the first call's kernel came from.
std::string first_call_origin(const StoreStats& taken) {
  if (taken.compiles > 0) return fmt::format("{} NVRTC compile(s) + module load", taken.compiles);
  if (taken.disk_hits > 0) return "cubin from the disk cache + module load (not a cold compile)";
  if (taken.prebuilt_hits > 0) return "cubin from the prebuilt dir + module load";
  return "kernel already loaded";
}

std::string rows_text(const BenchShape& shape) {
  return fmt::format("{} x {}", shape.rows, shape.n);
}

const char* lengths_text(const BenchShape& shape) {
  return shape.ragged == Ragged::none ? "full" : ragged_name(shape.ragged);
}

std::string check_text(const Measurement& m) {
  return m.mismatch.empty() ? "ok" : "MISMATCH " + m.mismatch;
}

nlohmann::json gpu_json(const GpuInfo& gpu) {
  return {{"name", gpu.name},
          {"sms", gpu.sms},
          {"compute_capability", fmt::format("{}.{}", gpu.cc_major, gpu.cc_minor)},
          {"driver_cuda_version", cuda_version_text(gpu.driver_version)}};
}

nlohmann::json cold_json(const ColdStart& cold) {
  return {{"spec", cold.spec},
          {"first_call_ms", cold.first_ms},
          {"second_call_ms", cold.second_ms},
          {"first_call_compiles", cold.first_call.compiles},
          {"first_call_disk_hits", cold.first_call.disk_hits},
          {"first_call_prebuilt_hits", cold.first_call.prebuilt_hits}};
}

nlohmann::json result_json(const Measurement& m) {
  const nlohmann::json at_once =
      m.kernel.cluster > 1 ? nlohmann::json(m.clusters_at_once) : nullptr;
  return {{"name", m.shape.name},
          {"dist", testing::dist_name(m.dist)},
          {"rows", m.shape.rows},
          {"n", m.shape.n},
          {"k", m.k},
          {"dtype", dtype_name(m.shape.dtype)},
          {"order", order_name(m.shape.order)},
          {"ragged", ragged_name(m.shape.ragged)},
          {"values", m.shape.values},
          {"valid_bytes", m.valid_bytes},
          {"buffers", m.buffers},
          {"us", m.topk.us_per_call},
          {"calls_per_replay", m.topk.calls},
          {"gbps", m.gbps()},
          {"floor_us", m.floor.us_per_call},
          {"floor_calls_per_replay", m.floor.calls},
          {"ratio", m.ratio()},
          {"check", m.mismatch.empty() ? "ok" : "MISMATCH"},
          {"mismatch", m.mismatch},
          {"kernel", m.kernel.to_string()},
          {"clusters_at_once", at_once}};
}

// How a call's rows (one cluster each) fit the clusters the GPU holds at once.
std::string waves_text(const Measurement& m) {
  if (m.kernel.cluster == 1) return "lone CTAs";
  const int64_t held_at_once = std::max(m.clusters_at_once, 1);
  const int64_t waves = (m.shape.rows + held_at_once - 1) / held_at_once;
  const std::string held =
      fmt::format("{} rows, {} clusters at once", m.shape.rows, m.clusters_at_once);
  return waves == 1 ? held : fmt::format("{}: {} waves", held, waves);
}

}  // namespace

void print_gpu(const GpuInfo& gpu) {
  fmt::print("gpu: {} (sm_{}{}, {} SMs), driver CUDA {}, deepselect {}\n", gpu.name, gpu.cc_major,
             gpu.cc_minor, gpu.sms, cuda_version_text(gpu.driver_version), version());
}

void print_cold_start(const ColdStart& cold) {
  fmt::print("cold start, {}: wall clock of one topk call + stream sync\n", cold.spec);
  fmt::print("  first call in this process: {:10.3f} ms ({})\n", cold.first_ms,
             first_call_origin(cold.first_call));
  fmt::print("  second call:                {:10.3f} ms (kernel in memory; launch + sync)\n",
             cold.second_ms);
  if (cold.first_call.compiles == 0) {
    fmt::print("  (for a compile-from-scratch figure, run with an empty DEEPSELECT_CACHE_DIR)\n");
  }
  fmt::print(
      "timing: CUDA-graph replays over rotating DRAM-resident buffers (> 4 x 60 MB), median us "
      "per call; floor: a read-once kernel over the same bytes\n\n");
}

void print_table_header() {
  fmt::print("{:<18} {:<10} {:>15} {:>5} {:<5} {:<8} {:<8} {:>10} {:>8} {:>9} {:>7}  {}\n", "shape",
             "dist", "rows x n", "k", "dtype", "order", "rows", "us/call", "GB/s", "floor us",
             "/floor", "check");
}

void print_row(const Measurement& m) {
  fmt::print(
      "{:<18} {:<10} {:>15} {:>5} {:<5} {:<8} {:<8} {:>10.2f} {:>8.0f} {:>9.2f} {:>7.2f}  {}\n",
      m.shape.name, testing::dist_name(m.dist), rows_text(m.shape), m.k, dtype_name(m.shape.dtype),
      order_name(m.shape.order), lengths_text(m.shape), m.topk.us_per_call, m.gbps(),
      m.floor.us_per_call, m.ratio(), check_text(m));
  std::fflush(stdout);
}

void print_kernels(const std::vector<Measurement>& results) {
  fmt::print("\nkernels (the same for every distribution):\n");
  for (size_t i = 0; i < results.size(); ++i) {
    const Measurement& m = results[i];
    const bool seen = std::any_of(results.begin(), results.begin() + static_cast<ptrdiff_t>(i),
                                  [&](const Measurement& earlier) {
                                    return earlier.shape.name == m.shape.name && earlier.k == m.k &&
                                           earlier.kernel == m.kernel;
                                  });
    if (!seen)
      fmt::print("  {} k={}: {} ({})\n", m.shape.name, m.k, m.kernel.to_string(), waves_text(m));
  }
}

void print_summary(const std::vector<Measurement>& results) {
  const auto mismatches = std::count_if(results.begin(), results.end(),
                                        [](const Measurement& m) { return !m.mismatch.empty(); });
  fmt::print("\n{} results checked against the CPU reference: {} ok, {} MISMATCH\n", results.size(),
             static_cast<long>(results.size()) - mismatches, mismatches);
}

void write_json(const std::string& path, const GpuInfo& gpu, const ColdStart& cold, int replays,
                bool pdl, const std::vector<Measurement>& results) {
  nlohmann::json all = {{"deepselect", version()},
                        {"gpu", gpu_json(gpu)},
                        {"replays", replays},
                        {"pdl", pdl},
                        {"cold_start", cold_json(cold)},
                        {"results", nlohmann::json::array()}};
  for (const Measurement& m : results) all["results"].push_back(result_json(m));
  std::ofstream out(path, std::ios::trunc);
  out << all.dump(2) << "\n";
  if (!out.good()) throw Error(fmt::format("deepselect bench: cannot write {}", path));
  fmt::print("wrote {}\n", path);
}

}  // namespace deepselect::cli
