// The subcommands of the `deepselect` command line, each registered on the CLI11 app.
#pragma once

#include <CLI/CLI.hpp>

namespace deepselect::cli {

void add_info(CLI::App& app);
void add_precompile(CLI::App& app);
void add_cache(CLI::App& app);
void add_run(CLI::App& app);
void add_tune(CLI::App& app);
void add_bench(CLI::App& app);

}  // namespace deepselect::cli
