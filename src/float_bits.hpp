// Converting a host double to the raw bits of a dtype (round to nearest even).
#pragma once

#include <cstdint>

#include <deepselect/deepselect.hpp>

namespace deepselect {

uint32_t to_dtype_bits(DType dtype, double value);

}  // namespace deepselect
