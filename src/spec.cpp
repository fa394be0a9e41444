#include "spec.hpp"

#include <fmt/format.h>

#include <charconv>

#include "resident_part.cuh"

namespace deepselect {
namespace {

// How an enum's values are spelled in spec strings and tuning tables.
template <class E>
struct Spelling {
  E value;
  const char* name;
};

constexpr Spelling<KernelKind> kKinds[] = {{KernelKind::topk, "topk"},
                                           {KernelKind::fill_test, "fill_test"},
                                           {KernelKind::read_floor, "read_floor"}};
constexpr Spelling<DType> kDTypes[] = {
    {DType::f32, "f32"}, {DType::bf16, "bf16"}, {DType::f16, "f16"}};
constexpr Spelling<RowBounds> kBounds[] = {{RowBounds::range, "range"},
                                           {RowBounds::decode, "decode"}};
constexpr Spelling<Epilogue> kEpilogues[] = {{Epilogue::plain, "plain"},
                                             {Epilogue::page_table, "page_table"}};
constexpr Spelling<RowPath> kRowPaths[] = {
    {RowPath::any, "any"}, {RowPath::whole, "whole"}, {RowPath::scanned, "scanned"}};

// The spelling of value, or nullptr when value has none (not a value of the enum).
template <class E, size_t N>
const Spelling<E>* find_spelling(const Spelling<E> (&spellings)[N], E value) {
  for (const Spelling<E>& spelling : spellings) {
    if (spelling.value == value) return &spelling;
  }
  return nullptr;
}

template <class E, size_t N>
bool is_spelled(const Spelling<E> (&spellings)[N], E value) {
  return find_spelling(spellings, value) != nullptr;
}

template <class E, size_t N>
const char* name_in(const Spelling<E> (&spellings)[N], E value) {
  const Spelling<E>* spelling = find_spelling(spellings, value);
  return spelling != nullptr ? spelling->name : "?";
}

// The value spelled `text`; else an ArgumentError naming `field` and listing the spellings.
template <class E, size_t N>
E parse_in(const Spelling<E> (&spellings)[N], std::string_view text, const char* field,
           std::string_view what) {
  std::string names;
  for (const Spelling<E>& spelling : spellings) {
    if (text == spelling.name) return spelling.value;
    names += names.empty() ? "" : ", ";
    names += spelling.name;
  }
  throw ArgumentError(field, fmt::format("unknown {} '{}' ({})", what, text, names));
}

const char* kind_name(KernelKind kind) {
  return name_in(kKinds, kind);
}

const char* bounds_name(RowBounds bounds) {
  return name_in(kBounds, bounds);
}

const char* epilogue_name(Epilogue epilogue) {
  return name_in(kEpilogues, epilogue);
}

// The row path after `prefix` (" rows=" in the text form, "_" in the symbol); nothing for any.
std::string row_path_text(const char* prefix, RowPath path) {
  return path == RowPath::any ? "" : fmt::format("{}{}", prefix, row_path_name(path));
}

int parse_int(std::string_view field, std::string_view text) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    throw ArgumentError(std::string(field), fmt::format("'{}' is not an integer", text));
  }
  return value;
}

bool is_power_of_two(int value) {
  return value > 0 && (value & (value - 1)) == 0;
}

void require(bool condition, const char* field, const std::string& message) {
  if (!condition) throw ArgumentError(field, message);
}

}  // namespace

std::string Arch::to_string() const {
  return fmt::format("sm_{}a", sm);
}

Arch Arch::parse(std::string_view text) {
  if (text == "sm_90a") return Arch{90};
  if (text == "sm_100a") return Arch{100};
  throw ArgumentError(
      "arch", fmt::format("unsupported architecture '{}' (supported: sm_90a, sm_100a)", text));
}

Arch Arch::of_compute_capability(int major, int minor) {
  return parse(fmt::format("sm_{}{}a", major, minor));
}

const char* row_path_name(RowPath path) {
  return name_in(kRowPaths, path);
}

const char* dtype_name(DType dtype) {
  return name_in(kDTypes, dtype);
}

DType parse_dtype(std::string_view text) {
  return parse_in(kDTypes, text, "dtype", "dtype");
}

size_t dtype_bytes(DType dtype) {
  return dtype == DType::f32 ? 4 : 2;
}

