#include "spec_list.hpp"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "plan.hpp"

namespace deepselect {

std::vector<KernelSpec> parse_spec_list(std::string_view text) {
  std::vector<KernelSpec> specs;
  int line_number = 0;
  size_t position = 0;
  while (position <= text.size()) {
    const size_t stop = std::min(text.find('\n', position), text.size());
    std::string_view line = text.substr(position, stop - position);
    position = stop + 1;
    ++line_number;
    line = line.substr(0, line.find('#'));
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    try {
      KernelSpec spec = KernelSpec::parse(line);
      spec.validate();
      specs.push_back(spec);
    } catch (const ArgumentError& error) {
      throw ArgumentError("specs", fmt::format("line {}: {}", line_number, error.what()));
    }
  }
  return specs;
}

std::vector<KernelSpec> read_spec_list(const std::filesystem::path& file) {
  std::ifstream stream(file);
  if (!stream) throw ArgumentError("specs", fmt::format("cannot read {}", file.string()));
  std::ostringstream text;
  text << stream.rdbuf();
  return parse_spec_list(text.str());
}

KernelSpec read_floor_spec(DType dtype, Arch arch) {
  KernelSpec spec;
  spec.kind = KernelKind::read_floor;
  spec.dtype = dtype;
  spec.threads = 512;
  spec.arch = arch;
  return spec;
}

std::vector<KernelSpec> default_specs(Arch arch) {
  std::vector<KernelSpec> specs = planner_specs(arch);
  KernelSpec fill;
  fill.kind = KernelKind::fill_test;
  fill.threads = 128;
  fill.cluster = 4;
  fill.arch = arch;
  specs.push_back(fill);
  for (DType dtype : {DType::f32, DType::bf16, DType::f16})
    specs.push_back(read_floor_spec(dtype, arch));
  return specs;
}

}  // namespace deepselect
