#include <doctest/doctest.h>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <deepselect/deepselect.hpp>

#include "disk_cache.hpp"
#include "test_support.hpp"

namespace deepselect {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::read_bytes;
using testing::ScopedEnv;
using testing::TempDir;
using testing::write_bytes;

std::string key_of(std::string_view name) {
  return fmt::format("format=1\nlibrary=0.1.0\nspec={}\narch=sm_90a\nnvrtc=13.0\n", name);
}

// An entry whose payload has every byte value, NULs included.
CacheEntry sample_entry(const std::string& key_text, size_t payload_bytes = 4096) {
  CacheEntry entry{key_text, "deepselect_topk_kernel", "nvrtc=13.0 library=0.1.0", {}};
  for (size_t i = 0; i < payload_bytes; ++i) {
    entry.cubin.push_back(static_cast<char>((i * 131 + key_text.size()) & 0xff));
  }
  return entry;
}

bool same(const CacheEntry& a, const CacheEntry& b) {
  return a.key_text == b.key_text && a.symbol == b.symbol && a.toolchain == b.toolchain &&
         a.cubin == b.cubin;
}

void check_loads(const DiskCache& cache, const CacheEntry& want) {
  const std::optional<CacheEntry> got = cache.load(want.key_text);
  REQUIRE(got.has_value());
  CHECK(got->key_text == want.key_text);
  CHECK(got->symbol == want.symbol);
  CHECK(got->toolchain == want.toolchain);
  CHECK(got->cubin == want.cubin);
}

std::string flipped(std::string bytes, size_t offset, unsigned char mask) {
  bytes[offset] = static_cast<char>(static_cast<unsigned char>(bytes[offset]) ^ mask);
  return bytes;
}

size_t count_files(const fs::path& dir, std::string_view suffix = "") {
  size_t count = 0;
  for (const auto& item : fs::directory_iterator(dir)) {
    if (item.is_regular_file() && item.path().filename().string().ends_with(suffix)) ++count;
  }
  return count;
}

// Every file and directory under dir with its size: what "nothing changed" compares.
std::map<std::string, uintmax_t> snapshot(const fs::path& dir) {
  std::map<std::string, uintmax_t> items;
  for (const auto& item : fs::recursive_directory_iterator(dir)) {
    items[item.path().string()] = item.is_regular_file() ? item.file_size() : 0;
  }
  return items;
}

unsigned mode_of(const fs::path& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Runs body in a child process, whose exit code is body's result (100: it threw).
template <typename Body>
pid_t fork_child(Body body) {
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    int code = 100;
    try {
      code = body();
    } catch (...) {
    }
    ::_exit(code);
  }
  return pid;
}

// The child's exit code, or -1 when a signal ended it.
int wait_exit(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST_CASE("disk cache: round trip store and load") {
  TempDir tmp;
  const DiskCache cache(tmp.path() / "cache", true);
  REQUIRE(cache.writable());
  const CacheEntry entry = sample_entry(key_of("a"));
  cache.store(entry);
  check_loads(cache, entry);
  check_loads(DiskCache(tmp.path() / "cache", true), entry);
  CHECK(mode_of(cache.entry_path(entry.key_text)) == 0600);

  CacheEntry changed = sample_entry(entry.key_text, 100);
  changed.symbol = "another_kernel";
  cache.store(changed);
  check_loads(cache, changed);
  const CacheEntry empty_payload = sample_entry(key_of("empty"), 0);
  cache.store(empty_payload);
  check_loads(cache, empty_payload);
  CHECK(count_files(cache.dir() / "v1", ".cubin") == 2);
  CHECK(count_files(cache.dir() / "v1" / "tmp") == 0);

  cache.evict(entry.key_text);
  CHECK_FALSE(cache.load(entry.key_text).has_value());
  CHECK_FALSE(fs::exists(cache.entry_path(entry.key_text)));
  check_loads(cache, empty_payload);
}

TEST_CASE("disk cache: a key never stored is a miss") {
  TempDir tmp;
  const DiskCache cache(tmp.path() / "cache", true);
  REQUIRE(cache.writable());
  CHECK_FALSE(cache.load(key_of("a")).has_value());
  cache.store(sample_entry(key_of("a")));
  CHECK_FALSE(cache.load(key_of("b")).has_value());
  CHECK(cache.load(key_of("a")).has_value());
}

TEST_CASE("disk cache: every corrupted entry is a miss and is deleted") {
  TempDir tmp;
  const DiskCache cache(tmp.path() / "cache", true);
  REQUIRE(cache.writable());
  const CacheEntry entry = sample_entry(key_of("a"));
  const CacheEntry other = sample_entry(key_of("b"));
  cache.store(entry);
  cache.store(other);
  const fs::path path = cache.entry_path(entry.key_text);
  const std::string good = read_bytes(path);
  const size_t header_bytes = good.size() - entry.cubin.size();

  struct Corruption {
    std::string name;
    std::string bytes;
  };
  std::vector<Corruption> corruptions = {
      {"empty", ""},
      {"truncated by one byte", good.substr(0, good.size() - 1)},
      {"truncated in the header", good.substr(0, 20)},
      {"one flipped payload bit", flipped(good, good.size() - 7, 0x10)},
      {"trailing garbage", good + "garbage"},
      {"another key's entry", read_bytes(cache.entry_path(other.key_text))},
  };
  for (size_t offset = 0; offset < header_bytes; ++offset) {
    corruptions.push_back(
        {fmt::format("header byte {} flipped", offset), flipped(good, offset, 1)});
  }
  for (const Corruption& corruption : corruptions) {
    INFO(corruption.name);
    write_bytes(path, corruption.bytes);
    CHECK_FALSE(cache.load(entry.key_text).has_value());
    CHECK_FALSE(fs::exists(path));
  }
  check_loads(cache, other);
  cache.store(entry);
  check_loads(cache, entry);
}

TEST_CASE("disk cache: entry_path depends on the key text") {
  const DiskCache cache("/nonexistent/deepselect", false);
  const fs::path a = cache.entry_path(key_of("a"));
  CHECK(a == cache.entry_path(key_of("a")));
  CHECK(a != cache.entry_path(key_of("b")));
  CHECK(a != cache.entry_path(key_of("a") + " "));
  CHECK(a.parent_path() == fs::path("/nonexistent/deepselect/v1"));
  CHECK(a.extension() == ".cubin");
  CHECK(a.stem().string().size() == 32);
  CHECK(a.stem().string().find_first_not_of("0123456789abcdef") == std::string::npos);
}

TEST_CASE("disk cache: the directory chain is created with mode 0700") {
  TempDir tmp;
  const unsigned parent_mode = mode_of(tmp.path());
  const fs::path dir = tmp.path() / "a" / "b" / "cache";
  const DiskCache cache(dir, true);
  REQUIRE(cache.writable());
  CHECK(cache.problem().empty());
  for (const fs::path& created : {tmp.path() / "a", tmp.path() / "a" / "b", dir, dir / "v1",
                                  dir / "v1" / "tmp", dir / "v1" / "locks"}) {
    INFO(created.string());
    CHECK(mode_of(created) == 0700);
  }
  CHECK(mode_of(tmp.path()) == parent_mode);
  CHECK(DiskCache(dir, true).writable());
}

TEST_CASE("disk cache: a directory writable by group or others is refused") {
  TempDir tmp;
  for (const fs::perms extra : {fs::perms::group_write, fs::perms::others_write}) {
    const fs::path dir = tmp.path() / fmt::format("shared-{:o}", static_cast<unsigned>(extra));
    fs::create_directory(dir);
    fs::permissions(dir, fs::perms::owner_all | extra);
    const DiskCache cache(dir, true);
    CHECK_FALSE(cache.usable());
    CHECK(contains(cache.problem(), dir.string()));
    CHECK(contains(cache.problem(), "writable"));
    CHECK_FALSE(fs::exists(dir / "v1"));
  }
  // The layout under a private directory is checked too.
  const fs::path dir = tmp.path() / "private";
  REQUIRE(DiskCache(dir, true).writable());
  fs::permissions(dir / "v1" / "tmp", fs::perms::others_write, fs::perm_options::add);
  const DiskCache cache(dir, true);
  CHECK_FALSE(cache.usable());
  CHECK(contains(cache.problem(), (dir / "v1" / "tmp").string()));
}

TEST_CASE("disk cache: a directory owned by another user is refused") {
  if (::geteuid() != 0) {
    const DiskCache root_owned("/", true);
    CHECK_FALSE(root_owned.usable());
    CHECK(contains(root_owned.problem(), "owned by uid 0"));
    return;
  }
  TempDir tmp;
  const fs::path dir = tmp.path() / "foreign";
  fs::create_directory(dir);
  fs::permissions(dir, fs::perms::owner_all);
  REQUIRE(::chown(dir.c_str(), 65534, 65534) == 0);
  const DiskCache cache(dir, true);
  CHECK_FALSE(cache.usable());
  CHECK(contains(cache.problem(), dir.string()));
  CHECK(contains(cache.problem(), "owned by uid 65534"));
  CHECK_FALSE(fs::exists(dir / "v1"));
}

TEST_CASE("disk cache: an unusable directory gives a reason and only misses") {
  TempDir tmp;
  const fs::path file = tmp.path() / "file";
  write_bytes(file, "not a directory");
  for (const fs::path& dir : {file / "cache", file}) {
    INFO(dir.string());
    const DiskCache cache(dir, true);
    CHECK_FALSE(cache.usable());
    CHECK_FALSE(cache.writable());
    CHECK(contains(cache.problem(), dir.string()));
    CHECK_FALSE(cache.load(key_of("a")).has_value());
    try {
      cache.store(sample_entry(key_of("a")));
      FAIL("store into an unusable directory did not throw");
    } catch (const Error& error) {
      CHECK(contains(error.what(), dir.string()));
    }
    CHECK_FALSE(cache.lock(key_of("a"), 10ms).held());
    CHECK(cache.list().empty());
    CHECK(cache.prune([](const std::string&) { return false; }) == 0);
    CHECK(cache.clear() == 0);
  }
  CHECK(read_bytes(file) == "not a directory");
  CHECK(count_files(tmp.path()) == 1);
}

TEST_CASE("disk cache: a read-only layer never writes and loads valid entries") {
  TempDir tmp;
  const fs::path dir = tmp.path() / "prebuilt";
  const DiskCache absent(dir, false);
  CHECK_FALSE(absent.usable());
  CHECK(contains(absent.problem(), dir.string()));
  CHECK_FALSE(fs::exists(dir));

  fs::create_directory(dir);
  fs::permissions(dir, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                           fs::perms::others_read | fs::perms::others_exec);
  const DiskCache empty(dir, false);
  REQUIRE(empty.usable());
  CHECK_FALSE(empty.writable());
  CHECK_FALSE(empty.load(key_of("a")).has_value());
  CHECK_THROWS_AS(empty.store(sample_entry(key_of("a"))), Error);
  CHECK_FALSE(empty.lock(key_of("a"), 10ms).held());
  CHECK(fs::is_empty(dir));

  const CacheEntry good = sample_entry(key_of("good"));
  const CacheEntry bad = sample_entry(key_of("bad"));
  {
    const DiskCache writer(dir, true);
    REQUIRE(writer.writable());
    writer.store(good);
    writer.store(bad);
  }
  write_bytes(empty.entry_path(bad.key_text), "garbage");
  const pid_t dead = fork_child([] { return 0; });
  REQUIRE(wait_exit(dead) == 0);
  write_bytes(dir / "v1" / "tmp" / fmt::format("x.{}.0.tmp", dead), "partial");
  const auto before = snapshot(dir);

  const DiskCache prebuilt(dir, false);
  REQUIRE(prebuilt.usable());
  check_loads(prebuilt, good);
  CHECK_FALSE(prebuilt.load(bad.key_text).has_value());
  prebuilt.evict(good.key_text);
  CHECK(prebuilt.sweep_stale_temps() == 0);
  CHECK(prebuilt.prune([](const std::string&) { return false; }) == 0);
  CHECK(prebuilt.clear() == 0);
  CHECK(prebuilt.list().size() == 2);
  CHECK(snapshot(dir) == before);

  if (::geteuid() == 0) {
    REQUIRE(::chown(dir.c_str(), 65534, 65534) == 0);
    const DiskCache foreign(dir, false);
    CHECK(foreign.usable());
    check_loads(foreign, good);
  }
  fs::permissions(dir, fs::perms::others_write, fs::perm_options::add);
  const DiskCache world_writable(dir, false);
  CHECK_FALSE(world_writable.usable());
  CHECK(contains(world_writable.problem(), dir.string()));
  CHECK_FALSE(world_writable.load(good.key_text).has_value());
}

TEST_CASE("disk cache: default_dir resolution order") {
  const ScopedEnv cache_dir("DEEPSELECT_CACHE_DIR", "/x/cache");
  const ScopedEnv xdg("XDG_CACHE_HOME", "/x/xdg");
  const ScopedEnv home("HOME", "/x/home");
  CHECK(DiskCache::default_dir() == fs::path("/x/cache"));
  {
    const ScopedEnv empty_cache_dir("DEEPSELECT_CACHE_DIR", "");
    CHECK(DiskCache::default_dir() == fs::path("/x/xdg/deepselect"));
    {
      const ScopedEnv no_xdg("XDG_CACHE_HOME", nullptr);
      CHECK(DiskCache::default_dir() == fs::path("/x/home/.cache/deepselect"));
      const ScopedEnv empty_home("HOME", "");
      CHECK(DiskCache::default_dir() ==
            fs::temp_directory_path() / fmt::format("deepselect-{}", ::geteuid()));
    }
    const ScopedEnv empty_xdg("XDG_CACHE_HOME", "");
    CHECK(DiskCache::default_dir() == fs::path("/x/home/.cache/deepselect"));
  }
  CHECK(DiskCache::default_dir() == fs::path("/x/cache"));
}

TEST_CASE("disk cache: a held lock makes another process time out until released") {
  TempDir tmp;
  const DiskCache cache(tmp.path() / "cache", true);
  REQUIRE(cache.writable());
  DiskCache::Lock held = cache.lock(key_of("a"), 1s);
  REQUIRE(held.held());
  const pid_t blocked = fork_child([&] {
    const auto start = std::chrono::steady_clock::now();
    if (cache.lock(key_of("a"), 200ms).held()) return 1;
    if (std::chrono::steady_clock::now() - start < 190ms) return 2;
    return cache.lock(key_of("b"), 200ms).held() ? 0 : 3;
  });
  CHECK(wait_exit(blocked) == 0);

  DiskCache::Lock moved = std::move(held);
  CHECK_FALSE(held.held());
  CHECK(moved.held());
  moved = DiskCache::Lock();
  CHECK_FALSE(moved.held());
  const pid_t after = fork_child([&] { return cache.lock(key_of("a"), 1s).held() ? 0 : 1; });
  CHECK(wait_exit(after) == 0);
}

TEST_CASE("disk cache: a process that dies holding the lock does not block the next one") {
  TempDir tmp;
  const DiskCache cache(tmp.path() / "cache", true);
  REQUIRE(cache.writable());
  const std::string key = key_of("a");

  const pid_t quitter = fork_child([&]() -> int {
    DiskCache::Lock lock = cache.lock(key, 1s);
    ::_exit(lock.held() ? 0 : 1);  // no destructor, no unlock
  });
  REQUIRE(wait_exit(quitter) == 0);
  CHECK(cache.lock(key, 1s).held());

  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  const pid_t holder = fork_child([&] {
    DiskCache::Lock lock = cache.lock(key, 1s);
    const char state = lock.held() ? 'y' : 'n';
    if (::write(ready[1], &state, 1) != 1) return 1;
    for (;;) ::pause();
  });
  ::close(ready[1]);
  char state = 0;
  REQUIRE(::read(ready[0], &state, 1) == 1);
  ::close(ready[0]);
  CHECK(state == 'y');
  CHECK_FALSE(cache.lock(key, 50ms).held());
  REQUIRE(::kill(holder, SIGKILL) == 0);
  CHECK(wait_exit(holder) == -1);
  CHECK(cache.lock(key, 1s).held());
}

TEST_CASE("disk cache: temp files of dead writers and old temp files are swept") {
  TempDir tmp;
  const fs::path dir = tmp.path() / "cache";
  const DiskCache cache(dir, true);
  REQUIRE(cache.writable());
  const std::string digest = cache.entry_path(key_of("a")).stem().string();
  const pid_t dead = fork_child([] { return 0; });
  REQUIRE(wait_exit(dead) == 0);
  const fs::path temps = dir / "v1" / "tmp";
  const fs::path of_dead = temps / fmt::format("{}.{}.0123456789abcdef.tmp", digest, dead);
  const fs::path of_live = temps / fmt::format("{}.{}.0123456789abcdef.tmp", digest, ::getpid());
  const fs::path old = temps / fmt::format("{}.{}.fedcba9876543210.tmp", digest, ::getpid());
  for (const fs::path& path : {of_dead, of_live, old}) write_bytes(path, "partial");
  fs::last_write_time(old, fs::file_time_type::clock::now() - 2h);

  CHECK(cache.sweep_stale_temps() == 2);
  CHECK_FALSE(fs::exists(of_dead));
  CHECK(fs::exists(of_live));
  CHECK_FALSE(fs::exists(old));

  // Opening a writable layer sweeps too.
  write_bytes(of_dead, "partial");
  REQUIRE(DiskCache(dir, true).writable());
  CHECK_FALSE(fs::exists(of_dead));
  CHECK(fs::exists(of_live));
}

TEST_CASE("disk cache: processes racing to store one key leave one entry and no temp files") {
  TempDir tmp;
  const fs::path dir = tmp.path() / "cache";
  const CacheEntry entry = sample_entry(key_of("race"), 256 * 1024);
  int start[2];
  REQUIRE(::pipe(start) == 0);
  std::vector<pid_t> children;
  for (int i = 0; i < 8; ++i) {
    children.push_back(fork_child([&] {
      ::close(start[1]);
      char byte = 0;
      while (::read(start[0], &byte, 1) < 0 && errno == EINTR) {
      }
      const DiskCache cache(dir, true);  // the directory does not exist yet
      if (!cache.writable()) return 1;
      for (int round = 0; round < 5; ++round) {
        cache.store(entry);
        const std::optional<CacheEntry> loaded = cache.load(entry.key_text);
        if (!loaded || !same(*loaded, entry)) return 2;
      }
      return 0;
    }));
  }
  ::close(start[0]);
  ::close(start[1]);  // end of file: every child starts now
  for (const pid_t child : children) CHECK(wait_exit(child) == 0);

  const DiskCache cache(dir, true);
  REQUIRE(cache.writable());
  CHECK(count_files(dir / "v1") == 1);
  CHECK(fs::exists(cache.entry_path(entry.key_text)));
  CHECK(count_files(dir / "v1" / "tmp") == 0);
  check_loads(cache, entry);
}

TEST_CASE("disk cache: list shows every entry file with its validity") {
  TempDir tmp;
  const DiskCache cache(tmp.path() / "cache", true);
  REQUIRE(cache.writable());
  const CacheEntry a = sample_entry(key_of("a"), 10);
  const CacheEntry b = sample_entry(key_of("b"), 20);
  cache.store(a);
  cache.store(b);
  const fs::path corrupt = cache.dir() / "v1" / "0000.cubin";
  write_bytes(corrupt, "garbage");
  const fs::path misnamed = cache.dir() / "v1" / "ffff.cubin";
  fs::copy_file(cache.entry_path(a.key_text), misnamed);
  const fs::path trailing = cache.dir() / "v1" / "1111.cubin";
  write_bytes(trailing, read_bytes(cache.entry_path(b.key_text)) + "x");

  const std::vector<EntryInfo> infos = cache.list();
  REQUIRE(infos.size() == 5);
  for (size_t i = 1; i < infos.size(); ++i) CHECK(infos[i - 1].path < infos[i].path);
  std::map<fs::path, EntryInfo> by_path;
  for (const EntryInfo& info : infos) by_path[info.path] = info;
  for (const CacheEntry* entry : {&a, &b}) {
    const EntryInfo& info = by_path[cache.entry_path(entry->key_text)];
    CHECK(info.valid);
    CHECK(info.problem.empty());
    CHECK(info.key_text == entry->key_text);
    CHECK(info.symbol == entry->symbol);
    CHECK(info.payload_bytes == entry->cubin.size());
  }
  CHECK_FALSE(by_path[corrupt].valid);
  CHECK_FALSE(by_path[corrupt].problem.empty());
  CHECK_FALSE(by_path[misnamed].valid);
  CHECK(contains(by_path[misnamed].problem, "file name"));
  CHECK_FALSE(by_path[trailing].valid);
  CHECK(contains(by_path[trailing].problem, "trailing"));
}

TEST_CASE("disk cache: prune removes invalid and rejected entries and keeps the rest") {
  TempDir tmp;
  const DiskCache cache(tmp.path() / "cache", true);
  REQUIRE(cache.writable());
  const CacheEntry kept = sample_entry(key_of("kept"));
  const CacheEntry rejected = sample_entry(key_of("rejected"));
  const CacheEntry corrupt = sample_entry(key_of("corrupt"));
  for (const CacheEntry* entry : {&kept, &rejected, &corrupt}) cache.store(*entry);
  const fs::path corrupt_path = cache.entry_path(corrupt.key_text);
  write_bytes(corrupt_path, flipped(read_bytes(corrupt_path), 100, 0x80));
  const pid_t dead = fork_child([] { return 0; });
  REQUIRE(wait_exit(dead) == 0);
  write_bytes(cache.dir() / "v1" / "tmp" / fmt::format("x.{}.0.tmp", dead), "partial");

  std::vector<std::string> asked;
  const size_t removed = cache.prune([&](const std::string& key_text) {
    asked.push_back(key_text);
    return key_text != rejected.key_text;
  });
  CHECK(removed == 3);
  CHECK(asked.size() == 2);
  check_loads(cache, kept);
  CHECK_FALSE(fs::exists(cache.entry_path(rejected.key_text)));
  CHECK_FALSE(fs::exists(corrupt_path));
  CHECK(count_files(cache.dir() / "v1" / "tmp") == 0);
  CHECK(cache.list().size() == 1);
}

TEST_CASE("disk cache: clear removes every entry and every lock and temp file") {
  TempDir tmp;
  const DiskCache cache(tmp.path() / "cache", true);
  REQUIRE(cache.writable());
  cache.store(sample_entry(key_of("a")));
  cache.store(sample_entry(key_of("b")));
  CHECK(cache.lock(key_of("a"), 10ms).held());
  write_bytes(cache.dir() / "v1" / "tmp" / "x.1.0.tmp", "partial");

  CHECK(cache.clear() == 4);
  CHECK(cache.list().empty());
  CHECK_FALSE(cache.load(key_of("a")).has_value());
  for (const char* sub : {"v1", "v1/tmp", "v1/locks"}) CHECK(count_files(cache.dir() / sub) == 0);
  CHECK(cache.clear() == 0);
  cache.store(sample_entry(key_of("a")));
  CHECK(cache.load(key_of("a")).has_value());
}

}  // namespace
}  // namespace deepselect
