#include "atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <system_error>

#include <fmt/format.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <deepselect/deepselect.hpp>

namespace deepselect {
namespace {

namespace fs = std::filesystem;

constexpr int kTempNameAttempts = 8;

[[noreturn]] void throw_publish_error(const Publication& how, std::string_view what,
                                      const fs::path& path, int error) {
  throw Error(
      fmt::format("deepselect: {}: {}", how.failure, describe_path_error(what, path, error)));
}

// A name no other writer uses: the pid tells a sweeper whether its writer is alive, the random
// part keeps one process's concurrent writes apart.
fs::path temp_path(const Publication& how) {
  static std::atomic<uint64_t> counter{0};
  const uint64_t seed[2] = {
      static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()),
      counter++};
  return how.tmp_dir / fmt::format("{}.{}.{:016x}.tmp", how.temp_prefix, ::getpid(),
                                   XXH3_64bits(seed, sizeof seed));
}

// A temp file that is removed unless it was renamed into place.
class TempFile {
 public:
  explicit TempFile(const Publication& how) : how_(how) {
    for (int attempt = 0; attempt < kTempNameAttempts; ++attempt) {
      path_ = temp_path(how);
      fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
      if (fd_ >= 0 || errno != EEXIST) break;
    }
    if (fd_ < 0) {
      const int error = errno;
      path_.clear();
      throw_publish_error(how, "cannot create temp file in", how.tmp_dir, error);
    }
  }
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  void write_and_sync(std::string_view bytes) {
    while (!bytes.empty()) {
      const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw_publish_error(how_, "cannot write", path_, errno);
      bytes.remove_prefix(static_cast<size_t>(n));
    }
    if (::fsync(fd_) != 0) throw_publish_error(how_, "cannot fsync", path_, errno);
    if (::close(std::exchange(fd_, -1)) != 0) {
      throw_publish_error(how_, "cannot close", path_, errno);
    }
  }

  void rename_to(const fs::path& target) {
    if (::rename(path_.c_str(), target.c_str()) != 0) {
      throw_publish_error(how_, fmt::format("cannot rename {} to", path_.string()), target, errno);
    }
    path_.clear();
  }

 private:
  const Publication& how_;
  fs::path path_;
  int fd_ = -1;
};

// Makes a rename in dir durable.
void fsync_dir(const fs::path& dir, const Publication& how) {
  Fd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd.ok()) throw_publish_error(how, "cannot open directory", dir, errno);
  if (::fsync(fd.get()) != 0) throw_publish_error(how, "cannot fsync directory", dir, errno);
  if (fd.close() != 0) throw_publish_error(how, "cannot close directory", dir, errno);
}

// The directory that holds file ("." for a bare file name).
fs::path directory_of(const fs::path& file) {
  const fs::path parent = file.parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

}  // namespace

Fd::~Fd() {
  if (fd_ >= 0) ::close(fd_);
}

int Fd::close() {
  return ::close(release());
}

std::string describe_path_error(std::string_view what, const fs::path& path, int error) {
  return fmt::format("{} {}: {}", what, path.string(), std::generic_category().message(error));
}

std::string create_private_dir(const fs::path& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0) return {};
  if (errno != ENOENT) return describe_path_error("cannot access", dir, errno);
  if (::mkdir(dir.c_str(), 0700) == 0 || errno == EEXIST) return {};
  return describe_path_error("cannot create cache directory", dir, errno);
}

std::string create_private_dirs(const fs::path& dir) {
  fs::path prefix;
  for (const fs::path& part : dir) {
    prefix /= part;
    if (std::string problem = create_private_dir(prefix); !problem.empty()) return problem;
  }
  return {};
}

void publish_file(const fs::path& target, std::string_view bytes, const Publication& how) {
  TempFile temp(how);
  temp.write_and_sync(bytes);
  temp.rename_to(target);
  fsync_dir(directory_of(target), how);
}

void write_file_atomically(const fs::path& file, const std::string& bytes) {
  const Publication how{.tmp_dir = directory_of(file),
                        .temp_prefix = file.filename().string(),
                        .failure = fmt::format("cannot write {}", file.string())};
  if (std::string problem = create_private_dirs(how.tmp_dir); !problem.empty()) {
    throw Error(fmt::format("deepselect: {}: {}", how.failure, problem));
  }
  publish_file(file, bytes, how);
}

}  // namespace deepselect
