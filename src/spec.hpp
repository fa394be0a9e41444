// KernelSpec: everything a kernel is specialized on. A value type with a canonical text form,
// which is part of the cache key and the line format of the spec lists under cache/.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <deepselect/deepselect.hpp>

namespace deepselect {

enum class KernelKind : int { topk = 0, fill_test = 1, read_floor = 2 };
// Where a row's bounds come from: begin/end arrays (or the whole row), or the decode form
// (seq_lens, next_n). Values match templates/params.cuh.
enum class RowBounds : int { range = 0, decode = 1 };
// What is written as an index: the column (plus index_offset), or its page-table translation.
enum class Epilogue : int { plain = 0, page_table = 1 };
// Which of a topk kernel's two paths its rows take, where the host knows: either (any), the
// resident load alone (whole: every row lies whole in its CTAs, so it is built without its scan),
// or the scan alone (scanned: it is built without its resident load; the scan takes any row).
// Values match templates/params.cuh.
enum class RowPath : int { any = 0, whole = 1, scanned = 2 };

// A target architecture: sm_90a or sm_100a.
struct Arch {
  int sm = 90;
  bool operator==(const Arch&) const = default;
  std::string to_string() const;  // "sm_90a"
  static Arch parse(std::string_view text);
  // The target of a GPU of compute capability major.minor; throws ArgumentError if unsupported.
  static Arch of_compute_capability(int major, int minor);
};

// The most CTAs a cluster takes without the non-portable cluster size attribute (which larger
// clusters, 16, need).
constexpr int kMaxPortableCluster = 8;

struct KernelSpec {
  KernelKind kind = KernelKind::topk;
  DType dtype = DType::f32;
  int k_max = 2048;   // the largest runtime k this kernel accepts
  int block = 4096;   // B: elements scanned per step
  int block2 = 4096;  // B2: the candidate buffer is compacted when it holds k + B2
  int threads = 512;
  int cluster = 1;  // CTAs that share one row (a thread-block cluster)
  int stages = 2;   // input blocks in flight in shared memory (a lone CTA's four: two per scan)
  Arch arch;
  RowBounds bounds = RowBounds::range;
  Epilogue epilogue = Epilogue::plain;
  // "rows=whole" or "rows=scanned" in the text form, absent for RowPath::any.
  RowPath row_path = RowPath::any;

  bool operator==(const KernelSpec&) const = default;

  // Throws ArgumentError naming the offending field.
  void validate() const;
  // "kind=topk dtype=f32 k_max=2048 B=4096 B2=4096 threads=512 cluster=1 stages=2
  // bounds=range epilogue=plain arch=sm_90a"; parse accepts the fields in any order, missing ones
  // keep their values in base.
  std::string to_string() const;
  static KernelSpec parse(std::string_view text);
  static KernelSpec parse(std::string_view text, const KernelSpec& base);
  // The kernel's extern "C" name.
  std::string symbol() const;
  // Candidate words a topk kernel's shared-memory buffer holds (templates/topk_kernel.cuh
  // kCapacity): k_max + B2 + B in a cluster's CTAs, k_max + B2 + one vector per thread in a lone
  // CTA.
  int buffer_words() const;
  // Dynamic shared memory a launch needs, in bytes.
  size_t dynamic_smem_bytes() const;
  // Whether this topk kernel holds every row of up to n columns whole, each CTA its part of the
  // row at the row's worst 16-byte alignment (templates/resident_part.cuh), whatever row_path.
  bool holds_rows_whole(int64_t n) const;
  // Whether this topk kernel holds no row of n columns whole, at any alignment: it scans them all.
  bool holds_no_row_whole(int64_t n) const;
  // Throws ArgumentError naming `argument` where row_path is whole and rows of n columns are not
  // all held whole (the kernel, built without its scan, would overrun its buffer).
  void require_rows_held(int64_t n, const char* argument) const;
};

// The fields of a spec's text form (or a plan override's), as parse splits them: at spaces and
// tabs, empty ones dropped.
std::vector<std::string_view> spec_fields(std::string_view text);

struct KernelSpecHash {
  size_t operator()(const KernelSpec& spec) const noexcept;
};

const char* row_path_name(RowPath path);
const char* dtype_name(DType dtype);
DType parse_dtype(std::string_view text);
size_t dtype_bytes(DType dtype);

// The most dynamic shared memory one block may ask for on the supported archs.
constexpr size_t kMaxDynamicSmemBytes = 227 * 1024 - 4 * 1024;

}  // namespace deepselect
