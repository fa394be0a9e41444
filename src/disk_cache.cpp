#include "disk_cache.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <ctime>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>

#include <fmt/format.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <deepselect/deepselect.hpp>

#include "atomic_file.hpp"

namespace deepselect {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kMagic{"DSCUBIN\0", 8};
constexpr uint32_t kFormatVersion = 1;
// Larger files are not cubins of ours; refusing them keeps a bad file from exhausting memory.
constexpr off_t kMaxEntryBytes = off_t{256} << 20;
constexpr std::time_t kStaleTempSeconds = 60 * 60;
constexpr auto kLockPollInterval = std::chrono::milliseconds(5);

const char* env_or_null(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && value[0] != '\0' ? value : nullptr;
}

std::string digest_of(std::string_view text) {
  const XXH128_hash_t hash = XXH3_128bits(text.data(), text.size());
  return fmt::format("{:016x}{:016x}", hash.high64, hash.low64);
}

uint64_t checksum_of(std::string_view bytes) {
  return XXH3_64bits(bytes.data(), bytes.size());
}

// ---- Directories ----

// Only this user may be able to change what a writable layer holds.
std::string check_private_dir(const fs::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return describe_path_error("cannot access", path, errno);
  if (!S_ISDIR(st.st_mode)) return fmt::format("{} is not a directory", path.string());
  if (st.st_uid != ::geteuid()) {
    return fmt::format("{} is owned by uid {}, not by this user (uid {}); cached cubins are code",
                       path.string(), st.st_uid, ::geteuid());
  }
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    return fmt::format("{} is writable by group or others (mode {:04o}); cached cubins are code",
                       path.string(), st.st_mode & 07777);
  }
  if (::access(path.c_str(), W_OK | X_OK) != 0) {
    return describe_path_error("cannot write to", path, errno);
  }
  return {};
}

std::string prepare_writable(const fs::path& dir) {
  if (dir.empty()) return "the cache directory path is empty";
  if (std::string problem = create_private_dirs(dir); !problem.empty()) return problem;
  if (std::string problem = check_private_dir(dir); !problem.empty()) return problem;
  for (const fs::path& sub : {dir / "v1", dir / "v1" / "tmp", dir / "v1" / "locks"}) {
    if (std::string problem = create_private_dir(sub); !problem.empty()) return problem;
    if (std::string problem = check_private_dir(sub); !problem.empty()) return problem;
  }
  return {};
}

// A read-only layer may belong to another user (an installed directory), but a directory that
// anyone can write to could hold anyone's code.
std::string check_shared_dir(const fs::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return errno == ENOENT ? fmt::format("{} does not exist", path.string())
                           : describe_path_error("cannot access", path, errno);
  }
  if (!S_ISDIR(st.st_mode)) return fmt::format("{} is not a directory", path.string());
  if ((st.st_mode & S_IWOTH) != 0) {
    return fmt::format("{} is writable by others (mode {:04o}); cached cubins are code",
                       path.string(), st.st_mode & 07777);
  }
  return {};
}

// A missing v1 is allowed: every load misses.
std::string check_read_only(const fs::path& dir) {
  if (std::string problem = check_shared_dir(dir); !problem.empty()) return problem;
  const fs::path entries = dir / "v1";
  if (::access(entries.c_str(), F_OK) != 0 && errno == ENOENT) return {};
  return check_shared_dir(entries);
}

