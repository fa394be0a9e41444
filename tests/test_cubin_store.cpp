// CubinStore: memory, prebuilt, disk and NVRTC layers; one compile per key; corrupt entries
// rebuilt; JIT disabled; unusable directories. Uses cheap fill_test kernels. Needs no GPU.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <latch>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <deepselect/deepselect.hpp>

#include "codegen.hpp"
#include "compiler.hpp"
#include "cubin_store.hpp"
#include "sources.hpp"
#include "test_support.hpp"

namespace deepselect {
namespace {

namespace fs = std::filesystem;
using testing::read_bytes;
using testing::ScopedEnv;
using testing::TempDir;
using testing::write_bytes;

// A cache directory that does not exist yet, so that DiskCache creates it with mode 0700
// whatever the umask (a TempDir itself may be group-writable, which a cache refuses).
class CacheDir {
 public:
  const fs::path& path() const { return path_; }

 private:
  TempDir root_;
  fs::path path_ = root_.path() / "cache";
};

KernelSpec fill_spec(int threads = 128, int cluster = 2) {
  KernelSpec spec;
  spec.kind = KernelKind::fill_test;
  spec.threads = threads;
  spec.cluster = cluster;
  return spec;
}

StoreConfig config_for(const fs::path& cache_dir, const fs::path& prebuilt_dir = {},
                       bool jit_disabled = false) {
  StoreConfig config;
  config.cache_dir = cache_dir;
  config.prebuilt_dir = prebuilt_dir;
  config.jit_disabled = jit_disabled;
  return config;
}

bool is_elf(const std::string& bytes) {
  return bytes.rfind(
             "\x7f"
             "ELF",
             0) == 0;
}

size_t count_entries(const fs::path& cache_dir) {
  size_t count = 0;
  std::error_code ec;
  for (auto it = fs::directory_iterator(cache_dir / "v1", ec);
       !ec && it != fs::directory_iterator(); it.increment(ec)) {
    if (it->path().extension() == ".cubin") ++count;
  }
  return count;
}

std::set<std::string> lines_of(const std::string& text) {
  std::set<std::string> lines;
  size_t start = 0;
  for (size_t stop = text.find('\n'); stop != std::string::npos; stop = text.find('\n', start)) {
    lines.insert(text.substr(start, stop - start));
    start = stop + 1;
  }
  return lines;
}

// The message of the deepselect::Error that get() throws, or "<no error>".
std::string get_error(CubinStore& store, const KernelSpec& spec) {
  try {
    (void)store.get(spec);
  } catch (const Error& error) {
    return error.what();
  }
  return "<no error>";
}

// Calls get(spec) from `threads` threads released together; returns what each got (null for
// an exception) and counts the exceptions.
struct RaceResult {
  std::vector<std::shared_ptr<const Cubin>> cubins;
  std::vector<std::string> errors;
};

RaceResult race_get(const std::vector<CubinStore*>& stores, const KernelSpec& spec, int threads) {
  RaceResult result;
  result.cubins.resize(threads);
  result.errors.resize(threads);
  std::latch start(threads);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      start.arrive_and_wait();
      try {
        result.cubins[t] = stores[t % stores.size()]->get(spec);
      } catch (const std::exception& error) {
        result.errors[t] = error.what();
      }
    });
  }
  for (std::thread& worker : workers) worker.join();
  return result;
}

// Every thread got a cubin, and all of them hold the same bytes.
void require_same_bytes(const RaceResult& race) {
  for (size_t t = 0; t < race.cubins.size(); ++t) {
    INFO("thread ", t, ": ", race.errors[t]);
    REQUIRE(race.cubins[t] != nullptr);
    CHECK(race.cubins[t]->bytes == race.cubins[0]->bytes);
  }
}

TEST_CASE("cubin store: the first get compiles, the next store on the same dir hits the disk") {
  CacheDir dir;
  const KernelSpec spec = fill_spec();
  std::string bytes;
  {
    CubinStore store(config_for(dir.path()));
    REQUIRE(store.cache().writable());
    const std::shared_ptr<const Cubin> cubin = store.get(spec);
    CHECK(cubin->origin == CubinOrigin::compiled);
    CHECK(store.stats().compiles == 1);
    CHECK(store.stats().disk_hits == 0);
    CHECK(is_elf(cubin->bytes));
    CHECK(cubin->symbol == spec.symbol());
    CHECK(cubin->key_text == cache_key_text(spec));
    CHECK(fs::is_regular_file(store.cache().entry_path(cubin->key_text)));
    bytes = cubin->bytes;

    // Memory: the same object, no compile.
    CHECK(store.get(spec) == cubin);
    CHECK(store.stats().memory_hits == 1);
    CHECK(store.stats().compiles == 1);
  }
  CubinStore second(config_for(dir.path()));
  const std::shared_ptr<const Cubin> cubin = second.get(spec);
  CHECK(cubin->origin == CubinOrigin::disk);
  CHECK(cubin->bytes == bytes);
  CHECK(cubin->symbol == spec.symbol());
  CHECK(second.stats().compiles == 0);
  CHECK(second.stats().disk_hits == 1);
  CHECK(count_entries(dir.path()) == 1);
}

