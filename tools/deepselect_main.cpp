// The `deepselect` command line: info, run, precompile, cache.
#include <fmt/format.h>

#include <deepselect/deepselect.hpp>

#include "cli/commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{fmt::format("DeepSelect JIT {}: exact top-k on NVIDIA GPUs", deepselect::version())};
  app.require_subcommand(1);
  deepselect::cli::add_info(app);
  deepselect::cli::add_run(app);
  deepselect::cli::add_bench(app);
  deepselect::cli::add_tune(app);
  deepselect::cli::add_precompile(app);
  deepselect::cli::add_cache(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error);
  } catch (const std::exception& error) {
    fmt::print(stderr, "{}\n", error.what());
    return 1;
  }
  return 0;
}
