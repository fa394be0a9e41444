// Per-GPU autotuning: measures candidate specs around the planner's default for problem
// shapes on the current GPU and records the winners in a TuningTable.
#pragma once

#include <cuda.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "spec.hpp"
#include "tuning_table.hpp"

namespace deepselect {

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
  double default_us = 0.0;
  double chosen_us = 0.0;
  int candidates = 0;  // measured, the default included
};

// Measures, for each shape in order: the planner's default (tuning table ignored), then
// candidates that change one of B2, stages, cluster, threads/B, then the combination of the
// per-field winners; every candidate's output must equal the default's. A candidate replaces
// the default only when it is faster by more than `kTuneMargin`. Winners go into table.
// Uses the current context; allocates its own inputs (normal data, > 4 x 60 MB in rotation).
std::vector<TuneResult> tune(const std::vector<TuneShape>& shapes, const TuneOptions& options,
                             TuningTable& table);

// Tunes shapes on the current context's GPU into that GPU's table under the cache directory
// (loaded first when one exists, so earlier entries stay), saves it atomically, and returns
// the file. The planner reads the table in processes that start afterwards.
std::filesystem::path tune_and_store(const std::vector<TuneShape>& shapes,
                                     const TuneOptions& options, std::vector<TuneResult>* results);

// A tuned spec must beat the default by this fraction to be kept (timing noise is ~1-2%).
constexpr double kTuneMargin = 0.03;

}  // namespace deepselect
