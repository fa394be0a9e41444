// KernelSpec: canonical text, parse errors, validation, symbols, the planner's choice of spec
// and the default spec list under cache/.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <functional>
#include <iterator>
#include <regex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <deepselect/deepselect.hpp>

#include "codegen.hpp"
#include "plan.hpp"
#include "spec.hpp"
#include "spec_list.hpp"
#include "test_support.hpp"
#include "tuning_table.hpp"

namespace deepselect {
namespace {

constexpr Arch kSm90{90};
constexpr Arch kSm100{100};
constexpr DType kDTypes[] = {DType::f32, DType::bf16, DType::f16};
constexpr int kH200Sms = 132;
// Enough rows to fill any GPU: the planner then uses one CTA per row.
constexpr int64_t kManyRows = 1 << 20;
constexpr int64_t kRowLength = 131072;

KernelSpec fill_test_spec(int threads, int cluster) {
  KernelSpec spec;
  spec.kind = KernelKind::fill_test;
  spec.threads = threads;
  spec.cluster = cluster;
  return spec;
}

// The ArgumentError that fn throws, as (argument, message); argument is "<accepted>" when fn
// throws nothing.
struct Rejection {
  std::string argument = "<accepted>";
  std::string message;
};

Rejection rejection_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const ArgumentError& error) {
    return Rejection{error.argument(), error.what()};
  }
  return {};
}

Rejection parse_rejection(const std::string& text) {
  return rejection_of([&] { (void)KernelSpec::parse(text); });
}

Rejection validate_rejection(const KernelSpec& spec) {
  return rejection_of([&] { spec.validate(); });
}

