#include "cli_runner.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string_view>
#include <thread>

extern char** environ;

namespace deepselect::testing {
namespace {

namespace fs = std::filesystem;

// A new empty file under the temp dir for one of the child's streams.
fs::path make_capture_file(const char* stream) {
  std::string pattern =
      (fs::temp_directory_path() / (std::string("deepselect-cli-") + stream + "-XXXXXX")).string();
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0) throw std::runtime_error("mkstemp failed: " + std::string(std::strerror(errno)));
  ::close(fd);
  return pattern;
}

std::string read_and_remove(const fs::path& path) {
  std::string text;
  {
    std::ifstream in(path, std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::error_code ignored;
  fs::remove(path, ignored);
  return text;
}

// This process's environment with changes applied, as "NAME=value" strings.
std::vector<std::string> child_environment(const EnvChanges& changes) {
  std::vector<std::string> env;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const std::string_view name = text.substr(0, text.find('='));
    bool changed = false;
    for (const auto& change : changes) changed = changed || change.first == name;
    if (!changed) env.emplace_back(text);
  }
  for (const auto& [name, value] : changes) {
    if (value) env.push_back(name + "=" + *value);
  }
  return env;
}

// Pointers into strings, null-terminated, as exec wants them.
std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (std::string& text : strings) pointers.push_back(text.data());
  pointers.push_back(nullptr);
  return pointers;
}

int exit_code_of(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

// The tool the tests run: the one built beside them (DEEPSELECT_CLI_PATH), or DEEPSELECT_TEST_CLI
// where the tests run from another folder than they were built in (tools/gpu_check.sh device
// DIR, on the GPU machine).
std::string cli_path() {
  const char* given = std::getenv("DEEPSELECT_TEST_CLI");
  return given != nullptr && *given != '\0' ? given : DEEPSELECT_CLI_PATH;
}

}  // namespace

std::string CliResult::last_line() const {
  std::string text = out;
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text.substr(text.rfind('\n') + 1);  // npos + 1 == 0: the only line
}

CliProcess::CliProcess(const std::vector<std::string>& args, const EnvChanges& env)
    : out_path_(make_capture_file("out")), err_path_(make_capture_file("err")) {
  const std::string cli = cli_path();
  std::vector<std::string> argv_strings = {cli};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<std::string> env_strings = child_environment(env);
  std::vector<char*> argv = c_strings(argv_strings);
  std::vector<char*> envp = c_strings(env_strings);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path_.c_str(), O_WRONLY | O_TRUNC,
                                   0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path_.c_str(), O_WRONLY | O_TRUNC,
                                   0);
  const int error = ::posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) {
    pid_ = -1;
    std::error_code ignored;
    fs::remove(out_path_, ignored);
    fs::remove(err_path_, ignored);
    throw std::runtime_error("cannot start " + cli + ": " + std::strerror(error));
  }
}

CliProcess::CliProcess(CliProcess&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)),
      out_path_(std::move(other.out_path_)),
      err_path_(std::move(other.err_path_)) {
  other.out_path_.clear();
  other.err_path_.clear();
}

CliProcess::~CliProcess() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  std::error_code ignored;
  if (!out_path_.empty()) fs::remove(out_path_, ignored);
  if (!err_path_.empty()) fs::remove(err_path_, ignored);
}

CliResult CliProcess::wait(std::chrono::seconds timeout) {
  CliResult result;
  if (pid_ <= 0) return result;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  int status = 0;
  bool reaped = false;
  while (!reaped) {
    const pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done < 0 && errno != EINTR) break;  // not our child any more: exit_code stays -1
    reaped = done == pid_;
    if (!reaped && std::chrono::steady_clock::now() >= deadline) {
      result.timed_out = true;
      ::kill(pid_, SIGKILL);
      reaped = ::waitpid(pid_, &status, 0) == pid_;
      break;
    }
    if (!reaped) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  pid_ = -1;
  if (reaped) result.exit_code = exit_code_of(status);
  result.out = read_and_remove(out_path_);
  result.err = read_and_remove(err_path_);
  return result;
}

CliResult run_cli(const std::vector<std::string>& args, const EnvChanges& env) {
  return CliProcess(args, env).wait();
}

EnvChanges cli_env(const std::filesystem::path& cache_dir,
                   const std::filesystem::path& prebuilt_dir, bool jit_disabled) {
  EnvChanges env = {{"DEEPSELECT_CACHE_DIR", cache_dir.string()},
                    {"DEEPSELECT_PREBUILT_DIR", std::nullopt},
                    {"DEEPSELECT_JIT_DISABLE", std::nullopt}};
  if (!prebuilt_dir.empty()) env[1].second = prebuilt_dir.string();
  if (jit_disabled) env[2].second = "1";
  return env;
}

std::string describe(const CliResult& result) {
  return fmt::format("exit {}{}\n--- stdout:\n{}--- stderr:\n{}", result.exit_code,
                     result.timed_out ? " (timed out)" : "", result.out, result.err);
}

}  // namespace deepselect::testing