void KernelSpec::validate() const {
  require(is_spelled(kDTypes, dtype), "dtype",
          fmt::format("unsupported dtype value {}", static_cast<int>(dtype)));
  require(arch.sm == 90 || arch.sm == 100, "arch", fmt::format("unsupported sm_{}", arch.sm));
  require(threads == 128 || threads == 256 || threads == 512 || threads == 1024, "threads",
          fmt::format("{} is not one of 128, 256, 512, 1024", threads));
  require(is_spelled(kBounds, bounds), "bounds",
          fmt::format("unsupported value {}", static_cast<int>(bounds)));
  require(is_spelled(kEpilogues, epilogue), "epilogue",
          fmt::format("unsupported value {}", static_cast<int>(epilogue)));
  require(is_spelled(kRowPaths, row_path), "rows",
          fmt::format("unsupported value {}", static_cast<int>(row_path)));
  if (kind != KernelKind::topk) {
    require(bounds == RowBounds::range && epilogue == Epilogue::plain, "epilogue",
            fmt::format("a {} kernel takes bounds=range epilogue=plain", kind_name(kind)));
    require(row_path == RowPath::any, "rows",
            fmt::format("a {} kernel takes no rows=whole or rows=scanned", kind_name(kind)));
  }
  if (kind == KernelKind::fill_test) {
    require(cluster >= 1 && cluster <= 16, "cluster", fmt::format("{} is not in 1..16", cluster));
    return;
  }
  if (kind == KernelKind::read_floor) {
    require(cluster == 1, "cluster", fmt::format("{}: the read floor takes no cluster", cluster));
    return;
  }
  require(cluster == 1 || cluster == 2 || cluster == 4 || cluster == 8 || cluster == 16, "cluster",
          fmt::format("{} is not one of 1, 2, 4, 8, 16", cluster));
  require(stages >= 2 && stages <= 8, "stages", fmt::format("{} is not in 2..8", stages));
  require(k_max >= 1 && k_max <= 4096, "k_max", fmt::format("{} is not in 1..4096", k_max));
  require(is_power_of_two(block), "B", fmt::format("{} is not a power of two", block));
  require(is_power_of_two(block2), "B2", fmt::format("{} is not a power of two", block2));
  const int per_thread = block / threads;
  const int vector = 16 / static_cast<int>(dtype_bytes(dtype));
  require(per_thread >= vector && per_thread <= 32, "B",
          fmt::format("B/threads = {} must be in {}..32 for {}", per_thread, vector,
                      dtype_name(dtype)));
  int sort_size = 1;
  while (sort_size < k_max) sort_size *= 2;
  require(
      sort_size <= buffer_words(), "B2",
      fmt::format("the buffer's {} words cannot hold the sort of {}", buffer_words(), sort_size));
  require(dynamic_smem_bytes() <= kMaxDynamicSmemBytes, "B",
          fmt::format("the kernel needs {} bytes of shared memory, more than {}",
                      dynamic_smem_bytes(), kMaxDynamicSmemBytes));
}

std::string KernelSpec::to_string() const {
  return fmt::format(
      "kind={} dtype={} k_max={} B={} B2={} threads={} cluster={} stages={} bounds={} "
      "epilogue={}{} arch={}",
      kind_name(kind), dtype_name(dtype), k_max, block, block2, threads, cluster, stages,
      bounds_name(bounds), epilogue_name(epilogue), row_path_text(" rows=", row_path),
      arch.to_string());
}

KernelSpec KernelSpec::parse(std::string_view text) {
  return parse(text, KernelSpec{});
}

std::vector<std::string_view> spec_fields(std::string_view text) {
  std::vector<std::string_view> fields;
  size_t position = 0;
  while (position < text.size()) {
    const size_t start = text.find_first_not_of(" \t", position);
    if (start == std::string_view::npos) break;
    const size_t stop = std::min(text.find_first_of(" \t", start), text.size());
    fields.push_back(text.substr(start, stop - start));
    position = stop;
  }
  return fields;
}

