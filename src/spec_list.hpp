// Spec lists: the files under cache/ that name the kernels `precompile` builds.
#pragma once

#include <filesystem>
#include <string_view>
#include <vector>

#include "spec.hpp"

namespace deepselect {

// One spec per line (KernelSpec::to_string fields, arch usually left out); '#' starts a
// comment. Throws ArgumentError naming the line of a bad entry.
std::vector<KernelSpec> parse_spec_list(std::string_view text);
std::vector<KernelSpec> read_spec_list(const std::filesystem::path& file);

// The benchmark's read-floor kernel for dtype.
KernelSpec read_floor_spec(DType dtype, Arch arch);

// What `precompile` builds when given no list: every spec the planner can choose on arch,
// the launch-test kernel and the read-floor kernels.
std::vector<KernelSpec> default_specs(Arch arch);

}  // namespace deepselect
