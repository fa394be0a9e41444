// The `deepselect` command line, run as child processes on temp cache directories: the
// precompile round trip, processes racing on a cold cache, corruption, the cache commands,
// info, bad arguments and an unusable cache directory. Needs no GPU.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "compiler.hpp"
#include "plan.hpp"
#include "spec.hpp"
#include "test_support.hpp"
#include "tuning_table.hpp"

namespace deepselect {
namespace {

namespace fs = std::filesystem;
using testing::cli_env;
using testing::CliProcess;
using testing::CliResult;
using testing::describe;
using testing::EnvChanges;
using testing::run_cli;
using testing::TempDir;

const char* const kFillSpec = "kind=fill_test threads=128 cluster=2";
const char* const kTopkSpec = "kind=topk dtype=f32 k_max=64 B=4096 B2=1024 threads=512";

fs::path write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  REQUIRE(out.good());
  return path;
}

fs::path write_spec_list(const fs::path& dir, const std::vector<std::string>& lines) {
  std::string text = "# written by test_cli.cpp\n";
  for (const std::string& line : lines) text += line + "\n";
  return write_file(dir / "test.specs", text);
}

std::vector<std::string> precompile_args(const fs::path& specs) {
  return {"precompile", "--arch", "sm_90a", "--specs", specs.string(), "--jobs", "2"};
}

// The files in dir whose names end with suffix.
std::vector<fs::path> files_in(const fs::path& dir, const std::string& suffix = "") {
  std::vector<fs::path> files;
  std::error_code ec;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    if (it->path().filename().string().ends_with(suffix)) files.push_back(it->path());
  }
  return files;
}

std::vector<fs::path> entry_files(const fs::path& cache_dir) {
  return files_in(cache_dir / "v1", ".cubin");
}

// N from the summary line "compiled N, reused M, failed F"; -1 when there is none.
int compiled_count(const CliResult& result) {
  int compiled = -1;
  int reused = -1;
  int failed = -1;
  if (std::sscanf(result.last_line().c_str(), "compiled %d, reused %d, failed %d", &compiled,
                  &reused, &failed) != 3) {
    return -1;
  }
  return compiled;
}

