#include "tuning_table.hpp"

#include <array>
#include <bit>
#include <cerrno>
#include <climits>
#include <cmath>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <deepselect/deepselect.hpp>

#include "atomic_file.hpp"
#include "driver.hpp"
#include "sources.hpp"

namespace deepselect {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// Format 2 added the kernel sources to the fingerprint, format 3 each entry's planned default.
constexpr int kFormat = 3;
// Buckets reach 2^62 rows or elements, so that 1 << log2 fits an int64_t.
constexpr int kMaxLog2 = 62;
// A tuning table holds at most a few hundred entries; a larger file is not one of ours.
constexpr uintmax_t kMaxTableBytes = uintmax_t{16} << 20;

// ---- Reading ----

// What makes a table unusable; the message names the offending field.
class Corrupt : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

[[noreturn]] void corrupt(const std::string& what) {
  throw Corrupt(what);
}

// The members of one JSON object, checked as they are read and named in errors by their path
// (where: the object's path, "" for the document).
class Fields {
 public:
  Fields(const Json& object, std::string where) : object_(object), where_(std::move(where)) {
    if (!object.is_object()) {
      corrupt(fmt::format("{} is not an object", where_.empty() ? "the document" : where_));
    }
  }

  // The member `name`, an object, read through Fields that name it by its path.
  Fields object(std::string_view name) const { return Fields(member(name), path(name)); }

  const Json& member(std::string_view name) const {
    const auto it = object_.find(name);
    if (it == object_.end()) corrupt(fmt::format("{} is missing", path(name)));
    return *it;
  }

  int integer(std::string_view name, int min, int max = INT_MAX) const {
    const Json& value = member(name);
    if (!value.is_number_integer()) corrupt(fmt::format("{} is not an integer", path(name)));
    // JSON integers parse as unsigned unless negative.
    const bool in_range = value.is_number_unsigned() ? within(value.get<uint64_t>(), min, max)
                                                     : within(value.get<int64_t>(), min, max);
    if (!in_range) {
      corrupt(fmt::format("{} is {}, outside [{}, {}]", path(name), value.dump(), min, max));
    }
    return value.get<int>();
  }

  // A measured time: a finite number of microseconds, not negative.
  double micros(std::string_view name) const {
    const Json& value = member(name);
    if (!value.is_number()) corrupt(fmt::format("{} is not a number", path(name)));
    const double number = value.get<double>();
    if (!std::isfinite(number) || number < 0.0) {
      corrupt(fmt::format("{} is {}, not a time in microseconds", path(name), number));
    }
    return number;
  }

  std::string text(std::string_view name) const {
    const Json& value = member(name);
    if (!value.is_string()) corrupt(fmt::format("{} is not a string", path(name)));
    return value.get<std::string>();
  }

  DType dtype(std::string_view name) const {
    const std::string value = text(name);
    try {
      return parse_dtype(value);
    } catch (const ArgumentError&) {
      corrupt(fmt::format("{} is '{}', not a dtype (f32, bf16, f16)", path(name), value));
    }
  }

 private:
  template <typename T>
  static bool within(T number, int min, int max) {
    return std::cmp_greater_equal(number, min) && std::cmp_less_equal(number, max);
  }

  std::string path(std::string_view name) const {
    return where_.empty() ? std::string(name) : fmt::format("{}.{}", where_, name);
  }

