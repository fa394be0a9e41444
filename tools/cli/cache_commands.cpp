#include <fmt/format.h>

#include "commands.hpp"
#include "cubin_store.hpp"

namespace deepselect::cli {
namespace {

// Whether key_text was made by this library build, NVRTC and templates.
bool current_key(const std::string& key_text) {
  const std::string current = cache_key_text(KernelSpec{});
  for (const char* field : {"format=", "library=", "templates=", "nvrtc="}) {
    const size_t start = current.find(field);
    const std::string line = current.substr(start, current.find('\n', start) - start + 1);
    if (key_text.find(line) == std::string::npos) return false;
  }
  return true;
}

const DiskCache& writable_cache() {
  const DiskCache& cache = CubinStore::global().cache();
  if (!cache.usable()) {
    throw Error(fmt::format("deepselect: cache directory {} is unusable: {}", cache.dir().string(),
                            cache.problem()));
  }
  return cache;
}

int list_entries(bool only_report_invalid) {
  const std::vector<EntryInfo> entries = writable_cache().list();
  int invalid = 0;
  for (const EntryInfo& entry : entries) {
    if (!entry.valid) ++invalid;
    if (only_report_invalid && entry.valid) continue;
    if (entry.valid) {
      fmt::print("{:>9} {} {}{}\n", entry.payload_bytes, entry.symbol, entry.path.string(),
                 current_key(entry.key_text) ? "" : " (stale)");
    } else {
      fmt::print("  INVALID {}: {}\n", entry.path.string(), entry.problem);
    }
  }
  fmt::print("{} entries, {} valid, {} invalid in {}\n", entries.size(), entries.size() - invalid,
             invalid, writable_cache().dir().string());
  return invalid == 0 ? 0 : 1;
}

}  // namespace

void add_cache(CLI::App& app) {
  CLI::App* cache = app.add_subcommand("cache", "Inspect and clean the on-disk kernel cache");
  cache->require_subcommand(1);
  cache->add_subcommand("list", "List the cached kernels")->callback([] { list_entries(false); });
  cache->add_subcommand("verify", "Check every entry; exit 1 if one is invalid")->callback([] {
    if (list_entries(true) != 0) throw CLI::RuntimeError(1);
  });
  cache->add_subcommand("prune", "Remove invalid and stale entries and stale temp files")
      ->callback([] {
        const size_t removed = writable_cache().prune(current_key);
        fmt::print("removed {} files\n", removed);
      });
  cache->add_subcommand("clear", "Remove every cached kernel")->callback([] {
    fmt::print("removed {} files\n", writable_cache().clear());
  });
}

}  // namespace deepselect::cli
