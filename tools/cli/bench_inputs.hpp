// The inputs `deepselect bench` times on: for one (shape, distribution), distinct device buffers
// of generated rows that together exceed 4x the H200's 60 MB L2, so that every call reads DRAM.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <deepselect/deepselect.hpp>

#include "bench_suite.hpp"
#include "data_gen.hpp"
#include "device_buffer.hpp"

namespace deepselect::cli {

struct BenchInputs {
  std::vector<std::unique_ptr<testing::DeviceBuffer>> buffers;  // rows x n elements each
  std::vector<int32_t> ends;                                    // empty when the rows are full
  std::unique_ptr<testing::DeviceBuffer> device_ends;           // null when the rows are full
  std::vector<uint32_t> first;  // buffer 0 on the host, raw bits, for the result check

  const int32_t* ends_pointer() const {
    return device_ends ? device_ends->at<const int32_t>() : nullptr;
  }
};

// Buffers per rotation: at least 2, more until they pass 4x the L2, within ~16 GB.
size_t buffer_count(const BenchShape& shape);

// Generates every buffer on the host once (in parallel, one seeded generator per row: the
// distribution on each row's valid range, NaN garbage past its end) and uploads it.
BenchInputs make_inputs(const BenchShape& shape, testing::Dist dist);

// One call's arguments: top-k of x into indices (int32, dense), and into values when not null.
TopkArgs topk_args(const BenchShape& shape, int k, const void* x, const int32_t* ends,
                   void* indices, void* values);

}  // namespace deepselect::cli
