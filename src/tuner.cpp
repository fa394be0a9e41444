#include "tuner.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <thread>

#include <fmt/format.h>

#include "cubin_store.hpp"
#include "device_memory.hpp"
#include "driver.hpp"
#include "float_bits.hpp"
#include "graph_timing.hpp"
#include "topk_internal.hpp"
#include "workload_values.hpp"

namespace deepselect {
namespace {

constexpr size_t kRotationBytes = 256ull << 20;  // > 4 x the H200's 60 MB L2

// count N(0, 1) floats as bits, generated on all host cores.
std::vector<uint32_t> normal_floats(size_t count) {
  std::vector<uint32_t> bits(count);
  const unsigned workers = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> threads;
  for (unsigned w = 0; w < workers; ++w) {
    threads.emplace_back([&, w] {
      std::mt19937 rng(0x7e57u + w);
      std::normal_distribution<float> normal;
      for (size_t i = w; i < count; i += workers) bits[i] = std::bit_cast<uint32_t>(normal(rng));
    });
  }
  for (std::thread& thread : threads) thread.join();
  return bits;
}

// The shape's element values under dist, row by row.
std::vector<float> tune_values(const TuneShape& shape, TuneDist dist) {
  const size_t columns = static_cast<size_t>(shape.n);
  const size_t count = static_cast<size_t>(shape.rows) * columns;
  std::vector<float> values(count);
  if (dist == TuneDist::ascending) {
    for (size_t i = 0; i < count; ++i) {
      values[i] = static_cast<float>(ascending_value(i % columns, columns));
    }
    return values;
  }
  const std::vector<uint32_t> draws = normal_floats(count);
  for (size_t i = 0; i < count; ++i) {
    const float draw = std::bit_cast<float>(draws[i]);
    values[i] = dist == TuneDist::normal ? draw : static_cast<float>(relu_ties_value(draw));
  }
  return values;
}

// Input buffers of one shape and distribution in rotation (the same values in each, at distinct
// addresses).
struct Inputs {
  std::vector<std::unique_ptr<DeviceMemory>> buffers;

