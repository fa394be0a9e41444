// Per-GPU autotuning: measures candidate specs around the planner's default for problem
// shapes on the current GPU and records the winners in a TuningTable.
#pragma once

#include <cuda.h>

#include <array>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "spec.hpp"
#include "tuning_table.hpp"

namespace deepselect {

// The value distributions every candidate is timed on (docs/workloads.md), so that a choice
// that wins on one cannot lose on another unseen: specs that ran faster on normal data ran 30%
// slower on ascending rows (bench/results/NOTES.md, Changes 15 and 19).
enum class TuneDist { normal, relu_ties, ascending };
inline constexpr std::array<TuneDist, 3> kTuneDists = {TuneDist::normal, TuneDist::relu_ties,
                                                       TuneDist::ascending};
const char* tune_dist_name(TuneDist dist);

// Microseconds per call on each of kTuneDists, in that order.
using DistTimes = std::array<double, kTuneDists.size()>;

// The geometric mean of times (all positive): a candidate's score.
double geometric_mean(const DistTimes& us);

// Whether a candidate timed `candidate` replaces a spec timed `base`: its score is lower by more
// than kTuneMargin, and no distribution is slower by more than kTuneMargin.
bool beats(const DistTimes& candidate, const DistTimes& base);

struct TuneShape {
  std::string name;  // for progress lines
  DType dtype = DType::f32;
  int64_t rows = 0;
  int64_t n = 0;
  int k = 0;
};

struct TuneOptions {
  double budget_s = 300.0;  // no new candidate is started past this
  int replays = 10;         // timed graph replays per candidate (median)
  // Receives one line per step: what is measured and the time left.
  std::function<void(const std::string&)> progress;
};

struct TuneResult {
  TuneShape shape;
  ShapeBucket bucket;
  KernelSpec default_spec;
  KernelSpec chosen_spec;
  DistTimes default_us{};  // per distribution
  DistTimes chosen_us{};
  int candidates = 0;  // measured, the default included
};

// Measures, for each shape in order: the default that topk() launches without a tuning table
// (clusters halved where the GPU cannot hold them at once), then candidates that change one of
// B2, stages, cluster, threads/B, then the combination of the per-field winners, each on every
// distribution of kTuneDists; every candidate's output must equal the default's (a candidate that
// differs is a kernel bug: tune throws). The candidate with the best score among those that beat
// the default (beats()) replaces it. Winners go into table, with their scores. Uses the current
// context; allocates its own inputs (> 4 x 60 MB in rotation per distribution).
std::vector<TuneResult> tune(const std::vector<TuneShape>& shapes, const TuneOptions& options,
                             TuningTable& table);

// Tunes shapes on the current context's GPU into that GPU's table under the cache directory
// (loaded first when one exists, so earlier entries stay), saves it atomically (also when tune
// throws, with the shapes finished before), and returns the file. The planner reads the table in
// processes that start afterwards.
std::filesystem::path tune_and_store(const std::vector<TuneShape>& shapes,
                                     const TuneOptions& options, std::vector<TuneResult>* results);

// A tuned spec must beat the default by this fraction to be kept (timing noise is ~1-2%).
constexpr double kTuneMargin = 0.03;

}  // namespace deepselect
