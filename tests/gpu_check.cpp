#include "gpu_check.hpp"
#include "spec.hpp"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <thread>
#include <tuple>

#include "device_buffer.hpp"
#include "driver.hpp"
#include "dtype_bits.hpp"

namespace deepselect::testing {
namespace {

size_t index_bytes(const Layout& layout) {
  return layout.index_type == IndexType::i32 ? 4 : 8;
}
// An output's row stride: its ld, where 0 means k.
int64_t stride_of(int64_t ld, const Problem& problem) {
  return ld != 0 ? ld : problem.k;
}

std::vector<uint8_t> pack(const std::vector<uint32_t>& bits, DType dtype) {
  const size_t size = dtype_bytes(dtype);
  std::vector<uint8_t> bytes(bits.size() * size);
  for (size_t i = 0; i < bits.size(); ++i) {
    if (size == 4) {
      std::memcpy(&bytes[i * 4], &bits[i], 4);
    } else {
      const auto half = static_cast<uint16_t>(bits[i]);
      std::memcpy(&bytes[i * 2], &half, 2);
    }
  }
  return bytes;
}

// An optional int32 array on the device; null when the problem does not have it.
std::unique_ptr<DeviceBuffer> upload_optional(const std::vector<int32_t>& host) {
  if (host.empty()) return nullptr;
  auto buffer = std::make_unique<DeviceBuffer>(host.size() * sizeof(int32_t));
  buffer->upload(host.data(), buffer->bytes());
  return buffer;
}

const int32_t* device_ints(const std::unique_ptr<DeviceBuffer>& buffer) {
  return buffer ? buffer->at<const int32_t>() : nullptr;
}

bool poisoned(const std::vector<uint8_t>& bytes, size_t first, size_t last) {
  return std::all_of(bytes.begin() + static_cast<ptrdiff_t>(first),
                     bytes.begin() + static_cast<ptrdiff_t>(last),
                     [](uint8_t byte) { return byte == kPoison; });
}

// A slot as (index, raw index, value bits); the raw index and the value are 0 when the call
// did not write them.
using Slot = std::tuple<int64_t, int64_t, uint32_t>;

class OutputReader {
 public:
  OutputReader(const Problem& problem, const Layout& layout, const GpuOutput& output)
      : problem_(problem), layout_(layout), output_(output) {}

  Slot slot(int64_t row, int64_t s) const {
    return {index(output_.indices, row * stride_of(layout_.ld_idx, problem_) + s),
            layout_.raw_indices
                ? index(output_.raw_indices, row * stride_of(layout_.ld_raw, problem_) + s)
                : 0,
            layout_.values ? value(row, s) : 0u};
  }

 private:
  int64_t index(const std::vector<uint8_t>& bytes, int64_t at) const {
    int64_t index = 0;
    if (layout_.index_type == IndexType::i32) {
      int32_t narrow = 0;
      std::memcpy(&narrow, &bytes[static_cast<size_t>(at) * 4], 4);
      index = narrow;
    } else {
      std::memcpy(&index, &bytes[static_cast<size_t>(at) * 8], 8);
    }
    return index;
  }

  uint32_t value(int64_t row, int64_t s) const {
    const size_t size = dtype_bytes(problem_.dtype);
    const size_t at = static_cast<size_t>(row * stride_of(layout_.ld_val, problem_) + s) * size;
    uint32_t bits = 0;
    std::memcpy(&bits, &output_.values[at], size);  // little endian: the low bytes
    return bits;
  }

