// The GPU cases' comparison (first_mismatch) on outputs written here by hand: it must accept
// what the contract says a call writes, and nothing else.
#include <doctest/doctest.h>

#include <cstring>
#include <limits>
#include <vector>

#include "gpu_check.hpp"

using namespace deepselect;
using namespace deepselect::testing;

namespace {

// Rows of 6 f32 columns, k = 3, with index offsets that take some columns past INT32_MAX.
Problem wrapping_problem() {
  Problem problem;
  problem.rows = 2;
  problem.n = 6;
  problem.k = 3;
  const std::vector<float> x = {0.5f, 3.f, -1.f, 2.f, 7.f, 1.f, 4.f, 4.f, 0.f, -2.f, 9.f, 5.f};
  for (float value : x) {
    uint32_t bits = 0;
    std::memcpy(&bits, &value, 4);
    problem.x.push_back(bits);
  }
  problem.index_offset = {std::numeric_limits<int32_t>::max() - 3, -5};
  return problem;
}

// The bytes of an int32 index output as a call writes it: each slot's low 32 bits, the rest
// poison.
std::vector<uint8_t> written_indices(const Result& expected, int64_t rows, int k) {
  std::vector<uint8_t> bytes(static_cast<size_t>(rows * k) * 4 + kGuardBytes, kPoison);
  for (size_t i = 0; i < expected.indices.size(); ++i) {
    const auto low = static_cast<int32_t>(expected.indices[i]);
    std::memcpy(&bytes[i * 4], &low, 4);
  }
  return bytes;
}

}  // namespace

TEST_CASE("first_mismatch: int32 indices past INT32_MAX are their low 32 bits, and no other") {
  const Problem problem = wrapping_problem();
  const Result expected = reference_topk(problem);
  REQUIRE(expected.indices[0] > std::numeric_limits<int32_t>::max());  // row 0's best, column 4
  const Layout layout{.values = false, .row_status = false};
  GpuOutput output;
  output.indices = written_indices(expected, problem.rows, problem.k);
  CHECK(first_mismatch(problem, layout, expected, output) == "");

  GpuOutput clamped = output;  // an int32 saturated instead of wrapped
  const int32_t saturated = std::numeric_limits<int32_t>::max();
  std::memcpy(&clamped.indices[0], &saturated, 4);
  CHECK(first_mismatch(problem, layout, expected, clamped) != "");

  GpuOutput past_guard = output;  // a byte written past the last row
  past_guard.indices[static_cast<size_t>(problem.rows * problem.k) * 4 + 17] = 0;
  CHECK(first_mismatch(problem, layout, expected, past_guard) != "");

  const Layout wide{.index_type = IndexType::i64, .values = false, .row_status = false};
  CHECK(first_mismatch(problem, wide, expected, output) != "");  // int32 bytes read as int64
}
