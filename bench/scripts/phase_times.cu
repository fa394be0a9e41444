// Where a top-k call's time goes, phase by phase: the kernel compiled with DS_PHASE_TIMES, each
// CTA's thread 0 stamping %globaltimer and clock64 at the phase ends that the kernel marks
// (DS_PHASE; a phase stamped more than once keeps its last time) and counting events (DS_COUNT),
// on the suite shapes that latency or compaction decide. Plain launches (no graph,
// inputs L2-warm after the first), so the totals differ from `deepselect bench`'s; the phases are
// what to compare. Build here, then run it on the GPU machine (`h200_batch.sh phases`, with
// build/phase_times carried):
//   nvcc -O3 -std=c++20 -arch=sm_90a -DDS_PHASE_TIMES -I templates -I include -I src -I tests \
//     bench/scripts/phase_times.cu build/libdeepselect_testkit.a build/libdeepselect_core.a \
//     -o build/phase_times
// A shape may take the rows of `deepselect bench`'s input buffers (tests/data_gen, the bench's
// seeds) instead of its own: one buffer (its rows' cost), or the launches rotating over several
// (cold rows, as the bench reads them). Modes (the first argument): clusters, pairs and lone (the
// suite's shapes by kernel kind; all three without an argument), plateau, bench-bf16 and
// bench-decode-b256.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "codegen.hpp"
#include "data_gen.hpp"
#include "topk_internal.hpp"

constexpr int kPhases = 21;
constexpr int kEvents = 4;
constexpr int kMostCtas = 8192;
__device__ unsigned long long g_stamps[kMostCtas][kPhases][2];
__device__ unsigned g_counts[kMostCtas][kEvents];

__device__ __forceinline__ void ds_phase_stamp(int phase) {
  if (threadIdx.x != 0) return;
  unsigned long long now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  g_stamps[blockIdx.x][phase][0] = now;
  g_stamps[blockIdx.x][phase][1] = clock64();
}

__device__ __forceinline__ void ds_phase_count(int event) {
  if (threadIdx.x == 0) ++g_counts[blockIdx.x][event];
}

#include "topk_kernel.cuh"

namespace {

const char* kPhaseNames[kPhases] = {"start",
                                    "sample or part",
                                    "load or scan",
                                    "CTA compact",
                                    "cluster total",
                                    "gather",
                                    "final select",
                                    "write outputs",
                                    "sample loads or digit count",
                                    "sample select or digit floor",
                                    "compact radix",
                                    "compact append",
                                    "radix counts",
                                    "radix barrier",
                                    "radix scan",
                                    "radix start",
                                    "digit floor to take",
                                    "shares stored",
                                    "sample barrier",
                                    "outputs barrier",
                                    "outputs sorted"};
const char* kEventNames[kEvents] = {"compactions", "radix passes", "bin re-ranges", "rescans"};

void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(status));
  std::exit(1);
}

// The row type of topk_kernel below, whose shared memory sizes its launch.
template <class T, int kK, int kB, int kB2, int kThreads, int kCluster, int kStages, int kRowPath>
using PhaseRow = ds::TopkRow<T, kK, kB, kB2, kThreads, kCluster, kStages, ds::kBoundsRange,
                             ds::kEpiloguePlain, kRowPath>;

// With the CTAs per SM that the library's kernel of the same spec asks for, and its row path
// (rows=whole or rows=scanned where the suite's shape takes it: a kernel built with both paths
// runs its rows 3-14% slower, so its phases are not the library's: bench/results/NOTES.md, v125,
// v128, v153 and v154).
template <class T, int kK, int kB, int kB2, int kThreads, int kCluster, int kStages, int kRowPath>
__global__ void __launch_bounds__(
    kThreads, deepselect::ctas_per_sm(
                  PhaseRow<T, kK, kB, kB2, kThreads, kCluster, kStages, kRowPath>::kSharedBytes,
                  kThreads)) topk_kernel(const ds::TopkParams params) {
  ds::topk_row<T, kK, kB, kB2, kThreads, kCluster, kStages, ds::kBoundsRange, ds::kEpiloguePlain,
               kRowPath>(params);
}

namespace t = deepselect::testing;

enum class Ends {
  full,
  causal,         // row i ends at i + 1
  bench_uniform,  // the bench's ragged rows of uniform lengths (t::bench_uniform_ends)
};

struct Shape {
  const char* name;
  int rows;
  int n;
  int k;
  Ends ends = Ends::full;
  t::Dist dist = t::Dist::normal;  // of the bench's input buffers, with bench_buffers > 0
  int bench_first = 0;             // the bench's buffers bench_first.. are launched in turn
  int bench_buffers = 0;
  bool by_value = false;  // outputs sorted by value (the sort ends at "outputs sorted")
};