// The regular files in dir whose names end with suffix, sorted; none if dir cannot be read.
std::vector<fs::path> files_in(const fs::path& dir, std::string_view suffix) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    std::error_code type_ec;
    if (it->is_regular_file(type_ec) && it->path().filename().string().ends_with(suffix)) {
      files.push_back(it->path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

bool remove_file(const fs::path& path) {
  return ::unlink(path.c_str()) == 0;
}

// Removes path only if it is still the file that was read: a concurrent store may have just
// renamed a good entry into its place.
void remove_if_unchanged(const fs::path& path, const struct stat& read) {
  struct stat now {};
  if (::stat(path.c_str(), &now) == 0 && now.st_dev == read.st_dev && now.st_ino == read.st_ino) {
    remove_file(path);
  }
}

// ---- Entry encoding ----

void put_u32(std::string& out, uint32_t value) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

void put_u64(std::string& out, uint64_t value) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

void put_text(std::string& out, std::string_view text, std::string_view what) {
  if (text.size() > UINT32_MAX) {
    throw Error(fmt::format("deepselect: cannot store cache entry: {} is too long", what));
  }
  put_u32(out, static_cast<uint32_t>(text.size()));
  out.append(text);
}

std::string encode(const CacheEntry& entry) {
  std::string out(kMagic);
  put_u32(out, kFormatVersion);
  put_text(out, entry.key_text, "the key text");
  put_text(out, entry.symbol, "the symbol");
  put_text(out, entry.toolchain, "the toolchain");
  put_u64(out, entry.cubin.size());
  put_u64(out, checksum_of(entry.cubin));
  put_u64(out, checksum_of(out));
  out.append(entry.cubin);
  return out;
}

// Bounds-checked little-endian reads from a file's bytes.
class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  size_t offset() const { return offset_; }
  size_t left() const { return bytes_.size() - offset_; }

  bool bytes(size_t count, std::string_view* out) {
    if (count > left()) return false;
    *out = bytes_.substr(offset_, count);
    offset_ += count;
    return true;
  }
  bool u32(uint32_t* out) { return integer(4, out); }
  bool u64(uint64_t* out) { return integer(8, out); }
  bool text(std::string* out) {
    uint32_t size = 0;
    std::string_view view;
    if (!u32(&size) || !bytes(size, &view)) return false;
    *out = view;
    return true;
  }

 private:
  template <typename T>
  bool integer(size_t size, T* out) {
    std::string_view view;
    if (!bytes(size, &view)) return false;
    *out = 0;
    for (size_t i = 0; i < size; ++i) {
      *out |= static_cast<T>(static_cast<unsigned char>(view[i])) << (8 * i);
    }
    return true;
  }

  std::string_view bytes_;
  size_t offset_ = 0;
};

// Decodes bytes into entry; returns why they cannot be trusted, or "" when they can.
std::string decode(std::string_view bytes, CacheEntry* entry) {
  if (bytes.empty()) return "empty file";
  Reader reader(bytes);
  std::string_view magic;
  if (!reader.bytes(kMagic.size(), &magic) || magic != kMagic) return "bad magic";
  uint32_t version = 0;
  if (!reader.u32(&version)) return "truncated header";
  if (version != kFormatVersion) {
    return fmt::format("format version {}, expected {}", version, kFormatVersion);
  }
  if (!reader.text(&entry->key_text)) return "key text runs past the end of the file";
  if (!reader.text(&entry->symbol)) return "symbol runs past the end of the file";
  if (!reader.text(&entry->toolchain)) return "toolchain runs past the end of the file";
  uint64_t payload_size = 0;
  uint64_t payload_checksum = 0;
  uint64_t header_checksum = 0;
  const bool header_read = reader.u64(&payload_size) && reader.u64(&payload_checksum);
  const size_t header_size = reader.offset();
  if (!header_read || !reader.u64(&header_checksum)) return "truncated header";
  if (header_checksum != checksum_of(bytes.substr(0, header_size))) {
    return "header checksum mismatch";
  }
  if (payload_size > reader.left()) return "truncated payload";
  if (payload_size < reader.left()) return "trailing bytes after the payload";
  const std::string_view payload = bytes.substr(reader.offset());
  if (checksum_of(payload) != payload_checksum) return "payload checksum mismatch";
  entry->cubin = payload;
  return {};
}

// What was found at an entry's path.
struct Inspected {
  CacheEntry entry;
  std::string problem;      // why the file cannot be trusted; empty when it is valid
  bool unreadable = false;  // missing, or an I/O error: not evidence against the file
  struct stat st {};
};

Inspected inspect(const fs::path& path) {
  Inspected result;
  // O_NONBLOCK: opening a FIFO planted under an entry's name must not hang.
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (!fd.ok() || ::fstat(fd.get(), &result.st) != 0) {
    result.problem = describe_path_error("cannot read", path, errno);
    result.unreadable = true;
    return result;
  }
  if (!S_ISREG(result.st.st_mode)) {
    result.problem = "not a regular file";
    return result;
  }
  if (result.st.st_size > kMaxEntryBytes) {
    result.problem = fmt::format("{} bytes is too large for an entry", result.st.st_size);
    return result;
  }
  std::string bytes(static_cast<size_t>(result.st.st_size), '\0');
  size_t filled = 0;
  while (filled < bytes.size()) {
    const ssize_t n = ::read(fd.get(), bytes.data() + filled, bytes.size() - filled);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      result.problem = describe_path_error("cannot read", path, errno);
      result.unreadable = true;
      return result;
    }
    if (n == 0) break;
    filled += static_cast<size_t>(n);
  }
  bytes.resize(filled);
  result.problem = decode(bytes, &result.entry);
  if (result.problem.empty() && path.stem() != digest_of(result.entry.key_text)) {
    result.problem = "the key text does not match the file name";
  }
  return result;
}

// ---- Temp files ----

// The writer's pid from a temp file name "<digest>.<pid>.<random>.tmp", or 0.
pid_t writer_pid(const std::string& name) {
  const size_t first = name.find('.');
  const size_t second = name.find('.', first + 1);
  if (first == std::string::npos || second == std::string::npos) return 0;
  pid_t pid = 0;
  const char* end = name.data() + second;
  const auto [ptr, ec] = std::from_chars(name.data() + first + 1, end, pid);
  return ec == std::errc() && ptr == end && pid > 0 ? pid : 0;
}

bool is_stale_temp(const fs::path& path) {
  const pid_t pid = writer_pid(path.filename().string());
  if (pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH) return true;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return false;  // gone already
  return std::time(nullptr) - st.st_mtime > kStaleTempSeconds;
}

}  // namespace

