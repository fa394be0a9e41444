// Bad arguments are rejected on the host, naming the TopkArgs field, before the driver is used:
// these cases pass on a machine without a GPU.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <deepselect/deepselect.hpp>

#include "topk_internal.hpp"

namespace deepselect::testing {
namespace {

// Stand-ins for device pointers: validation must not dereference them.
alignas(16) std::byte fake_device_memory[64];

TopkArgs valid_args() {
  TopkArgs args;
  args.x = fake_device_memory;
  args.rows = 4;
  args.n = 100;
  args.k = 10;
  args.indices = fake_device_memory;
  return args;
}

const int32_t* misaligned_ints() {
  return reinterpret_cast<const int32_t*>(fake_device_memory + 2);
}

// A well-formed page-table epilogue: 2 batch entries of 8 pages of 16 slots.
TopkArgs& with_page_table(TopkArgs& args) {
  args.page_table = reinterpret_cast<const int32_t*>(fake_device_memory);
  args.page_table_rows = 2;
  args.page_table_cols = 8;
  args.page_size = 16;
  return args;
}

// The argument topk rejected, or a note saying it did not reject it as an argument.
std::string rejected_argument(const TopkArgs& args) {
  try {
    topk(args, nullptr);
  } catch (const ArgumentError& error) {
    return error.argument();
  } catch (const std::exception& error) {
    return std::string("<not an ArgumentError: ") + error.what() + ">";
  }
  return "<accepted>";
}

struct BadCase {
  const char* what;
  std::function<void(TopkArgs&)> spoil;
  std::vector<std::string> expected;  // any of these names
};

}  // namespace

TEST_CASE("topk args: every bad argument is named before any launch") {
  const BadCase cases[] = {
      {"null x", [](TopkArgs& a) { a.x = nullptr; }, {"x"}},
      {"null indices", [](TopkArgs& a) { a.indices = nullptr; }, {"indices"}},
      {"k = 0", [](TopkArgs& a) { a.k = 0; }, {"k"}},
      {"k = 4097", [](TopkArgs& a) { a.k = 4097; }, {"k"}},
      {"k negative", [](TopkArgs& a) { a.k = -1; }, {"k"}},
      {"n negative", [](TopkArgs& a) { a.n = -1; }, {"n"}},
      {"n beyond the kernel's int indexing",
       [](TopkArgs& a) {
         a.n = (int64_t{1} << 31) - 65535;
         a.ld = a.n;
       },
       {"n"}},
      {"rows negative", [](TopkArgs& a) { a.rows = -1; }, {"rows"}},
      {"ld < n", [](TopkArgs& a) { a.ld = 99; }, {"ld"}},
      {"rows * ld overflows",
       [](TopkArgs& a) {
         a.rows = int64_t{1} << 40;
         a.ld = int64_t{1} << 40;
       },
       {"rows", "ld"}},
      {"dtype 7", [](TopkArgs& a) { a.dtype = static_cast<DType>(7); }, {"dtype"}},
      {"index_type 5",
       [](TopkArgs& a) { a.index_type = static_cast<IndexType>(5); },
       {"index_type"}},
      {"order 3", [](TopkArgs& a) { a.order = static_cast<Order>(3); }, {"order"}},
      {"order -1", [](TopkArgs& a) { a.order = static_cast<Order>(-1); }, {"order"}},
      {"nan_policy 2",
       [](TopkArgs& a) { a.nan_policy = static_cast<NanPolicy>(2); },
       {"nan_policy"}},
      {"fill_index above int32",
       [](TopkArgs& a) { a.fill_index = int64_t{1} << 31; },
       {"fill_index"}},
      {"fill_index below int32",
       [](TopkArgs& a) { a.fill_index = -(int64_t{1} << 31) - 1; },
       {"fill_index"}},
      {"ld_idx < k", [](TopkArgs& a) { a.ld_idx = 9; }, {"ld_idx"}},
      {"ld_val < k with values",
       [](TopkArgs& a) {
         a.values = fake_device_memory;
         a.ld_val = 9;
       },
       {"ld_val"}},
      {"next_n = 0", [](TopkArgs& a) { a.next_n = 0; }, {"next_n"}},
      {"seq_lens with begin",
       [](TopkArgs& a) {
         a.seq_lens = reinterpret_cast<const int32_t*>(fake_device_memory);
         a.begin = reinterpret_cast<const int32_t*>(fake_device_memory);
       },
       {"seq_lens"}},
      {"seq_lens with end",
       [](TopkArgs& a) {
         a.seq_lens = reinterpret_cast<const int32_t*>(fake_device_memory);
         a.end = reinterpret_cast<const int32_t*>(fake_device_memory);
       },
       {"seq_lens"}},
      {"row_to_batch without page_table",
       [](TopkArgs& a) { a.row_to_batch = reinterpret_cast<const int32_t*>(fake_device_memory); },
       {"row_to_batch"}},
      {"raw_indices without page_table",
       [](TopkArgs& a) { a.raw_indices = fake_device_memory; },
       {"raw_indices"}},
      {"page_size = 0", [](TopkArgs& a) { with_page_table(a).page_size = 0; }, {"page_size"}},
      {"page_table_rows = 0",
       [](TopkArgs& a) { with_page_table(a).page_table_rows = 0; },
       {"page_table_rows"}},
      {"page_table_cols = 0",
       [](TopkArgs& a) { with_page_table(a).page_table_cols = 0; },
       {"page_table_cols"}},
      {"ld_page_table < page_table_cols",
       [](TopkArgs& a) { with_page_table(a).ld_page_table = 7; },
       {"ld_page_table"}},
      {"page_table_rows * ld_page_table overflows",
       [](TopkArgs& a) { with_page_table(a).page_table_rows = int64_t{1} << 60; },
       {"ld_page_table"}},
      {"page_table unaligned",
       [](TopkArgs& a) { with_page_table(a).page_table = misaligned_ints(); },
       {"page_table"}},
      {"ld_raw < k with raw_indices",
       [](TopkArgs& a) {
         with_page_table(a).raw_indices = fake_device_memory;
         a.ld_raw = 9;
       },
       {"ld_raw"}},
      {"raw_indices unaligned for int64",
       [](TopkArgs& a) {
         with_page_table(a).raw_indices = fake_device_memory + 4;
         a.index_type = IndexType::i64;
       },
       {"raw_indices"}},
      {"seq_lens unaligned", [](TopkArgs& a) { a.seq_lens = misaligned_ints(); }, {"seq_lens"}},
      {"row_to_batch unaligned",
       [](TopkArgs& a) { with_page_table(a).row_to_batch = misaligned_ints(); },
       {"row_to_batch"}},
      {"page_size without page_table", [](TopkArgs& a) { a.page_size = 64; }, {"page_size"}},
      {"k_per_row unaligned", [](TopkArgs& a) { a.k_per_row = misaligned_ints(); }, {"k_per_row"}},
      {"begin unaligned", [](TopkArgs& a) { a.begin = misaligned_ints(); }, {"begin"}},
      {"end unaligned", [](TopkArgs& a) { a.end = misaligned_ints(); }, {"end"}},
      {"index_offset unaligned",
       [](TopkArgs& a) { a.index_offset = misaligned_ints(); },
       {"index_offset"}},
      {"row_status unaligned",
       [](TopkArgs& a) { a.row_status = const_cast<int32_t*>(misaligned_ints()); },
       {"row_status"}},
      {"rows * ld_idx overflows",
       [](TopkArgs& a) {
         a.index_type = IndexType::i64;
         a.ld_idx = std::numeric_limits<int64_t>::max() / 8 / a.rows + 1;
       },
       {"ld_idx"}},
      {"rows * ld_val overflows",
       [](TopkArgs& a) {
         a.values = fake_device_memory;
         a.ld_val = std::numeric_limits<int64_t>::max() / 4 / a.rows + 1;
       },
       {"ld_val"}},
      {"rows * ld_raw overflows",
       [](TopkArgs& a) {
         with_page_table(a).raw_indices = fake_device_memory;
         a.ld_raw = std::numeric_limits<int64_t>::max() / 4 / a.rows + 1;
       },
       {"ld_raw"}},
  };
  for (const BadCase& bad : cases) {
    CAPTURE(bad.what);
    TopkArgs args = valid_args();
    bad.spoil(args);
    const std::string rejected = rejected_argument(args);
    CAPTURE(rejected);
    CHECK(std::find(bad.expected.begin(), bad.expected.end(), rejected) != bad.expected.end());
  }
}

TEST_CASE("topk args: int64 indices accept any fill_index") {
  TopkArgs args = valid_args();
  args.index_type = IndexType::i64;
  args.fill_index = int64_t{1} << 40;
  args.k = 0;  // still rejected, but for k: fill_index itself is fine
  CHECK(rejected_argument(args) == "k");
}

// A spec built without its scan serves only rows it holds whole: topk_with_spec refuses longer
// ones before anything is launched (here, with no GPU, nothing could be).
TEST_CASE("topk args: a rows=whole spec is refused for rows it does not hold whole") {
  KernelSpec spec = KernelSpec::parse(
      "kind=topk dtype=f32 k_max=2048 B=8192 B2=4096 threads=512 cluster=16 stages=2 rows=whole");
  TopkArgs args = valid_args();
  args.rows = 1;
  args.k = 2048;
  args.n = 1 << 20;
  args.ld = args.n;
  REQUIRE_FALSE(spec.holds_rows_whole(args.n));
  try {
    topk_with_spec(args, spec, nullptr);
    FAIL("a rows=whole spec was accepted for rows of 2^20 columns");
  } catch (const ArgumentError& error) {
    CHECK(error.argument() == "spec");
    CHECK(std::string(error.what()).find("1048576") != std::string::npos);
  }
}

TEST_CASE("topk args: the message names the argument and its value") {
  TopkArgs args = valid_args();
  args.k = 4097;
  try {
    topk(args, nullptr);
    FAIL("k = 4097 was accepted");
  } catch (const ArgumentError& error) {
    const std::string message = error.what();
    CHECK(message.find("'k'") != std::string::npos);
    CHECK(message.find("4097") != std::string::npos);
  }
}

}  // namespace deepselect::testing