  const Problem& problem_;
  const Layout& layout_;
  const GpuOutput& output_;
};

std::string slot_text(const Slot& slot) {
  char text[80];
  std::snprintf(text, sizeof text, "(%" PRId64 ", raw %" PRId64 ", 0x%x)", std::get<0>(slot),
                std::get<1>(slot), std::get<2>(slot));
  return text;
}

// An index as the call writes it: an int32 output keeps its low 32 bits (docs/api.md).
int64_t as_written(int64_t index, const Layout& layout) {
  return layout.index_type == IndexType::i32 ? static_cast<int32_t>(index) : index;
}

// The first wrong slot of a row, or an empty string.
std::string row_mismatch(const Problem& problem, const Layout& layout, const Result& expected,
                         const OutputReader& reader, int64_t row) {
  const int64_t k = problem.k;
  const int64_t selected = expected.selected[row];
  std::vector<Slot> want;
  std::vector<Slot> got;
  for (int64_t s = 0; s < k; ++s) {
    const size_t at = static_cast<size_t>(row * k + s);
    want.emplace_back(as_written(expected.indices[at], layout),
                      layout.raw_indices ? as_written(expected.raw_indices[at], layout) : 0,
                      layout.values ? expected.values[at] : 0u);
    got.push_back(reader.slot(row, s));
  }
  const bool as_set = problem.order == Order::unsorted;
  if (as_set) {
    std::sort(want.begin(), want.begin() + selected);
    std::sort(got.begin(), got.begin() + selected);
  }
  for (int64_t s = 0; s < k; ++s) {
    if (want[s] == got[s]) continue;
    char text[160];
    std::snprintf(text, sizeof text,
                  "row %" PRId64 " slot %" PRId64 "%s of %" PRId64 " selected: expected %s, got %s",
                  row, s, as_set && s < selected ? " (sorted)" : "", selected,
                  slot_text(want[s]).c_str(), slot_text(got[s]).c_str());
    return text;
  }
  return "";
}

// The bytes of each row past k, and the guard past the last row, must hold the poison.
bool padding_untouched(const std::vector<uint8_t>& bytes, int64_t rows, int64_t k, int64_t stride,
                       size_t element) {
  for (int64_t r = 0; r < rows; ++r) {
    if (!poisoned(bytes, static_cast<size_t>(r * stride + k) * element,
                  static_cast<size_t>((r + 1) * stride) * element)) {
      return false;
    }
  }
  return poisoned(bytes, static_cast<size_t>(rows * stride) * element, bytes.size());
}

// Calls topk from the thread `caller` names; throws what it threw there. A thread that made its
// own context must find it current after the call.
void call_topk(Caller caller, const TopkArgs& args, CUstream stream) {
  if (caller == Caller::this_thread) {
    topk(args, stream);
    return;
  }
  if (stream == nullptr) throw Error("call_topk: a new thread's call needs the case's own stream");
  const std::string failure = failure_on_new_thread([&] {
    std::optional<CreatedContext> other;
    if (caller == Caller::thread_with_other_context) other.emplace();
    topk(args, stream);
    CUcontext current = nullptr;
    check_cuda(driver().cuCtxGetCurrent(&current), "cuCtxGetCurrent");
    if (current != (other ? other->get() : nullptr)) {
      throw Error("topk changed its calling thread's current context");
    }
  });
  if (!failure.empty()) throw Error(failure);
}

}  // namespace

std::string failure_on_new_thread(const std::function<void()>& run) {
  std::string failure;
  std::thread([&] {
    try {
      run();
    } catch (const std::exception& error) {
      failure = error.what();
    } catch (...) {
      failure = "an exception that is no std::exception";
    }
  }).join();
  return failure;
}

// An output buffer filled with poison, with kGuardBytes of it before and after the output.
class PoisonedOutput {
 public:
  PoisonedOutput(const char* name, size_t bytes)
      : name_(name), buffer_(kGuardBytes + bytes + kGuardBytes) {
    buffer_.fill(kPoison);
  }

  void poison() { buffer_.fill(kPoison); }

  template <class T>
  T* at() const {
    return buffer_.at<T>(kGuardBytes);
  }

  // The output and the guard after it; throws when the call wrote into the guard before it.
  std::vector<uint8_t> download() const {
    std::vector<uint8_t> bytes = buffer_.download();
    if (!poisoned(bytes, 0, kGuardBytes)) {
      throw Error(std::string("the call wrote into the guard bytes before ") + name_);
    }
    bytes.erase(bytes.begin(), bytes.begin() + static_cast<ptrdiff_t>(kGuardBytes));
    return bytes;
  }

