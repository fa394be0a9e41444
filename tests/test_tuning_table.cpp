// Tuning tables: buckets, choices, the JSON format, atomic saves, and loads that turn missing,
// corrupt or foreign files into a warning instead of an error.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <filesystem>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <deepselect/deepselect.hpp>

#include "driver.hpp"
#include "sources.hpp"
#include "spec.hpp"
#include "test_support.hpp"
#include "tuning_table.hpp"

namespace deepselect {
namespace {

namespace fs = std::filesystem;
using testing::read_bytes;
using testing::TempDir;
using testing::write_bytes;

DeviceFingerprint sample_fingerprint() {
  return DeviceFingerprint{.gpu_name = "NVIDIA H200",
                           .sm_count = 132,
                           .cc_major = 9,
                           .cc_minor = 0,
                           .driver_version = 12080,
                           .library_version = "0.1.0",
                           .kernel_sources = "0123456789abcdef"};
}

// Three entries with distinct values in every field (tuned and planned shapes alike), and times
// that need all their digits.
TuningTable sample_table() {
  TuningTable table(sample_fingerprint());
  table.set(
      ShapeBucket{DType::f32, 2048, 10, 17},
      TunedChoice{{8192, 2048, 256, 2, 3}, {16384, 8192, 128, 4, 1}, 123.45678901234567, 150.25});
  table.set(ShapeBucket{DType::bf16, 64, 0, 20},
            TunedChoice{{4096, 1024, 512, 8, 2}, {1024, 512, 64, 16, 5}, 0.1, 1e-7});
  table.set(
      ShapeBucket{DType::f16, 4096, 14, 12},
      TunedChoice{{2048, 4096, 1024, 1, 4}, {512, 16384, 384, 32, 6}, 9876.5, 12345.000000001});
  return table;
}

bool same(const TunedChoice& a, const TunedChoice& b) {
  return a.tuned == b.tuned && a.planned == b.planned && a.tuned_us == b.tuned_us &&
         a.default_us == b.default_us;
}

void check_same_table(const TuningTable& got, const TuningTable& want) {
  CHECK(got.fingerprint() == want.fingerprint());
  const auto got_entries = got.entries();
  const auto want_entries = want.entries();
  REQUIRE(got_entries.size() == want_entries.size());
  for (size_t i = 0; i < want_entries.size(); ++i) {
    INFO(want_entries[i].first.to_string());
    CHECK(got_entries[i].first == want_entries[i].first);
    CHECK(same(got_entries[i].second, want_entries[i].second));
  }
}

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

// text with its one occurrence of from replaced by to.
std::string replaced(std::string text, std::string_view from, std::string_view to) {
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  REQUIRE(text.find(from, at + 1) == std::string::npos);
  return text.replace(at, from.size(), to);
}

unsigned mode_of(const fs::path& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& item : fs::directory_iterator(dir))
    names.push_back(item.path().filename().string());
  return names;
}

// text (a table's JSON) with its first entry repeated after it.
std::string with_first_entry_twice(std::string text) {
  const size_t open = text.find('[') + 1;
  const size_t end = text.find("\n    }", open) + 6;
  REQUIRE(end > open);
  return text.insert(end, "," + text.substr(open, end - open));
}

// A file the loader must reject, and the part of its warning that says why.
struct CorruptCase {
  const char* name;
  std::string text;
  const char* why;
};

std::vector<CorruptCase> corrupt_cases() {
  const std::string good = sample_table().to_json();
  const std::string empty = TuningTable(sample_fingerprint()).to_json();
  return {
      {"empty file", "", "malformed JSON"},
      {"truncated JSON", good.substr(0, good.size() / 2), "malformed JSON"},
      {"garbage bytes", std::string{'\x7f', 'E', 'L', 'F', '\0', '\xff', '\xfe', '\x01'},
       "malformed JSON"},
      {"not an object", "[1, 2, 3]", "the document is not an object"},
      {"wrong format number", replaced(good, "\"format\": 3", "\"format\": 1"), "format 1"},
      {"a table from before planned defaults (format 2)",
       replaced(good, "\"format\": 3", "\"format\": 2"),
       "format 2 is not the supported 3 (an older deepselect's: run deepselect tune again)"},
      {"missing format", replaced(good, "\"format\": 3,", ""), "format is missing"},
      {"unknown dtype", replaced(good, "\"dtype\": \"bf16\"", "\"dtype\": \"f64\""),
       "entries[0].dtype is 'f64'"},
      {"negative block", replaced(good, "\"block\": 4096", "\"block\": -1"),
       "entries[0].block is -1"},
      {"zero threads", replaced(good, "\"threads\": 256", "\"threads\": 0"), "threads is 0"},
      {"fractional stages", replaced(good, "\"stages\": 3", "\"stages\": 2.5"),
       "stages is not an integer"},
      {"huge cluster", replaced(good, "\"cluster\": 8", "\"cluster\": 4294967296"),
       "cluster is 4294967296"},
      {"cluster beyond int64",
       replaced(good, "\"cluster\": 8", "\"cluster\": 18446744073709551615"),
       "cluster is 18446744073709551615"},
      {"negative time", replaced(good, "\"default_us\": 150.25", "\"default_us\": -1.0"),
       "default_us is -1"},
      {"string size", replaced(good, "\"k_bucket\": 4096", "\"k_bucket\": \"4096\""),
       "k_bucket is not an integer"},
      {"missing field", replaced(good, "\"n_log2\": 17,", ""), "entries[2].n_log2 is missing"},
      {"missing planned default",
       replaced(good, "\"planned\": {\n        \"block\": 1024",
                "\"x\": {\n        \"block\": 1024"),
       "entries[0].planned is missing"},
      {"planned default not an object",
       replaced(good, "\"planned\": {\n        \"block\": 16384",
                "\"planned\": 7, \"x\": {\n        \"block\": 16384"),
       "entries[2].planned is not an object"},
      {"zero planned stages", replaced(good, "\"stages\": 6", "\"stages\": 0"),
       "entries[1].planned.stages is 0"},
      {"rows beyond 2^62", replaced(good, "\"rows_log2\": 14", "\"rows_log2\": 63"),
       "rows_log2 is 63"},
      {"fingerprint sm_count", replaced(good, "\"sm_count\": 132", "\"sm_count\": 0"),
       "fingerprint.sm_count is 0"},
      {"no kernel sources (format 1)",
       replaced(good, ",\n    \"kernel_sources\": \"0123456789abcdef\"", ""),
       "fingerprint.kernel_sources is missing"},
      {"entries not an array", replaced(empty, "\"entries\": []", "\"entries\": {}"),
       "entries is not an array"},
      {"duplicate bucket", with_first_entry_twice(good),
       "entries[1] repeats the bucket bf16 k64 rows2^0 n2^20"},
  };
}

TEST_CASE("tuning table: JSON round trip keeps the fingerprint, entries and numbers") {
  const TuningTable table = sample_table();
  const std::string text = table.to_json();
  CHECK(contains(text, "\"format\": 3"));
  CHECK(contains(text, "\"gpu_name\": \"NVIDIA H200\""));
  const TuningTable parsed = TuningTable::from_json(text);
  check_same_table(parsed, table);
  CHECK(parsed.to_json() == text);

  const TuningTable empty(sample_fingerprint());
  const TuningTable parsed_empty = TuningTable::from_json(empty.to_json());
  CHECK(parsed_empty.size() == 0);
  CHECK(parsed_empty.fingerprint() == sample_fingerprint());
}

TEST_CASE("tuning table: save and load round trip in a directory") {
  TempDir tmp;
  const fs::path file = TuningTable::path_for(tmp.path() / "cache", sample_fingerprint());
  TuningTable table = sample_table();
  table.save(file);
  std::string warning = "stale";
  std::optional<TuningTable> loaded = TuningTable::load(file, sample_fingerprint(), &warning);
  REQUIRE(loaded.has_value());
  CHECK(warning.empty());
  check_same_table(*loaded, table);

  // A second save replaces the file.
  table.set(ShapeBucket{DType::f32, 16, 3, 4},
            TunedChoice{{1024, 1024, 128, 1, 2}, {2048, 1024, 256, 1, 2}, 5.5, 6.5});
  table.save(file);
  loaded = TuningTable::load(file, sample_fingerprint(), nullptr);
  REQUIRE(loaded.has_value());
  CHECK(loaded->size() == 4);
  check_same_table(*loaded, table);
}

TEST_CASE("tuning table: a missing file loads as nullopt with an empty warning") {
  TempDir tmp;
  std::string warning = "left over from before";
  CHECK_FALSE(
      TuningTable::load(tmp.path() / "tuning" / "absent.json", sample_fingerprint(), &warning)
          .has_value());
  CHECK(warning.empty());
  CHECK_FALSE(
      TuningTable::load(tmp.path() / "absent.json", sample_fingerprint(), nullptr).has_value());
}

TEST_CASE("tuning table: a corrupt file loads as nullopt with a warning and never throws") {
  TempDir tmp;
  const fs::path file = tmp.path() / "table.json";
  for (const CorruptCase& bad : corrupt_cases()) {
    INFO(bad.name);
    write_bytes(file, bad.text);
    std::string warning;
    std::optional<TuningTable> loaded;
    CHECK_NOTHROW(loaded = TuningTable::load(file, sample_fingerprint(), &warning));
    CHECK_FALSE(loaded.has_value());
    INFO(warning);
    CHECK(contains(warning, "corrupt"));
    CHECK(contains(warning, file.string()));
    CHECK(contains(warning, bad.why));
    CHECK_NOTHROW(TuningTable::load(file, sample_fingerprint(), nullptr));
  }

  const fs::path dir = tmp.path() / "dir.json";
  fs::create_directory(dir);
  std::string warning;
  CHECK_FALSE(TuningTable::load(dir, sample_fingerprint(), &warning).has_value());
  CHECK(contains(warning, "corrupt: not a regular file"));
}

TEST_CASE("tuning table: from_json throws Error naming what is wrong") {
  for (const CorruptCase& bad : corrupt_cases()) {
    INFO(bad.name);
    try {
      TuningTable::from_json(bad.text);
      FAIL("from_json accepted a corrupt table");
    } catch (const Error& error) {
      INFO(error.what());
      CHECK(contains(error.what(), "bad tuning table"));
      CHECK(contains(error.what(), bad.why));
    }
  }
}

TEST_CASE("tuning table: a table for another fingerprint loads as nullopt naming it") {
  DeviceFingerprint other_gpu = sample_fingerprint();
  other_gpu.gpu_name = "NVIDIA B200";
  DeviceFingerprint other_driver = sample_fingerprint();
  other_driver.driver_version = 13000;
  DeviceFingerprint other_library = sample_fingerprint();
  other_library.library_version = "0.2.0";
  DeviceFingerprint other_kernels = sample_fingerprint();
  other_kernels.kernel_sources = "fedcba9876543210";
  TempDir tmp;
  const fs::path file = tmp.path() / "table.json";
  for (const DeviceFingerprint& other : {other_gpu, other_driver, other_library, other_kernels}) {
    INFO(other.to_string());
    REQUIRE_FALSE(other == sample_fingerprint());
    TuningTable foreign(other);
    foreign.set(ShapeBucket{DType::f32, 2048, 10, 17},
                TunedChoice{{8192, 2048, 256, 2, 3}, {4096, 2048, 256, 2, 2}, 1, 2});
    foreign.save(file);
    std::string warning;
    CHECK_FALSE(TuningTable::load(file, sample_fingerprint(), &warning).has_value());
    INFO(warning);
    CHECK(contains(warning, file.string()));
    CHECK(contains(warning, "was tuned for " + other.to_string()));
    CHECK(TuningTable::load(file, other, &warning).has_value());
    CHECK(warning.empty());
  }
}

TEST_CASE("tuning table: path_for differs per fingerprint and lies under cache_dir/tuning") {
  const fs::path cache = "/var/cache/deepselect";
  const DeviceFingerprint base = sample_fingerprint();
  std::vector<DeviceFingerprint> fingerprints(7, base);
  fingerprints[1].gpu_name = "NVIDIA B200";
  fingerprints[2].sm_count = 114;
  fingerprints[3].cc_minor = 1;
  fingerprints[4].driver_version = 12090;
  fingerprints[5].library_version = "0.1.1";
  fingerprints[6].kernel_sources = "0123456789abcdee";
  std::vector<fs::path> paths;
  for (const DeviceFingerprint& fingerprint : fingerprints) {
    const fs::path path = TuningTable::path_for(cache, fingerprint);
    INFO(path.string());
    CHECK(path.parent_path() == cache / "tuning");
    CHECK(std::regex_match(path.filename().string(), std::regex("[0-9a-f]{16}\\.json")));
    for (const fs::path& earlier : paths) CHECK(path != earlier);
    paths.push_back(path);
  }
  CHECK(TuningTable::path_for(cache, base) == paths[0]);
  CHECK(TuningTable::path_for("/elsewhere", base).filename() == paths[0].filename());
}

TEST_CASE("tuning table: the fingerprint text names every field") {
  const std::string text = sample_fingerprint().to_string();
  CHECK(text ==
        "NVIDIA H200 (132 SMs, cc 9.0, driver 12080, deepselect 0.1.0, kernels 0123456789abcdef)");
  CHECK(text.find('\n') == std::string::npos);
  if (driver_or_null() == nullptr) {
    CHECK_THROWS_AS(DeviceFingerprint::of_device(0), Error);
  } else {
    const DeviceFingerprint device = DeviceFingerprint::of_device(0);
    CHECK_FALSE(device.gpu_name.empty());
    CHECK(device.sm_count > 0);
    CHECK(device.cc_major > 0);
    CHECK(device.driver_version > 0);
    CHECK(device.library_version == DEEPSELECT_VERSION);
    CHECK(device.kernel_sources == templates_digest().substr(0, 16));
  }
}

TEST_CASE("tuning table: save creates the directory 0700 and leaves no temp files") {
  TempDir tmp;
  const fs::path cache = tmp.path() / "cache";
  const fs::path file = TuningTable::path_for(cache, sample_fingerprint());
  sample_table().save(file);
  sample_table().save(file);
  CHECK(mode_of(cache) == 0700);
  CHECK(mode_of(cache / "tuning") == 0700);
  CHECK(names_in(cache / "tuning") == std::vector<std::string>{file.filename().string()});
  CHECK(read_bytes(file) == sample_table().to_json());

  // A file where the directory should be: save fails with an Error and writes nothing.
  write_bytes(tmp.path() / "blocker", "not a directory");
  const fs::path blocked = tmp.path() / "blocker" / "tuning" / "table.json";
  CHECK_THROWS_AS(sample_table().save(blocked), Error);
  CHECK(read_bytes(tmp.path() / "blocker") == "not a directory");
}

TEST_CASE("tuning table: ShapeBucket::of rounds rows and n up to powers of two") {
  const std::vector<std::pair<int64_t, int>> cases = {
      {1, 0},     {2, 1},       {3, 2},
      {4, 2},     {5, 3},       {1024, 10},
      {1025, 11}, {131072, 17}, {int64_t{1} << 62, 62}};
  for (const auto& [count, log2] : cases) {
    INFO(count);
    CHECK(ShapeBucket::of(DType::f32, 2048, count, 1).rows_log2 == log2);
    CHECK(ShapeBucket::of(DType::f32, 2048, 1, count).n_log2 == log2);
  }
  const ShapeBucket bucket = ShapeBucket::of(DType::bf16, 256, 1000, 131072);
  CHECK(bucket == ShapeBucket{DType::bf16, 256, 10, 17});
  CHECK(ShapeBucket::of(DType::f32, 2048, 1024, 131072).to_string() == "f32 k2048 rows2^10 n2^17");
  CHECK_THROWS_AS(ShapeBucket::of(DType::f32, 2048, 0, 16), ArgumentError);
  CHECK_THROWS_AS(ShapeBucket::of(DType::f32, 2048, 16, -5), ArgumentError);
  CHECK_THROWS_AS(ShapeBucket::of(DType::f32, 0, 16, 16), ArgumentError);
}

TEST_CASE("tuning table: LaunchShape::apply replaces exactly the five fields that of reads") {
  const KernelSpec base = KernelSpec::parse(
      "kind=topk dtype=bf16 k_max=512 B=4096 B2=1024 threads=512 cluster=1 stages=2 arch=sm_100a");
  CHECK(LaunchShape::of(base) == LaunchShape{4096, 1024, 512, 1, 2});
  const LaunchShape choice{8192, 2048, 256, 4, 3};
  KernelSpec want = base;
  want.block = 8192;
  want.block2 = 2048;
  want.threads = 256;
  want.cluster = 4;
  want.stages = 3;
  const KernelSpec applied = choice.apply(base);
  CHECK(applied.to_string() == want.to_string());
  CHECK(applied == want);
  CHECK_FALSE(applied == base);
  CHECK(LaunchShape::of(applied) == choice);
}

TEST_CASE("tuning table: find, set and entries") {
  TuningTable table(sample_fingerprint());
  const ShapeBucket bucket{DType::f32, 2048, 10, 17};
  CHECK(table.find(bucket) == nullptr);
  CHECK(table.size() == 0);

  table.set(bucket, TunedChoice{{8192, 2048, 256, 2, 3}, {4096, 2048, 256, 2, 2}, 1.5, 2.5});
  REQUIRE(table.find(bucket) != nullptr);
  CHECK(table.find(bucket)->tuned.block == 8192);
  CHECK(table.find(bucket)->planned.stages == 2);
  CHECK(table.find(ShapeBucket{DType::f16, 2048, 10, 17}) == nullptr);
  CHECK(table.find(ShapeBucket{DType::f32, 2048, 10, 18}) == nullptr);

  const TunedChoice replacement{{1024, 1024, 128, 1, 2}, {2048, 1024, 128, 1, 2}, 3.5, 4.5};
  table.set(bucket, replacement);
  CHECK(table.size() == 1);
  REQUIRE(table.find(bucket) != nullptr);
  CHECK(same(*table.find(bucket), replacement));

  table.set(ShapeBucket{DType::bf16, 64, 0, 20}, replacement);
  table.set(ShapeBucket{DType::f16, 4096, 14, 12}, replacement);
  std::vector<std::string> order;
  for (const auto& [entry_bucket, entry_choice] : table.entries()) {
    order.push_back(entry_bucket.to_string());
  }
  CHECK(order == std::vector<std::string>{"bf16 k64 rows2^0 n2^20", "f16 k4096 rows2^14 n2^12",
                                          "f32 k2048 rows2^10 n2^17"});
}

}  // namespace
}  // namespace deepselect