  const Json& object_;
  std::string where_;
};

DeviceFingerprint parse_fingerprint(const Fields& fields) {
  return DeviceFingerprint{.gpu_name = fields.text("gpu_name"),
                           .sm_count = fields.integer("sm_count", 1),
                           .cc_major = fields.integer("cc_major", 0),
                           .cc_minor = fields.integer("cc_minor", 0),
                           .driver_version = fields.integer("driver_version", 0),
                           .library_version = fields.text("library_version"),
                           .kernel_sources = fields.text("kernel_sources")};
}

LaunchShape parse_launch_shape(const Fields& fields) {
  return LaunchShape{.block = fields.integer("block", 1),
                     .block2 = fields.integer("block2", 1),
                     .threads = fields.integer("threads", 1),
                     .cluster = fields.integer("cluster", 1),
                     .stages = fields.integer("stages", 1)};
}

std::pair<ShapeBucket, TunedChoice> parse_entry(const Fields& fields) {
  const ShapeBucket bucket{.dtype = fields.dtype("dtype"),
                           .k_bucket = fields.integer("k_bucket", 1),
                           .rows_log2 = fields.integer("rows_log2", 0, kMaxLog2),
                           .n_log2 = fields.integer("n_log2", 0, kMaxLog2)};
  const TunedChoice choice{.tuned = parse_launch_shape(fields),
                           .planned = parse_launch_shape(fields.object("planned")),
                           .tuned_us = fields.micros("tuned_us"),
                           .default_us = fields.micros("default_us")};
  return {bucket, choice};
}

TuningTable parse_document(const Json& root) {
  const Fields fields(root, "");
  const int format = fields.integer("format", 0);
  if (format != kFormat) {
    corrupt(
        fmt::format("format {} is not the supported {}{}", format, kFormat,
                    format < kFormat ? " (an older deepselect's: run deepselect tune again)" : ""));
  }
  TuningTable table(parse_fingerprint(fields.object("fingerprint")));
  const Json& entries = fields.member("entries");
  if (!entries.is_array()) corrupt("entries is not an array");
  for (size_t i = 0; i < entries.size(); ++i) {
    const auto [bucket, choice] = parse_entry(Fields(entries[i], fmt::format("entries[{}]", i)));
    if (table.find(bucket) != nullptr) {
      corrupt(fmt::format("entries[{}] repeats the bucket {}", i, bucket.to_string()));
    }
    table.set(bucket, choice);
  }
  return table;
}

// The table text holds; throws Corrupt naming what is wrong.
TuningTable parse_table(const std::string& text) {
  try {
    return parse_document(Json::parse(text));
  } catch (const Json::exception& error) {
    corrupt(fmt::format("malformed JSON: {}", error.what()));
  }
}

std::string corrupt_warning(const fs::path& file, std::string_view problem) {
  return fmt::format("tuning table {} is corrupt: {}", file.string(), problem);
}

// The bytes of file. Without them, nullopt, and *why says why unless the file does not exist.
std::optional<std::string> read_table_file(const fs::path& file, std::string* why) {
  std::error_code ec;
  const fs::file_status status = fs::status(file, ec);
  if (status.type() == fs::file_type::not_found) return std::nullopt;
  if (ec) {
    *why = fmt::format("tuning table {} cannot be read: {}", file.string(), ec.message());
    return std::nullopt;
  }
  if (!fs::is_regular_file(status)) {
    *why = corrupt_warning(file, "not a regular file");
    return std::nullopt;
  }
  if (const uintmax_t size = fs::file_size(file, ec); !ec && size > kMaxTableBytes) {
    *why = corrupt_warning(file, fmt::format("{} bytes is too large for a tuning table", size));
    return std::nullopt;
  }
  std::ifstream in(file, std::ios::binary);
  std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (!in.is_open() || in.bad()) {
    *why = fmt::format("tuning table {} cannot be read: {}", file.string(),
                       std::generic_category().message(errno));
    return std::nullopt;
  }
  return bytes;
}

// ---- Writing ----

Json fingerprint_json(const DeviceFingerprint& fingerprint) {
  return Json{{"gpu_name", fingerprint.gpu_name},
              {"sm_count", fingerprint.sm_count},
              {"cc_major", fingerprint.cc_major},
              {"cc_minor", fingerprint.cc_minor},
              {"driver_version", fingerprint.driver_version},
              {"library_version", fingerprint.library_version},
              {"kernel_sources", fingerprint.kernel_sources}};
}

Json launch_shape_json(const LaunchShape& shape) {
  return Json{{"block", shape.block},
              {"block2", shape.block2},
              {"threads", shape.threads},
              {"cluster", shape.cluster},
              {"stages", shape.stages}};
}

Json entry_json(const ShapeBucket& bucket, const TunedChoice& choice) {
  Json entry{{"dtype", dtype_name(bucket.dtype)},
             {"k_bucket", bucket.k_bucket},
             {"rows_log2", bucket.rows_log2},
             {"n_log2", bucket.n_log2}};
  entry.update(launch_shape_json(choice.tuned));
  entry["tuned_us"] = choice.tuned_us;
  entry["default_us"] = choice.default_us;
  entry["planned"] = launch_shape_json(choice.planned);
  return entry;
}

// ---- Devices and shapes ----

int device_attribute(CUdevice device, CUdevice_attribute attribute) {
  int value = 0;
  check_cuda(driver().cuDeviceGetAttribute(&value, attribute, device), "cuDeviceGetAttribute");
  return value;
}

// ceil(log2(value)) for value in [1, 2^kMaxLog2]; ArgumentError naming argument otherwise.
int ceil_log2(int64_t value, const char* argument) {
  if (value < 1 || value > (int64_t{1} << kMaxLog2)) {
    throw ArgumentError(argument, fmt::format("{} is outside [1, 2^{}]", value, kMaxLog2));
  }
  return static_cast<int>(std::bit_width(static_cast<uint64_t>(value - 1)));
}

}  // namespace

std::string DeviceFingerprint::to_string() const {
  return fmt::format("{} ({} SMs, cc {}.{}, driver {}, deepselect {}, kernels {})", gpu_name,
                     sm_count, cc_major, cc_minor, driver_version, library_version, kernel_sources);
}

