// The public tuning entry point (deepselect.hpp) over the tuner.
#include <fmt/format.h>

#include "tuner.hpp"

namespace deepselect {

std::vector<std::string> tune(const std::vector<TuneRequest>& shapes, double budget_s) {
  std::vector<TuneShape> tune_shapes;
  for (const TuneRequest& request : shapes) {
    if (request.rows < 1 || request.n < 1 || request.k < 1 || request.k > 4096) {
      throw ArgumentError("shapes", fmt::format("rows {}, n {}, k {} is not a tunable shape",
                                                request.rows, request.n, request.k));
    }
    tune_shapes.push_back(TuneShape{fmt::format("{}x{} k{}", request.rows, request.n, request.k),
                                    request.dtype, request.rows, request.n, request.k});
  }
  TuneOptions options;
  options.budget_s = budget_s;
  std::vector<TuneResult> results;
  const std::filesystem::path file = tune_and_store(tune_shapes, options, &results);
  std::vector<std::string> lines;
  for (const TuneResult& r : results) {
    lines.push_back(fmt::format("{}: {} -> {} ({:.2f} -> {:.2f} us), stored in {}", r.shape.name,
                                r.default_spec.to_string(), r.chosen_spec.to_string(),
                                geometric_mean(r.default_us), geometric_mean(r.chosen_us),
                                file.string()));
  }
  return lines;
}

}  // namespace deepselect