TEST_CASE("cubin store: 8 threads asking a cold store for one kernel share one compile") {
  CacheDir dir;
  CubinStore store(config_for(dir.path()));
  const RaceResult race = race_get({&store}, fill_spec(), 8);
  require_same_bytes(race);
  for (const std::shared_ptr<const Cubin>& cubin : race.cubins) CHECK(cubin == race.cubins[0]);
  CHECK(is_elf(race.cubins[0]->bytes));
  CHECK(store.stats().compiles == 1);
  CHECK(store.stats().memory_hits == 7);
  CHECK(count_entries(dir.path()) == 1);
}

TEST_CASE("cubin store: two stores on one cold dir compile once between them (the file lock)") {
  CacheDir dir;
  CubinStore first(config_for(dir.path()));
  CubinStore second(config_for(dir.path()));
  const RaceResult race = race_get({&first, &second}, fill_spec(256, 1), 8);
  require_same_bytes(race);
  CHECK(first.stats().compiles + second.stats().compiles == 1);
  CHECK(first.stats().disk_hits + second.stats().disk_hits == 1);
  CHECK(count_entries(dir.path()) == 1);
  CHECK(fs::is_empty(dir.path() / "v1" / "tmp"));
}

TEST_CASE("cubin store: the key text holds every toolchain input, one name=value per line") {
  for (const KernelSpec& spec : {KernelSpec{}, fill_spec()}) {
    const std::string key = cache_key_text(spec);
    INFO(key);
    std::string options = "options=";
    for (const std::string& option : compile_options(spec)) {
      options += (options.back() == '=' ? "" : " ") + option;
    }
    const std::string lines[] = {
        "format=1",
        std::string("library=") + version(),
        "templates=" + templates_digest(),
        "unit=" + text_digest(render_translation_unit(spec)),
        "spec=" + spec.to_string(),
        "arch=" + spec.arch.to_string(),
        "nvrtc=" + nvrtc_version(),
        options,
    };
    const std::set<std::string> key_lines = lines_of(key);
    for (const std::string& line : lines) CHECK(key_lines.count(line) == 1);
    CHECK(key_lines.size() == std::size(lines));
    CHECK(key.back() == '\n');
    for (const std::string& option : compile_options(spec)) {
      CHECK(key.find(option) != std::string::npos);
    }
  }
}

TEST_CASE("cubin store: the key and the entry path change with every spec field and the arch") {
  const KernelSpec base;
  const std::function<void(KernelSpec&)> changes[] = {
      [](KernelSpec& s) { s.kind = KernelKind::fill_test; },
      [](KernelSpec& s) { s.dtype = DType::bf16; },
      [](KernelSpec& s) { s.k_max = 1024; },
      [](KernelSpec& s) { s.block = 8192; },
      [](KernelSpec& s) { s.block2 = 2048; },
      [](KernelSpec& s) { s.threads = 256; },
      [](KernelSpec& s) {  // only the launch-test kernel takes clusters today
        s.kind = KernelKind::fill_test;
        s.cluster = 2;
      },
      [](KernelSpec& s) { s.arch = Arch{100}; },
  };
  CacheDir dir;
  const DiskCache cache(dir.path(), /*writable=*/true);
  std::set<std::string> keys = {cache_key_text(base)};
  std::set<fs::path> paths = {cache.entry_path(cache_key_text(base))};
  for (const auto& change : changes) {
    KernelSpec spec = base;
    change(spec);
    INFO(spec.to_string());
    const std::string key = cache_key_text(spec);
    CHECK(keys.insert(key).second);
    CHECK(paths.insert(cache.entry_path(key)).second);
  }
  // The same spec always gives the same key.
  CHECK(cache_key_text(base) == cache_key_text(KernelSpec{}));

  // The arch changes the options line, not just the arch line.
  KernelSpec sm100 = base;
  sm100.arch = Arch{100};
  const auto options_line = [](const std::string& key) {
    const size_t start = key.find("options=");
    return key.substr(start, key.find('\n', start) - start);
  };
  CHECK(options_line(cache_key_text(base)) != options_line(cache_key_text(sm100)));
}

