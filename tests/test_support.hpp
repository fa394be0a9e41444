// Helpers shared by the test files.
#pragma once

#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "driver.hpp"
#include "spec.hpp"

namespace deepselect::testing {

// A fresh, empty directory under the temp dir, removed when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Sets an environment variable for the life of the object, then restores it.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value);  // value nullptr: unset
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  std::string old_;
  bool had_old_ = false;
};

// A whole file's bytes; write_bytes replaces the file. Both REQUIRE success.
std::string read_bytes(const std::filesystem::path& path);
void write_bytes(const std::filesystem::path& path, const std::string& bytes);

// The longest row, from `from` columns on (which it must hold), that spec holds whole
// (KernelSpec::holds_rows_whole).
int64_t longest_row_held_whole(const KernelSpec& spec, int64_t from);

}  // namespace deepselect::testing

// First statement of every GPU test case: without a usable GPU it prints why and returns, and
// CTest reports the case as skipped (SKIP_REGULAR_EXPRESSION "SKIPPED:").
#define DS_REQUIRE_GPU()                                                                       \
  do {                                                                                         \
    if (::deepselect::driver_or_null() == nullptr) {                                           \
      std::printf("SKIPPED: no GPU: %s\n", ::deepselect::driver_unavailable_reason().c_str()); \
      std::fflush(stdout);                                                                     \
      return;                                                                                  \
    }                                                                                          \
  } while (0)