std::vector<int> row_ends(const Shape& shape) {
  if (shape.ends == Ends::bench_uniform) return t::bench_uniform_ends(shape.rows, shape.n);
  std::vector<int> ends(shape.rows);
  for (int r = 0; r < shape.rows; ++r) ends[r] = shape.ends == Ends::causal ? r + 1 : shape.n;
  return ends;
}

// The raw bits of the bench's input buffers, back to back.
template <class Raw>
std::vector<Raw> bench_rows(const Shape& shape, deepselect::DType dtype,
                            const std::vector<int>& ends) {
  std::vector<Raw> host(size_t(shape.bench_buffers) * shape.rows * shape.n);
  std::vector<uint32_t> words(shape.n);
  for (int buffer = 0; buffer < shape.bench_buffers; ++buffer) {
    for (int row = 0; row < shape.rows; ++row) {
      t::bench_row(shape.dist, dtype, size_t(shape.bench_first + buffer), row, words,
                   size_t(ends[row]));
      std::copy(words.begin(), words.end(),
                host.begin() + (size_t(buffer) * shape.rows + row) * shape.n);
    }
  }
  return host;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// Times `shape` with kernel `kernel` (kCluster CTAs per row) and prints each phase's median
// duration, split by the CTA's role: a cluster's CTA 0, its middle ranks and its last rank (which
// holds an ascending row's best), or, without clusters, rows longer than k against the rest.
template <class T, int kK, int kB, int kB2, int kThreads, int kCluster, int kStages = 2,
          int kRowPath = ds::kRowsAny>
void time_phases(const Shape& shape) {
  typedef typename T::Raw Raw;
  const size_t elements = size_t(shape.rows) * shape.n;
  const int buffers = std::max(shape.bench_buffers, 1);
  const std::vector<int> ends = row_ends(shape);
  std::vector<Raw> host(elements);
  if (shape.bench_buffers > 0) {
    host = bench_rows<Raw>(
        shape, sizeof(Raw) == 4 ? deepselect::DType::f32 : deepselect::DType::bf16, ends);
  } else {
    std::mt19937 generator(1234u + unsigned(shape.rows));
    std::normal_distribution<float> normal;
    for (Raw& value : host) {
      const float x = normal(generator);
      unsigned bits;
      std::memcpy(&bits, &x, 4);
      value = sizeof(Raw) == 4 ? Raw(bits) : Raw(bits >> 16);
    }
  }
  void* x = nullptr;
  int* end = nullptr;
  int* indices = nullptr;
  check(cudaMalloc(&x, buffers * elements * sizeof(Raw)), "cudaMalloc x");
  check(cudaMalloc(&end, shape.rows * sizeof(int)), "cudaMalloc end");
  check(cudaMalloc(&indices, size_t(shape.rows) * shape.k * sizeof(int)), "cudaMalloc indices");
  check(cudaMemcpy(x, host.data(), buffers * elements * sizeof(Raw), cudaMemcpyHostToDevice),
        "copy x");
  check(cudaMemcpy(end, ends.data(), shape.rows * sizeof(int), cudaMemcpyHostToDevice), "copy end");

  ds::TopkParams params{};
  params.x = x;
  params.ld = shape.n;
  params.end = end;
  params.indices = indices;
  params.ld_idx = shape.k;
  params.fill_index = -1;
  params.rows = shape.rows;
  params.n = shape.n;
  params.k = shape.k;
  params.flags = ds::kFlagLargest | (shape.by_value ? ds::kFlagOrderByValue : 0u);
  params.seed = deepselect::kBlockOrderSeed;  // the library's: the same samples and block orders
  params.next_n = 1;

  typedef PhaseRow<T, kK, kB, kB2, kThreads, kCluster, kStages, kRowPath> Row;
  const size_t smem = Row::kSharedBytes;
  auto kernel = topk_kernel<T, kK, kB, kB2, kThreads, kCluster, kStages, kRowPath>;
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)),
        "smem attribute");
  if (kCluster > 8) {
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1),
          "non-portable cluster attribute");
  }
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(unsigned(shape.rows * kCluster));
  config.blockDim = dim3(kThreads);
  config.dynamicSmemBytes = smem;
  cudaLaunchAttribute cluster{};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = kCluster;
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  config.attrs = &cluster;
  config.numAttrs = 1;

  const int ctas = shape.rows * kCluster;
  std::vector<unsigned long long> stamps(size_t(ctas) * kPhases * 2);
  std::vector<unsigned> counts(size_t(ctas) * kEvents);
  constexpr int kRoles = 3;
  std::vector<double> phase_ns[kRoles][kPhases], phase_cycles[kRoles][kPhases],
      events[kRoles][kEvents];
  std::vector<double> kernel_us, skew_ns, span_ns, slowest_ns;
  int slowest_cta = 0;  // of the last launch
  cudaEvent_t before, after;
  check(cudaEventCreate(&before), "event");
  check(cudaEventCreate(&after), "event");
  for (int launch = 0; launch < 30; ++launch) {
    check(cudaMemset(indices, 0xff, size_t(shape.rows) * shape.k * sizeof(int)), "poison");
    std::vector<unsigned long long> zeros(stamps.size(), 0ull);
    check(cudaMemcpyToSymbol(g_stamps, zeros.data(), zeros.size() * 8), "clear stamps");
    std::vector<unsigned> no_counts(counts.size(), 0u);
    check(cudaMemcpyToSymbol(g_counts, no_counts.data(), no_counts.size() * 4), "clear counts");
    check(cudaEventRecord(before), "record");
    params.x = static_cast<Raw*>(x) + size_t(launch % buffers) * elements;
    check(cudaLaunchKernelEx(&config, kernel, params), "launch");
    check(cudaEventRecord(after), "record");
    check(cudaDeviceSynchronize(), "kernel");
    float ms = 0.0f;
    check(cudaEventElapsedTime(&ms, before, after), "elapsed");
    check(cudaMemcpyFromSymbol(stamps.data(), g_stamps, stamps.size() * 8), "read stamps");
    check(cudaMemcpyFromSymbol(counts.data(), g_counts, counts.size() * 4), "read counts");
    if (launch < 5) continue;  // warm-up: module load, L2, clocks
    kernel_us.push_back(ms * 1000.0);
    unsigned long long earliest = ~0ull, latest_start = 0, latest_end = 0, slowest = 0;
    slowest_cta = 0;
    for (int cta = 0; cta < ctas; ++cta) {
      const unsigned long long* s = &stamps[size_t(cta) * kPhases * 2];
      const int rank = cta % kCluster;
      // Lone CTAs take the rows last first (templates/topk_kernel.cuh topk_row).
      const int row = kCluster > 1 ? cta / kCluster : shape.rows - 1 - cta;
      const int role = kCluster > 1 ? (rank == 0              ? 0
                                       : rank == kCluster - 1 ? 2
                                                              : 1)
                                    : (ends[row] > shape.k ? 0 : 1);
      earliest = std::min(earliest, s[0]);
      latest_start = std::max(latest_start, s[0]);
      // Each phase's time runs from the stamp before it in time, whatever its number.
      std::vector<int> order;
      for (int phase = 0; phase < kPhases; ++phase)
        if (s[phase * 2] != 0ull) order.push_back(phase);
      std::sort(order.begin(), order.end(),
                [&](int a, int b) { return s[a * 2 + 1] < s[b * 2 + 1]; });
      for (size_t i = 1; i < order.size(); ++i) {
        const int phase = order[i];
        const int previous = order[i - 1];
        phase_ns[role][phase].push_back(double(s[phase * 2] - s[previous * 2]));
        phase_cycles[role][phase].push_back(double(s[phase * 2 + 1] - s[previous * 2 + 1]));
        latest_end = std::max(latest_end, s[phase * 2]);
      }
      if (s[order.back() * 2] - s[order.front() * 2] > slowest) {
        slowest = s[order.back() * 2] - s[order.front() * 2];
        slowest_cta = cta;
      }
      for (int event = 0; event < kEvents; ++event)
        events[role][event].push_back(double(counts[size_t(cta) * kEvents + event]));
    }
    skew_ns.push_back(double(latest_start - earliest));
    span_ns.push_back(double(latest_end - earliest));
    slowest_ns.push_back(double(slowest));
  }
  std::printf(
      "\n%s: %d x %d, k %d, %s, %d CTAs per row, B %d, B2 %d, %d threads, %d stages, rows=%s%s",
      shape.name, shape.rows, shape.n, shape.k, sizeof(Raw) == 4 ? "f32" : "bf16", kCluster, kB,
      kB2, kThreads, kStages, deepselect::row_path_name(deepselect::RowPath(kRowPath)),
      shape.by_value ? ", by value" : "");
  if (shape.bench_buffers > 0)
    std::printf(", the bench's %s buffers %d..%d", t::dist_name(shape.dist), shape.bench_first,
                shape.bench_first + shape.bench_buffers - 1);
  std::printf("\n");
  std::printf(
      "  kernel (events, plain launch) %.2f us; first stamp to last %.2f us; CTA start "
      "skew %.2f us; slowest CTA %.2f us\n",
      median(kernel_us), median(span_ns) / 1e3, median(skew_ns) / 1e3, median(slowest_ns) / 1e3);
  const char* roles[kRoles] = {kCluster > 1 ? "CTA 0" : "rows > k",
                               kCluster > 1 ? "middle" : "rows <= k", "last rank"};
  const int shown = kCluster > 1 ? kRoles : 2;
  std::printf("  %-28s", "phase ends");
  for (int role = 0; role < shown; ++role) std::printf(" %12s %10s", roles[role], "cycles");
  std::printf("\n");
  for (int phase = 1; phase < kPhases; ++phase) {
    std::printf("  %-28s", kPhaseNames[phase]);
    for (int role = 0; role < shown; ++role)
      std::printf(" %9.2f us %10.0f", median(phase_ns[role][phase]) / 1e3,
                  median(phase_cycles[role][phase]));
    std::printf("\n");
  }
  const auto most = [](const std::vector<double>& values) {
    return values.empty() ? 0.0 : *std::max_element(values.begin(), values.end());
  };
  for (int event = 0; event < kEvents; ++event) {
    std::printf("  %-28s", kEventNames[event]);
    for (int role = 0; role < shown; ++role)
      std::printf(" %12.1f %10.0f", median(events[role][event]), most(events[role][event]));
    std::printf("   (median, most per CTA)\n");
  }
  std::printf("  slowest CTA of the last launch: row %d,", slowest_cta / kCluster);
  for (int event = 0; event < kEvents; ++event)
    std::printf(" %s %u", kEventNames[event], counts[size_t(slowest_cta) * kEvents + event]);
  std::printf("\n");
  std::vector<int> result(size_t(shape.rows) * shape.k);
  check(cudaMemcpy(result.data(), indices, result.size() * sizeof(int), cudaMemcpyDeviceToHost),
        "read indices");
  const bool filled = std::none_of(result.begin(), result.begin() + std::min(shape.k, ends[0]),
                                   [](int index) { return index < 0; });
  std::printf("  row 0's outputs %s\n", filled ? "filled" : "NOT FILLED");
  check(cudaFree(x), "free");
  check(cudaFree(end), "free");
  check(cudaFree(indices), "free");
}

}  // namespace

