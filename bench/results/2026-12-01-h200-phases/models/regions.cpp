// Compactions per row: one shared candidate buffer (compact at k + B2) against per-warp regions
// (compact when a warp's region has less than one step's worst case free), f32 rows of 131072,
// k = 2048, B = 4096, B2 = 2048, 512 threads, the sample's threshold first. g++ -O2 -std=c++17
// regions.cpp
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>
int main() {
  const int n = 131072, k = 2048, B = 4096, B2 = 2048, threads = 512, warps = 16, vec = 4;
  const int capacity = k + B + B2, region = capacity / warps, step_most = B / warps;
  std::mt19937 rng(3);
  std::normal_distribution<float> normal;
  for (int dist = 0; dist < 3; ++dist) {
    long shared_compactions = 0, region_compactions = 0, appended = 0, max_fill = 0;
    const int rows = 20;
    for (int r = 0; r < rows; ++r) {
      std::vector<float> x(n);
      for (int i = 0; i < n; ++i) {
        const float z = normal(rng);
        x[i] = dist == 0 ? z : dist == 1 ? std::max(z, 0.0f) + 1e-7f * (i % 7) : float(i) + z;
      }
      // Sample: one vector per stretch, want = 112 (the kernel's plan for this shape).
      std::vector<float> sample;
      for (int p = 0; p < 1024; ++p) {
        const int v = p * 32 + int(rng() % 32);
        for (int j = 0; j < vec; ++j) sample.push_back(x[v * vec + j]);
      }
      std::nth_element(sample.begin(), sample.begin() + 111, sample.end(), std::greater<float>());
      const float start = sample[111];
      std::vector<int> order(n / B);
      std::iota(order.begin(), order.end(), 0);
      std::shuffle(order.begin() + 1, order.end(), rng);
      for (int scheme = 0; scheme < 2; ++scheme) {
        float threshold = start;
        std::vector<std::vector<float>> regions(warps);
        auto total = [&] {
          long t = 0;
          for (auto& g : regions) t += long(g.size());
          return t;
        };
        auto compact = [&] {
          std::vector<float> all;
          for (auto& g : regions) all.insert(all.end(), g.begin(), g.end()), g.clear();
          std::nth_element(all.begin(), all.begin() + (k - 1), all.end(), std::greater<float>());
          threshold = all[k - 1];
          for (int i = 0; i < k; ++i) regions[i % warps].push_back(all[i]);  // spread evenly
        };
        for (int b : order) {
          for (int t = 0; t < threads; ++t) {
            for (int v = 0; v < B / (threads * vec); ++v) {
              for (int j = 0; j < vec; ++j) {
                const float value = x[b * B + (v * threads + t) * vec + j];
                if (value > threshold) {
                  regions[t / 32].push_back(value);
                  if (scheme == 1) ++appended;
                }
              }
            }
          }
          if (scheme == 0) {
            if (total() >= k + B2) compact(), ++shared_compactions;
          } else {
            long most = 0;
            for (auto& g : regions) most = std::max(most, long(g.size()));
            max_fill = std::max(max_fill, most);
            if (most > region - step_most) compact(), ++region_compactions;
          }
        }
      }
    }
    const char* names[] = {"normal", "relu-like", "ascending"};
    std::printf(
        "%-10s compactions per row: shared buffer %.2f, per-warp regions of %d %.2f (appends %.0f "
        "per row, fullest region %ld)\n",
        names[dist], double(shared_compactions) / rows, region, double(region_compactions) / rows,
        double(appended) / rows, max_fill);
  }
}