TEST_CASE("cubin store: a corrupt entry is a miss, is rebuilt, and then loads") {
  const KernelSpec spec = fill_spec();
  const KernelSpec other = fill_spec(256, 4);
  struct Corruption {
    const char* name;
    std::function<std::string(const std::string& bytes, const std::string& other_entry)> apply;
  };
  const Corruption corruptions[] = {
      {"flipped byte in the middle",
       [](const std::string& bytes, const std::string&) {
         std::string out = bytes;
         out[out.size() / 2] = static_cast<char>(out[out.size() / 2] ^ 0x20);
         return out;
       }},
      {"truncated to half", [](const std::string& bytes,
                               const std::string&) { return bytes.substr(0, bytes.size() / 2); }},
      {"empty", [](const std::string&, const std::string&) { return std::string(); }},
      {"another key's entry",
       [](const std::string&, const std::string& other_entry) { return other_entry; }},
  };
  for (const Corruption& corruption : corruptions) {
    INFO(corruption.name);
    CacheDir dir;
    std::string original;
    fs::path path;
    std::string other_entry;
    {
      CubinStore store(config_for(dir.path()));
      original = store.get(spec)->bytes;
      path = store.cache().entry_path(cache_key_text(spec));
      const std::shared_ptr<const Cubin> other_cubin = store.get(other);
      other_entry = read_bytes(store.cache().entry_path(other_cubin->key_text));
    }
    write_bytes(path, corruption.apply(read_bytes(path), other_entry));

    CubinStore rebuilding(config_for(dir.path()));
    const std::shared_ptr<const Cubin> rebuilt = rebuilding.get(spec);
    CHECK(rebuilt->origin == CubinOrigin::compiled);
    CHECK(rebuilding.stats().compiles == 1);
    CHECK(rebuilding.stats().disk_hits == 0);
    CHECK(rebuilt->bytes == original);

    CubinStore after(config_for(dir.path()));
    const std::shared_ptr<const Cubin> loaded = after.get(spec);
    CHECK(loaded->origin == CubinOrigin::disk);
    CHECK(after.stats().compiles == 0);
    CHECK(loaded->bytes == original);
  }
}

TEST_CASE("cubin store: JIT disabled and an empty cache is a clear error, not remembered") {
  CacheDir dir;
  const KernelSpec spec = fill_spec();
  CubinStore disabled(config_for(dir.path(), {}, /*jit_disabled=*/true));
  const std::string message = get_error(disabled, spec);
  CHECK(message.find("DEEPSELECT_JIT_DISABLE") != std::string::npos);
  CHECK(message.find(spec.to_string()) != std::string::npos);
  CHECK(disabled.stats().compiles == 0);
  CHECK(count_entries(dir.path()) == 0);
  // Asked again, it looks again instead of replaying the failure.
  CHECK(get_error(disabled, spec).find("DEEPSELECT_JIT_DISABLE") != std::string::npos);
  CHECK(disabled.stats().memory_hits == 0);

  CubinStore enabled(config_for(dir.path()));
  const std::shared_ptr<const Cubin> compiled = enabled.get(spec);
  CHECK(compiled->origin == CubinOrigin::compiled);
  CHECK(enabled.stats().compiles == 1);

  // Now that the cache holds it, the store that failed before finds it.
  const std::shared_ptr<const Cubin> found = disabled.get(spec);
  CHECK(found->origin == CubinOrigin::disk);
  CHECK(found->bytes == compiled->bytes);
  CHECK(disabled.stats().compiles == 0);
}

TEST_CASE("cubin store: concurrent callers of a failing key all see the error") {
  CacheDir dir;
  CubinStore disabled(config_for(dir.path(), {}, /*jit_disabled=*/true));
  const RaceResult race = race_get({&disabled}, fill_spec(), 8);
  for (size_t t = 0; t < race.cubins.size(); ++t) {
    INFO("thread ", t);
    CHECK(race.cubins[t] == nullptr);
    CHECK(race.errors[t].find("DEEPSELECT_JIT_DISABLE") != std::string::npos);
  }
  CHECK(disabled.stats().compiles == 0);
}

