// A measurement of decode-b1's other route to 10 us (bench/results/NOTES.md, eleventh session,
// "decode-b1's 10 us"), not the library's kernel: a row split over P independent CTAs (no
// cluster, no row sample), each keeping its part's best L (a radix select over its part), which
// it appends to a per-row global workspace; the last CTA to arrive (an arrival counter) selects
// the final k from the workspace. Exact when the k-th word selected is at least every CTA's own
// threshold (each discarded only words below its own); the prototype counts the rows where that
// fails (the library would scan them again) rather than handling them. Times graphs of launches
// over rotating rows (CUDA events, median of replays) and checks one launch's rows against a CPU
// top-k. Build here, run on the GPU machine with build/split_row carried:
//   nvcc -O3 -std=c++20 -arch=sm_90a -I templates bench/scripts/split_row.cu -o build/split_row
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "topk_kernel.cuh"

namespace {

using ds::u32;
using ds::u64;

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kK = 2048;
constexpr int kWorkspaceWords = 8192;  // per row: the CTAs' survivors
constexpr int kBufferWords = 8192;     // shared memory: a CTA's part, then the last's survivors

struct Scratch {
  ds::RadixScratch radix;
  u32 warp_totals[kWarps];
  u64 warp_min[kWarps];
  u32 base;
  int last;
};

// Appends this thread's words of cand[0..count) (strided) that are >= bound to out[base..],
// base from a block-wide scan and one atomicAdd on *counter; returns how many the block
// appended.
__device__ u32 append_kept(const u64* cand, int count, u64 bound, u64* out, unsigned* counter,
                           Scratch& scratch) {
  u32 mine = 0;
  for (int i = threadIdx.x; i < count; i += kThreads) mine += cand[i] >= bound ? 1u : 0u;
  u32 total;
  u32 position =
      ds::block_exclusive_sum<kWarps, kBufferWords / kThreads>(mine, scratch.warp_totals, &total);
  if (threadIdx.x == 0) scratch.base = counter != nullptr ? atomicAdd(counter, total) : 0u;
  __syncthreads();
  position += scratch.base;
  for (int i = threadIdx.x; i < count; i += kThreads) {
    if (cand[i] >= bound) out[position++] = cand[i];
  }
  return total;
}

template <int kN, int kParts, int kKeep>
__global__ void __launch_bounds__(kThreads)
    split_row(const float* x, long long ld, int* indices, u64* workspace, u64* thresholds,
              unsigned* counts, unsigned* arrivals, unsigned* fallbacks) {
  extern __shared__ __align__(16) unsigned char smem[];
  __shared__ Scratch scratch;
  u64* cand = reinterpret_cast<u64*>(smem);
  constexpr int kPart = kN / kParts;
  constexpr int kVectors = kPart / 4 / kThreads;
  static_assert(kPart % (4 * kThreads) == 0 && kPart <= kBufferWords, "part");
  const int row = blockIdx.x / kParts;
  const int rank = blockIdx.x % kParts;
  const float* part = x + row * ld + rank * kPart;
  const u32 nan_key = ds::nan_key_for<ds::F32>(false);
  const u32 invert = ds::invert_for<ds::F32>(true);

  // The part, every load in flight before any is used.
  float4 loaded[kVectors];
#pragma unroll
  for (int v = 0; v < kVectors; ++v)
    loaded[v] = __ldg(reinterpret_cast<const float4*>(part) + v * kThreads + threadIdx.x);
  ds::Extremes mine;
#pragma unroll
  for (int v = 0; v < kVectors; ++v) {
    const float values[4] = {loaded[v].x, loaded[v].y, loaded[v].z, loaded[v].w};
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int e = (v * kThreads + int(threadIdx.x)) * 4 + j;
      const u64 word = ds::make_candidate(
          ds::key_of<ds::F32>(__float_as_uint(values[j]), nan_key, invert), u32(rank * kPart + e));
      cand[e] = word;
      mine.add(word, word);
    }
  }
  __syncthreads();
  // The part's best kKeep (and up to kKeep / 16 more): this CTA discards only words below them.
  const u64 bound =
      ds::radix_select<kThreads, 1>(cand, kPart, u32(kKeep), u32(kKeep) / 16u, mine, scratch.radix);
  append_kept(cand, kPart, bound, workspace + size_t(row) * kWorkspaceWords, &counts[row], scratch);
  if (threadIdx.x == 0) thresholds[blockIdx.x] = bound;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) scratch.last = atomicAdd(&arrivals[row], 1u) == unsigned(kParts - 1);
  __syncthreads();
  if (!scratch.last) return;
  __threadfence();

  // The last CTA: every part's survivors, from L2.
  const int total = int(*reinterpret_cast<volatile unsigned*>(&counts[row]));
  const u64* survivors = workspace + size_t(row) * kWorkspaceWords;
  ds::Extremes all;
  for (int i = threadIdx.x; i < total; i += kThreads) {
    const u64 word = __ldcg(survivors + i);
    cand[i] = word;
    all.add(word, word);
  }
  u64 highest_threshold = 0;
  for (int r = 0; r < kParts; ++r)
    highest_threshold = max(highest_threshold, __ldcg(thresholds + row * kParts + r));
  __syncthreads();
  const u64 kth = ds::radix_select<kThreads, 1>(cand, total, u32(kK), 0u, all, scratch.radix);
  if (threadIdx.x == 0) {
    if (kth < highest_threshold) atomicAdd(fallbacks, 1u);
    counts[row] = 0u;
    arrivals[row] = 0u;
  }
  // The k best, unsorted, as columns.
  u32 kept_mine = 0;
  for (int i = threadIdx.x; i < total; i += kThreads) kept_mine += cand[i] >= kth ? 1u : 0u;
  u32 kept;
  u32 slot = ds::block_exclusive_sum<kWarps, kBufferWords / kThreads>(kept_mine,
                                                                      scratch.warp_totals, &kept);
  for (int i = threadIdx.x; i < total; i += kThreads) {
    if (cand[i] >= kth) indices[size_t(row) * kK + slot++] = int(ds::candidate_column(cand[i]));
  }
}

