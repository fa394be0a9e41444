// `deepselect bench` as a child process on a GPU: what it says of the kernels it timed. Each
// result names the spec that topk() launched and, for clusters, how many of them the GPU holds
// at once; a run whose rows outnumber them says how many waves it took.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "spec.hpp"
#include "test_support.hpp"

namespace deepselect {
namespace {

namespace fs = std::filesystem;
using testing::EnvChanges;

struct BenchRun {
  testing::CliResult result;
  nlohmann::json results;  // the JSON's "results"
};

// One f32 custom shape on normal values, two replays, its JSON read back.
BenchRun bench_custom(int rows, int n, int k, const EnvChanges& env, const fs::path& json) {
  BenchRun run;
  run.result = testing::run_cli(
      {"bench", "--rows", std::to_string(rows), "--n", std::to_string(n), "--k", std::to_string(k),
       "--dists", "normal", "--replays", "2", "--json", json.string()},
      env);
  INFO(testing::describe(run.result));
  REQUIRE(run.result.exit_code == 0);
  std::ifstream in(json);
  REQUIRE(in.good());
  run.results = nlohmann::json::parse(in).at("results");
  REQUIRE(run.results.size() == 1);
  return run;
}

// Checks the one result of run against the kernel it names and the line that says so; returns
// that kernel's spec.
KernelSpec check_kernel_report(const BenchRun& run, int rows, int k) {
  INFO(testing::describe(run.result));
  const nlohmann::json& result = run.results[0];
  const KernelSpec spec = KernelSpec::parse(result.at("kernel").get<std::string>());
  CHECK(spec.kind == KernelKind::topk);
  CHECK(spec.dtype == DType::f32);
  CHECK(spec.k_max >= k);
  std::string fit = "lone CTAs";
  if (spec.cluster > 1) {
    REQUIRE(result.at("clusters_at_once").is_number_integer());
    const int at_once = result.at("clusters_at_once").get<int>();
    CHECK(at_once > 0);
    fit = fmt::format("{} rows, {} clusters at once", rows, at_once);
    if (at_once < rows) fit += fmt::format(": {} waves", (rows + at_once - 1) / at_once);
  } else {
    CHECK(result.at("clusters_at_once").is_null());
  }
  CHECK(run.result.out.find(fmt::format("  custom k={}: {} ({})\n", k, spec.to_string(), fit)) !=
        std::string::npos);
  return spec;
}

TEST_CASE("gpu: bench names each result's kernel and the clusters the GPU holds at once") {
  DS_REQUIRE_GPU();
  testing::TempDir dir;
  const EnvChanges env = testing::cli_env(dir.path() / "cache");

  SUBCASE("the kernel that topk() launches, whose clusters the GPU holds at once") {
    // The planner asks for 16-CTA clusters here, which an H100 or H200 does not hold eight of
    // (src/plan.cpp): topk() launches smaller ones, and the report must say so.
    const BenchRun run = bench_custom(8, 131072, 256, env, dir.path() / "plan.json");
    const KernelSpec spec = check_kernel_report(run, 8, 256);
    CHECK(run.result.out.find(" waves") == std::string::npos);
    if (spec.cluster > 1) CHECK(run.results[0].at("clusters_at_once").get<int>() >= 8);
  }

  SUBCASE("an override's 16-CTA clusters on more rows than an H100 or H200 holds at once") {
    EnvChanges overridden = env;
    overridden.emplace_back("DEEPSELECT_PLAN_OVERRIDE", "cluster=16 B2=4096");
    const BenchRun run = bench_custom(16, 131072, 256, overridden, dir.path() / "override.json");
    const KernelSpec spec = check_kernel_report(run, 16, 256);
    CHECK(spec.cluster == 16);
    CHECK(spec.block2 == 4096);
    // Sixteen clusters of sixteen CTAs of 162 KB each (one per SM): 256 CTAs, more than the SMs
    // of any GPU we run on.
    CHECK(run.results[0].at("clusters_at_once").get<int>() < 16);
    CHECK(run.result.out.find(" waves)") != std::string::npos);
  }
}

}  // namespace
}  // namespace deepselect
