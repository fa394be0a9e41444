// Renders the small translation unit that instantiates one kernel for one KernelSpec.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>

#include "spec.hpp"

namespace deepselect {

// The CTAs per SM a top-k kernel asks for (its __launch_bounds__): as many as fit one SM's shared
// memory with `dynamic_smem_bytes` each, as many as leave each thread 64 registers (1024 threads
// per SM), and at most three: the register budget follows. Four 256-thread CTAs leave 64
// registers, and ptxas then spills in the scan: dsa-bf16-b256 k512 ran 15% slower with four than
// with three (80 registers) on the H200 (bench/results/2026-12-02-h200-occupancy/v2).
// bench/scripts/phase_times.cu compiles its kernels with the same bound.
constexpr int ctas_per_sm(size_t dynamic_smem_bytes, int threads) {
  constexpr size_t kSmemPerSm = 228 * 1024;
  // The static scratch of a 256-thread CTA up to the dynamic buffer's 128-byte alignment (3 KB,
  // templates/topk_kernel.cuh asserts it) and the 1 KB that CUDA reserves per CTA: three f32
  // k = 2048 CTAs fill the 228 KB exactly. A 512-thread CTA's scratch is 128 bytes larger.
  constexpr size_t kStaticAndReserved = 4 * 1024;
  constexpr int kThreadsPerSmAt64Registers = 1024;
  constexpr int kMostCtas = 3;
  const int by_smem = static_cast<int>(kSmemPerSm / (dynamic_smem_bytes + kStaticAndReserved));
  return std::max(1, std::min({by_smem, kThreadsPerSmAt64Registers / threads, kMostCtas}));
}

std::string render_translation_unit(const KernelSpec& spec);

}  // namespace deepselect