std::vector<std::string> texts_of(const std::vector<KernelSpec>& specs) {
  std::vector<std::string> texts;
  for (const KernelSpec& spec : specs) texts.push_back(spec.to_string());
  return texts;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST_CASE("spec: to_string and parse round trip every planner spec and the fill test spec") {
  std::vector<KernelSpec> specs = planner_specs(kSm90);
  const std::vector<KernelSpec> sm100 = planner_specs(kSm100);
  specs.insert(specs.end(), sm100.begin(), sm100.end());
  for (Arch arch : {kSm90, kSm100}) {
    KernelSpec fill = fill_test_spec(128, 2);
    fill.arch = arch;
    specs.push_back(fill);
  }
  // Per arch: 3 dtypes x 6 k buckets x (4 cluster sizes + a lone CTA's kernel for rows it takes
  // whole), a 16-CTA cluster's for the 5 buckets up to 2048, 2 dtypes x 3 indexer variants x 6,
  // plus f32 scanning at k = 1024 with the smaller B2 and 16-bit scanning at k = 2048 with the
  // larger (bf16's four indexer variants, f16's one), and f32 scanning at B = 8192 in the 4
  // buckets below 2048 and 2048's four indexer variants, and 16-bit scanning with four stages in
  // the 4 buckets below 2048, and f32 2-CTA clusters at three stages in the 4 buckets below 2048
  // and in 2048's two full-row variants, f32 4-CTA clusters at three stages in the 4 buckets
  // below 2048, and f32 2-CTA clusters at two stages in the 3 buckets up to 512 (four: above),
  // and the 8- and 16-CTA kernels built for rows they hold whole (45), and the 16-bit lone CTAs'
  // scanning kernels built for full rows they scan (24: below), and the f32 2-CTA kernels over
  // full rows built for rows they scan (16: below), and the lone f32 B = 8192 CTAs' scanning
  // kernels built for full rows they scan (6: below).
  REQUIRE(specs.size() == 2 * (90 + 15 + 36 + 1 + 5 + 8 + 8 + 6 + 4 + 3 + 45 + 24 + 16 + 6) + 2);
  for (const KernelSpec& spec : specs) {
    const std::string text = spec.to_string();
    INFO(text);
    const KernelSpec parsed = KernelSpec::parse(text);
    CHECK(parsed == spec);
    CHECK(parsed.to_string() == text);
    CHECK(text.find("arch=" + spec.arch.to_string()) != std::string::npos);
  }
}

TEST_CASE("spec: parse takes fields in any order and missing fields keep their defaults") {
  CHECK(KernelSpec::parse("") == KernelSpec{});
  CHECK(KernelSpec::parse("  \t ") == KernelSpec{});

  KernelSpec expected;
  expected.dtype = DType::bf16;
  expected.k_max = 64;
  expected.arch = kSm100;
  CHECK(KernelSpec::parse("arch=sm_100a\tk_max=64   dtype=bf16").to_string() ==
        expected.to_string());
  CHECK(KernelSpec::parse("kind=fill_test threads=128 cluster=2") == fill_test_spec(128, 2));
}

TEST_CASE("spec: row bounds, epilogue and row path variants parse, differ and are topk-only") {
  const KernelSpec paged = KernelSpec::parse("bounds=decode epilogue=page_table");
  CHECK(paged.bounds == RowBounds::decode);
  CHECK(paged.epilogue == Epilogue::page_table);
  CHECK(KernelSpec::parse(paged.to_string()) == paged);
  CHECK(paged.symbol() != KernelSpec{}.symbol());
  CHECK(paged.symbol() != KernelSpec::parse("epilogue=page_table").symbol());
  CHECK(KernelSpecHash{}(paged) != KernelSpecHash{}(KernelSpec{}));
  paged.validate();
  KernelSpec fill = fill_test_spec(128, 2);
  fill.epilogue = Epilogue::page_table;
  CHECK(validate_rejection(fill).argument == "epilogue");
  KernelSpec bad = KernelSpec{};
  bad.bounds = static_cast<RowBounds>(5);
  CHECK(validate_rejection(bad).argument == "bounds");
  bad = KernelSpec{};
  bad.row_path = static_cast<RowPath>(3);
  CHECK(validate_rejection(bad).argument == "rows");
  // Each row path is its own kernel: text, symbol and hash.
  KernelSpec whole = KernelSpec{};
  whole.row_path = RowPath::whole;
  KernelSpec scanned = KernelSpec{};
  scanned.row_path = RowPath::scanned;
  for (const KernelSpec& spec : {whole, scanned}) {
    CHECK(KernelSpec::parse(spec.to_string()) == spec);
    CHECK(spec.symbol() != KernelSpec{}.symbol());
    CHECK(KernelSpecHash{}(spec) != KernelSpecHash{}(KernelSpec{}));
  }
  CHECK(whole.symbol() != scanned.symbol());
  CHECK(KernelSpecHash{}(whole) != KernelSpecHash{}(scanned));
  CHECK(KernelSpec::parse("rows=any", scanned) == KernelSpec{});
}

TEST_CASE("spec: parse errors name the field and quote the bad value") {
  struct Case {
    const char* text;
    const char* argument;
    const char* quoted;  // part of the message
  };
  const Case cases[] = {
      {"k_max=abc", "k_max", "abc"},
      {"k_max=12x", "k_max", "12x"},
      {"k_max=", "k_max", "''"},
      {"B=4k", "B", "4k"},
      {"B2=-", "B2", "-"},
      {"threads=1.5", "threads", "1.5"},
      {"cluster=two", "cluster", "two"},
      {"kind=gemm", "kind", "gemm"},
      {"dtype=f64", "dtype", "f64"},
      {"arch=sm_80", "arch", "sm_80"},
      {"epilogue=relu", "epilogue", "relu"},
      {"bounds=causal", "bounds", "causal"},
      {"rows=some", "rows", "some"},
      {"bogus=1", "spec", "bogus"},
      {"k_max", "spec", "k_max"},
      {"kind=topk k_max=64 B=x", "B", "x"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    const Rejection rejection = parse_rejection(c.text);
    CHECK(rejection.argument == c.argument);
    CHECK(rejection.message.find(c.quoted) != std::string::npos);
  }
}

TEST_CASE("spec: Arch text form") {
  CHECK(kSm90.to_string() == "sm_90a");
  CHECK(kSm100.to_string() == "sm_100a");
  CHECK(Arch::parse("sm_90a") == kSm90);
  CHECK(Arch::parse("sm_100a") == kSm100);
  for (const char* bad : {"sm_80", "sm_90", "90", "", "sm_120a"}) {
    INFO(bad);
    const Rejection rejection = rejection_of([&] { (void)Arch::parse(bad); });
    CHECK(rejection.argument == "arch");
  }
}

TEST_CASE("spec: validate rejects bad values, naming the field and the rule") {
  struct Case {
    const char* name;
    std::function<void(KernelSpec&)> change;
    const char* argument;
    const char* rule;  // part of the message
  };
  const Case cases[] = {
      {"k_max 0", [](KernelSpec& s) { s.k_max = 0; }, "k_max", "1..4096"},
      {"k_max 4097", [](KernelSpec& s) { s.k_max = 4097; }, "k_max", "1..4096"},
      {"k_max -1", [](KernelSpec& s) { s.k_max = -1; }, "k_max", "1..4096"},
      {"B not a power of two", [](KernelSpec& s) { s.block = 3000; }, "B", "power of two"},
      {"B 0", [](KernelSpec& s) { s.block = 0; }, "B", "power of two"},
      {"B2 not a power of two", [](KernelSpec& s) { s.block2 = 3000; }, "B2", "power of two"},
      {"B/threads too small", [](KernelSpec& s) { s.block = 1024; }, "B", "B/threads"},
      {"B/threads too large", [](KernelSpec& s) { s.block = 32768; }, "B", "B/threads"},
      {"B/threads below the bf16 vector",
       [](KernelSpec& s) {
         s.dtype = DType::bf16;
         s.block = 2048;
       },
       "B", "B/threads"},
      {"threads 64", [](KernelSpec& s) { s.threads = 64; }, "threads", "64"},
      {"threads 384", [](KernelSpec& s) { s.threads = 384; }, "threads", "384"},
      {"shared memory too large",
       [](KernelSpec& s) {
         s.k_max = 4096;  // (4096 + 16384 + 8192) candidates of 8 bytes
         s.block = 16384;
         s.block2 = 8192;
         s.threads = 1024;
       },
       "B", "shared memory"},
      {"buffer cannot hold the sort",
       [](KernelSpec& s) {
         s.k_max = 2049;
         s.block = 512;
         s.block2 = 1;
         s.threads = 128;
       },
       "B2", "sort"},
      {"topk cluster 3", [](KernelSpec& s) { s.cluster = 3; }, "cluster", "1, 2, 4, 8"},
      {"topk cluster 0", [](KernelSpec& s) { s.cluster = 0; }, "cluster", "1, 2, 4, 8"},
      {"topk cluster 32", [](KernelSpec& s) { s.cluster = 32; }, "cluster", "1, 2, 4, 8, 16"},
      {"topk stages 1", [](KernelSpec& s) { s.stages = 1; }, "stages", "2..8"},
      {"topk stages 9", [](KernelSpec& s) { s.stages = 9; }, "stages", "2..8"},
      {"arch sm_80", [](KernelSpec& s) { s.arch = Arch{80}; }, "arch", "sm_80"},
      {"dtype out of range", [](KernelSpec& s) { s.dtype = static_cast<DType>(7); }, "dtype", "7"},
      {"fill_test cluster 0", [](KernelSpec& s) { s = fill_test_spec(128, 0); }, "cluster",
       "1..16"},
      {"fill_test cluster 17", [](KernelSpec& s) { s = fill_test_spec(128, 17); }, "cluster",
       "1..16"},
      {"fill_test threads 100", [](KernelSpec& s) { s = fill_test_spec(100, 1); }, "threads",
       "100"},
  };
  for (const Case& c : cases) {
    KernelSpec spec;  // the planner's f32 k_max=2048 spec: valid until changed
    REQUIRE(validate_rejection(spec).argument == "<accepted>");
    c.change(spec);
    INFO(c.name, ": ", spec.to_string());
    const Rejection rejection = validate_rejection(spec);
    CHECK(rejection.argument == c.argument);
    CHECK(rejection.message.find(c.rule) != std::string::npos);
  }
}

TEST_CASE("spec: validate accepts the edges of every range") {
  std::vector<KernelSpec> valid = {KernelSpec{}, fill_test_spec(128, 1), fill_test_spec(1024, 16)};
  KernelSpec spec;
  spec.k_max = 1;
  valid.push_back(spec);
  spec.k_max = 4096;
  valid.push_back(spec);
  spec = KernelSpec{};
  spec.threads = 128;  // B/threads = 32, the largest
  valid.push_back(spec);
  spec = KernelSpec{};
  spec.block = 2048;  // B/threads = 4, the f32 vector
  spec.block2 = 2048;
  valid.push_back(spec);
  spec = KernelSpec{};
  spec.dtype = DType::f16;  // B/threads = 8, the 16-bit vector
  valid.push_back(spec);
  spec.arch = kSm100;
  valid.push_back(spec);
  for (const KernelSpec& s : valid) {
    INFO(s.to_string());
    CHECK(validate_rejection(s).argument == "<accepted>");
  }
  for (Arch arch : {kSm90, kSm100}) {
    for (const KernelSpec& s : default_specs(arch)) {
      INFO(s.to_string());
      CHECK(validate_rejection(s).argument == "<accepted>");
      CHECK(s.dynamic_smem_bytes() <= kMaxDynamicSmemBytes);
    }
  }
}

TEST_CASE("spec: symbols are C identifiers and differ between specs") {
  std::vector<KernelSpec> specs = planner_specs(kSm90);
  for (auto [threads, cluster] : {std::pair{128, 1}, {128, 2}, {256, 2}, {1024, 16}}) {
    specs.push_back(fill_test_spec(threads, cluster));
  }
  // One field changed at a time from the planner's default spec.
  const std::function<void(KernelSpec&)> changes[] = {
      [](KernelSpec& s) { s.dtype = DType::f16; }, [](KernelSpec& s) { s.k_max = 100; },
      [](KernelSpec& s) { s.block = 8192; },       [](KernelSpec& s) { s.block2 = 1024; },
      [](KernelSpec& s) { s.threads = 1024; },
  };
  for (const auto& change : changes) {
    KernelSpec spec;
    change(spec);
    specs.push_back(spec);
  }
  const std::regex identifier("[A-Za-z_][A-Za-z0-9_]*");
  std::set<std::string> symbols;
  std::set<std::string> texts;
  for (const KernelSpec& spec : specs) {
    INFO(spec.to_string());
    CHECK(std::regex_match(spec.symbol(), identifier));
    // Every spec listed once, so every symbol must be new.
    if (texts.insert(spec.to_string()).second) CHECK(symbols.insert(spec.symbol()).second);
  }
  CHECK(symbols.size() == specs.size());
}

// Rows of bounded lengths (begin / end arrays) here and in the next two tests: full f32 rows take
// 16-CTA clusters on more rows (the test after them).
KernelSpec plan_bounded(DType dtype, int k, int64_t rows, int64_t n, const DeviceInfo& device) {
  return plan_spec(dtype, k, rows, n, device, RowBounds::range, Epilogue::plain,
                   RowLengths::bounded);
}

// The plans of rows that may end sooner than n: bounded lengths, and decode bounds.
std::array<KernelSpec, 2> plans_of_shorter_rows(DType dtype, int k, int64_t rows, int64_t n,
                                                const DeviceInfo& device) {
  return {
      plan_bounded(dtype, k, rows, n, device),
      plan_spec(dtype, k, rows, n, device, RowBounds::decode, Epilogue::plain, RowLengths::full)};
}

// Whether precompile builds spec's row bounds and epilogue for its dtype and k bucket.
bool precompiled_variant(const KernelSpec& spec) {
  const std::vector<KernelOptions> options = precompiled_options(spec.dtype, spec.k_max);
  return std::any_of(options.begin(), options.end(), [&](const KernelOptions& option) {
    return option.bounds == spec.bounds && option.epilogue == spec.epilogue;
  });
}

TEST_CASE("plan: rows that cannot fill the GPU share a cluster of CTAs per row") {
  const std::pair<int64_t, int> rows_to_cluster[] = {
      {1, 16}, {4, 16}, {5, 8},  {8, 8},  {9, 8},   {16, 8},   {17, 4},
      {33, 2}, {64, 2}, {65, 2}, {66, 1}, {132, 1}, {1024, 1}, {kManyRows, 1}};
  for (auto [rows, cluster] : rows_to_cluster) {
    INFO("rows=", rows);
    const KernelSpec spec =
        plan_bounded(DType::f32, 2048, rows, kRowLength, DeviceInfo{kSm90, kH200Sms});
    CHECK(spec.cluster == cluster);
    CHECK(validate_rejection(spec).argument == "<accepted>");
  }
}

// 16-CTA clusters where they split the rows over at most half the SMs, at k <= 2048 only, and
// not where the caller (topk(), when the GPU cannot hold the clusters at once) rules them out.
TEST_CASE("plan: up to k = 2048, rows on at most half the SMs take 16-CTA clusters") {
  const DeviceInfo h200{kSm90, kH200Sms};
  const std::pair<int64_t, int> rows_to_cluster[] = {{1, 16}, {2, 16}, {4, 16}, {5, 8},
                                                     {8, 8},  {16, 8}, {17, 4}};
  for (DType dtype : kDTypes) {
    for (int k : {1, 50, 64, 256, 512, 1000, 1024, 1025, 2048}) {
      for (auto [rows, cluster] : rows_to_cluster) {
        INFO(dtype_name(dtype), " k=", k, " rows=", rows);
        const KernelSpec spec = plan_bounded(dtype, k, rows, 129280, h200);
        CHECK(spec.cluster == cluster);
        CHECK(validate_rejection(spec).argument == "<accepted>");
      }
    }
    for (int k : {2049, 4096}) {
      INFO(dtype_name(dtype), " k=", k);
      CHECK(plan_spec(dtype, k, 1, 131072, h200).cluster == 8);
    }
    DeviceInfo narrow = h200;
    narrow.largest_cluster = kMaxPortableCluster;
    const KernelSpec portable = plan_spec(dtype, 50, 1, 129280, narrow);
    CHECK(portable.cluster == 8);
    CHECK(portable == plan_bounded(dtype, 50, 8, 129280, h200));
  }
  // A GPU of fewer SMs keeps 16-CTA clusters for fewer rows.
  CHECK(plan_bounded(DType::f32, 50, 1, 129280, DeviceInfo{kSm90, 32}).cluster == 16);
  CHECK(plan_bounded(DType::f32, 50, 2, 129280, DeviceInfo{kSm90, 32}).cluster == 8);
  CHECK(plan_bounded(DType::f32, 50, 1, 129280, DeviceInfo{kSm90, 31}).cluster == 8);
  // Full f32 rows: as many as the SMs hold 16 CTAs each, wide_f32_rows.
  CHECK(plan_spec(DType::f32, 50, 2, 129280, DeviceInfo{kSm90, 32}).cluster == 16);
  CHECK(plan_spec(DType::f32, 50, 2, 129280, DeviceInfo{kSm90, 31}).cluster == 8);
}

// topk() plans again with half the CTAs per cluster while the GPU cannot hold a call's clusters
// at once (DeviceInfo::largest_cluster): every capped plan keeps to the cap, splits the rows over
// as many CTAs as the uncapped rule would give up to it, and is one of planner_specs.
TEST_CASE("plan: a largest_cluster caps the CTAs per row, to specs that precompile builds") {
  const std::vector<std::string> planned = texts_of(planner_specs(kSm90));
  for (DType dtype : kDTypes) {
    for (int k : {50, 512, 1024, 2048, 4096}) {
      for (int64_t rows = 1; rows <= 66; ++rows) {
        for (bool full : {false, true}) {
          const RowLengths lengths = full ? RowLengths::full : RowLengths::bounded;
          const KernelSpec uncapped =
              plan_spec(dtype, k, rows, kRowLength, DeviceInfo{kSm90, kH200Sms}, RowBounds::range,
                        Epilogue::plain, lengths);
          for (int cap : {1, 2, 4, 8}) {
            INFO(dtype_name(dtype), " k=", k, " rows=", rows, " full=", full, " cap=", cap);
            DeviceInfo capped{kSm90, kH200Sms};
            capped.largest_cluster = cap;
            const KernelSpec spec = plan_spec(dtype, k, rows, kRowLength, capped, RowBounds::range,
                                              Epilogue::plain, lengths);
            CHECK(spec.cluster == std::min(uncapped.cluster, cap));
            if (uncapped.cluster <= cap) CHECK(spec == uncapped);
            CHECK(std::find(planned.begin(), planned.end(), spec.to_string()) != planned.end());
          }
        }
      }
    }
  }
}

// Whether split's CTAs hold their parts of a row of n columns whole: the widest part (the row
// plus its misaligned head, in whole vectors, split over the cluster) fits the buffer, and its
// staged copy and candidate words fit the shared memory.
void check_holds_parts_whole(const KernelSpec& split, int64_t n) {
  const int64_t bytes = static_cast<int64_t>(dtype_bytes(split.dtype));
  const int64_t vector = 16 / bytes;
  const int64_t part = ((n + vector - 1) / vector + 1 + split.cluster - 1) / split.cluster * vector;
  CHECK(part <= split.k_max + split.block + split.block2);
  CHECK(part * (static_cast<int64_t>(sizeof(uint64_t)) + bytes) <=
        static_cast<int64_t>(split.dynamic_smem_bytes()));
}

// The kernel takes a CTA's part of the row whole (no scan) when the part fits its buffer of
// k_max + B + B2 words and its staging area at the end of shared memory lies above the part's
// candidate words (templates/topk_kernel.cuh resident_fits); the planner sizes B2 so that it
// does for the indexer's decode rows on 8-CTA clusters and on 16-CTA clusters at k = 2048, and
// only there.
TEST_CASE("plan: split rows at k <= 2048 hold a 128K row's part whole; other plans scan") {
  for (DType dtype : {DType::f32, DType::bf16, DType::f16}) {
    const DeviceInfo h200{kSm90, kH200Sms};
    for (auto [k, rows, cluster, block2] : {std::tuple{2048, 1, 16, 4096},
                                            {2048, 4, 16, 4096},
                                            {2048, 5, 8, 16384},
                                            {2048, 16, 8, 16384},
                                            {1024, 8, 8, 16384},
                                            {512, 6, 8, 16384},
                                            {64, 5, 8, 16384}}) {
      INFO(dtype_name(dtype), " k=", k, " rows=", rows);
      const KernelSpec split = plan_bounded(dtype, k, rows, 131072, h200);
      CHECK(split.cluster == cluster);
      CHECK(split.block2 == block2);
      check_holds_parts_whole(split, 131072);
      CHECK(validate_rejection(split).argument == "<accepted>");
    }
    INFO(dtype_name(dtype));
    CHECK(plan_spec(dtype, 4096, 1, 131072, h200).block2 == 1024);
    CHECK(plan_spec(dtype, 512, 1, 131072, h200).block2 == 2048);  // 16 CTAs scan
    CHECK(plan_spec(dtype, 2048, 64, 131072, h200).block2 == 4096);
    CHECK(plan_spec(dtype, 1024, 64, 131072, h200).block2 == 2048);
    // A lone CTA scans, with buffer_when_scanning's B2 (16-bit rows at k = 2048: 4096).
    CHECK(plan_spec(dtype, 2048, 1024, 131072, h200).block2 ==
          (dtype_bytes(dtype) == 2 ? 4096 : 2048));
  }
}

// The 8- and 16-CTA kernels are built without their scan (RowPath::whole, "rows=whole") where every
// row of up to n columns lies whole in their CTAs at its worst 16-byte alignment
// (KernelSpec::holds_rows_whole, templates/resident_part.cuh), bounded rows too; one column more
// and they keep it. Smaller clusters and lone CTAs keep it everywhere.
TEST_CASE("plan: 8- and 16-CTA kernels are built without their scan where they hold every row") {
  const DeviceInfo h200{kSm90, kH200Sms};
  for (DType dtype : {DType::f32, DType::bf16, DType::f16}) {
    for (auto [k, rows, cluster] :
         {std::tuple{2048, 1, 16}, {64, 2, 16}, {512, 9, 8}, {2048, 9, 8}, {64, 9, 8}}) {
      INFO(dtype_name(dtype), " k=", k, " rows=", rows);
      const KernelSpec planned = plan_spec(dtype, k, rows, 131072, h200);
      REQUIRE(planned.cluster == cluster);
      // The longest row it holds whole: every shorter one too, none longer.
      const int64_t longest = testing::longest_row_held_whole(planned, 131072);
      for (int64_t n : {int64_t{1}, int64_t{4097}, int64_t{65536}, longest / 2, longest}) {
        CHECK(planned.holds_rows_whole(n));
      }
      for (int64_t n : {longest + 1, longest + 64, int64_t{1} << 20, int64_t{1} << 30}) {
        CHECK_FALSE(planned.holds_rows_whole(n));
      }
      // Rows that start on a 16-byte boundary fit vector - 1 columns more; past that none fits.
      const int64_t vector = 16 / static_cast<int64_t>(dtype_bytes(dtype));
      CHECK_FALSE(planned.holds_no_row_whole(longest + vector - 1));
      CHECK(planned.holds_no_row_whole(longest + vector));
      for (int64_t n : {int64_t{131072}, longest}) {
        CHECK(plan_spec(dtype, k, rows, n, h200).row_path == RowPath::whole);
        CHECK(plan_bounded(dtype, k, rows, n, h200).row_path == RowPath::whole);
      }
      const KernelSpec longer = plan_spec(dtype, k, rows, longest + 1, h200);
      CHECK(longer.row_path == RowPath::any);
      CHECK(longer.cluster == cluster);
      CHECK(KernelSpec::parse(planned.to_string()) == planned);
      CHECK(planned.to_string().find(" rows=whole ") != std::string::npos);
      CHECK(planned.symbol() != longer.symbol());
    }
    INFO(dtype_name(dtype));
    CHECK(plan_spec(dtype, 2048, 64, 4096, h200).row_path == RowPath::any);    // 2-CTA clusters
    CHECK(plan_spec(dtype, 1024, 20, 4096, h200).row_path == RowPath::any);    // 4-CTA clusters
    CHECK(plan_spec(dtype, 2048, 1024, 4096, h200).row_path == RowPath::any);  // lone CTAs
  }
  KernelSpec floor = plan_spec(DType::f32, 2048, 1, 131072, h200);
  floor.kind = KernelKind::read_floor;
  CHECK(validate_rejection(floor).argument == "rows");
}

// Lone CTAs over full 16-bit rows longer than their buffer are built without their resident load
// (RowPath::scanned, "rows=scanned"): dsa-bf16-b256's rows at each k bucket, from the first length
// past the buffer on; and so are f32 2-CTA clusters over full rows whose parts they scan
// (dsa-decode-b64's, sample-b64's) and lone 256-thread f32 CTAs at B = 8192 over long full rows
// (sample-b256's). Rows the buffers hold, bounded rows (short ones among them), lone f32 CTAs at
// B = 4096 or 512 threads, 16-bit 2-CTA clusters and larger clusters keep it.
TEST_CASE(
    "plan: lone 16-bit CTAs, lone f32 CTAs at B = 8192 and f32 2-CTA clusters scanning full rows "
    "shed their resident load") {
  const DeviceInfo h200{kSm90, kH200Sms};
  for (DType dtype : {DType::bf16, DType::f16}) {
    for (int k : {50, 256, 512, 1000, 2048, 4096}) {
      for (int64_t rows : {256, 1024}) {
        INFO(dtype_name(dtype), " k=", k, " rows=", rows);
        const KernelSpec scanning = plan_spec(dtype, k, rows, 131072, h200);
        REQUIRE(scanning.cluster == 1);
        CHECK(scanning.row_path == RowPath::scanned);
        CHECK(plan_spec(dtype, k, rows, int64_t{1} << 30, h200).row_path == RowPath::scanned);
        CHECK(plan_bounded(dtype, k, rows, 131072, h200).row_path == RowPath::any);
        for (int64_t n : {int64_t{1}, int64_t{4096}, int64_t{6007}, int64_t{8192}, int64_t{8193},
                          int64_t{20000}, int64_t{40001}}) {
          INFO("n=", n);
          const KernelSpec planned = plan_spec(dtype, k, rows, n, h200);
          CHECK((planned.row_path == RowPath::scanned) == (n > planned.buffer_words()));
        }
        KernelSpec resident = scanning;
        resident.row_path = RowPath::any;
        CHECK(KernelSpec::parse(scanning.to_string()) == scanning);
        CHECK(scanning.to_string().find(" rows=scanned ") != std::string::npos);
        CHECK(scanning.symbol() == resident.symbol() + "_scanned");
      }
    }
    INFO(dtype_name(dtype));
    CHECK(plan_spec(dtype, 512, 64, 131072, h200).row_path == RowPath::any);  // 2-CTA clusters
  }
  const DType f32 = DType::f32;
  for (int k : {50, 512, 1000, 2048, 4096}) {
    for (int64_t rows : {49, 64, 65}) {
      INFO("f32 k=", k, " rows=", rows);
      const KernelSpec scanning = plan_spec(f32, k, rows, 129280, h200);
      REQUIRE(scanning.cluster == 2);
      CHECK(scanning.row_path == RowPath::scanned);
      CHECK(plan_spec(f32, k, rows, int64_t{1} << 30, h200).row_path == RowPath::scanned);
      CHECK(plan_bounded(f32, k, rows, 131072, h200).row_path == RowPath::any);
      CHECK(plan_spec(f32, k, rows, 8192, h200).row_path == RowPath::any);
      for (int64_t n : {int64_t{1}, int64_t{16384}, int64_t{40001}, int64_t{65536}, int64_t{100003},
                        int64_t{131072}}) {
        INFO("n=", n);
        const KernelSpec planned = plan_spec(f32, k, rows, n, h200);
        CHECK((planned.row_path == RowPath::scanned) == planned.holds_no_row_whole(n));
      }
      KernelSpec resident = scanning;
      resident.row_path = RowPath::any;
      CHECK(scanning.symbol() == resident.symbol() + "_scanned");
    }
  }
  CHECK(plan_spec(f32, 1024, 20, 131072, h200).row_path == RowPath::any);  // 4-CTA clusters
  // A 2-CTA cluster at k = 2048 holds halves of up to 14,336 columns whole (k + B2 + B words).
  CHECK(plan_spec(f32, 2048, 64, 16384, h200).row_path == RowPath::any);
  CHECK(plan_spec(f32, 2048, 64, 28672, h200).row_path == RowPath::any);
  CHECK(plan_spec(f32, 2048, 64, 40001, h200).row_path == RowPath::scanned);
  // Lone f32 CTAs: those at B = 8192 (256 threads, long rows in one wave) scan full rows without
  // their resident load; those at B = 4096 keep it.
  for (int k : {50, 512, 1000, 2048}) {
    for (int64_t rows : {int64_t{133}, int64_t{200}, int64_t{2 * kH200Sms}}) {
      for (int64_t n : {int64_t{131072}, int64_t{151936}, int64_t{262144}}) {
        INFO("lone f32 k=", k, " rows=", rows, " n=", n);
        const KernelSpec scanning = plan_spec(f32, k, rows, n, h200);
        REQUIRE(scanning.cluster == 1);
        REQUIRE(scanning.block == 8192);
        CHECK(scanning.row_path == RowPath::scanned);
        CHECK(plan_bounded(f32, k, rows, n, h200).row_path == RowPath::any);
        KernelSpec wider = scanning;
        wider.threads = 512;
        CHECK(row_path_for(wider, n, true) == RowPath::any);
        KernelSpec largest_k = scanning;  // (a tuned or overridden choice: 112 KB, unmeasured)
        largest_k.k_max = 4096;
        CHECK(row_path_for(largest_k, n, true) == RowPath::any);
      }
    }
    for (const KernelSpec& smaller_blocks : {plan_spec(f32, k, 2 * kH200Sms + 1, 131072, h200),
                                             plan_spec(f32, k, 200, 131071, h200)}) {
      INFO(smaller_blocks.to_string());
      REQUIRE(smaller_blocks.cluster == 1);
      REQUIRE(smaller_blocks.threads == 256);
      REQUIRE(smaller_blocks.block == 4096);
      CHECK(smaller_blocks.row_path == RowPath::any);
    }
  }
  const KernelSpec largest_k = plan_spec(f32, 4096, 200, 131072, h200);
  REQUIRE(largest_k.cluster == 1);
  REQUIRE(largest_k.block == 4096);
  CHECK(largest_k.row_path == RowPath::any);
  CHECK(plan_spec(f32, 2048, 1024, 131072, h200).row_path == RowPath::any);
  CHECK(plan_spec(f32, 1024, 256, 151936, h200).row_path == RowPath::scanned);
  KernelSpec floor = plan_spec(DType::bf16, 512, 256, 131072, h200);
  floor.kind = KernelKind::read_floor;
  CHECK(validate_rejection(floor).argument == "rows");
}

// Full f32 rows of more than 65,536 columns take 16-CTA clusters on up to all the SMs (src/plan.cpp
// wide_f32_rows): the kernels that one such row takes, so no new spec; their buffers hold a
// 131,072-column row's parts whole. Not 16-bit rows, rows of bounded lengths (begin / end or
// decode bounds), shorter rows, more rows, larger k, or where topk() rules wide clusters out.
TEST_CASE("plan: full f32 rows of more than 65,536 columns take 16-CTA clusters on all the SMs") {
  const DeviceInfo h200{kSm90, kH200Sms};
  for (int k : {1, 50, 64, 256, 700, 1024, 2048}) {
    for (int64_t rows : {5, 6, 7, 8}) {
      for (int64_t n : {65537, 81920, 131072, 262144}) {
        INFO("k=", k, " rows=", rows, " n=", n);
        const KernelSpec wide = plan_spec(DType::f32, k, rows, n, h200);
        CHECK(wide.cluster == 16);
        CHECK(wide == plan_spec(DType::f32, k, 1, n, h200));
        CHECK(validate_rejection(wide).argument == "<accepted>");
      }
      check_holds_parts_whole(plan_spec(DType::f32, k, rows, 131072, h200), 131072);
      INFO("k=", k, " rows=", rows);
      CHECK(plan_spec(DType::f32, k, rows, 65536, h200).cluster == 8);
      CHECK(plan_bounded(DType::f32, k, rows, 131072, h200).cluster == 8);
      CHECK(plan_spec(DType::f32, k, rows, 131072, h200, RowBounds::decode).cluster == 8);
      CHECK(plan_spec(DType::bf16, k, rows, 131072, h200).cluster == 8);
      CHECK(plan_spec(DType::f16, k, rows, 131072, h200).cluster == 8);
    }
    INFO("k=", k);
    CHECK(plan_spec(DType::f32, k, 9, 131072, h200).cluster == 8);
    DeviceInfo narrow = h200;
    narrow.largest_cluster = kMaxPortableCluster;
    CHECK(plan_spec(DType::f32, k, 6, 131072, narrow).cluster == 8);
  }
  CHECK(plan_spec(DType::f32, 2049, 6, 131072, h200).cluster == 8);
  CHECK(plan_spec(DType::f32, 4096, 6, 131072, h200).cluster == 8);
}

TEST_CASE("plan: a lone CTA runs 256 threads but on rows that only its 512-thread buffer holds") {
  const DeviceInfo h200{kSm90, kH200Sms};
  const std::vector<std::string> planned = texts_of(planner_specs(kSm90));
  for (DType dtype : kDTypes) {
    for (int k : {64, 2048}) {
      INFO(dtype_name(dtype), " k=", k);
      const KernelSpec scanned = plan_spec(dtype, k, 1024, 131072, h200);
      REQUIRE(scanned.cluster == 1);
      CHECK(scanned.threads == 256);
      // The boundaries: rows of up to the 256-thread buffer's columns run 256, taken whole; up
      // to the 512-thread buffer's, 512, taken whole; longer ones 256, scanned.
      const KernelSpec short_rows = plan_spec(dtype, k, 4096, 1, h200);
      CHECK(short_rows.threads == 256);
      const int words_256 = short_rows.buffer_words();
      CHECK(plan_spec(dtype, k, 4096, words_256, h200).threads == 256);
      const KernelSpec medium_rows = plan_spec(dtype, k, 4096, words_256 + 1, h200);
      CHECK(medium_rows.threads == 512);
      const int words_512 = medium_rows.buffer_words();
      CHECK(words_512 > words_256);
      CHECK(plan_spec(dtype, k, 4096, words_512, h200).threads == 512);
      CHECK(plan_spec(dtype, k, 4096, words_512 + 1, h200).threads == 256);
      for (int64_t n : {int64_t(1), int64_t(words_512), int64_t(131072)}) {
        INFO("n=", n);
        CHECK(std::count(planned.begin(), planned.end(),
                         plan_spec(dtype, k, 4096, n, h200).to_string()) == 1);
      }
    }
    // A split row's CTAs run 512 whatever the row's length.
    CHECK(plan_spec(dtype, 2048, 1, 131072, h200).threads == 512);
    CHECK(plan_spec(dtype, 2048, 1, 1000, h200).threads == 512);
  }
  // What the kernel's buffer holds, in words (templates/topk_kernel.cuh kCapacity): past k + B2,
  // a whole block in a cluster's CTAs, one 16-byte vector per thread in a lone CTA.
  CHECK(KernelSpec::parse("kind=topk k_max=2048 B=4096 B2=2048 cluster=2").buffer_words() ==
        2048 + 4096 + 2048);
  CHECK(KernelSpec::parse("kind=topk k_max=2048 B=4096 B2=2048 threads=256").buffer_words() ==
        2048 + 2048 + 256 * 4);
  CHECK(KernelSpec::parse("kind=topk dtype=bf16 k_max=512 B=4096 B2=2048 threads=512")
            .buffer_words() == 512 + 2048 + 512 * 8);
}

// A lone CTA's plans at k: rows of long_n columns, which it scans with B2 = scanned_b2; rows it
// takes whole, which keep B2 = 2048 (the longest at 512 threads); and rows one column longer,
// which it scans with next_column_b2. Each is one of planner_specs and valid. Returns the first.
KernelSpec check_lone_cta_plans(DType dtype, int k, int64_t long_n, int scanned_b2,
                                int next_column_b2) {
  const DeviceInfo h200{kSm90, kH200Sms};
  const std::vector<std::string> planned = texts_of(planner_specs(kSm90));
  const KernelSpec scanned = plan_spec(dtype, k, 256, long_n, h200);
  REQUIRE(scanned.cluster == 1);
  CHECK(scanned.threads == 256);
  CHECK(scanned.block2 == scanned_b2);
  const KernelSpec short_rows = plan_spec(dtype, k, 4096, 4000, h200);
  CHECK(short_rows.threads == 256);
  CHECK(short_rows.block2 == 2048);
  KernelSpec at_512 = short_rows;
  at_512.threads = 512;
  const int words_512 = at_512.buffer_words();
  const KernelSpec medium_rows = plan_spec(dtype, k, 4096, words_512, h200);
  CHECK(medium_rows.threads == 512);
  CHECK(medium_rows.block2 == 2048);
  const KernelSpec longer_rows = plan_spec(dtype, k, 4096, words_512 + 1, h200);
  CHECK(longer_rows.threads == 256);
  CHECK(longer_rows.block2 == next_column_b2);
  for (const KernelSpec& spec : {scanned, short_rows, medium_rows, longer_rows}) {
    CHECK(std::count(planned.begin(), planned.end(), spec.to_string()) == 1);
    CHECK(validate_rejection(spec).argument == "<accepted>");
  }
  return scanned;
}

TEST_CASE("plan: a lone CTA that scans f32 rows at k = 513..1024 compacts at k + 1024") {
  const DeviceInfo h200{kSm90, kH200Sms};
  for (int k : {513, 600, 1000, 1024}) {
    INFO("k=", k);
    // Rows a CTA takes whole keep their buffer, and the next column scans with the smaller.
    const KernelSpec scanned = check_lone_cta_plans(DType::f32, k, 151936, 1024, 1024);
    CHECK(scanned.block == 8192);
    // Split rows keep the cluster's buffer.
    CHECK(plan_spec(DType::f32, k, 8, 151936, h200).block2 >= 2048);
  }
  // Other k buckets and 16-bit elements keep k + 2048.
  CHECK(plan_spec(DType::f32, 512, 256, 151936, h200).block2 == 2048);
  CHECK(plan_spec(DType::f32, 2048, 256, 151936, h200).block2 == 2048);
  CHECK(plan_spec(DType::bf16, 1024, 256, 151936, h200).block2 == 2048);
  CHECK(plan_spec(DType::f16, 1024, 256, 151936, h200).block2 == 2048);
}

TEST_CASE(
    "plan: a lone CTA that scans 16-bit rows of 131072+ columns at k = 1025..2048 compacts "
    "at k + 4096") {
  const DeviceInfo h200{kSm90, kH200Sms};
  const std::vector<std::string> planned = texts_of(planner_specs(kSm90));
  for (DType dtype : {DType::bf16, DType::f16}) {
    for (int k : {1025, 1500, 2048}) {
      INFO(dtype_name(dtype), " k=", k);
      // Rows a CTA takes whole keep their buffer, and so do shorter rows that it scans.
      const KernelSpec scanned = check_lone_cta_plans(dtype, k, 131072, 4096, 2048);
      CHECK(scanned.block == 8192);
      const KernelSpec below_128k = plan_spec(dtype, k, 256, 131071, h200);
      CHECK(below_128k.threads == 256);
      CHECK(below_128k.block2 == 2048);
      CHECK(std::count(planned.begin(), planned.end(), below_128k.to_string()) == 1);
      CHECK(validate_rejection(below_128k).argument == "<accepted>");
      CHECK(plan_spec(dtype, k, 256, 262144, h200) == scanned);
      // Two such CTAs still fit an SM, as with k + 2048 (src/codegen.hpp ctas_per_sm).
      CHECK(render_translation_unit(scanned).find("__launch_bounds__(256, 2)") !=
            std::string::npos);
      // Split rows keep the cluster's buffer.
      CHECK(plan_spec(dtype, k, 8, 131072, h200).block2 == 16384);
    }
    // Other k buckets and f32 keep theirs.
    CHECK(plan_spec(dtype, 1024, 256, 131072, h200).block2 == 2048);
    CHECK(plan_spec(dtype, 4096, 256, 131072, h200).block2 == 1024);
  }
  CHECK(plan_spec(DType::f32, 2048, 256, 131072, h200).block2 == 2048);
}

TEST_CASE("plan: B = 8192 where it gives a thread more elements per scan step and fits") {
  const DeviceInfo h200{kSm90, kH200Sms};
  const std::vector<std::string> planned = texts_of(planner_specs(kSm90));
  for (DType dtype : kDTypes) {
    const bool narrow = dtype_bytes(dtype) == 2;
    for (int k : {50, 512, 2048, 4096}) {
      INFO(dtype_name(dtype), " k=", k);
      const KernelSpec scanned = plan_spec(dtype, k, 256, 131072, h200);
      REQUIRE(scanned.cluster == 1);
      REQUIRE(scanned.threads == 256);
      // f32 too, in rows of 131,072+ columns that fit two CTAs per SM, below k = 4096.
      const bool wide = narrow || k <= 2048;
      CHECK(scanned.block == (wide ? 8192 : 4096));
      CHECK(scanned.block / scanned.threads == (wide ? 32 : 16));
      CHECK(std::count(planned.begin(), planned.end(), scanned.to_string()) == 1);
      // Two f32 CTAs at B = 8192 fit an SM (src/codegen.hpp ctas_per_sm).
      if (!narrow && wide) {
        CHECK(render_translation_unit(scanned).find("__launch_bounds__(256, 2)") !=
              std::string::npos);
      }
      // More rows than two CTAs per SM hold, or shorter rows: f32 keeps 16 elements a thread.
      for (const KernelSpec& other : {plan_spec(dtype, k, 2 * kH200Sms + 1, 131072, h200),
                                      plan_spec(dtype, k, 256, 131071, h200)}) {
        REQUIRE(other.threads == 256);
        CHECK(other.block == (narrow ? 8192 : 4096));
        CHECK(std::count(planned.begin(), planned.end(), other.to_string()) == 1);
      }
      // A 512-thread lone CTA takes its rows whole: B only sizes its stages.
      const KernelSpec medium_rows =
          plan_spec(dtype, k, 4096, plan_spec(dtype, k, 4096, 1, h200).buffer_words() + 1, h200);
      REQUIRE(medium_rows.threads == 512);
      CHECK(medium_rows.block == 4096);
      // Clusters: 16 elements per thread, but in 8-CTA clusters, whose B2 = 16384 buffer (k <=
      // 2048) takes the room.
      for (int rows : {1, 4, 8, 16, 32, 64}) {
        INFO("rows=", rows);
        const KernelSpec split = plan_bounded(dtype, k, rows, 131072, h200);
        REQUIRE(split.cluster > 1);
        CHECK(split.block == (split.cluster == 8 ? 4096 : 8192));
        CHECK(validate_rejection(split).argument == "<accepted>");
      }
      CHECK(validate_rejection(scanned).argument == "<accepted>");
    }
  }
}

TEST_CASE("plan: a lone CTA scans long 16-bit rows at k <= 1024 two staged blocks at a time") {
  const DeviceInfo h200{kSm90, kH200Sms};
  const std::vector<std::string> planned = texts_of(planner_specs(kSm90));
  for (DType dtype : kDTypes) {
    for (int k : {1, 64, 300, 1024, 1025, 2048, 4096}) {
      INFO(dtype_name(dtype), " k=", k);
      const KernelSpec paired = plan_spec(dtype, k, 2 * kH200Sms, 131072, h200);
      REQUIRE(paired.cluster == 1);
      REQUIRE(paired.threads == 256);
      const bool pairs = dtype_bytes(dtype) == 2 && k <= 1024;
      CHECK(paired.stages == (pairs ? 4 : 2));
      CHECK(std::count(planned.begin(), planned.end(), paired.to_string()) == 1);
      CHECK(validate_rejection(paired).argument == "<accepted>");
      if (!pairs) continue;
      // Its buffer keeps k + B2 at two CTAs per SM (src/codegen.hpp ctas_per_sm).
      CHECK(paired.block == 8192);
      CHECK(paired.block2 == plan_spec(dtype, k, 2 * kH200Sms + 1, 131072, h200).block2);
      CHECK(render_translation_unit(paired).find("__launch_bounds__(256, 2)") != std::string::npos);
      CHECK(plan_spec(dtype, k, 1, 131072, h200).cluster > 1);
      // More rows than two CTAs per SM hold, shorter rows and rows taken whole: two stages.
      for (const KernelSpec& other :
           {plan_spec(dtype, k, 2 * kH200Sms + 1, 131072, h200),
            plan_spec(dtype, k, 256, 131071, h200), plan_spec(dtype, k, 256, 4096, h200)}) {
        CHECK(other.stages == 2);
        CHECK(std::count(planned.begin(), planned.end(), other.to_string()) == 1);
      }
    }
  }
}

TEST_CASE(
    "plan: 2-CTA f32 clusters stage four blocks over 7/8 of the SMs at k <= 512, three over 2/3") {
  const DeviceInfo h200{kSm90, kH200Sms};
  const std::vector<std::string> planned = texts_of(planner_specs(kSm90));
  for (DType dtype : kDTypes) {
    for (int k : {1, 64, 300, 512, 513, 1024, 2048}) {
      INFO(dtype_name(dtype), " k=", k);
      const KernelSpec paired = plan_spec(dtype, k, 64, 129280, h200);
      REQUIRE(paired.cluster == 2);
      const bool f32 = dtype == DType::f32;
      const bool four = f32 && k <= 512;
      CHECK(paired.stages == (four ? 4 : f32 ? 3 : 2));
      // Its buffer and stages fit one CTA's shared memory (validate), at one CTA per SM.
      CHECK(validate_rejection(paired).argument == "<accepted>");
      if (four) {
        CHECK(render_translation_unit(paired).find("__launch_bounds__(512, 1)") !=
              std::string::npos);
      }
      // 8-CTA clusters keep two stages (4-CTA ones: the next test).
      CHECK(plan_spec(dtype, k, 16, 129280, h200).stages == 2);
      // Four stages from 58 rows (116 CTAs of 132), three from 45 (90 CTAs), two below and on
      // rows that may end sooner or decode bounds below 58 rows (at k <= 512: four from 58).
      for (int64_t rows : {33, 40, 44, 45, 57, 58, 64}) {
        INFO("rows=", rows);
        const KernelSpec full = plan_spec(dtype, k, rows, 129280, h200);
        REQUIRE(full.cluster == 2);
        const int deeper = four && rows >= 58 ? 4 : f32 && rows >= 45 ? 3 : 2;
        CHECK(full.stages == deeper);
        CHECK(std::count(planned.begin(), planned.end(), full.to_string()) == 1);
        for (const KernelSpec& ragged : plans_of_shorter_rows(dtype, k, rows, 129280, h200)) {
          REQUIRE(ragged.cluster == 2);
          CHECK(ragged.stages == (four && rows >= 58 ? 4 : 2));
          if (precompiled_variant(ragged))
            CHECK(std::count(planned.begin(), planned.end(), ragged.to_string()) == 1);
        }
      }
    }
  }
}

TEST_CASE("plan: 4-CTA clusters over full f32 rows stage three blocks at k <= 1024") {
  const DeviceInfo h200{kSm90, kH200Sms};
  const std::vector<std::string> planned = texts_of(planner_specs(kSm90));
  for (DType dtype : kDTypes) {
    for (int k : {1, 64, 300, 512, 1000, 1024, 1025, 2048, 4096}) {
      for (int64_t rows : {17, 24, 32}) {
        INFO(dtype_name(dtype), " k=", k, " rows=", rows);
        const KernelSpec split = plan_spec(dtype, k, rows, 129280, h200);
        REQUIRE(split.cluster == 4);
        const bool three = dtype == DType::f32 && k <= 1024;
        CHECK(split.stages == (three ? 3 : 2));
        CHECK(std::count(planned.begin(), planned.end(), split.to_string()) == 1);
        CHECK(validate_rejection(split).argument == "<accepted>");
        // Rows that may end sooner and decode bounds keep two.
        for (const KernelSpec& ragged : plans_of_shorter_rows(dtype, k, rows, 129280, h200)) {
          REQUIRE(ragged.cluster == 4);
          CHECK(ragged.stages == 2);
        }
      }
    }
  }
}

TEST_CASE("plan: plan_spec picks the smallest k bucket holding k, for every k in 1..4096") {
  const std::vector<int>& buckets = k_buckets();
  REQUIRE(std::is_sorted(buckets.begin(), buckets.end()));
  REQUIRE(buckets.back() == 4096);
  for (Arch arch : {kSm90, kSm100}) {
    for (DType dtype : kDTypes) {
      INFO(arch.to_string(), " ", dtype_name(dtype));
      const std::vector<std::string> planned_texts = texts_of(planner_specs(arch));
      const std::set<std::string> planner(planned_texts.begin(), planned_texts.end());
      std::set<std::string> chosen;
      std::vector<int> wrong_bucket;  // the k whose spec is not the smallest bucket holding k
      std::vector<int> off_list;      // the k whose spec is not one of planner_specs
      for (int k = 1; k <= 4096; ++k) {
        const KernelSpec spec =
            plan_spec(dtype, k, kManyRows, kRowLength, DeviceInfo{arch, kH200Sms});
        if (spec.k_max != *std::lower_bound(buckets.begin(), buckets.end(), k) ||
            spec.dtype != dtype || !(spec.arch == arch) || spec.kind != KernelKind::topk) {
          wrong_bucket.push_back(k);
        }
        if (planner.count(spec.to_string()) == 0) off_list.push_back(k);
        chosen.insert(spec.to_string());
      }
      CHECK(wrong_bucket.empty());
      CHECK(off_list.empty());
      // Every dtype's share of planner_specs is reachable.
      CHECK(chosen.size() == buckets.size());
    }
  }
}

TEST_CASE("plan: plan_spec at the bucket boundaries") {
  const std::pair<int, int> k_to_k_max[] = {{1, 64},      {64, 64},     {65, 256},    {256, 256},
                                            {257, 512},   {1024, 1024}, {1025, 2048}, {2048, 2048},
                                            {2049, 4096}, {4096, 4096}};
  for (DType dtype : kDTypes) {
    for (auto [k, k_max] : k_to_k_max) {
      INFO(dtype_name(dtype), " k=", k);
      const KernelSpec spec =
          plan_spec(dtype, k, kManyRows, kRowLength, DeviceInfo{kSm90, kH200Sms});
      CHECK(spec.k_max == k_max);
      CHECK(validate_rejection(spec).argument == "<accepted>");
    }
  }
}

TEST_CASE("plan: planner and default spec lists") {
  for (Arch arch : {kSm90, kSm100}) {
    INFO(arch.to_string());
    const std::vector<KernelSpec> planned = planner_specs(arch);
    const std::vector<std::string> texts = texts_of(planned);
    CHECK(std::set<std::string>(texts.begin(), texts.end()).size() == planned.size());
    // Every dtype and k bucket with each cluster size 2, 4, 8 (and 16 up to k = 2048) and a
    // lone CTA's two kernels (256 threads for rows it scans or takes whole in its buffer, 512 for
    // rows only that buffer holds; a third for rows it scans with a B2 of their own: f32 at
    // k = 1024, 16-bit at k = 2048; a fourth for rows it scans two to a CTA per SM: f32 at
    // B = 8192 up to k = 2048, 16-bit with four stages up to k = 1024); for the indexer's, the
    // decode-bounds and page-table variants too.
    size_t expected = 0;
    for (DType dtype : kDTypes) {
      for (int bucket : k_buckets()) {
        const bool scans_apart = dtype == DType::f32 ? bucket == 1024 : bucket == 2048;
        const bool two_per_sm = bucket <= (dtype == DType::f32 ? 2048 : 1024);
        const size_t kernels =
            (bucket <= 2048 ? 6 : 5) + (scans_apart ? 1 : 0) + (two_per_sm ? 1 : 0);
        expected += kernels * precompiled_options(dtype, bucket).size();
        // The 8-CTA kernel, and the 16-CTA one up to k = 2048, built without their scan for rows
        // they hold whole; the 16-bit lone CTAs' scanning kernels (two stages and, up to
        // k = 1024, four; at k = 2048 both B2s) built without their resident load for full rows
        // (row_path_for).
        expected += (bucket <= 2048 ? 2 : 1) * precompiled_options(dtype, bucket).size();
        for (const KernelOptions& options : precompiled_options(dtype, bucket)) {
          if (dtype != DType::f32 && options.bounds == RowBounds::range)
            expected += bucket <= 2048 ? 2 : 1;
        }
        // f32 2-CTA clusters at three stages (up to k = 2048) and 4-CTA ones (up to k = 1024),
        // over full rows only; and at k <= 512, where 2-CTA clusters over most SMs take four
        // stages, 2-CTA ones at two.
        const bool two_cta_three = bucket <= 2048;
        const bool four_cta_three = bucket <= 1024;
        const bool two_cta_two = bucket <= 512;
        // And each f32 2-CTA kernel over full rows again, and (up to k = 2048: two_per_sm) the
        // lone 256-thread one at B = 8192, built without its resident load for rows it scans
        // (row_path_for).
        if (dtype == DType::f32) {
          for (const KernelOptions& options : precompiled_options(dtype, bucket)) {
            expected += two_cta_two ? 1 : 0;
            if (spans_full_rows(options.bounds, RowLengths::full)) {
              expected += (two_cta_three ? 1 : 0) + (four_cta_three ? 1 : 0);
              expected +=
                  1 + (two_cta_three ? 1 : 0) + (two_cta_two ? 1 : 0) + (two_per_sm ? 1 : 0);
            }
          }
        }
      }
    }
    CHECK(planned.size() == expected);
    CHECK(expected == 90 + 15 + 36 + 1 + 5 + 8 + 8 + 6 + 4 + 3 + 45 + 24 + 16 + 6);
    for (const KernelOptions& options : precompiled_options(DType::bf16, 2048)) {
      const KernelSpec spec = plan_spec(DType::bf16, 2048, 1, 1, DeviceInfo{arch, 16},
                                        options.bounds, options.epilogue);
      CHECK(std::count(planned.begin(), planned.end(), spec) == 1);
    }

    const std::vector<KernelSpec> defaults = default_specs(arch);
    REQUIRE(defaults.size() == planned.size() + 1 + std::size(kDTypes));
    CHECK(std::equal(planned.begin(), planned.end(), defaults.begin()));
    CHECK(defaults[planned.size()].kind == KernelKind::fill_test);
    for (size_t i = planned.size() + 1; i < defaults.size(); ++i) {
      CHECK(defaults[i].kind == KernelKind::read_floor);
    }
    for (const KernelSpec& spec : defaults) CHECK(spec.arch == arch);
  }
}

TEST_CASE("spec list: comments, blank lines and errors naming the line") {
  const std::vector<KernelSpec> specs = parse_spec_list(
      "# header\n\n  kind=fill_test threads=128 cluster=2  # a comment\n\t\nk_max=64 B2=1024\n");
  REQUIRE(specs.size() == 2);
  CHECK(specs[0] == fill_test_spec(128, 2));
  CHECK(specs[1].k_max == 64);
  CHECK(specs[1].block2 == 1024);

  const Rejection bad_value =
      rejection_of([] { (void)parse_spec_list("# ok\nk_max=64 B2=1024\nk_max=5000\n"); });
  CHECK(bad_value.argument == "specs");
  CHECK(bad_value.message.find("line 3") != std::string::npos);
  CHECK(bad_value.message.find("k_max") != std::string::npos);

  const Rejection bad_field = rejection_of([] { (void)parse_spec_list("colour=red\n"); });
  CHECK(bad_field.argument == "specs");
  CHECK(bad_field.message.find("line 1") != std::string::npos);

  const Rejection missing =
      rejection_of([] { (void)read_spec_list("/nonexistent/deepselect/none.specs"); });
  CHECK(missing.argument == "specs");
  CHECK(missing.message.find("/nonexistent/deepselect/none.specs") != std::string::npos);
}

TEST_CASE("spec list: cache/default.specs lists exactly default_specs(), without arch") {
  const std::string path = DEEPSELECT_SOURCE_DIR "/cache/default.specs";
  INFO(path);
  CHECK(read_text(path).find("arch=") == std::string::npos);
  const std::vector<KernelSpec> listed = read_spec_list(path);
  for (Arch arch : {kSm90, kSm100}) {
    std::vector<KernelSpec> with_arch = listed;
    for (KernelSpec& spec : with_arch) spec.arch = arch;
    const std::vector<std::string> expected = texts_of(default_specs(arch));
    const std::vector<std::string> got = texts_of(with_arch);
    CHECK(got.size() == expected.size());
    // Compared as text, in order, so a failure shows the differing line.
    for (size_t i = 0; i < std::min(got.size(), expected.size()); ++i) CHECK(got[i] == expected[i]);
  }
}

TEST_CASE("plan: a tuning table entry for the shape's bucket replaces the default choice") {
  TuningTable table(DeviceFingerprint{"test gpu", kH200Sms, 9, 0, 13000, version(), "kernels"});
  const KernelSpec plain = plan_spec(DType::f32, 2000, 60, 100000, DeviceInfo{kSm90, kH200Sms});
  const LaunchShape tuned_shape{8192, 4096, 1024, 4, 3};
  REQUIRE_FALSE(LaunchShape::of(plain) == tuned_shape);
  table.set(ShapeBucket::of(DType::f32, 2048, 64, kRowLength),
            TunedChoice{tuned_shape, LaunchShape::of(plain)});
  const DeviceInfo tuned_device{kSm90, kH200Sms, &table};
  const KernelSpec tuned = plan_spec(DType::f32, 2000, 60, 100000, tuned_device);
  CHECK(tuned.block == 8192);
  CHECK(tuned.block2 == 4096);
  CHECK(tuned.threads == 1024);
  CHECK(tuned.cluster == 4);
  CHECK(tuned.stages == 3);
  CHECK(tuned.k_max == plain.k_max);
  // Another bucket (more rows) keeps the default.
  CHECK(plan_spec(DType::f32, 2048, 1024, kRowLength, tuned_device) ==
        plan_spec(DType::f32, 2048, 1024, kRowLength, DeviceInfo{kSm90, kH200Sms}));
  // So do rows that may end sooner than n (begin / end arrays, decode bounds): tuning times full
  // rows only.
  const auto plan_on = [](const DeviceInfo& device, RowBounds bounds, RowLengths lengths) {
    return plan_spec(DType::f32, 2000, 60, 100000, device, bounds, Epilogue::plain, lengths);
  };
  const DeviceInfo untuned{kSm90, kH200Sms};
  for (const auto& [bounds, lengths] : {std::pair{RowBounds::range, RowLengths::bounded},
                                        std::pair{RowBounds::decode, RowLengths::full}}) {
    // Timed against these rows' own default, so that only the full-rows rule keeps it off.
    TuningTable own_default = table;
    own_default.set(ShapeBucket::of(DType::f32, 2048, 64, kRowLength),
                    TunedChoice{tuned_shape, LaunchShape::of(plan_on(untuned, bounds, lengths))});
    CHECK(plan_on(DeviceInfo{kSm90, kH200Sms, &own_default}, bounds, lengths) ==
          plan_on(untuned, bounds, lengths));
  }
}

TEST_CASE("plan: a tuning entry timed against another default than today's plan is not applied") {
  // sample-b64's rows: a table tuned before Change 106 holds two stages, planned and kept, where
  // the planner now gives four (bench/results/2026-12-03-h200-select/v105: 5% faster).
  const DeviceInfo untuned{kSm90, kH200Sms};
  const KernelSpec today = plan_spec(DType::f32, 50, 64, 129280, untuned);
  REQUIRE(today.stages == 4);
  LaunchShape before = LaunchShape::of(today);
  before.stages = 2;
  TuningTable table(DeviceFingerprint{"test gpu", kH200Sms, 9, 0, 13000, version(), "kernels"});
  const ShapeBucket bucket = ShapeBucket::of(DType::f32, today.k_max, 64, 129280);
  table.set(bucket, TunedChoice{before, before});
  const DeviceInfo tuned_device{kSm90, kH200Sms, &table};
  CHECK(plan_spec(DType::f32, 50, 64, 129280, tuned_device) == today);
  // A choice that beat another default is not applied either, nor one that beat today's plan
  // on another bucket.
  LaunchShape three_stages = LaunchShape::of(today);
  three_stages.stages = 3;
  table.set(bucket, TunedChoice{three_stages, before});
  CHECK(plan_spec(DType::f32, 50, 64, 129280, tuned_device) == today);
  TuningTable other_bucket(table.fingerprint());
  other_bucket.set(ShapeBucket::of(DType::f32, today.k_max, 32, 129280),
                   TunedChoice{three_stages, LaunchShape::of(today)});
  CHECK(plan_spec(DType::f32, 50, 64, 129280, DeviceInfo{kSm90, kH200Sms, &other_bucket}) == today);
  // Timed against today's plan, it is.
  table.set(bucket, TunedChoice{three_stages, LaunchShape::of(today)});
  CHECK(plan_spec(DType::f32, 50, 64, 129280, tuned_device) == three_stages.apply(today));
}

}  // namespace
}  // namespace deepselect
