// Runs the built `deepselect` command line (DEEPSELECT_CLI_PATH, or DEEPSELECT_TEST_CLI from the
// environment) as a child process and captures its exit code, stdout and stderr.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace deepselect::testing {

// Environment changes for the child: a value sets the variable, nullopt removes it. Every
// other variable is inherited.
using EnvChanges = std::vector<std::pair<std::string, std::optional<std::string>>>;

struct CliResult {
  int exit_code = -1;  // 128 + signal for a child killed by a signal
  bool timed_out = false;
  std::string out;
  std::string err;

  std::string output() const { return out + err; }
  // The last non-empty line of stdout, without its newline.
  std::string last_line() const;
};

// A running child. Its stdout and stderr go to temp files (no pipe can fill up and block it).
class CliProcess {
 public:
  CliProcess(const std::vector<std::string>& args, const EnvChanges& env);
  ~CliProcess();
  CliProcess(CliProcess&& other) noexcept;
  CliProcess(const CliProcess&) = delete;
  CliProcess& operator=(const CliProcess&) = delete;
  CliProcess& operator=(CliProcess&&) = delete;

  // Waits for the child to exit; kills it after timeout (timed_out is then set).
  CliResult wait(std::chrono::seconds timeout = std::chrono::seconds(300));

 private:
  pid_t pid_ = -1;
  std::filesystem::path out_path_;
  std::filesystem::path err_path_;
};

// Starts the CLI with args and waits for it.
CliResult run_cli(const std::vector<std::string>& args, const EnvChanges& env = {});

// The variables the CLI reads, all set explicitly so that the caller's environment (CTest
// sets DEEPSELECT_CACHE_DIR) does not leak in: no prebuilt dir and JIT enabled unless given.
EnvChanges cli_env(const std::filesystem::path& cache_dir,
                   const std::filesystem::path& prebuilt_dir = {}, bool jit_disabled = false);

// A result for failure messages: exit code, stdout and stderr.
std::string describe(const CliResult& result);

}  // namespace deepselect::testing
