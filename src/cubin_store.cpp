#include "cubin_store.hpp"

#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "codegen.hpp"
#include "compiler.hpp"
#include "sources.hpp"

namespace deepselect {
namespace {

constexpr int kKeyFormat = 1;
constexpr auto kLockTimeout = std::chrono::seconds(120);

std::filesystem::path env_path(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::filesystem::path(value) : std::filesystem::path();
}

void warn_unusable(const DiskCache& cache, const char* what) {
  if (!cache.usable()) {
    fmt::print(stderr, "deepselect: warning: {} {} is unusable ({}); continuing without it\n", what,
               cache.dir().string(), cache.problem());
  }
}

}  // namespace

StoreConfig StoreConfig::from_environment() {
  StoreConfig config;
  config.cache_dir = DiskCache::default_dir();
  config.prebuilt_dir = env_path("DEEPSELECT_PREBUILT_DIR");
  const char* disable = std::getenv("DEEPSELECT_JIT_DISABLE");
  config.jit_disabled = disable != nullptr && std::strcmp(disable, "1") == 0;
  return config;
}

const char* origin_name(CubinOrigin origin) {
  switch (origin) {
    case CubinOrigin::prebuilt:
      return "prebuilt";
    case CubinOrigin::disk:
      return "disk";
    case CubinOrigin::compiled:
      return "compiled";
  }
  return "?";
}

std::string cache_key_text(const KernelSpec& spec) {
  std::string options;
  for (const std::string& option : compile_options(spec)) {
    if (!options.empty()) options += ' ';
    options += option;
  }
  return fmt::format(
      "format={}\nlibrary={}\ntemplates={}\nunit={}\nspec={}\narch={}\nnvrtc={}\noptions={}\n",
      kKeyFormat, DEEPSELECT_VERSION, templates_digest(),
      text_digest(render_translation_unit(spec)), spec.to_string(), spec.arch.to_string(),
      nvrtc_version(), options);
}

CubinStore::CubinStore(StoreConfig config)
    : config_(std::move(config)), cache_(config_.cache_dir, /*writable=*/true) {
  warn_unusable(cache_, "cache directory");
  if (!config_.prebuilt_dir.empty()) {
    prebuilt_.emplace(config_.prebuilt_dir, /*writable=*/false);
    warn_unusable(*prebuilt_, "prebuilt directory");
  }
}

CubinStore& CubinStore::global() {
  static CubinStore store(StoreConfig::from_environment());
  return store;
}

std::shared_ptr<const Cubin> CubinStore::get(const KernelSpec& spec) {
  spec.validate();
  const std::string key = cache_key_text(spec);
  std::promise<std::shared_ptr<const Cubin>> promise;
  std::optional<Future> in_flight;
  {
    std::lock_guard lock(mutex_);
    auto found = cubins_.find(key);
    if (found != cubins_.end()) {
      in_flight = found->second;
    } else {
      cubins_.emplace(key, promise.get_future().share());
    }
  }
  if (in_flight) {
    ++memory_hits_;
    return in_flight->get();
  }
  try {
    std::shared_ptr<const Cubin> cubin = find_or_compile(spec, key);
    promise.set_value(cubin);
    return cubin;
  } catch (...) {
    promise.set_exception(std::current_exception());
    std::lock_guard lock(mutex_);
    cubins_.erase(key);
    throw;
  }
}

std::shared_ptr<const Cubin> CubinStore::find_or_compile(const KernelSpec& spec,
                                                         const std::string& key) {
  auto from_entry = [&](CacheEntry entry, CubinOrigin origin) {
    auto cubin = std::make_shared<Cubin>();
    cubin->key_text = std::move(entry.key_text);
    cubin->symbol = std::move(entry.symbol);
    cubin->bytes = std::move(entry.cubin);
    cubin->origin = origin;
    return std::shared_ptr<const Cubin>(std::move(cubin));
  };
  if (prebuilt_ && prebuilt_->usable()) {
    if (auto entry = prebuilt_->load(key)) {
      ++prebuilt_hits_;
      return from_entry(std::move(*entry), CubinOrigin::prebuilt);
    }
  }
  if (auto entry = cache_.load(key)) {
    ++disk_hits_;
    return from_entry(std::move(*entry), CubinOrigin::disk);
  }
  if (config_.jit_disabled) {
    throw Error(fmt::format(
        "deepselect: kernel '{}' is in no cache layer (prebuilt: {}, cache: {}) and "
        "DEEPSELECT_JIT_DISABLE=1 forbids compiling it",
        spec.to_string(), config_.prebuilt_dir.empty() ? "none" : config_.prebuilt_dir.string(),
        cache_.dir().string()));
  }
  // Another process may be compiling the same key: wait for it, then look again.
  const DiskCache::Lock lock = cache_.lock(key, kLockTimeout);
  if (lock.held()) {
    if (auto entry = cache_.load(key)) {
      ++disk_hits_;
      return from_entry(std::move(*entry), CubinOrigin::disk);
    }
  }
  return compile_and_publish(spec, key);
}

std::shared_ptr<const Cubin> CubinStore::compile_and_publish(const KernelSpec& spec,
                                                             const std::string& key) {
  CompiledKernel compiled = compile(spec, render_translation_unit(spec));
  ++compiles_;
  auto cubin = std::make_shared<Cubin>();
  cubin->key_text = key;
  cubin->symbol = spec.symbol();
  cubin->bytes = std::move(compiled.cubin);
  cubin->origin = CubinOrigin::compiled;
  cubin->compile_seconds = compiled.seconds;
  if (cache_.writable()) {
    try {
      cache_.store(CacheEntry{
          key, cubin->symbol,
          fmt::format("nvrtc={} library={}", nvrtc_version(), DEEPSELECT_VERSION), cubin->bytes});
    } catch (const Error& error) {
      fmt::print(stderr, "deepselect: warning: {}; the kernel stays in memory only\n",
                 error.what());
    }
  }
  return cubin;
}

void CubinStore::evict(const KernelSpec& spec) {
  const std::string key = cache_key_text(spec);
  {
    std::lock_guard lock(mutex_);
    cubins_.erase(key);
  }
  if (cache_.writable()) cache_.evict(key);
}

StoreStats CubinStore::stats() const {
  return StoreStats{compiles_.load(), prebuilt_hits_.load(), disk_hits_.load(),
                    memory_hits_.load()};
}

}  // namespace deepselect
