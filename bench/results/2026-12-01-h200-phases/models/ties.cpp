// How often the sample's threshold leaves fewer than keep elements of a bf16 normal row above it
// (the kernel's plan_sample and sample_vector, 400 rows of 131072). Build from the repo root:
//   g++ -O2 -std=c++17 -I templates bench/results/2026-12-01-h200-phases/models/ties.cpp -o ties
//   ./ties K BF16(1/0)
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>
#include "block_order.cuh"
#include "sample_keep.cuh"
struct W {
  float v;
  int c;
};
static bool better(const W& a, const W& b) {
  return a.v > b.v || (a.v == b.v && a.c < b.c);
}
static float bf16(float x) {
  unsigned u;
  std::memcpy(&u, &x, 4);
  u += 0x7fff + ((u >> 16) & 1);
  u &= 0xffff0000u;
  float y;
  std::memcpy(&y, &u, 4);
  return y;
}
int main(int argc, char** argv) {
  const int n = 131072, vec = 8, capacity = 8192;
  const int k = argc > 1 ? atoi(argv[1]) : 2048;
  const bool round16 = argc > 2 ? atoi(argv[2]) : 1;
  std::mt19937 rng(7);
  std::normal_distribution<float> normal;
  int rows = 400, strict_fail = 0, tie_fail = 0, slack_fail = 0;
  long tied_total = 0;
  for (int r = 0; r < rows; ++r) {
    std::vector<W> row(n);
    for (int i = 0; i < n; ++i) row[i] = {round16 ? bf16(normal(rng)) : normal(rng), i};
    const ds::RowSample plan = ds::plan_sample(k, n / vec, vec, n, capacity);
    const unsigned seed = ds::row_seed(0x5eed1234u, r);
    std::vector<W> sample;
    for (int p = 0; p < plan.points; ++p) {
      const unsigned v = ds::sample_vector(p, plan, seed);
      for (int j = 0; j < vec; ++j) sample.push_back(row[v * vec + j]);
    }
    std::sort(sample.begin(), sample.end(), better);
    const W strict = sample[plan.want - 1];
    const W slack = sample[plan.want - 1 + plan.want / 16];  // the most the select may keep
    long beat_strict = 0, beat_ties = 0, beat_slack = 0, tied = 0;
    for (const W& w : row) {
      beat_strict += better(w, strict) || (w.v == strict.v && w.c == strict.c);
      beat_slack += better(w, slack) || (w.v == slack.v && w.c == slack.c);
      beat_ties += w.v >= strict.v;
      tied += w.v == strict.v;
    }
    tied_total += tied;
    strict_fail += beat_strict < k;
    slack_fail += beat_slack < k;
    tie_fail += beat_ties < k;
  }
  std::printf(
      "k %d %s: want %d of %d sampled; rows with fewer than k above the threshold: strict %d, "
      "worst-of-slack %d, ties-included %d of %d; mean ties at the threshold %.1f\n",
      k, round16 ? "bf16" : "f32", ds::plan_sample(k, n / vec, vec, n, capacity).want,
      ds::plan_sample(k, n / vec, vec, n, capacity).points * vec, strict_fail, slack_fail, tie_fail,
      rows, double(tied_total) / rows);
}