  Inputs(const TuneShape& shape, TuneDist dist) {
    const std::vector<float> values = tune_values(shape, dist);
    std::string bytes(values.size() * dtype_bytes(shape.dtype), '\0');
    for (size_t i = 0; i < values.size(); ++i) {
      const uint32_t bits = shape.dtype == DType::f32 ? std::bit_cast<uint32_t>(values[i])
                                                      : to_dtype_bits(shape.dtype, values[i]);
      std::memcpy(bytes.data() + i * dtype_bytes(shape.dtype), &bits, dtype_bytes(shape.dtype));
    }
    const size_t copies = std::max<size_t>(2, (kRotationBytes + bytes.size() - 1) / bytes.size());
    for (size_t c = 0; c < copies; ++c) {
      buffers.push_back(std::make_unique<DeviceMemory>(bytes.size()));
      check_cuda(driver().cuMemcpyHtoD(buffers.back()->address(), bytes.data(), bytes.size()),
                 "cuMemcpyHtoD");
    }
  }
};

TopkArgs args_for(const TuneShape& shape, const void* x, void* indices) {
  TopkArgs args;
  args.x = x;
  args.dtype = shape.dtype;
  args.rows = shape.rows;
  args.n = shape.n;
  args.k = shape.k;
  args.indices = indices;
  return args;
}

// Every row's selected indices, sorted (the set is unique, so candidates must agree).
std::vector<int32_t> selected_sets(const TuneShape& shape, const KernelSpec& spec,
                                   const Inputs& inputs, const DeviceMemory& indices,
                                   CUstream stream) {
  const size_t slots = static_cast<size_t>(shape.rows) * shape.k;
  check_cuda(driver().cuMemsetD8(indices.address(), 0xab, slots * sizeof(int32_t)), "cuMemsetD8");
  topk_with_spec(args_for(shape, inputs.buffers.front()->get(), indices.get()), spec, stream);
  check_cuda(driver().cuStreamSynchronize(stream), "cuStreamSynchronize");
  std::vector<int32_t> result(slots);
  check_cuda(driver().cuMemcpyDtoH(result.data(), indices.address(), slots * sizeof(int32_t)),
             "cuMemcpyDtoH");
  for (int64_t row = 0; row < shape.rows; ++row) {
    std::sort(result.begin() + row * shape.k, result.begin() + (row + 1) * shape.k);
  }
  return result;
}

double time_spec(const TuneShape& shape, const KernelSpec& spec, const Inputs& inputs,
                 const DeviceMemory& indices, int replays, CUstream stream) {
  const BufferCall call = [&](size_t buffer, CUstream on) {
    topk_with_spec(args_for(shape, inputs.buffers[buffer]->get(), indices.get()), spec, on);
  };
  return time_calls(call, inputs.buffers.size(), replays, stream).us_per_call;
}

bool is_valid(const KernelSpec& spec) {
  try {
    spec.validate();
    return true;
  } catch (const ArgumentError&) {
    return false;
  }
}

// Specs that differ from base in one field group, valid and distinct, each built for the row
// path the planner would give it over full rows of n columns.
std::vector<KernelSpec> neighbours(const KernelSpec& base, int64_t n) {
  std::vector<KernelSpec> specs;
  auto add = [&](KernelSpec spec) {
    spec.row_path = row_path_for(spec, n, true);
    if (!is_valid(spec)) return;
    if (!(spec == base) && std::find(specs.begin(), specs.end(), spec) == specs.end()) {
      specs.push_back(spec);
    }
  };
  for (int block2 : {1024, 2048, 4096}) {
    KernelSpec spec = base;
    spec.block2 = block2;
    add(spec);
  }
  for (int stages : {2, 3, 4}) {
    KernelSpec spec = base;
    spec.stages = stages;
    add(spec);
  }
  for (int cluster : {1, 2, 4, 8, 16}) {
    KernelSpec spec = base;
    spec.cluster = cluster;
    add(spec);
  }
  for (auto [threads, block] :
       {std::pair{256, 2048}, {256, 4096}, {256, 8192}, {512, 4096}, {512, 8192}, {1024, 8192}}) {
    KernelSpec spec = base;
    spec.threads = threads;
    spec.block = block;
    add(spec);
  }
  return specs;
}

// base with each field group taken from the neighbour with the best score that changed it, built
// for the row path the planner would give it over full rows of n columns.
KernelSpec combine_winners(const KernelSpec& base,
                           const std::vector<std::pair<KernelSpec, DistTimes>>& measured,
                           const DistTimes& base_us, int64_t n) {
  KernelSpec combined = base;
  const double base_score = geometric_mean(base_us);
  double best_block2 = base_score, best_stages = base_score, best_cluster = base_score,
         best_threads = base_score;
  for (const auto& [spec, times] : measured) {
    const double us = geometric_mean(times);
    if (spec.block2 != base.block2 && us < best_block2) {
      best_block2 = us;
      combined.block2 = spec.block2;
    }
    if (spec.stages != base.stages && us < best_stages) {
      best_stages = us;
      combined.stages = spec.stages;
    }
    if (spec.cluster != base.cluster && us < best_cluster) {
      best_cluster = us;
      combined.cluster = spec.cluster;
    }
    if (spec.threads != base.threads || spec.block != base.block) {
      if (us < best_threads) {
        best_threads = us;
        combined.threads = spec.threads;
        combined.block = spec.block;
      }
    }
  }
  combined.row_path = row_path_for(combined, n, true);
  return combined;
}

// Compiles (or finds) every spec's kernel on all host cores, so measuring waits on none.
void prepare_kernels(const std::vector<KernelSpec>& specs) {
  std::atomic<size_t> next{0};
  std::vector<std::thread> threads;
  const unsigned workers = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(),
                                                           static_cast<unsigned>(specs.size())));
  for (unsigned w = 0; w < workers; ++w) {
    threads.emplace_back([&] {
      for (size_t i = next++; i < specs.size(); i = next++) {
        try {
          CubinStore::global().get(specs[i]);
        } catch (const Error&) {
          // measure() reports it when the spec is used
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
}

// A candidate that selects another set than the default: a kernel bug, never skipped.
class CandidateMismatch : public Error {
 public:
  using Error::Error;
};

}  // namespace

const char* tune_dist_name(TuneDist dist) {
  switch (dist) {
    case TuneDist::normal:
      return "normal";
    case TuneDist::relu_ties:
      return "relu_ties";
    case TuneDist::ascending:
      return "ascending";
  }
  return "?";
}

double geometric_mean(const DistTimes& us) {
  double log_sum = 0.0;
  for (double t : us) log_sum += std::log(t);
  return std::exp(log_sum / static_cast<double>(us.size()));
}

bool beats(const DistTimes& candidate, const DistTimes& base) {
  if (!(geometric_mean(candidate) < geometric_mean(base) * (1.0 - kTuneMargin))) return false;
  for (size_t d = 0; d < candidate.size(); ++d) {
    if (!(candidate[d] <= base[d] * (1.0 + kTuneMargin))) return false;
  }
  return true;
}

std::vector<TuneResult> tune(const std::vector<TuneShape>& shapes, const TuneOptions& options,
                             TuningTable& table) {
  const auto start = std::chrono::steady_clock::now();
  const auto seconds_left = [&] {
    return options.budget_s -
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const auto report = [&](const std::string& line) {
    if (options.progress) options.progress(line);
  };
  CUstream stream = nullptr;
  check_cuda(driver().cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  std::vector<TuneResult> results;
  try {
    DeviceInfo device = device_info(stream);
    device.tuning = nullptr;  // measure against the built-in defaults
    for (size_t s = 0; s < shapes.size() && seconds_left() > 0; ++s) {
      const TuneShape& shape = shapes[s];
      TuneResult result;
      result.shape = shape;
      std::vector<Inputs> inputs;
      for (TuneDist dist : kTuneDists) inputs.emplace_back(shape, dist);
      const DeviceMemory indices(static_cast<size_t>(shape.rows) * shape.k * sizeof(int32_t));
      // What topk() launches untuned: with clusters the GPU holds at once.
      result.default_spec = planned_spec(
          args_for(shape, inputs.front().buffers.front()->get(), indices.get()), device, stream);
      result.bucket = ShapeBucket::of(shape.dtype, result.default_spec.k_max, shape.rows, shape.n);
      std::vector<std::vector<int32_t>> expected;
      for (const Inputs& on : inputs) {
        expected.push_back(selected_sets(shape, result.default_spec, on, indices, stream));
      }
      const auto measure = [&](const KernelSpec& spec) {
        DistTimes us{};
        std::string line;
        for (size_t d = 0; d < kTuneDists.size(); ++d) {
          if (selected_sets(shape, spec, inputs[d], indices, stream) != expected[d]) {
            throw CandidateMismatch(
                fmt::format("deepselect tune: {} selects a different set than the default on "
                            "{} ({} values)",
                            spec.to_string(), shape.name, tune_dist_name(kTuneDists[d])));
          }
          us[d] = time_spec(shape, spec, inputs[d], indices, options.replays, stream);
          line += fmt::format(" {} {:.2f}", tune_dist_name(kTuneDists[d]), us[d]);
        }
        ++result.candidates;
        report(fmt::format("[{}/{}] {} {}:{} us, score {:.2f}  {}  ({:.0f} s left)", s + 1,
                           shapes.size(), shape.name, result.bucket.to_string(), line,
                           geometric_mean(us), spec.to_string(), std::max(0.0, seconds_left())));
        return us;
      };
      std::vector<KernelSpec> candidates = neighbours(result.default_spec, shape.n);
      candidates.push_back(result.default_spec);
      prepare_kernels(candidates);
      candidates.pop_back();
      result.default_us = measure(result.default_spec);
      result.chosen_spec = result.default_spec;
      result.chosen_us = result.default_us;
      std::vector<std::pair<KernelSpec, DistTimes>> measured;
      // A candidate that fails to compile or launch is skipped; one that selects another set
      // stops the run.
      const auto try_measure = [&](const KernelSpec& spec) {
        try {
          measured.emplace_back(spec, measure(spec));
        } catch (const CandidateMismatch&) {
          throw;
        } catch (const Error& error) {
          report(fmt::format("[{}/{}] {}: skipped {}: {}", s + 1, shapes.size(), shape.name,
                             spec.to_string(), error.what()));
        }
      };
      for (const KernelSpec& spec : candidates) {
        if (seconds_left() <= 0) break;
        try_measure(spec);
      }
      const KernelSpec combined =
          combine_winners(result.default_spec, measured, result.default_us, shape.n);
      if (!(combined == result.default_spec) && seconds_left() > 0 && is_valid(combined) &&
          std::none_of(measured.begin(), measured.end(),
                       [&](const auto& m) { return m.first == combined; })) {
        try_measure(combined);
      }
      for (const auto& [spec, us] : measured) {
        if (beats(us, result.default_us) && geometric_mean(us) < geometric_mean(result.chosen_us)) {
          result.chosen_us = us;
          result.chosen_spec = spec;
        }
      }
      table.set(
          result.bucket,
          TunedChoice{LaunchShape::of(result.chosen_spec), LaunchShape::of(result.default_spec),
                      geometric_mean(result.chosen_us), geometric_mean(result.default_us)});
      results.push_back(result);
    }
  } catch (...) {
    driver().cuStreamDestroy(stream);
    throw;
  }
  driver().cuStreamDestroy(stream);
  return results;
}

std::filesystem::path tune_and_store(const std::vector<TuneShape>& shapes,
                                     const TuneOptions& options, std::vector<TuneResult>* results) {
  CUdevice device = 0;
  check_cuda(driver().cuCtxGetDevice(&device), "cuCtxGetDevice");
  const DeviceFingerprint fingerprint = DeviceFingerprint::of_device(device);
  const std::filesystem::path file =
      TuningTable::path_for(CubinStore::global().config().cache_dir, fingerprint);
  std::string warning;
  TuningTable table =
      TuningTable::load(file, fingerprint, &warning).value_or(TuningTable(fingerprint));
  if (!warning.empty()) fmt::print(stderr, "deepselect: warning: {}; starting afresh\n", warning);
  std::vector<TuneResult> measured;
  try {
    measured = tune(shapes, options, table);
  } catch (...) {
    table.save(file);  // the shapes tuned before the error keep their (checked) choices
    throw;
  }
  table.save(file);
  if (results != nullptr) *results = std::move(measured);
  return file;
}

}  // namespace deepselect
