#include <algorithm>
#include <atomic>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "commands.hpp"
#include "cubin_store.hpp"
#include "plan.hpp"
#include "spec_list.hpp"
#include "tuning_table.hpp"

namespace deepselect::cli {
namespace {

struct PrecompileOptions {
  std::string archs = "sm_90a,sm_100a";
  std::string specs_file;
  std::string out_dir;
  std::string tuning_file;
  int jobs = 2;
  bool list_only = false;
};

// The specs a tuning table's entries may make the planner choose on arch: full rows only, each
// entry's tuned shape (which applies where the planner still plans the default it beat), with
// the row path that the planner gives the tuned kernel at the shortest and longest rows of the
// entry's bucket.
std::vector<KernelSpec> tuned_specs(const std::string& file, Arch arch) {
  std::ifstream stream(file);
  if (!stream) throw ArgumentError("--tuning", fmt::format("cannot read {}", file));
  std::ostringstream text;
  text << stream.rdbuf();
  std::vector<KernelSpec> specs;
  for (const auto& [bucket, choice] : TuningTable::from_json(text.str()).entries()) {
    for (const KernelOptions& options : precompiled_options(bucket.dtype, bucket.k_bucket)) {
      if (!spans_full_rows(options.bounds, RowLengths::full)) continue;
      const int64_t longest = int64_t{1} << bucket.n_log2;
      KernelSpec tuned = choice.tuned.apply(
          plan_spec(bucket.dtype, bucket.k_bucket, int64_t{1} << bucket.rows_log2, longest,
                    DeviceInfo{arch, 1}, options.bounds, options.epilogue));
      for (int64_t n : {longest / 2 + 1, longest}) {
        tuned.row_path = row_path_for(tuned, n, true);
        specs.push_back(tuned);
      }
    }
  }
  return specs;
}

std::vector<KernelSpec> specs_to_build(const PrecompileOptions& options) {
  std::vector<KernelSpec> all;
  std::stringstream archs(options.archs);
  std::string arch_text;
  while (std::getline(archs, arch_text, ',')) {
    const Arch arch = Arch::parse(arch_text);
    std::vector<KernelSpec> specs =
        options.specs_file.empty() ? default_specs(arch) : read_spec_list(options.specs_file);
    if (!options.tuning_file.empty()) {
      const std::vector<KernelSpec> tuned = tuned_specs(options.tuning_file, arch);
      specs.insert(specs.end(), tuned.begin(), tuned.end());
    }
    for (KernelSpec& spec : specs) {
      spec.arch = arch;
      // Each spec once: a repeat would be a memory hit of a kernel this run compiled.
      if (std::find(all.begin(), all.end(), spec) == all.end()) all.push_back(spec);
    }
  }
  return all;
}

int precompile(const PrecompileOptions& options) {
  const std::vector<KernelSpec> specs = specs_to_build(options);
  if (options.list_only) {
    for (const KernelSpec& spec : specs) fmt::print("{}\n", spec.to_string());
    return 0;
  }
  StoreConfig config = StoreConfig::from_environment();
  if (!options.out_dir.empty()) {
    config.cache_dir = options.out_dir;
    config.prebuilt_dir.clear();
  }
  CubinStore store(config);
  if (!options.out_dir.empty() && !store.cache().writable()) {
    throw ArgumentError(
        "--out", fmt::format("{} is unusable: {}", options.out_dir, store.cache().problem()));
  }
  std::atomic<size_t> next{0};
  std::atomic<int> compiled{0};
  std::atomic<int> reused{0};
  std::atomic<int> failed{0};
  std::mutex print_mutex;
  auto worker = [&] {
    for (size_t i = next++; i < specs.size(); i = next++) {
      std::string line;
      try {
        const std::shared_ptr<const Cubin> cubin = store.get(specs[i]);
        if (cubin->origin == CubinOrigin::compiled) {
          ++compiled;
          line =
              fmt::format("compiled {} in {:.2f} s", specs[i].to_string(), cubin->compile_seconds);
        } else {
          ++reused;
          line = fmt::format("reused   {} ({})", specs[i].to_string(), origin_name(cubin->origin));
        }
      } catch (const std::exception& error) {
        ++failed;
        line = fmt::format("FAILED   {}: {}", specs[i].to_string(), error.what());
      }
      std::lock_guard lock(print_mutex);
      fmt::print("{}\n", line);
    }
  };
  std::vector<std::thread> threads;
  for (int j = 0; j < std::max(1, options.jobs); ++j) threads.emplace_back(worker);
  for (std::thread& thread : threads) thread.join();
  fmt::print("compiled {}, reused {}, failed {}\n", compiled.load(), reused.load(), failed.load());
  return failed.load() == 0 ? 0 : 1;
}

}  // namespace

void add_precompile(CLI::App& app) {
  auto options = std::make_shared<PrecompileOptions>();
  CLI::App* command =
      app.add_subcommand("precompile", "Compile kernels into the cache or a prebuilt directory");
  command->add_option("--arch", options->archs, "Comma-separated archs (sm_90a, sm_100a)")
      ->capture_default_str();
  command->add_option("--specs", options->specs_file,
                      "Spec list file (default: every spec the planner can choose)");
  command->add_option("--out", options->out_dir,
                      "Write into this directory (a prebuilt dir) instead of the cache");
  command->add_option("--jobs", options->jobs, "Parallel compiles")->capture_default_str();
  command->add_option("--tuning", options->tuning_file,
                      "Also build the choices of this tuning table (a `deepselect tune` JSON)");
  command->add_flag("--list", options->list_only, "Print the specs it would build, build nothing");
  command->callback([options] {
    const int status = precompile(*options);
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

}  // namespace deepselect::cli
