// Atomic publication of files: a unique temp file, fsync, rename over the target, fsync of the
// target's directory. A reader sees the old file or the new one, never a mix, even after a
// crash. Shared by the cubin cache and the tuning tables.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>

namespace deepselect {

// An owned file descriptor.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd();
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  bool ok() const { return fd_ >= 0; }
  int release() { return std::exchange(fd_, -1); }
  // Closes now and returns close()'s result: a deferred write error can show up only here.
  int close();

 private:
  int fd_;
};

// "<what> <path>: <the errno text>"
std::string describe_path_error(std::string_view what, const std::filesystem::path& path,
                                int error);

// Creates dir (mode 0700) if it does not exist. Returns the problem, or "" on success.
std::string create_private_dir(const std::filesystem::path& dir);
// The same for dir and each missing directory above it; existing ones are left as they are.
std::string create_private_dirs(const std::filesystem::path& dir);

// Where publish_file writes its temp file, and how its errors read.
struct Publication {
  std::filesystem::path tmp_dir;  // on the target's file system
  std::string temp_prefix;        // temp files are "<temp_prefix>.<pid>.<16 hex digits>.tmp"
  std::string failure;            // errors read "deepselect: <failure>: <what went wrong>"
};

// Publishes bytes as target; the temp file is removed on failure. Throws Error on failure.
void publish_file(const std::filesystem::path& target, std::string_view bytes,
                  const Publication& how);

// Publishes bytes as file with its temp file in file's directory, creating that directory
// and missing ones above it (0700) first. Throws Error("deepselect: cannot write <file>: ...").
void write_file_atomically(const std::filesystem::path& file, const std::string& bytes);

}  // namespace deepselect
