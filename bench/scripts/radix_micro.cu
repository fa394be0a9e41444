// What one shared-memory radix select (templates/radix_select.cuh) costs on the candidate sets
// that the kernel selects on its critical path, in cycles per call and per part of a pass, with
// one CTA of 512 threads per SM (as the 8-CTA clusters run), the set already in shared memory:
//   sample  - a row sample: 4096 N(0,1) words, want 112, slack 7 (decode-b1's sample select)
//   final   - 3584 N(0,1) words above 1.93 (what beats the sample's threshold), want 2048, exact
//   short   - 8192 N(0,1) words, want 2048, exact (a dsa-prefill-8k row, loaded whole)
// Each warp's lane 0 stamps the select's pass marks (DS_PHASE 15: pass start, 12: histogram loop
// done, 13: past the barrier, 14: bin found), so the loop's time is seen per warp, not only warp
// 0's. The stamps are global read-modify-writes on the select's path, which inflate what they
// time (each pass's marks cost hundreds of cycles): the cycles per select of a build without
// DS_PHASE_TIMES are the select's own. Build here (-I a directory holding a variant
// radix_select.cuh first, to time a variant; bench/results/NOTES.md, Change 27, says which were
// timed), with the stamps or without:
//   nvcc -O3 -std=c++17 -arch=sm_90a [-DDS_PHASE_TIMES] -I templates \
//     bench/scripts/radix_micro.cu -o build/radix_micro
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

constexpr int kThreads = 512;
constexpr int kWarps = kThreads / 32;
constexpr int kMarks = 16;
constexpr int kRepeats = 20;
constexpr int kCtas = 132;
#if defined(DS_PHASE_TIMES)
constexpr bool kStamped = true;
#else
constexpr bool kStamped = false;  // passes and marks are not counted
#endif

// Per CTA and warp: the cycles spent between consecutive marks, summed over passes and repeats,
// and the passes counted.
__device__ unsigned long long g_between[kCtas][kWarps][kMarks];
__device__ unsigned g_passes[kCtas];

#if defined(DS_PHASE_TIMES)

struct WarpClock {
  long long last;
  int last_mark;
};
__device__ WarpClock g_clock[kCtas][kWarps];

__device__ __forceinline__ void ds_phase_stamp(int mark) {
  if ((threadIdx.x & 31u) != 0u) return;
  const long long now = clock64();
  WarpClock& clock = g_clock[blockIdx.x][threadIdx.x / 32];
  if (clock.last_mark >= 0) g_between[blockIdx.x][threadIdx.x / 32][mark] += now - clock.last;
  clock.last = now;
  clock.last_mark = mark;
}

__device__ __forceinline__ void ds_phase_count(int event) {
  if (threadIdx.x == 0 && event == 1) ++g_passes[blockIdx.x];
}

__device__ __forceinline__ void reset_stamps() {
  if ((threadIdx.x & 31u) == 0u) g_clock[blockIdx.x][threadIdx.x / 32].last_mark = -1;
}
#else
__device__ __forceinline__ void reset_stamps() {}
#endif

#include "keys.cuh"
#include "radix_select.cuh"

__global__ void __launch_bounds__(kThreads, 1)
    select_kernel(const float* values, int count, int want, int slack, long long* cycles,
                  unsigned long long* bounds) {
  extern __shared__ __align__(16) unsigned long long cand[];
  __shared__ ds::RadixScratch scratch;
  const float* row = values + size_t(blockIdx.x) * count;
  ds::Extremes mine;
  for (int i = threadIdx.x; i < count; i += kThreads) {
    const unsigned long long word =
        ds::make_candidate(ds::key_of<ds::F32>(__float_as_uint(row[i]), ~0u, 0u), unsigned(i));
    cand[i] = word;
    mine.add(word, word);
  }
  reset_stamps();
  __syncthreads();
  unsigned long long bound = 0;
  const long long start = clock64();
  for (int r = 0; r < kRepeats; ++r) {
    bound =
        ds::radix_select<kThreads, 1>(cand, count, unsigned(want), unsigned(slack), mine, scratch);
    reset_stamps();
    __syncthreads();
  }
  const long long end = clock64();
  if (threadIdx.x == 0) {
    cycles[blockIdx.x] = (end - start) / kRepeats;
    bounds[blockIdx.x] = bound;
  }
}

namespace {

void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(status));
  std::exit(1);
}

struct Set {
  const char* name;
  int count;
  int want;
  int slack;
  float above;  // only N(0,1) draws above this value
};