void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(status));
  std::exit(1);
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// The CPU's top-k columns of a row (largest, lower column first among equals).
std::vector<int> cpu_topk(const float* row, int n) {
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::partial_sort(order.begin(), order.begin() + kK, order.end(),
                    [&](int a, int b) { return row[a] != row[b] ? row[a] > row[b] : a < b; });
  order.resize(kK);
  std::sort(order.begin(), order.end());
  return order;
}

template <int kN, int kParts, int kKeep>
void run(const char* name, int rows, bool ascending) {
  constexpr size_t kL2Bytes = size_t(60) << 20;
  const size_t row_bytes = size_t(kN) * sizeof(float);
  const int buffers = int(std::max<size_t>(8, 4 * kL2Bytes / (row_bytes * rows)));
  std::vector<float> host(size_t(buffers) * rows * kN);
  std::mt19937_64 rng(1234);
  std::normal_distribution<float> normal;
  for (size_t i = 0; i < host.size(); ++i)
    host[i] = ascending ? float(i % kN) + 0.25f * normal(rng) : normal(rng);
  float* x = nullptr;
  int* indices = nullptr;
  u64* workspace = nullptr;
  u64* thresholds = nullptr;
  unsigned* counters = nullptr;  // counts[rows], arrivals[rows], fallbacks
  check(cudaMalloc(&x, host.size() * sizeof(float)), "malloc x");
  check(cudaMemcpy(x, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice), "copy");
  check(cudaMalloc(&indices, size_t(rows) * kK * sizeof(int)), "malloc indices");
  check(cudaMalloc(&workspace, size_t(rows) * kWorkspaceWords * sizeof(u64)), "malloc workspace");
  check(cudaMalloc(&thresholds, size_t(rows) * kParts * sizeof(u64)), "malloc thresholds");
  check(cudaMalloc(&counters, (2 * size_t(rows) + 1) * sizeof(unsigned)), "malloc counters");
  check(cudaMemset(counters, 0, (2 * size_t(rows) + 1) * sizeof(unsigned)), "clear counters");
  unsigned* counts = counters;
  unsigned* arrivals = counters + rows;
  unsigned* fallbacks = counters + 2 * rows;
  auto kernel = split_row<kN, kParts, kKeep>;
  const int shared = kBufferWords * int(sizeof(u64));
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared), "attr");
  cudaStream_t stream;
  check(cudaStreamCreate(&stream), "stream");
  auto launch = [&](int buffer) {
    kernel<<<rows * kParts, kThreads, shared, stream>>>(x + size_t(buffer) * rows * kN, kN, indices,
                                                        workspace, thresholds, counts, arrivals,
                                                        fallbacks);
  };

  // Correctness: buffer 0's rows against the CPU.
  launch(0);
  check(cudaStreamSynchronize(stream), "first launch");
  std::vector<int> got(size_t(rows) * kK);
  check(cudaMemcpy(got.data(), indices, got.size() * sizeof(int), cudaMemcpyDeviceToHost), "out");
  unsigned fallback_rows = 0;
  check(cudaMemcpy(&fallback_rows, fallbacks, sizeof(unsigned), cudaMemcpyDeviceToHost), "fb");
  int wrong = 0;
  for (int r = 0; r < rows; ++r) {
    std::vector<int> row(got.begin() + size_t(r) * kK, got.begin() + size_t(r + 1) * kK);
    std::sort(row.begin(), row.end());
    if (row != cpu_topk(host.data() + size_t(r) * kN, kN)) ++wrong;
  }

  // Timing: a graph of one launch per buffer, replayed.
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), "capture");
  for (int b = 0; b < buffers; ++b) launch(b);
  check(cudaStreamEndCapture(stream, &graph), "end capture");
  check(cudaGraphInstantiate(&exec, graph, 0), "instantiate");
  cudaEvent_t before, after;
  check(cudaEventCreate(&before), "event");
  check(cudaEventCreate(&after), "event");
  std::vector<double> us;
  for (int replay = 0; replay < 23; ++replay) {
    check(cudaEventRecord(before, stream), "record");
    check(cudaGraphLaunch(exec, stream), "graph launch");
    check(cudaEventRecord(after, stream), "record");
    check(cudaEventSynchronize(after), "sync");
    float ms = 0.0f;
    check(cudaEventElapsedTime(&ms, before, after), "elapsed");
    if (replay >= 3) us.push_back(1000.0 * ms / buffers);
  }
  unsigned all_fallbacks = 0;
  check(cudaMemcpy(&all_fallbacks, fallbacks, sizeof(unsigned), cudaMemcpyDeviceToHost), "fb");
  std::printf(
      "%-14s %-9s %4d x %6d k %d, %2d CTAs per row keeping %3d: %7.2f us per call; "
      "check: %d of %d rows differ, %u of %d rows would be scanned again (first "
      "launch), %u in all\n",
      name, ascending ? "ascending" : "normal", rows, kN, kK, kParts, kKeep, median(us), wrong,
      rows, fallback_rows, rows, all_fallbacks);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
  cudaFree(x);
  cudaFree(indices);
  cudaFree(workspace);
  cudaFree(thresholds);
  cudaFree(counters);
}

}  // namespace

int main() {
  // The part's keep: k / P expected, plus five standard deviations and 8 (sample_keep's rule).
  run<131072, 16, 128 + 57 + 8>("dsa-decode-b1", 1, false);
  run<131072, 32, 64 + 40 + 8>("dsa-decode-b1", 1, false);
  run<131072, 64, 32 + 29 + 8>("dsa-decode-b1", 1, false);
  run<131072, 32, 64 + 40 + 8>("dsa-decode-b1", 1, true);
  run<65536, 16, 128 + 57 + 8>("dsa-decode-b8", 8, false);
  return 0;
}
