#include "bench_inputs.hpp"

#include <algorithm>
#include <span>

#include <fmt/format.h>

#include "driver.hpp"
#include "parallel.hpp"
#include "spec.hpp"

namespace deepselect::cli {
namespace {

constexpr size_t kRotationBytes = size_t{256} << 20;  // > 4 x 60 MB
constexpr size_t kMaxDeviceBytes = size_t{16} << 30;

size_t buffer_bytes(const BenchShape& shape) {
  return static_cast<size_t>(shape.rows * shape.n) * dtype_bytes(shape.dtype);
}

// Every buffer's rows back to back, as raw bits.
std::vector<uint32_t> generate_buffers(const BenchShape& shape, testing::Dist dist,
                                       const std::vector<int32_t>& ends, size_t buffers) {
  const auto n = static_cast<size_t>(shape.n);
  std::vector<uint32_t> words(buffers * static_cast<size_t>(shape.rows) * n);
  testing::parallel_for(static_cast<int64_t>(buffers) * shape.rows, [&](int64_t item) {
    const int64_t row = item % shape.rows;
    const size_t end = ends.empty() ? n : static_cast<size_t>(ends[static_cast<size_t>(row)]);
    testing::bench_row(dist, shape.dtype, static_cast<size_t>(item / shape.rows), row,
                       std::span(words).subspan(static_cast<size_t>(item) * n, n), end);
  });
  return words;
}

std::unique_ptr<testing::DeviceBuffer> upload(std::span<const uint32_t> words, DType dtype) {
  auto buffer = std::make_unique<testing::DeviceBuffer>(words.size() * dtype_bytes(dtype));
  if (dtype_bytes(dtype) == sizeof(uint32_t)) {
    buffer->upload(words.data(), buffer->bytes());
    return buffer;
  }
  std::vector<uint16_t> halves(words.size());
  std::transform(words.begin(), words.end(), halves.begin(),
                 [](uint32_t word) { return static_cast<uint16_t>(word); });
  buffer->upload(halves.data(), buffer->bytes());
  return buffer;
}

}  // namespace

size_t buffer_count(const BenchShape& shape) {
  const size_t bytes = buffer_bytes(shape);
  if (bytes == 0 || 2 * bytes > kMaxDeviceBytes) {
    throw ArgumentError("--rows", fmt::format("{} x {} {} needs 2 buffers of {} bytes (at most "
                                              "{} in all)",
                                              shape.rows, shape.n, dtype_name(shape.dtype), bytes,
                                              kMaxDeviceBytes));
  }
  const size_t wanted = std::max<size_t>(2, (kRotationBytes + bytes - 1) / bytes);
  return std::min(wanted, kMaxDeviceBytes / bytes);
}

BenchInputs make_inputs(const BenchShape& shape, testing::Dist dist) {
  BenchInputs inputs;
  inputs.ends = row_ends(shape);
  if (!inputs.ends.empty()) {
    inputs.device_ends =
        std::make_unique<testing::DeviceBuffer>(inputs.ends.size() * sizeof(int32_t));
    inputs.device_ends->upload(inputs.ends.data(), inputs.device_ends->bytes());
  }
  const size_t count = buffer_count(shape);
  const std::vector<uint32_t> words = generate_buffers(shape, dist, inputs.ends, count);
  const size_t elements = words.size() / count;
  for (size_t b = 0; b < count; ++b) {
    inputs.buffers.push_back(upload(std::span(words).subspan(b * elements, elements), shape.dtype));
  }
  inputs.first.assign(words.begin(), words.begin() + static_cast<ptrdiff_t>(elements));
  check_cuda(driver().cuCtxSynchronize(), "cuCtxSynchronize after the uploads");
  return inputs;
}

TopkArgs topk_args(const BenchShape& shape, int k, const void* x, const int32_t* ends,
                   void* indices, void* values) {
  TopkArgs args;
  args.x = x;
  args.dtype = shape.dtype;
  args.rows = shape.rows;
  args.n = shape.n;
  args.k = k;
  args.end = ends;
  args.order = shape.order;
  args.indices = indices;
  args.values = values;
  return args;
}

}  // namespace deepselect::cli
