// Cubins by spec: memory, then the prebuilt directory, then the disk cache, then NVRTC.
// Needs no GPU. Concurrent callers asking for one spec share one compile; a failed compile is
// not remembered.
#pragma once

#include <atomic>
#include <filesystem>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "disk_cache.hpp"
#include "spec.hpp"

namespace deepselect {

struct StoreConfig {
  std::filesystem::path cache_dir;     // the writable cache
  std::filesystem::path prebuilt_dir;  // empty: no prebuilt layer
  bool jit_disabled = false;           // a miss is an error instead of a compile
  // DEEPSELECT_CACHE_DIR (or the default), DEEPSELECT_PREBUILT_DIR, DEEPSELECT_JIT_DISABLE=1.
  static StoreConfig from_environment();
};

enum class CubinOrigin { prebuilt, disk, compiled };
const char* origin_name(CubinOrigin origin);

struct Cubin {
  std::string key_text;
  std::string symbol;
  std::string bytes;
  CubinOrigin origin = CubinOrigin::compiled;
  double compile_seconds = 0.0;
};

struct StoreStats {
  long compiles = 0;
  long prebuilt_hits = 0;
  long disk_hits = 0;
  long memory_hits = 0;
};

// The canonical key text of spec (one name=value per line).
std::string cache_key_text(const KernelSpec& spec);

class CubinStore {
 public:
  explicit CubinStore(StoreConfig config);

  // Throws CompileError, or Error when JIT is disabled and no layer has the kernel.
  std::shared_ptr<const Cubin> get(const KernelSpec& spec);
  // Forgets spec in memory and in the writable cache (a cubin that failed to load).
  void evict(const KernelSpec& spec);

  StoreStats stats() const;
  const DiskCache& cache() const { return cache_; }
  const std::optional<DiskCache>& prebuilt() const { return prebuilt_; }
  const StoreConfig& config() const { return config_; }

  // The process-wide store, configured from the environment on first use.
  static CubinStore& global();

 private:
  using Future = std::shared_future<std::shared_ptr<const Cubin>>;
  std::shared_ptr<const Cubin> find_or_compile(const KernelSpec& spec, const std::string& key);
  std::shared_ptr<const Cubin> compile_and_publish(const KernelSpec& spec, const std::string& key);

  StoreConfig config_;
  DiskCache cache_;
  std::optional<DiskCache> prebuilt_;
  std::mutex mutex_;
  std::unordered_map<std::string, Future> cubins_;
  std::atomic<long> compiles_{0};
  std::atomic<long> prebuilt_hits_{0};
  std::atomic<long> disk_hits_{0};
  std::atomic<long> memory_hits_{0};
};

}  // namespace deepselect