 private:
  const char* name_;
  DeviceBuffer buffer_;
};

DeviceInputs::DeviceInputs(const Problem& problem, const Layout& layout)
    : shift_(static_cast<size_t>(layout.x_shift) * dtype_bytes(problem.dtype)) {
  const std::vector<uint8_t> x_bytes = pack(problem.x, problem.dtype);
  x_ = std::make_unique<DeviceBuffer>(shift_ + x_bytes.size() + kGuardBytes);
  x_->fill(0xff);  // NaN in every dtype around the input
  x_->upload(x_bytes.data(), x_bytes.size(), shift_);
  k_per_row_ = upload_optional(problem.k_per_row);
  begin_ = upload_optional(problem.begin);
  end_ = upload_optional(problem.end);
  index_offset_ = upload_optional(problem.index_offset);
  seq_lens_ = upload_optional(problem.seq_lens);
  page_table_ = upload_optional(problem.page_table);
  row_to_batch_ = upload_optional(problem.row_to_batch);
}

DeviceInputs::~DeviceInputs() = default;

void DeviceInputs::point(TopkArgs& args) const {
  args.x = x_->at<const void>(shift_);
  args.k_per_row = device_ints(k_per_row_);
  args.begin = device_ints(begin_);
  args.end = device_ints(end_);
  args.index_offset = device_ints(index_offset_);
  args.seq_lens = device_ints(seq_lens_);
  args.page_table = device_ints(page_table_);
  args.row_to_batch = device_ints(row_to_batch_);
}

DeviceOutputs::DeviceOutputs(const Problem& problem, const Layout& layout) {
  const auto rows = static_cast<size_t>(problem.rows);
  const auto poisoned_output = [&](const char* name, int64_t ld, size_t element_bytes) {
    return std::make_unique<PoisonedOutput>(
        name, rows * static_cast<size_t>(stride_of(ld, problem)) * element_bytes);
  };
  indices_ = poisoned_output("indices", layout.ld_idx, index_bytes(layout));
  if (layout.raw_indices) {
    raw_indices_ = poisoned_output("raw_indices", layout.ld_raw, index_bytes(layout));
  }
  if (layout.values) values_ = poisoned_output("values", layout.ld_val, dtype_bytes(problem.dtype));
  if (layout.row_status) {
    row_status_ = std::make_unique<PoisonedOutput>("row_status", rows * sizeof(int32_t));
  }
}

DeviceOutputs::~DeviceOutputs() = default;

void DeviceOutputs::poison() const {
  for (const auto* buffer : {&indices_, &raw_indices_, &values_, &row_status_}) {
    if (*buffer) (*buffer)->poison();
  }
}

void DeviceOutputs::point(TopkArgs& args) const {
  args.indices = indices_->at<void>();
  args.raw_indices = raw_indices_ ? raw_indices_->at<void>() : nullptr;
  args.values = values_ ? values_->at<void>() : nullptr;
  args.row_status = row_status_ ? row_status_->at<int32_t>() : nullptr;
}

const void* DeviceOutputs::indices() const {
  return indices_->at<const void>();
}

const void* DeviceOutputs::values() const {
  return values_ ? values_->at<const void>() : nullptr;
}

GpuOutput DeviceOutputs::download() const {
  GpuOutput output;
  output.indices = indices_->download();
  if (raw_indices_) output.raw_indices = raw_indices_->download();
  if (values_) output.values = values_->download();
  if (row_status_) output.row_status = row_status_->download();
  return output;
}

TopkArgs host_args(const Problem& problem, const Layout& layout) {
  TopkArgs args;
  args.dtype = problem.dtype;
  args.rows = problem.rows;
  args.n = problem.n;
  args.ld = problem.ld;
  args.k = problem.k;
  args.largest = problem.largest;
  args.order = problem.order;
  args.nan_policy = problem.nan_policy;
  args.index_type = layout.index_type;
  args.ld_idx = layout.ld_idx;
  args.ld_val = layout.ld_val;
  args.fill_index = problem.fill_index;
  args.fill_value = problem.fill_value;
  args.next_n = problem.next_n;
  args.page_table_rows = problem.page_table_rows;
  args.page_table_cols = problem.page_table_cols;
  args.ld_page_table = problem.ld_page_table;
  args.page_size = problem.page_size;
  args.ld_raw = layout.ld_raw;
  args.pdl = layout.pdl;
  return args;
}

GpuOutput run_on_gpu(const Problem& problem, const Layout& layout, const Launch& launch) {
  const Driver& cuda = driver();
  const DeviceInputs inputs(problem, layout);
  const DeviceOutputs outputs(problem, layout);
  // The uploads and memsets may still be in flight on the legacy stream.
  check_cuda(cuda.cuCtxSynchronize(), "cuCtxSynchronize");
  TopkArgs args = host_args(problem, layout);
  inputs.point(args);
  outputs.point(args);
  const std::unique_ptr<Stream> stream = layout.own_stream ? std::make_unique<Stream>() : nullptr;
  const CUstream handle = stream ? stream->get() : nullptr;
  if (launch) {
    launch(args, handle);
  } else {
    call_topk(layout.caller, args, handle);
  }
  check_cuda(cuda.cuStreamSynchronize(handle), "cuStreamSynchronize after topk");
  return outputs.download();
}

std::string first_mismatch(const Problem& problem, const Layout& layout, const Result& expected,
                           const GpuOutput& output) {
  const OutputReader reader(problem, layout, output);
  std::string first;
  int64_t bad_rows = 0;
  for (int64_t r = 0; r < problem.rows; ++r) {
    std::string mismatch = row_mismatch(problem, layout, expected, reader, r);
    if (layout.row_status) {
      int32_t status = 0;
      std::memcpy(&status, &output.row_status[static_cast<size_t>(r) * 4], 4);
      if (mismatch.empty() && status != expected.row_status[r]) {
        mismatch = "row " + std::to_string(r) + ": row_status " + std::to_string(status) +
                   ", expected " + std::to_string(expected.row_status[r]);
      }
    }
    if (mismatch.empty()) continue;
    if (bad_rows++ == 0) first = mismatch;
  }
  if (!first.empty()) return std::to_string(bad_rows) + " rows differ; first: " + first;
  if (!padding_untouched(output.indices, problem.rows, problem.k, stride_of(layout.ld_idx, problem),
                         index_bytes(layout))) {
    return "indices written outside [0, k) of a row or past the buffer";
  }
  if (layout.raw_indices &&
      !padding_untouched(output.raw_indices, problem.rows, problem.k,
                         stride_of(layout.ld_raw, problem), index_bytes(layout))) {
    return "raw_indices written outside [0, k) of a row or past the buffer";
  }
  if (layout.values &&
      !padding_untouched(output.values, problem.rows, problem.k, stride_of(layout.ld_val, problem),
                         dtype_bytes(problem.dtype))) {
    return "values written outside [0, k) of a row or past the buffer";
  }
  if (layout.row_status &&
      !padding_untouched(output.row_status, problem.rows, 1, 1, sizeof(int32_t))) {
    return "row_status written past the buffer";
  }
  return "";
}

bool check_on_gpu(const std::string& label, const CaseSpec& spec,
                  const std::function<void(Problem&)>& adjust) {
  const auto start = std::chrono::steady_clock::now();
  std::string mismatch;
  try {
    Problem problem = make_problem(spec);
    if (adjust) adjust(problem);
    const Result expected = reference_topk(problem);
    mismatch = first_mismatch(problem, spec.layout, expected, run_on_gpu(problem, spec.layout));
  } catch (const std::exception& error) {
    mismatch = std::string("exception: ") + error.what();
  }
  const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
  std::printf("%s: %s: %s (%.2f s)\n", label.c_str(), describe(spec).c_str(),
              mismatch.empty() ? "ok" : ("MISMATCH " + mismatch).c_str(), seconds.count());
  std::fflush(stdout);
  return mismatch.empty();
}

}  // namespace deepselect::testing