TEST_CASE("cubin store: a prebuilt dir serves kernels with JIT disabled and an empty cache") {
  CacheDir prebuilt;
  CacheDir cache;
  const std::vector<KernelSpec> specs = {fill_spec(), fill_spec(256, 1)};
  std::vector<std::string> bytes;
  {
    CubinStore filler(config_for(prebuilt.path()));
    for (const KernelSpec& spec : specs) bytes.push_back(filler.get(spec)->bytes);
    REQUIRE(filler.stats().compiles == 2);
  }
  CubinStore store(config_for(cache.path(), prebuilt.path(), /*jit_disabled=*/true));
  REQUIRE(store.prebuilt().has_value());
  CHECK(store.prebuilt()->usable());
  for (size_t i = 0; i < specs.size(); ++i) {
    INFO(specs[i].to_string());
    const std::shared_ptr<const Cubin> cubin = store.get(specs[i]);
    CHECK(cubin->origin == CubinOrigin::prebuilt);
    CHECK(cubin->bytes == bytes[i]);
  }
  CHECK(store.stats().compiles == 0);
  CHECK(store.stats().prebuilt_hits == 2);
  CHECK(store.stats().disk_hits == 0);
  // Prebuilt hits are not copied into the writable cache.
  CHECK(count_entries(cache.path()) == 0);
  // A kernel the prebuilt dir lacks is still an error.
  CHECK(get_error(store, fill_spec(512, 1)).find("DEEPSELECT_JIT_DISABLE") != std::string::npos);
}

TEST_CASE("cubin store: an unusable cache dir still serves kernels, from memory") {
  TempDir dir;
  write_bytes(dir.path() / "file", "a regular file");
  CubinStore store(config_for(dir.path() / "file" / "cache"));
  CHECK(!store.cache().usable());
  CHECK(!store.cache().problem().empty());
  const KernelSpec spec = fill_spec();
  std::shared_ptr<const Cubin> cubin;
  CHECK_NOTHROW(cubin = store.get(spec));
  REQUIRE(cubin != nullptr);
  CHECK(cubin->origin == CubinOrigin::compiled);
  CHECK(is_elf(cubin->bytes));
  CHECK(store.get(spec) == cubin);
  CHECK(store.stats().compiles == 1);
  CHECK(store.stats().memory_hits == 1);
  CHECK(fs::is_regular_file(dir.path() / "file"));
}

TEST_CASE("cubin store: evict removes the entry from memory and disk") {
  CacheDir dir;
  const KernelSpec spec = fill_spec();
  const KernelSpec kept = fill_spec(256, 1);
  CubinStore store(config_for(dir.path()));
  (void)store.get(spec);
  (void)store.get(kept);
  const fs::path path = store.cache().entry_path(cache_key_text(spec));
  REQUIRE(fs::exists(path));
  store.evict(spec);
  CHECK(!fs::exists(path));
  CHECK(count_entries(dir.path()) == 1);  // only the evicted kernel goes

  // Not in memory either: the same store compiles it again.
  CHECK(store.get(spec)->origin == CubinOrigin::compiled);
  CHECK(store.stats().compiles == 3);

  store.evict(spec);
  CubinStore fresh(config_for(dir.path()));
  CHECK(fresh.get(spec)->origin == CubinOrigin::compiled);
  CHECK(fresh.get(kept)->origin == CubinOrigin::disk);
  CHECK(fresh.stats().compiles == 1);
}

TEST_CASE("cubin store: StoreConfig::from_environment") {
  {
    ScopedEnv cache("DEEPSELECT_CACHE_DIR", "/some/cache");
    ScopedEnv prebuilt("DEEPSELECT_PREBUILT_DIR", "/some/prebuilt");
    ScopedEnv disable("DEEPSELECT_JIT_DISABLE", "1");
    const StoreConfig config = StoreConfig::from_environment();
    CHECK(config.cache_dir == fs::path("/some/cache"));
    CHECK(config.prebuilt_dir == fs::path("/some/prebuilt"));
    CHECK(config.jit_disabled);
  }
  for (const char* value : {static_cast<const char*>(nullptr), "0", ""}) {
    ScopedEnv prebuilt("DEEPSELECT_PREBUILT_DIR", nullptr);
    ScopedEnv disable("DEEPSELECT_JIT_DISABLE", value);
    const StoreConfig config = StoreConfig::from_environment();
    CHECK(config.prebuilt_dir.empty());
    CHECK(!config.jit_disabled);
  }
}

}  // namespace
}  // namespace deepselect
