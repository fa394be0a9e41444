// `deepselect tune`: measures candidate specs for the suite's shapes (or a shapes file) on this
// GPU and stores the winners in the tuning table the planner reads for this GPU.
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "bench_suite.hpp"
#include "commands.hpp"
#include "driver.hpp"
#include "tuner.hpp"

namespace deepselect::cli {
namespace {

struct TuneCommandOptions {
  std::string shapes_file;
  std::string only;
  double budget_s = 300.0;
  int replays = 10;
};

// Full rows of the suite: the tuned bucket is (dtype, k bucket, rows, n).
std::vector<TuneShape> suite_tune_shapes() {
  std::vector<TuneShape> shapes;
  for (const BenchShape& shape : suite_shapes()) {
    for (int k : shape.ks) shapes.push_back({shape.name, shape.dtype, shape.rows, shape.n, k});
  }
  return shapes;
}

// One shape per line: "name rows n k dtype"; '#' starts a comment.
std::vector<TuneShape> read_tune_shapes(const std::string& file) {
  std::ifstream stream(file);
  if (!stream) throw ArgumentError("--shapes", fmt::format("cannot read {}", file));
  std::vector<TuneShape> shapes;
  std::string line;
  for (int number = 1; std::getline(stream, line); ++number) {
    line = line.substr(0, line.find('#'));
    std::istringstream fields(line);
    TuneShape shape;
    std::string dtype;
    if (!(fields >> shape.name)) continue;
    if (!(fields >> shape.rows >> shape.n >> shape.k >> dtype) || shape.rows < 1 || shape.n < 1 ||
        shape.k < 1) {
      throw ArgumentError("--shapes",
                          fmt::format("{} line {}: want 'name rows n k dtype'", file, number));
    }
    shape.dtype = parse_dtype(dtype);
    shapes.push_back(shape);
  }
  return shapes;
}

void run_tune(const TuneCommandOptions& options) {
  if (driver_or_null() == nullptr) {
    fmt::print(stderr, "deepselect tune: no GPU: {}\n", driver_unavailable_reason());
    throw CLI::RuntimeError(2);
  }
  use_primary_context(0);
  std::vector<TuneShape> shapes =
      options.shapes_file.empty() ? suite_tune_shapes() : read_tune_shapes(options.shapes_file);
  std::erase_if(shapes,
                [&](const TuneShape& s) { return s.name.find(options.only) == std::string::npos; });
  if (shapes.empty()) throw ArgumentError("--only", "no shape matches");

  fmt::print("tuning {} shapes within {:.0f} s\n", shapes.size(), options.budget_s);
  TuneOptions tune_options;
  tune_options.budget_s = options.budget_s;
  tune_options.replays = options.replays;
  tune_options.progress = [](const std::string& line) {
    fmt::print("{}\n", line);
    std::fflush(stdout);
  };
  std::vector<TuneResult> results;
  const std::filesystem::path file = tune_and_store(shapes, tune_options, &results);

  // Scores are geometric means over the distributions; the gains are per distribution.
  fmt::print("\n{:<18} {:<26} {:>10} {:>10} {:>7}  {:<26} {}\n", "shape", "bucket", "default us",
             "tuned us", "gain", "gain per distribution", "choice");
  for (const TuneResult& r : results) {
    std::string gains;
    for (size_t d = 0; d < kTuneDists.size(); ++d) {
      gains += fmt::format("{:.2f}x ", r.default_us[d] / r.chosen_us[d]);
    }
    const double default_score = geometric_mean(r.default_us);
    const double chosen_score = geometric_mean(r.chosen_us);
    fmt::print(
        "{:<18} {:<26} {:>10.2f} {:>10.2f} {:>6.2f}x  {:<26} B={} B2={} threads={} cluster={} "
        "stages={} ({} measured)\n",
        r.shape.name + " k" + std::to_string(r.shape.k), r.bucket.to_string(), default_score,
        chosen_score, default_score / chosen_score, gains, r.chosen_spec.block,
        r.chosen_spec.block2, r.chosen_spec.threads, r.chosen_spec.cluster, r.chosen_spec.stages,
        r.candidates);
  }
  fmt::print("{} of {} shapes tuned; table written to {}\n", results.size(), shapes.size(),
             file.string());
}

}  // namespace

void add_tune(CLI::App& app) {
  auto options = std::make_shared<TuneCommandOptions>();
  CLI::App* command =
      app.add_subcommand("tune", "Measure candidate kernels on this GPU and store the winners");
  command->add_option("--shapes", options->shapes_file,
                      "Shapes file, one 'name rows n k dtype' per line (default: the suite)");
  command->add_option("--only", options->only, "Only the shapes whose name contains this");
  command->add_option("--budget-s", options->budget_s, "Stop starting candidates after this")
      ->capture_default_str();
  command->add_option("--replays", options->replays, "Timed graph replays per candidate")
      ->capture_default_str();
  command->callback([options] { run_tune(*options); });
}

}  // namespace deepselect::cli