// Precompiles the specs file (one spec) into the empty cache of env and returns its one entry.
fs::path precompile_one_entry(const fs::path& specs, const EnvChanges& env,
                              const fs::path& cache_dir) {
  const CliResult result = run_cli(precompile_args(specs), env);
  INFO(describe(result));
  REQUIRE(result.exit_code == 0);
  REQUIRE(result.last_line() == "compiled 1, reused 0, failed 0");
  const std::vector<fs::path> entries = entry_files(cache_dir);
  REQUIRE(entries.size() == 1);
  return entries[0];
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_CASE("cli: precompile fills a prebuilt dir that serves every spec with JIT disabled") {
  TempDir dir;
  const fs::path specs =
      write_spec_list(dir.path(), {kFillSpec, "kind=fill_test threads=256 cluster=1", kTopkSpec});
  const fs::path prebuilt = dir.path() / "prebuilt";
  std::vector<std::string> args = precompile_args(specs);
  args.insert(args.end(), {"--out", prebuilt.string()});

  const CliResult fill = run_cli(args, cli_env(dir.path() / "cache"));
  INFO(describe(fill));
  CHECK(fill.exit_code == 0);
  CHECK(fill.last_line() == "compiled 3, reused 0, failed 0");
  CHECK(entry_files(prebuilt).size() == 3);
  CHECK(entry_files(dir.path() / "cache").empty());

  const CliResult reuse =
      run_cli(precompile_args(specs), cli_env(dir.path() / "empty", prebuilt, true));
  INFO(describe(reuse));
  CHECK(reuse.exit_code == 0);
  CHECK(reuse.last_line() == "compiled 0, reused 3, failed 0");
  CHECK(contains(reuse.out, "(prebuilt)"));
  CHECK(entry_files(dir.path() / "empty").empty());
}

TEST_CASE("cli: precompile with JIT disabled and no prebuilt dir fails every spec") {
  TempDir dir;
  const fs::path specs =
      write_spec_list(dir.path(), {kFillSpec, "kind=fill_test threads=256 cluster=1", kTopkSpec});
  const CliResult result = run_cli(precompile_args(specs), cli_env(dir.path() / "cache", {}, true));
  INFO(describe(result));
  CHECK(result.exit_code != 0);
  CHECK(result.last_line() == "compiled 0, reused 0, failed 3");
  CHECK(contains(result.out, "DEEPSELECT_JIT_DISABLE"));
  CHECK(entry_files(dir.path() / "cache").empty());
}

TEST_CASE("cli: processes racing on a cold cache publish one entry and compile once") {
  TempDir dir;
  const fs::path specs = write_spec_list(dir.path(), {kTopkSpec});
  const fs::path cache = dir.path() / "cache";
  constexpr int kProcesses = 6;
  std::vector<CliProcess> processes;
  for (int i = 0; i < kProcesses; ++i)
    processes.emplace_back(precompile_args(specs), cli_env(cache));
  int compiled = 0;
  for (CliProcess& process : processes) {
    const CliResult result = process.wait();
    INFO(describe(result));
    CHECK(result.exit_code == 0);
    const int count = compiled_count(result);
    CHECK((count == 0 || count == 1));
    compiled += count;
  }
  CHECK(entry_files(cache).size() == 1);
  CHECK(files_in(cache / "v1" / "tmp").empty());
  CHECK(compiled >= 1);
  // The lock makes the others wait and then load the published entry.
  CHECK(compiled == 1);
}

TEST_CASE("cli: cache verify reports a corrupt entry, precompile rebuilds it") {
  TempDir dir;
  const fs::path specs = write_spec_list(dir.path(), {kFillSpec});
  const EnvChanges env = cli_env(dir.path() / "cache");
  const fs::path entry = precompile_one_entry(specs, env, dir.path() / "cache");

  std::string bytes;
  {
    std::ifstream in(entry, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  REQUIRE(bytes.size() > 2);
  bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x01);
  write_file(entry, bytes);

  const CliResult invalid = run_cli({"cache", "verify"}, env);
  INFO(describe(invalid));
  CHECK(invalid.exit_code != 0);
  CHECK(contains(invalid.out, "INVALID " + entry.string()));

  const CliResult rebuild = run_cli(precompile_args(specs), env);
  INFO(describe(rebuild));
  CHECK(rebuild.exit_code == 0);
  CHECK(rebuild.last_line() == "compiled 1, reused 0, failed 0");

  const CliResult valid = run_cli({"cache", "verify"}, env);
  INFO(describe(valid));
  CHECK(valid.exit_code == 0);
  CHECK(!contains(valid.out, "INVALID"));
  CHECK(contains(valid.last_line(), "1 entries, 1 valid, 0 invalid"));
}

TEST_CASE("cli: a plan override changes the kernels, never the row bounds or epilogue of a call") {
  TempDir dir;
  const EnvChanges env = cli_env(dir.path() / "cache");
  const std::vector<std::string> list = {"precompile", "--arch", "sm_90a", "--list"};
  const CliResult planned = run_cli(list, env);
  INFO(describe(planned));
  REQUIRE(planned.exit_code == 0);
  // Each override's one kernel field, in the planner's list: the rest (the thread count, B or
  // B2, which follow the overridden fields, and the row path) stays the planner's. The one row
  // path that follows the kernel here (row_path_for): the B override turns the lone f32 B = 8192
  // kernels, whose full rows are scanned without the resident load, into B = 4096 ones, which
  // keep it, so their rows=scanned lines become the plain B = 4096 ones.
  struct Override {
    const char* text;
    const char* field;  // a regex of the field it sets
    const char* value;
    bool lone_f32_keep_resident_load;
  };
  const std::regex row_path(" rows=[a-z]+");
  // The lines of a list that are topk kernels' (or, with topk false, the others').
  const auto kernel_lines = [](const std::string& out, bool topk = true) {
    std::vector<std::string> lines;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) {
      if (contains(line, "kind=topk") == topk) lines.push_back(line);
    }
    return lines;
  };
  for (const Override& override :
       {Override{"B2=4096 bounds=decode epilogue=page_table", " B2=[0-9]+", " B2=4096", false},
        Override{"B=4096", " B=[0-9]+", " B=4096", true}}) {
    INFO(override.text);
    EnvChanges overridden_env = env;
    overridden_env.emplace_back("DEEPSELECT_PLAN_OVERRIDE", override.text);
    const CliResult overridden = run_cli(list, overridden_env);
    INFO(describe(overridden));
    REQUIRE(overridden.exit_code == 0);
    const std::regex field(override.field);
    const auto follows_kernel = [&](const std::string& line) {
      return override.lone_f32_keep_resident_load && contains(line, " dtype=f32 ") &&
             contains(line, " threads=256 cluster=1 ") && contains(line, " rows=scanned ");
    };
    // Planned kernels that differ only in the overridden field become one.
    std::set<std::string> want;
    for (const std::string& line : kernel_lines(planned.out)) {
      std::string overridden_line = std::regex_replace(line, field, override.value);
      if (follows_kernel(overridden_line))
        overridden_line = std::regex_replace(overridden_line, row_path, "");
      want.insert(overridden_line);
    }
    const std::vector<std::string> got_lines = kernel_lines(overridden.out);
    const std::set<std::string> got(got_lines.begin(), got_lines.end());
    CHECK(got.size() == got_lines.size());
    std::string missing;
    std::string extra;
    for (const std::string& line : want) {
      if (!got.contains(line)) missing += line + "\n";
    }
    for (const std::string& line : got) {
      if (!want.contains(line)) extra += line + "\n";
    }
    CHECK(missing == "");
    CHECK(extra == "");
    CHECK(want.size() > 1);
    // The read-floor and launch-test kernels, which the override does not touch, follow as planned.
    CHECK(kernel_lines(overridden.out, false) == kernel_lines(planned.out, false));
  }
  // A row path the override gives stands on every kernel, over the planner's rule (which gives
  // most kernels none): v135 measured twice the same kernel before it did.
  EnvChanges scanned_env = env;
  scanned_env.emplace_back("DEEPSELECT_PLAN_OVERRIDE", "rows=scanned");
  const CliResult scanned = run_cli(list, scanned_env);
  INFO(describe(scanned));
  REQUIRE(scanned.exit_code == 0);
  const std::vector<std::string> scanned_kernels = kernel_lines(scanned.out);
  for (const std::string& line : scanned_kernels) CHECK(contains(line, " rows=scanned "));
  CHECK(!scanned_kernels.empty());
  // rows=whole where the planner's rows are longer than any buffer: refused, naming the override.
  EnvChanges whole_env = env;
  whole_env.emplace_back("DEEPSELECT_PLAN_OVERRIDE", "rows=whole");
  const CliResult whole = run_cli(list, whole_env);
  INFO(describe(whole));
  CHECK(whole.exit_code != 0);
  CHECK(contains(whole.err, "DEEPSELECT_PLAN_OVERRIDE"));
}

TEST_CASE("cli: precompile --tuning adds a table's tuned kernels, for full rows only") {
  TempDir dir;
  const EnvChanges env = cli_env(dir.path() / "cache");
  const std::vector<std::string> list = {"precompile", "--arch", "sm_90a", "--list"};
  const CliResult defaults = run_cli(list, env);
  INFO(describe(defaults));
  REQUIRE(defaults.exit_code == 0);
  const KernelSpec planned =
      plan_spec(DType::f32, 2048, 64, 131072, DeviceInfo{Arch::parse("sm_90a"), 132});
  const LaunchShape tuned{8192, 4096, 1024, 1, 3};
  REQUIRE_FALSE(LaunchShape::of(planned) == tuned);
  CHECK_NOTHROW(tuned.apply(planned).validate());
  const auto list_with = [&](const TunedChoice& choice) {
    TuningTable table(DeviceFingerprint{"test gpu", 132, 9, 0, 13000, "0.0.0", "kernels"});
    table.set(ShapeBucket::of(DType::f32, 2048, 64, 131072), choice);
    std::vector<std::string> args = list;
    args.push_back("--tuning");
    args.push_back(write_file(dir.path() / "table.json", table.to_json()).string());
    const CliResult result = run_cli(args, env);
    INFO(describe(result));
    REQUIRE(result.exit_code == 0);
    return result.out;
  };
  // The defaults first, then the table's kernels: the tuned fields on the planner's others.
  const auto added_by = [&](const LaunchShape& shape) {
    const std::string with_table = list_with({shape, LaunchShape::of(planned), 1.0, 2.0});
    REQUIRE(with_table.starts_with(defaults.out));
    std::istringstream added(with_table.substr(defaults.out.size()));
    std::vector<std::string> lines;
    for (std::string line; std::getline(added, line);) lines.push_back(line);
    CHECK(!lines.empty());
    return lines;
  };
  for (const std::string& line : added_by(tuned)) {
    INFO(line);
    CHECK(contains(line, "dtype=f32 k_max=2048 B=8192 B2=4096 threads=1024 cluster=1 stages=3"));
    CHECK(contains(line, "bounds=range"));
  }
  // A table whose choice is the planner's default adds nothing.
  CHECK(list_with({LaunchShape::of(planned), LaunchShape::of(planned), 1.0, 1.0}) == defaults.out);
  // A tuned f32 2-CTA cluster over these full rows scans them: its kernel without the resident
  // load, as the planner launches it.
  const LaunchShape pair{8192, 2048, 512, 2, 2};
  REQUIRE_FALSE(pair == LaunchShape::of(planned));
  for (const std::string& line : added_by(pair)) {
    INFO(line);
    CHECK(contains(line, "B=8192 B2=2048 threads=512 cluster=2 stages=2"));
    CHECK(contains(line, " rows=scanned "));
  }
}

TEST_CASE("cli: cache list shows the entry, cache clear removes it") {
  TempDir dir;
  const fs::path specs = write_spec_list(dir.path(), {kFillSpec});
  const EnvChanges env = cli_env(dir.path() / "cache");
  const fs::path entry = precompile_one_entry(specs, env, dir.path() / "cache");

  const CliResult list = run_cli({"cache", "list"}, env);
  INFO(describe(list));
  CHECK(list.exit_code == 0);
  CHECK(contains(list.out, KernelSpec::parse(kFillSpec).symbol()));
  CHECK(contains(list.out, entry.string()));
  CHECK(contains(list.last_line(), "1 entries, 1 valid, 0 invalid"));

  const CliResult clear = run_cli({"cache", "clear"}, env);
  INFO(describe(clear));
  CHECK(clear.exit_code == 0);
  CHECK(contains(clear.out, "removed"));
  CHECK(entry_files(dir.path() / "cache").empty());

  const CliResult empty = run_cli({"cache", "list"}, env);
  INFO(describe(empty));
  CHECK(empty.exit_code == 0);
  CHECK(contains(empty.last_line(), "0 entries"));
}

TEST_CASE("cli: info prints versions, GPUs and the cache dir") {
  TempDir dir;
  const fs::path cache = dir.path() / "cache";
  const CliResult result = run_cli({"info"}, cli_env(cache));
  INFO(describe(result));
  CHECK(result.exit_code == 0);
  CHECK(contains(result.out, "nvrtc: " + nvrtc_version() + "\n"));
  CHECK((contains(result.out, "gpus: no GPU") || contains(result.out, "\ngpu 0:")));
  CHECK(contains(result.out, cache.string()));
  CHECK(contains(result.out, "jit: enabled"));

  const CliResult disabled = run_cli({"info"}, cli_env(cache, dir.path(), true));
  INFO(describe(disabled));
  CHECK(disabled.exit_code == 0);
  CHECK(contains(disabled.out, "jit: disabled"));
  CHECK(contains(disabled.out, "prebuilt: " + dir.path().string()));
}

TEST_CASE("cli: bad arguments exit nonzero with a message naming the argument") {
  TempDir dir;
  const fs::path cache = dir.path() / "cache";

  const CliResult arch = run_cli({"precompile", "--arch", "sm_80"}, cli_env(cache));
  INFO(describe(arch));
  CHECK(arch.exit_code != 0);
  CHECK(contains(arch.err, "'arch'"));
  CHECK(contains(arch.err, "sm_80"));

  const fs::path bad_list = write_spec_list(dir.path(), {kFillSpec, "kind=topk k_max=5000"});
  const CliResult list = run_cli(precompile_args(bad_list), cli_env(cache));
  INFO(describe(list));
  CHECK(list.exit_code != 0);
  CHECK(contains(list.err, "line 3"));  // after the header comment
  CHECK(contains(list.err, "k_max"));

  const CliResult missing = run_cli(precompile_args(dir.path() / "missing.specs"), cli_env(cache));
  INFO(describe(missing));
  CHECK(missing.exit_code != 0);
  CHECK(contains(missing.err, "missing.specs"));

  // Nothing was compiled or cached for any of them.
  CHECK(entry_files(cache).empty());
}

TEST_CASE("cli: an unusable cache dir warns and still compiles") {
  TempDir dir;
  const fs::path file = write_file(dir.path() / "file", "a regular file\n");
  const fs::path specs = write_spec_list(dir.path(), {kFillSpec});
  const CliResult result = run_cli(precompile_args(specs), cli_env(file / "cache"));
  INFO(describe(result));
  CHECK(result.exit_code == 0);
  CHECK(result.last_line() == "compiled 1, reused 0, failed 0");
  CHECK(contains(result.err, "warning"));
  CHECK(contains(result.err, (file / "cache").string()));
  CHECK(fs::is_regular_file(file));
}

}  // namespace
}  // namespace deepselect