DeviceFingerprint DeviceFingerprint::of_device(int ordinal) {
  const Driver& api = driver();
  CUdevice device = 0;
  check_cuda(api.cuDeviceGet(&device, ordinal), "cuDeviceGet");
  std::array<char, 256> name{};  // zeroed: the name stays terminated even if cut short
  check_cuda(api.cuDeviceGetName(name.data(), static_cast<int>(name.size()) - 1, device),
             "cuDeviceGetName");
  int driver_version = 0;
  check_cuda(api.cuDriverGetVersion(&driver_version), "cuDriverGetVersion");
  return DeviceFingerprint{
      .gpu_name = name.data(),
      .sm_count = device_attribute(device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
      .cc_major = device_attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
      .cc_minor = device_attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR),
      .driver_version = driver_version,
      .library_version = DEEPSELECT_VERSION,
      .kernel_sources = templates_digest().substr(0, 16)};
}

std::string ShapeBucket::to_string() const {
  return fmt::format("{} k{} rows2^{} n2^{}", dtype_name(dtype), k_bucket, rows_log2, n_log2);
}

ShapeBucket ShapeBucket::of(DType dtype, int k_bucket, int64_t rows, int64_t n) {
  if (k_bucket < 1) throw ArgumentError("k_bucket", fmt::format("{} is below 1", k_bucket));
  return ShapeBucket{.dtype = dtype,
                     .k_bucket = k_bucket,
                     .rows_log2 = ceil_log2(rows, "rows"),
                     .n_log2 = ceil_log2(n, "n")};
}

KernelSpec LaunchShape::apply(KernelSpec spec) const {
  spec.block = block;
  spec.block2 = block2;
  spec.threads = threads;
  spec.cluster = cluster;
  spec.stages = stages;
  return spec;
}

LaunchShape LaunchShape::of(const KernelSpec& spec) {
  return LaunchShape{spec.block, spec.block2, spec.threads, spec.cluster, spec.stages};
}

TuningTable::TuningTable(DeviceFingerprint fingerprint) : fingerprint_(std::move(fingerprint)) {}

const DeviceFingerprint& TuningTable::fingerprint() const {
  return fingerprint_;
}

// A scan, not a lookup by the bucket's text: the planner calls this on every launch, which
// must not allocate, and tables hold a few dozen entries.
const TunedChoice* TuningTable::find(const ShapeBucket& bucket) const {
  for (const auto& [text, entry] : entries_) {
    if (entry.first == bucket) return &entry.second;
  }
  return nullptr;
}

void TuningTable::set(const ShapeBucket& bucket, const TunedChoice& choice) {
  entries_.insert_or_assign(bucket.to_string(), std::pair{bucket, choice});
}

size_t TuningTable::size() const {
  return entries_.size();
}

std::vector<std::pair<ShapeBucket, TunedChoice>> TuningTable::entries() const {
  std::vector<std::pair<ShapeBucket, TunedChoice>> result;
  result.reserve(entries_.size());
  for (const auto& [text, entry] : entries_) result.push_back(entry);
  return result;
}

std::string TuningTable::to_json() const {
  Json entries = Json::array();
  for (const auto& [bucket, choice] : this->entries())
    entries.push_back(entry_json(bucket, choice));
  const Json root{{"format", kFormat},
                  {"fingerprint", fingerprint_json(fingerprint_)},
                  {"entries", std::move(entries)}};
  return root.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

TuningTable TuningTable::from_json(const std::string& text) {
  try {
    return parse_table(text);
  } catch (const Corrupt& error) {
    throw Error(fmt::format("deepselect: bad tuning table: {}", error.what()));
  }
}

std::filesystem::path TuningTable::path_for(const std::filesystem::path& cache_dir,
                                            const DeviceFingerprint& fingerprint) {
  const std::string text = fingerprint.to_string();
  return cache_dir / "tuning" / fmt::format("{:016x}.json", XXH3_64bits(text.data(), text.size()));
}

void TuningTable::save(const std::filesystem::path& file) const {
  write_file_atomically(file, to_json());
}

std::optional<TuningTable> TuningTable::load(const std::filesystem::path& file,
                                             const DeviceFingerprint& expected,
                                             std::string* warning) {
  std::string ignored;
  std::string* why = warning != nullptr ? warning : &ignored;
  why->clear();
  const std::optional<std::string> text = read_table_file(file, why);
  if (!text) return std::nullopt;
  try {
    TuningTable table = parse_table(*text);
    if (table.fingerprint() == expected) return table;
    *why = fmt::format("tuning table {} was tuned for {}, not for {}", file.string(),
                       table.fingerprint().to_string(), expected.to_string());
  } catch (const Corrupt& error) {
    *why = corrupt_warning(file, error.what());
  }
  return std::nullopt;
}

}  // namespace deepselect
