// What `deepselect bench` prints and writes: the GPU, the cold start, one table row per
// (shape, k, distribution), the kernel of each (shape, k), and all of it as JSON.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "bench_gpu.hpp"
#include "bench_suite.hpp"
#include "cubin_store.hpp"
#include "data_gen.hpp"
#include "spec.hpp"

namespace deepselect::cli {

// The first topk call of the process (on the run's first shape) and the one after it.
struct ColdStart {
  std::string spec;  // the shape and k, in words
  double first_ms = 0.0;
  double second_ms = 0.0;
  StoreStats first_call;  // what the first call took from the cubin store
};

struct Measurement {
  BenchShape shape;
  testing::Dist dist = testing::Dist::normal;
  int k = 0;
  size_t buffers = 0;
  int64_t valid_bytes = 0;  // per call
  Timing topk;
  Timing floor;
  std::string mismatch;  // empty: the check passed
  KernelSpec kernel;     // the spec that topk() launched
  // How many of its clusters (one per row) the GPU holds at once, where kernel.cluster > 1: fewer
  // than the rows, and the last clusters wait for a second wave.
  int clusters_at_once = 0;

  double gbps() const { return static_cast<double>(valid_bytes) / topk.us_per_call / 1e3; }
  double ratio() const { return topk.us_per_call / floor.us_per_call; }
};

void print_gpu(const GpuInfo& gpu);
void print_cold_start(const ColdStart& cold);
void print_table_header();
void print_row(const Measurement& m);
// Each (shape, k)'s kernel, and where its clusters take more than one wave.
void print_kernels(const std::vector<Measurement>& results);
// The closing lines: how many results, how many mismatches.
void print_summary(const std::vector<Measurement>& results);

void write_json(const std::string& path, const GpuInfo& gpu, const ColdStart& cold, int replays,
                bool pdl, const std::vector<Measurement>& results);

}  // namespace deepselect::cli
