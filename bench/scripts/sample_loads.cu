// What a row sample's loads cost when many CTAs take them at once, as a scanned batch's CTAs do
// at the kernel's start (phase_times: 264 rows of 131072 f32 spend ~9.7 us from the start to the
// sample's loads landing, decode-b1's 8 CTAs ~2.9 us). Each CTA of 256 threads reads `points`
// places of `group` adjacent 16-byte vectors from its own 512 KB row, one place at a pseudo-random
// spot in each of `points` equal stretches, aligned to `group` vectors (templates/sample_keep.cuh
// places them at any vector of the stretch), every load issued before any is used; optionally a 16
// KB block's cp.async copies go first (as a scan's first stage does). Prints, per case, the median
// over launches of the median and the slowest CTA's time from its start to its loads landing. Rows
// rotate over a 1 GiB buffer, so every launch reads cold rows. Build here, run on the GPU machine:
//   nvcc -O3 -std=c++17 -arch=sm_90a -I templates bench/scripts/sample_loads.cu \
//     -o build/sample_loads
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "block_order.cuh"

constexpr int kThreads = 256;
constexpr int kMostLoads = 4;          // per thread
constexpr size_t kRowVectors = 32768;  // 512 KB
constexpr size_t kBufferBytes = size_t(1) << 30;
constexpr int kLaunches = 30;

__device__ __forceinline__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void __launch_bounds__(kThreads)
    sample_loads(const uint4* x, int points, int group, int block_first, unsigned long long* ns,
                 unsigned* sink) {
  __shared__ uint4 stage[1024];
  const unsigned long long start = now_ns();
  const uint4* row = x + size_t(blockIdx.x) * kRowVectors;
  if (block_first) {
    const uint4* block = row + (ds::mix32(blockIdx.x * 77u) % 32u) * 1024u;
    for (int v = threadIdx.x; v < 1024; v += kThreads) {
      const unsigned destination = unsigned(__cvta_generic_to_shared(&stage[v]));
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(destination),
                   "l"(block + v));
    }
    asm volatile("cp.async.commit_group;\n" ::: "memory");
  }
  const int stretch = int(kRowVectors) / points;
  const int vectors = points * group;
  uint4 loaded[kMostLoads];
#pragma unroll
  for (int q = 0; q < kMostLoads; ++q) {
    const int i = q * kThreads + int(threadIdx.x);
    if (i < vectors) {
      const int point = i / group;
      const unsigned places = unsigned(stretch / group);
      const unsigned place =
          ds::mix32(blockIdx.x * 0x9e3779b9u ^ unsigned(point) * 0x85ebca6bu) % places;
      loaded[q] = __ldg(row + size_t(point) * stretch + place * group + i % group);
    }
  }
  unsigned sum = 0;
#pragma unroll
  for (int q = 0; q < kMostLoads; ++q) {
    if (q * kThreads + int(threadIdx.x) < vectors)
      sum += loaded[q].x ^ loaded[q].y ^ loaded[q].z ^ loaded[q].w;
  }
  __syncthreads();
  if (threadIdx.x == 0) ns[blockIdx.x] = now_ns() - start;
  if (sum == 0x12345678u) sink[0] = sum;
  if (block_first) asm volatile("cp.async.wait_group 0;\n" ::: "memory");
}

void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(status));
  std::exit(1);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main() {
  uint4* x = nullptr;
  unsigned long long* ns = nullptr;
  unsigned* sink = nullptr;
  check(cudaMalloc(&x, kBufferBytes), "cudaMalloc");
  check(cudaMemset(x, 1, kBufferBytes), "cudaMemset");
  check(cudaMalloc(&ns, 1024 * sizeof(unsigned long long)), "cudaMalloc");
  check(cudaMalloc(&sink, sizeof(unsigned)), "cudaMalloc");
  struct Case {
    int points, group;
  };
  const Case cases[] = {{1024, 1}, {512, 1}, {256, 1}, {512, 2}, {256, 4}, {128, 8}, {64, 1}};
  std::printf("%6s %7s %6s %6s %12s %12s %12s\n", "ctas", "points", "group", "block", "median us",
              "slowest us", "kernel us");
  for (int ctas : {8, 132, 264, 396}) {
    for (int block_first : {0, 1}) {
      for (const Case& c : cases) {
        std::vector<double> medians, slowest, kernel;
        const size_t rows_in_buffer = kBufferBytes / (kRowVectors * 16);
        for (int launch = 0; launch < kLaunches; ++launch) {
          const size_t first_row = (size_t(launch) * ctas) % (rows_in_buffer - ctas);
          cudaEvent_t begin, end;
          check(cudaEventCreate(&begin), "event");
          check(cudaEventCreate(&end), "event");
          check(cudaEventRecord(begin), "record");
          sample_loads<<<ctas, kThreads>>>(x + first_row * kRowVectors, c.points, c.group,
                                           block_first, ns, sink);
          check(cudaGetLastError(), "launch");
          check(cudaEventRecord(end), "record");
          check(cudaEventSynchronize(end), "sync");
          float ms = 0;
          check(cudaEventElapsedTime(&ms, begin, end), "elapsed");
          std::vector<unsigned long long> host(ctas);
          check(cudaMemcpy(host.data(), ns, ctas * sizeof(unsigned long long),
                           cudaMemcpyDeviceToHost),
                "copy");
          if (launch < 3) continue;
          std::vector<double> us(host.begin(), host.end());
          for (double& u : us) u /= 1000.0;
          medians.push_back(median(us));
          slowest.push_back(*std::max_element(us.begin(), us.end()));
          kernel.push_back(ms * 1000.0);
        }
        std::printf("%6d %7d %6d %6d %12.2f %12.2f %12.2f\n", ctas, c.points, c.group, block_first,
                    median(medians), median(slowest), median(kernel));
      }
    }
  }
  return 0;
}
