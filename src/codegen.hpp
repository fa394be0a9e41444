// Renders the small translation unit that instantiates one kernel for one KernelSpec.
#pragma once

#include <string>

#include "spec.hpp"

namespace deepselect {

std::string render_translation_unit(const KernelSpec& spec);

}  // namespace deepselect