KernelSpec KernelSpec::parse(std::string_view text, const KernelSpec& base) {
  KernelSpec spec = base;
  for (const std::string_view field : spec_fields(text)) {
    const size_t equals = field.find('=');
    if (equals == std::string_view::npos) {
      throw ArgumentError("spec", fmt::format("'{}' is not name=value", field));
    }
    const std::string_view name = field.substr(0, equals);
    const std::string_view value = field.substr(equals + 1);
    if (name == "kind") {
      spec.kind = parse_in(kKinds, value, "kind", "kernel kind");
    } else if (name == "dtype") {
      spec.dtype = parse_dtype(value);
    } else if (name == "k_max") {
      spec.k_max = parse_int(name, value);
    } else if (name == "B") {
      spec.block = parse_int(name, value);
    } else if (name == "B2") {
      spec.block2 = parse_int(name, value);
    } else if (name == "threads") {
      spec.threads = parse_int(name, value);
    } else if (name == "cluster") {
      spec.cluster = parse_int(name, value);
    } else if (name == "stages") {
      spec.stages = parse_int(name, value);
    } else if (name == "bounds") {
      spec.bounds = parse_in(kBounds, value, "bounds", "row bounds");
    } else if (name == "epilogue") {
      spec.epilogue = parse_in(kEpilogues, value, "epilogue", "epilogue");
    } else if (name == "rows") {
      spec.row_path = parse_in(kRowPaths, value, "rows", "row path");
    } else if (name == "arch") {
      spec.arch = Arch::parse(value);
    } else {
      throw ArgumentError("spec", fmt::format("unknown field '{}'", name));
    }
  }
  return spec;
}

std::string KernelSpec::symbol() const {
  if (kind == KernelKind::fill_test) return fmt::format("ds_fill_test_t{}_c{}", threads, cluster);
  if (kind == KernelKind::read_floor) {
    return fmt::format("ds_read_floor_{}_t{}", dtype_name(dtype), threads);
  }
  return fmt::format("ds_topk_{}_k{}_b{}_c{}_t{}_x{}_s{}_{}_{}{}", dtype_name(dtype), k_max, block,
                     block2, threads, cluster, stages, bounds_name(bounds), epilogue_name(epilogue),
                     row_path_text("_", row_path));
}

int KernelSpec::buffer_words() const {
  const int vector = 16 / static_cast<int>(dtype_bytes(dtype));
  return k_max + block2 + (cluster > 1 ? block : threads * vector);
}

size_t KernelSpec::dynamic_smem_bytes() const {
  if (kind != KernelKind::topk) return 0;
  const size_t candidates = static_cast<size_t>(buffer_words()) * sizeof(uint64_t);
  const size_t staging = static_cast<size_t>(stages) * block * dtype_bytes(dtype);
  return candidates + staging;
}

namespace {

// Whether a topk spec's CTAs hold a row's aligned view of `span` elements whole (the kernel's
// rule: templates/resident_part.cuh).
bool holds_view_whole(const KernelSpec& spec, int64_t span) {
  const int elem_bytes = static_cast<int>(dtype_bytes(spec.dtype));
  // Past 2^24 columns no part fits any buffer, and the int arithmetic below stays exact.
  if (span < 0 || span > (int64_t{1} << 24)) return false;
  const ds::PartRoom room{spec.buffer_words(), static_cast<int>(spec.dynamic_smem_bytes()),
                          elem_bytes,          spec.cluster,
                          spec.k_max,          elem_bytes * 8};
  return ds::resident_fits(ds::resident_part(static_cast<int>(span), room), room);
}

}  // namespace

bool KernelSpec::holds_rows_whole(int64_t n) const {
  // A row starts at most vector - 1 elements past a 16-byte boundary, and a shorter row's part is
  // no larger.
  return kind == KernelKind::topk && n >= 0 &&
         holds_view_whole(*this, n + 16 / static_cast<int64_t>(dtype_bytes(dtype)) - 1);
}

bool KernelSpec::holds_no_row_whole(int64_t n) const {
  // A row that starts on a 16-byte boundary has the shortest view.
  return kind == KernelKind::topk && !holds_view_whole(*this, n);
}

void KernelSpec::require_rows_held(int64_t n, const char* argument) const {
  if (row_path == RowPath::whole && !holds_rows_whole(n)) {
    throw ArgumentError(
        argument, fmt::format("{} holds only rows shorter than n = {} whole", to_string(), n));
  }
}

size_t KernelSpecHash::operator()(const KernelSpec& spec) const noexcept {
  size_t hash = static_cast<size_t>(spec.kind);
  for (int field : {static_cast<int>(spec.dtype), spec.k_max, spec.block, spec.block2, spec.threads,
                    spec.cluster, spec.stages, spec.arch.sm, static_cast<int>(spec.bounds),
                    static_cast<int>(spec.epilogue), static_cast<int>(spec.row_path)}) {
    hash = hash * 1000003u ^ static_cast<size_t>(field);
  }
  return hash;
}

}  // namespace deepselect