// The planner's f32 k = 2048 kernels that several modes time: a row on a 16-CTA cluster (B2 4096),
// on an 8-CTA cluster (B2 16384: parts held whole), and a lone CTA (dsa-prefill's, decode-b256's).
const auto f32_k2048_on_16_ctas =
    time_phases<ds::F32, 2048, 8192, 4096, 512, 16, 2, ds::kRowsWhole>;
const auto f32_k2048_on_8_ctas = time_phases<ds::F32, 2048, 4096, 16384, 512, 8, 2, ds::kRowsWhole>;
const auto f32_k2048_lone = time_phases<ds::F32, 2048, 4096, 2048, 256, 1>;

// `phase_times bench-bf16`: dsa-bf16-b256 on the bench's normal buffers at k = 512 and 2048, on
// the planner's kernels (B = 8192; at k = 512 four stages, two blocks a block scan): each of the
// bench's four buffers alone (L2-warm), then all four in turn (cold, as the bench reads them).
void bench_bf16_buffers() {
  for (int buffer = 0; buffer <= 4; ++buffer) {
    const int first = buffer % 4;
    const int buffers = buffer < 4 ? 1 : 4;
    time_phases<ds::BF16, 512, 8192, 2048, 256, 1, 4, ds::kRowsScanned>(
        {"dsa-bf16-b256 k512", 256, 131072, 512, Ends::full, t::Dist::normal, first, buffers});
    time_phases<ds::BF16, 2048, 8192, 4096, 256, 1, 2, ds::kRowsScanned>(
        {"dsa-bf16-b256 k2048", 256, 131072, 2048, Ends::full, t::Dist::normal, first, buffers});
  }
}