DiskCache::DiskCache(std::filesystem::path dir, bool writable)
    : dir_(std::move(dir)), writable_(writable) {
  problem_ = writable_ ? prepare_writable(dir_) : check_read_only(dir_);
  usable_ = problem_.empty();
  if (usable_ && writable_) sweep_stale_temps();
}

std::filesystem::path DiskCache::default_dir() {
  if (const char* dir = env_or_null("DEEPSELECT_CACHE_DIR")) return dir;
  if (const char* xdg = env_or_null("XDG_CACHE_HOME")) return fs::path(xdg) / "deepselect";
  if (const char* home = env_or_null("HOME")) return fs::path(home) / ".cache" / "deepselect";
  std::error_code ec;
  fs::path tmp = fs::temp_directory_path(ec);
  if (ec) tmp = "/tmp";
  return tmp / fmt::format("deepselect-{}", ::geteuid());
}

std::filesystem::path DiskCache::entry_path(const std::string& key_text) const {
  return dir_ / "v1" / (digest_of(key_text) + ".cubin");
}

std::optional<CacheEntry> DiskCache::load(const std::string& key_text) const {
  if (!usable_) return std::nullopt;
  const fs::path path = entry_path(key_text);
  Inspected found = inspect(path);
  if (found.unreadable) return std::nullopt;
  if (found.problem.empty() && found.entry.key_text == key_text) return std::move(found.entry);
  if (writable_) remove_if_unchanged(path, found.st);
  return std::nullopt;
}

void DiskCache::store(const CacheEntry& entry) const {
  if (!writable()) {
    throw Error(fmt::format("deepselect: cannot store cache entry in {}: {}", dir_.string(),
                            usable_ ? "the layer is read-only" : problem_));
  }
  publish_file(entry_path(entry.key_text), encode(entry),
               Publication{.tmp_dir = dir_ / "v1" / "tmp",
                           .temp_prefix = digest_of(entry.key_text),
                           .failure = "cannot store cache entry"});
}

void DiskCache::evict(const std::string& key_text) const {
  // Best effort: a file that stays behind is replaced by the next store.
  if (writable()) remove_file(entry_path(key_text));
}

DiskCache::Lock::Lock(Lock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

DiskCache::Lock& DiskCache::Lock::operator=(Lock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

DiskCache::Lock::~Lock() {
  if (fd_ >= 0) ::close(fd_);
}

DiskCache::Lock DiskCache::lock(const std::string& key_text,
                                std::chrono::milliseconds timeout) const {
  Lock lock;
  if (!writable()) return lock;
  const fs::path path = dir_ / "v1" / "locks" / (digest_of(key_text) + ".lock");
  Fd fd(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600));
  if (!fd.ok()) return lock;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    if (error == EINTR) continue;
    const auto now = std::chrono::steady_clock::now();
    if (error != EWOULDBLOCK || now >= deadline) return lock;
    std::this_thread::sleep_for(
        std::min<std::chrono::steady_clock::duration>(kLockPollInterval, deadline - now));
  }
  lock.fd_ = fd.release();
  return lock;
}

std::vector<EntryInfo> DiskCache::list() const {
  std::vector<EntryInfo> infos;
  if (!usable_) return infos;
  for (const fs::path& path : files_in(dir_ / "v1", ".cubin")) {
    Inspected found = inspect(path);
    infos.push_back(EntryInfo{.path = path,
                              .symbol = std::move(found.entry.symbol),
                              .key_text = std::move(found.entry.key_text),
                              .payload_bytes = found.entry.cubin.size(),
                              .valid = found.problem.empty(),
                              .problem = std::move(found.problem)});
  }
  return infos;
}

size_t DiskCache::prune(const std::function<bool(const std::string& key_text)>& keep) const {
  if (!writable()) return 0;
  size_t removed = 0;
  for (const fs::path& path : files_in(dir_ / "v1", ".cubin")) {
    const Inspected found = inspect(path);
    if (found.unreadable) continue;
    if ((!found.problem.empty() || !keep(found.entry.key_text)) && remove_file(path)) ++removed;
  }
  return removed + sweep_stale_temps();
}

size_t DiskCache::clear() const {
  if (!writable()) return 0;
  const fs::path entries = dir_ / "v1";
  size_t removed = 0;
  for (const fs::path& dir : {entries / "tmp", entries / "locks"}) {
    for (const fs::path& path : files_in(dir, "")) removed += remove_file(path) ? 1 : 0;
  }
  for (const fs::path& path : files_in(entries, ".cubin")) removed += remove_file(path) ? 1 : 0;
  return removed;
}

size_t DiskCache::sweep_stale_temps() const {
  if (!writable()) return 0;
  size_t removed = 0;
  for (const fs::path& path : files_in(dir_ / "v1" / "tmp", "")) {
    if (is_stale_temp(path) && remove_file(path)) ++removed;
  }
  return removed;
}

}  // namespace deepselect
