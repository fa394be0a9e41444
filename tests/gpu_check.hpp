// Runs one case through deepselect::topk and compares every output byte with the reference.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "reference.hpp"
#include "topk_case.hpp"

namespace deepselect::testing {

inline constexpr uint8_t kPoison = 0xab;    // the byte every output holds before a call
inline constexpr size_t kGuardBytes = 256;  // poisoned bytes before and after every output

// The whole output buffers after a call, with the guard bytes after each.
struct GpuOutput {
  std::vector<uint8_t> indices;
  std::vector<uint8_t> raw_indices;  // empty without raw_indices
  std::vector<uint8_t> values;       // empty without values
  std::vector<uint8_t> row_status;   // empty without row_status
};

// Uploads the problem (x shifted by layout.x_shift elements, NaN around it), poisons the outputs
// and guard bytes before and after each with 0xAB, calls topk and waits for it; a write into a
// guard before an output throws. Needs a current context.
GpuOutput run_on_gpu(const Problem& problem, const Layout& layout);

// Empty when the output is what the reference says (unsorted rows compared as sets) and every
// byte the call must not write still holds the poison; otherwise the first difference.
std::string first_mismatch(const Problem& problem, const Layout& layout, const Result& expected,
                           const GpuOutput& output);

// Generates, runs and compares one case, printing one line about it. True when it matched.
// `adjust`, when given, changes the generated inputs before the run and the reference.
bool check_on_gpu(const std::string& label, const CaseSpec& spec,
                  const std::function<void(Problem&)>& adjust = {});

}  // namespace deepselect::testing
