// Tuning tables: per GPU and software stack, the measured best launch shape for each class of
// problems, stored as JSON under <cache_dir>/tuning/ and consulted by the planner.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "spec.hpp"

namespace deepselect {

// Identifies a GPU + software stack a tuning table is valid for.
struct DeviceFingerprint {
  std::string gpu_name;
  int sm_count = 0;
  int cc_major = 0, cc_minor = 0;
  int driver_version = 0;       // cuDriverGetVersion
  std::string library_version;  // DEEPSELECT_VERSION
  std::string kernel_sources;   // the kernel templates' digest (16 hex digits): the kernels timed
  bool operator==(const DeviceFingerprint&) const = default;
  std::string to_string() const;  // human readable, one line
  // Queries device `ordinal` through the driver table (throws Error without a GPU).
  static DeviceFingerprint of_device(int ordinal);
};

// The class of problems one tuned choice serves.
struct ShapeBucket {
  DType dtype = DType::f32;
  int k_bucket = 0;   // the planner's k bucket (k_buckets() in plan.hpp)
  int rows_log2 = 0;  // ceil(log2(rows)), rows >= 1
  int n_log2 = 0;     // ceil(log2(n)), n >= 1
  bool operator==(const ShapeBucket&) const = default;
  std::string to_string() const;  // e.g. "f32 k2048 rows2^10 n2^17"
  // Throws ArgumentError for k_bucket, rows or n below 1.
  static ShapeBucket of(DType dtype, int k_bucket, int64_t rows, int64_t n);
};

// The spec fields tuning chooses among.
struct LaunchShape {
  int block = 0, block2 = 0, threads = 0, cluster = 0, stages = 0;
  bool operator==(const LaunchShape&) const = default;
  // spec with block, block2, threads, cluster, stages replaced.
  KernelSpec apply(KernelSpec spec) const;
  static LaunchShape of(const KernelSpec& spec);
};

// What tuning chose for a bucket, against which default, and what it measured.
struct TunedChoice {
  LaunchShape tuned;
  // The planner's default the tuned shape was timed against. The planner applies the choice only
  // where it still plans this default: a planner change, or a shape of the bucket the planner
  // launches otherwise, keeps its own plan rather than a choice measured against another one.
  LaunchShape planned;
  // The winner's and the planner default's median us per call, same run: geometric means over
  // the distributions tuning times (kTuneDists in tuner.hpp).
  double tuned_us = 0.0;
  double default_us = 0.0;
};

class TuningTable {
 public:
  explicit TuningTable(DeviceFingerprint fingerprint);
  const DeviceFingerprint& fingerprint() const;
  const TunedChoice* find(const ShapeBucket& bucket) const;  // nullptr when absent
  void set(const ShapeBucket& bucket, const TunedChoice& choice);
  size_t size() const;
  // Every entry in a stable order (by bucket text).
  std::vector<std::pair<ShapeBucket, TunedChoice>> entries() const;

  // {"format":3,"fingerprint":{...},"entries":[{bucket fields..., tuned fields..., times,
  //  "planned":{block, block2, threads, cluster, stages}}]}
  std::string to_json() const;
  // Throws deepselect::Error naming what is wrong for malformed text, a wrong "format", or bad
  // values (unknown dtype, non-positive sizes, duplicate buckets).
  static TuningTable from_json(const std::string& text);

  // <cache_dir>/tuning/<16 hex digits: XXH3-64 of fingerprint.to_string()>.json
  static std::filesystem::path path_for(const std::filesystem::path& cache_dir,
                                        const DeviceFingerprint& fingerprint);
  // Writes atomically (temp file in the same dir + fsync + rename + dir fsync), creating the
  // directory (0700) if needed. Throws Error on failure.
  void save(const std::filesystem::path& file) const;
  // The table in `file` if it parses and its fingerprint equals `expected`; otherwise
  // nullopt, and *warning (if given) says why (missing file: nullopt with an empty warning;
  // corrupt: "... is corrupt: ..."; foreign: "... was tuned for <other fingerprint>").
  // Never throws for what the file holds.
  static std::optional<TuningTable> load(const std::filesystem::path& file,
                                         const DeviceFingerprint& expected, std::string* warning);

 private:
  DeviceFingerprint fingerprint_;
  // Keyed by the bucket's text, which gives entries() its order.
  std::map<std::string, std::pair<ShapeBucket, TunedChoice>> entries_;
};

}  // namespace deepselect
