// Deployment without NVRTC: the kernels `deepselect run` needs are precompiled into a prebuilt
// directory with the command line, then served from it with JIT disabled. The spec list is
// the planner's choice for run's problem (64 rows x 131072 f32, k 2048), not the default list
// (~76 specs, too slow to compile in a test). The CPU cases need no GPU.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli_runner.hpp"
#include "plan.hpp"
#include "spec.hpp"
#include "spec_list.hpp"
#include "test_support.hpp"

namespace deepselect {
namespace {

namespace fs = std::filesystem;
using testing::cli_env;
using testing::CliResult;
using testing::describe;
using testing::EnvChanges;
using testing::run_cli;
using testing::TempDir;

// `deepselect run`'s problem (tools/cli/run.cpp).
constexpr int kRunRows = 64;
constexpr int kRunColumns = 131072;
constexpr int kRunK = 2048;
constexpr int kH200Sms = 132;

// The planner's view of a GPU without a tuning table (run's empty cache dir holds none).
DeviceInfo device_info(Arch arch, int sm_count) {
  DeviceInfo device;
  device.arch = arch;
  device.sm_count = sm_count;
  return device;
}

DeviceInfo h200() {
  return device_info(Arch{90}, kH200Sms);
}

// The spec `deepselect run` launches on device.
KernelSpec run_spec(const DeviceInfo& device) {
  return plan_spec(DType::f32, kRunK, kRunRows, kRunColumns, device);
}

// spec's line in a spec list: its text without the arch field (precompile's --arch sets it).
std::string spec_line(const KernelSpec& spec) {
  std::string text = spec.to_string();
  const size_t arch = text.find(" arch=");
  REQUIRE(arch != std::string::npos);
  const size_t end = text.find(' ', arch + 1);
  text.erase(arch, end == std::string::npos ? std::string::npos : end - arch);
  return text;
}

fs::path write_run_spec_list(const fs::path& dir, const KernelSpec& spec) {
  const fs::path path = dir / "run.specs";
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << "# the kernel `deepselect run` launches (written by test_deploy.cpp)\n"
      << spec_line(spec) << "\n";
  out.close();
  REQUIRE(out.good());
  return path;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

size_t entries_in(const fs::path& dir) {
  size_t count = 0;
  std::error_code ec;
  for (auto it = fs::directory_iterator(dir / "v1", ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    if (it->path().filename().string().ends_with(".cubin")) ++count;
  }
  return count;
}

// `deepselect precompile --arch arch --specs specs [--out out]`: compiles them all.
CliResult precompile(const fs::path& specs, const Arch& arch, const EnvChanges& env,
                     const fs::path& out = {}) {
  std::vector<std::string> args = {
      "precompile", "--arch", arch.to_string(), "--specs", specs.string(), "--jobs", "2"};
  if (!out.empty()) args.insert(args.end(), {"--out", out.string()});
  return run_cli(args, env);
}

// The planner's view of GPU 0, as topk() sees it.
DeviceInfo device_info_of_gpu0() {
  const Driver& cu = driver();
  CUdevice device = 0;
  check_cuda(cu.cuDeviceGet(&device, 0), "cuDeviceGet");
  auto attribute = [&](CUdevice_attribute which) {
    int value = 0;
    check_cuda(cu.cuDeviceGetAttribute(&value, which, device), "cuDeviceGetAttribute");
    return value;
  };
  return device_info(
      Arch::parse(fmt::format("sm_{}{}a", attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
                              attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR))),
      attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT));
}

TEST_CASE("deploy: the run spec list names one planner kernel and round-trips") {
  const KernelSpec spec = run_spec(h200());
  const std::string line = spec_line(spec);
  CHECK(!contains(line, "arch="));
  const std::vector<KernelSpec> parsed = parse_spec_list(line + "\n");
  REQUIRE(parsed.size() == 1);
  KernelSpec with_arch = parsed[0];
  with_arch.arch = Arch{90};
  CHECK(with_arch == spec);
  // It is one of the specs a default precompile builds.
  bool in_default = false;
  for (const KernelSpec& other : default_specs(Arch{90})) in_default = in_default || other == spec;
  CHECK(in_default);
}

TEST_CASE("deploy: a prebuilt dir of the run spec list serves it with JIT disabled") {
  TempDir dir;
  const fs::path specs = write_run_spec_list(dir.path(), run_spec(h200()));
  const fs::path prebuilt = dir.path() / "prebuilt";

  const CliResult fill = precompile(specs, Arch{90}, cli_env(dir.path() / "cache"), prebuilt);
  INFO(describe(fill));
  REQUIRE(fill.exit_code == 0);
  CHECK(fill.last_line() == "compiled 1, reused 0, failed 0");
  CHECK(entries_in(prebuilt) == 1);
  CHECK(entries_in(dir.path() / "cache") == 0);

  const fs::path empty_cache = dir.path() / "empty";
  const CliResult reuse = precompile(specs, Arch{90}, cli_env(empty_cache, prebuilt, true));
  INFO(describe(reuse));
  CHECK(reuse.exit_code == 0);
  CHECK(reuse.last_line() == "compiled 0, reused 1, failed 0");
  CHECK(contains(reuse.out, "(prebuilt)"));
  CHECK(entries_in(empty_cache) == 0);
}

TEST_CASE("gpu: with JIT disabled a prebuilt deployment compiles nothing") {
  DS_REQUIRE_GPU();
  // The spec for this GPU (on an H200: sm_90a, 132 SMs, the list of the CPU case above).
  const DeviceInfo device = device_info_of_gpu0();
  TempDir dir;
  const fs::path specs = write_run_spec_list(dir.path(), run_spec(device));
  const fs::path prebuilt = dir.path() / "prebuilt";

  const CliResult fill = precompile(specs, device.arch, cli_env(dir.path() / "cache"), prebuilt);
  INFO(describe(fill));
  REQUIRE(fill.exit_code == 0);
  REQUIRE(entries_in(prebuilt) == 1);

  const fs::path empty_cache = dir.path() / "empty";
  const CliResult run = run_cli({"run"}, cli_env(empty_cache, prebuilt, true));
  INFO(describe(run));
  CHECK(run.exit_code == 0);
  CHECK(contains(run.out, " 0 wrong"));
  CHECK(contains(run.out, "kernels: compiled 0,"));
  long compiled = -1;
  long prebuilt_hits = -1;
  long disk = -1;
  long memory = -1;
  const size_t at = run.out.find("kernels: ");
  REQUIRE(at != std::string::npos);
  REQUIRE(std::sscanf(run.out.c_str() + at,
                      "kernels: compiled %ld, prebuilt %ld, disk %ld, memory %ld", &compiled,
                      &prebuilt_hits, &disk, &memory) == 4);
  CHECK(compiled == 0);
  CHECK(prebuilt_hits >= 1);
  CHECK(disk == 0);
  CHECK(entries_in(empty_cache) == 0);
}

}  // namespace
}  // namespace deepselect
