// The on-disk cubin cache: directory resolution, the entry format, validated reads and atomic
// publication (docs: cache/FORMAT.md). One instance is one layer: the writable user cache, or
// a read-only prebuilt directory.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace deepselect {

// One compiled kernel as it is stored.
struct CacheEntry {
  std::string key_text;   // the canonical key; compared on every read
  std::string symbol;     // the kernel's extern "C" name in the cubin
  std::string toolchain;  // e.g. "nvrtc=13.0 library=0.1.0", for humans and `cache list`
  std::string cubin;      // the payload
};

// What `cache list` / `cache verify` show of one file.
struct EntryInfo {
  std::filesystem::path path;
  std::string symbol;
  std::string key_text;
  uint64_t payload_bytes = 0;
  bool valid = false;
  std::string problem;  // why it is not valid
};

class DiskCache {
 public:
  // A layer rooted at dir. A writable layer creates dir (0700) if needed; a directory owned
  // by another user or writable by group/others is refused (usable() false, problem() says
  // why). A read-only layer never writes, creates or removes anything.
  DiskCache(std::filesystem::path dir, bool writable);

  // $DEEPSELECT_CACHE_DIR, else $XDG_CACHE_HOME/deepselect, else ~/.cache/deepselect, else a
  // per-user directory under the temp dir.
  static std::filesystem::path default_dir();

  bool usable() const { return usable_; }
  bool writable() const { return usable_ && writable_; }
  const std::string& problem() const { return problem_; }
  const std::filesystem::path& dir() const { return dir_; }

  // The entry for key_text, or nullopt on a miss. Any failed check (magic, format version,
  // sizes, key text, checksum, truncation) is a miss; a writable layer then deletes the file.
  std::optional<CacheEntry> load(const std::string& key_text) const;

  // Publishes atomically: unique temp file in the cache's tmp dir, fsync, rename, fsync of
  // the directory. Throws deepselect::Error on failure (the caller warns and goes on).
  void store(const CacheEntry& entry) const;

  // Removes the entry for key_text if present (a cubin that failed to load).
  void evict(const std::string& key_text) const;

  // An advisory per-key lock (flock) that only avoids duplicate compiles between processes.
  // Released by the destructor, or by the kernel when the process dies.
  class Lock {
   public:
    Lock() = default;
    Lock(Lock&& other) noexcept;
    Lock& operator=(Lock&& other) noexcept;
    Lock(const Lock&) = delete;
    Lock& operator=(const Lock&) = delete;
    ~Lock();
    bool held() const { return fd_ >= 0; }

   private:
    friend class DiskCache;
    int fd_ = -1;
  };
  // Waits up to timeout for the key's lock; returns a Lock that is not held() on timeout or
  // when the layer is not writable (the caller then compiles anyway).
  Lock lock(const std::string& key_text, std::chrono::milliseconds timeout) const;

  // Every entry file with its validity, sorted by path.
  std::vector<EntryInfo> list() const;
  // Removes invalid entries, entries whose key text keep() rejects, and stale temp files
  // (left by dead processes, or older than an hour). Returns how many files it removed.
  size_t prune(const std::function<bool(const std::string& key_text)>& keep) const;
  // Removes every entry, lock and temp file. Returns how many files it removed.
  size_t clear() const;
  // Removes temp files left by processes that died mid-write. Returns how many.
  size_t sweep_stale_temps() const;

  // The file that holds key_text's entry: <dir>/v1/<xxh3-128 of key_text, hex>.cubin
  std::filesystem::path entry_path(const std::string& key_text) const;

 private:
  std::filesystem::path dir_;
  bool writable_ = false;
  bool usable_ = false;
  std::string problem_;
};

}  // namespace deepselect