// `phase_times pairs`: the planner's 2-CTA clusters, dsa-decode-b64 and sample-b64 (sorted by
// value: its sort is part of "write outputs"), on the bench's buffers in turn.
void pair_clusters() {
  for (t::Dist dist : {t::Dist::normal, t::Dist::relu_ties, t::Dist::ascending}) {
    time_phases<ds::F32, 2048, 8192, 4096, 512, 2, 3, ds::kRowsScanned>(
        {"dsa-decode-b64", 64, 131072, 2048, Ends::full, dist, 0, 4});
    time_phases<ds::F32, 512, 8192, 2048, 512, 2, 4, ds::kRowsScanned>(
        {"sample-b64", 64, 129280, 512, Ends::full, dist, 0, 4, true});
  }
}

// `phase_times lone`: the planner's lone-CTA kernels of dsa-prefill-8k (causal rows), of
// dsa-prefill-128k's rows (a wave of full ones) and of sample-b256, on generated normal rows.
void lone_rows() {
  f32_k2048_lone({"dsa-prefill-8k", 4096, 8192, 2048, Ends::causal});
  f32_k2048_lone({"rows of 131072", 264, 131072, 2048});
  time_phases<ds::F32, 1024, 8192, 1024, 256, 1, 2, ds::kRowsScanned>(
      {"sample-b256", 256, 151936, 1024});
}