// The CPU's count of words >= bound, which must lie in [want, want + slack].
int count_at_or_above(const std::vector<float>& row, unsigned long long bound) {
  int n = 0;
  for (size_t i = 0; i < row.size(); ++i) {
    uint32_t raw;
    std::memcpy(&raw, &row[i], 4);
    const unsigned long long word = ds::make_candidate(ds::key_of<ds::F32>(raw, ~0u, 0u), i);
    n += word >= bound ? 1 : 0;
  }
  return n;
}

void time_set(const Set& set) {
  std::mt19937 rng(12345);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> values(size_t(kCtas) * set.count);
  for (float& v : values) {
    do v = normal(rng);
    while (v <= set.above);
  }
  float* d_values;
  long long* d_cycles;
  unsigned long long* d_bounds;
  check(cudaMalloc(&d_values, values.size() * 4), "malloc");
  check(cudaMalloc(&d_cycles, kCtas * 8), "malloc");
  check(cudaMalloc(&d_bounds, kCtas * 8), "malloc");
  check(cudaMemcpy(d_values, values.data(), values.size() * 4, cudaMemcpyHostToDevice), "copy");
  const size_t smem = size_t(set.count) * 8;
  check(cudaFuncSetAttribute(select_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)),
        "smem");
  std::vector<unsigned long long> zero_between(size_t(kCtas) * kWarps * kMarks, 0ull);
  std::vector<unsigned> zero_passes(kCtas, 0u);
  check(cudaMemcpyToSymbol(g_between, zero_between.data(), zero_between.size() * 8), "zero");
  check(cudaMemcpyToSymbol(g_passes, zero_passes.data(), zero_passes.size() * 4), "zero");
  select_kernel<<<kCtas, kThreads, smem>>>(d_values, set.count, set.want, set.slack, d_cycles,
                                           d_bounds);
  check(cudaDeviceSynchronize(), "kernel");
  std::vector<long long> cycles(kCtas);
  std::vector<unsigned long long> bounds(kCtas);
  std::vector<unsigned long long> between(zero_between.size());
  std::vector<unsigned> passes(kCtas);
  check(cudaMemcpy(cycles.data(), d_cycles, kCtas * 8, cudaMemcpyDeviceToHost), "copy");
  check(cudaMemcpy(bounds.data(), d_bounds, kCtas * 8, cudaMemcpyDeviceToHost), "copy");
  check(cudaMemcpyFromSymbol(between.data(), g_between, between.size() * 8), "copy");
  check(cudaMemcpyFromSymbol(passes.data(), g_passes, passes.size() * 4), "copy");
  int wrong = 0;
  for (int cta = 0; cta < kCtas; ++cta) {
    const std::vector<float> row(values.begin() + size_t(cta) * set.count,
                                 values.begin() + size_t(cta + 1) * set.count);
    const int kept = count_at_or_above(row, bounds[cta]);
    wrong += kept < set.want || kept > set.want + set.slack ? 1 : 0;
  }
  std::sort(cycles.begin(), cycles.end());
  double total_passes = 0;
  for (unsigned p : passes) total_passes += p;
  const double calls = double(kCtas) * kRepeats;
  std::printf(
      "%-6s %5d words, want %4d, slack %2d: %7lld cycles per select (median CTA), %.2f "
      "passes%s, %d wrong bounds\n",
      set.name, set.count, set.want, set.slack, cycles[kCtas / 2], total_passes / calls,
      kStamped ? "" : " (not counted)", wrong);
  if (kStamped) {
    const char* names[kMarks] = {};
    names[12] = "histogram loop";
    names[13] = "barrier after it";
    names[14] = "scan of the bins";
    names[15] = "between passes";
    for (int mark : {15, 12, 13, 14}) {
      double sum = 0, most = 0;
      for (int cta = 0; cta < kCtas; ++cta) {
        for (int w = 0; w < kWarps; ++w) {
          const double per_call =
              double(between[(size_t(cta) * kWarps + w) * kMarks + mark]) / kRepeats;
          sum += per_call;
          most = std::max(most, per_call);
        }
      }
      std::printf("    %-18s mean over warps %7.0f cycles per select, most %7.0f\n", names[mark],
                  sum / (kCtas * kWarps), most);
    }
  }
  cudaFree(d_values);
  cudaFree(d_cycles);
  cudaFree(d_bounds);
}

}  // namespace

int main() {
  const Set sets[] = {{"sample", 4096, 112, 7, -1e30f},
                      {"final", 3584, 2048, 0, 1.93f},
                      {"short", 8192, 2048, 0, -1e30f}};
  for (const Set& set : sets) time_set(set);
  return 0;
}