// `phase_times bench-decode-b256`: dsa-decode-b256's ragged rows on the bench's four buffers in
// turn, normal against relu_ties (1.41x slower in the bench; NOTES.md, twelfth session), then
// the same kernel on full rows of its longest length, whose CTAs all run the longest rows' path.
void bench_decode_b256() {
  for (t::Dist dist : {t::Dist::normal, t::Dist::relu_ties}) {
    f32_k2048_lone({"dsa-decode-b256", 256, 32768, 2048, Ends::bench_uniform, dist, 0, 4});
  }
  for (t::Dist dist : {t::Dist::normal, t::Dist::ascending}) {
    f32_k2048_lone({"256 x 32768 full", 256, 32768, 2048, Ends::full, dist, 0, 4});
  }
}

// `phase_times clusters`: the planner's kernels for the rows that 8- and 16-CTA clusters hold
// whole (dsa-decode-b1 and -b8, sample-b1, dsa-bf16-b6), on the bench's normal and ascending
// buffers in turn (cold, as the bench reads them).
void resident_clusters() {
  for (t::Dist dist : {t::Dist::normal, t::Dist::ascending}) {
    f32_k2048_on_16_ctas({"dsa-decode-b1", 1, 131072, 2048, Ends::full, dist, 0, 4});
    f32_k2048_on_8_ctas({"dsa-decode-b8", 8, 65536, 2048, Ends::full, dist, 0, 4});
    time_phases<ds::F32, 64, 8192, 1024, 512, 16, 2, ds::kRowsWhole>(
        {"sample-b1", 1, 129280, 50, Ends::full, dist, 0, 4});
    time_phases<ds::BF16, 512, 4096, 16384, 512, 8, 2, ds::kRowsWhole>(
        {"dsa-bf16-b6", 6, 131072, 512, Ends::full, dist, 0, 4});
  }
}

// `phase_times plateau`: ragged rows (the bench's lengths) whose k-th value may sit in
// relu_ties' zero plateau, against normal ones, on the planner's 16-CTA (2 rows) and 8-CTA (6
// rows) kernels, the bench's four buffers in turn (bench/results/NOTES.md, v77 and Change 94).
void plateau_rows() {
  for (t::Dist dist : {t::Dist::normal, t::Dist::relu_ties}) {
    f32_k2048_on_16_ctas({"2 ragged rows", 2, 131072, 2048, Ends::bench_uniform, dist, 0, 4});
    f32_k2048_on_8_ctas({"6 ragged rows", 6, 131072, 2048, Ends::bench_uniform, dist, 0, 4});
  }
}

int main(int argc, char** argv) {
  const struct {
    const char* name;
    void (*run)();
  } modes[] = {{"clusters", resident_clusters},    {"plateau", plateau_rows},
               {"bench-bf16", bench_bf16_buffers}, {"bench-decode-b256", bench_decode_b256},
               {"pairs", pair_clusters},           {"lone", lone_rows}};
  for (const auto& mode : modes) {
    if (argc > 1 && std::strcmp(argv[1], mode.name) == 0) {
      mode.run();
      return 0;
    }
  }
  if (argc > 1) {
    std::fprintf(stderr, "phase_times: unknown mode '%s'; the modes:", argv[1]);
    for (const auto& mode : modes) std::fprintf(stderr, " %s", mode.name);
    std::fprintf(stderr, "\n");
    return 2;
  }
  // Without a mode: the planner's kernels for the suite's shapes.
  resident_clusters();
  pair_clusters();
  lone_rows();
  return 0;
}
