// Runs one case through deepselect::topk and compares every output byte with the reference.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "device_buffer.hpp"
#include "reference.hpp"
#include "topk_case.hpp"

namespace deepselect::testing {

inline constexpr uint8_t kPoison = 0xab;    // the byte every output holds before a call
inline constexpr size_t kGuardBytes = 256;  // poisoned bytes before and after every output

// The whole output buffers after a call, with the guard bytes after each.
struct GpuOutput {
  std::vector<uint8_t> indices;
  std::vector<uint8_t> raw_indices;  // empty without raw_indices
  std::vector<uint8_t> values;       // empty without values
  std::vector<uint8_t> row_status;   // empty without row_status
};

// A problem's inputs on the device: x shifted by layout.x_shift elements, NaN around it, and
// its per-row arrays. The memsets around x may still run on the legacy stream when the
// constructor returns: synchronize the context before a call reads them.
class DeviceInputs {
 public:
  DeviceInputs(const Problem& problem, const Layout& layout);
  ~DeviceInputs();
  DeviceInputs(const DeviceInputs&) = delete;
  DeviceInputs& operator=(const DeviceInputs&) = delete;
  // Sets args' input pointers (x and the per-row arrays) to these buffers.
  void point(TopkArgs& args) const;

 private:
  size_t shift_ = 0;
  std::unique_ptr<DeviceBuffer> x_;
  std::unique_ptr<DeviceBuffer> k_per_row_;
  std::unique_ptr<DeviceBuffer> begin_;
  std::unique_ptr<DeviceBuffer> end_;
  std::unique_ptr<DeviceBuffer> index_offset_;
  std::unique_ptr<DeviceBuffer> seq_lens_;
  std::unique_ptr<DeviceBuffer> page_table_;
  std::unique_ptr<DeviceBuffer> row_to_batch_;
};

class PoisonedOutput;  // an output buffer between guard bytes (gpu_check.cpp)

// A call's output buffers as the layout asks for them, each between guard bytes, poisoned with
// 0xAB bytes when made (synchronize the context before a call writes them); download() throws
// where a call wrote into the guard before an output.
class DeviceOutputs {
 public:
  DeviceOutputs(const Problem& problem, const Layout& layout);
  ~DeviceOutputs();
  DeviceOutputs(const DeviceOutputs&) = delete;
  DeviceOutputs& operator=(const DeviceOutputs&) = delete;
  void poison() const;  // memsets on the legacy stream, like the poison when made
  // Sets args' output pointers to these buffers.
  void point(TopkArgs& args) const;
  const void* indices() const;
  const void* values() const;  // null without values
  GpuOutput download() const;

 private:
  std::unique_ptr<PoisonedOutput> indices_;
  std::unique_ptr<PoisonedOutput> raw_indices_;
  std::unique_ptr<PoisonedOutput> values_;
  std::unique_ptr<PoisonedOutput> row_status_;
};

// The call's arguments but its device pointers (DeviceInputs and DeviceOutputs point them).
TopkArgs host_args(const Problem& problem, const Layout& layout);

// How a run launches the call: topk as layout.caller says when empty, else this (on the stream).
using Launch = std::function<void(const TopkArgs& args, CUstream stream)>;

// Uploads the problem (x shifted by layout.x_shift elements, NaN around it), poisons the outputs
// and guard bytes before and after each with 0xAB, launches the call and waits for it; a write
// into a guard before an output throws. Needs a current context.
GpuOutput run_on_gpu(const Problem& problem, const Layout& layout, const Launch& launch = {});

// Empty when the output is what the reference says (unsorted rows compared as sets) and every
// byte the call must not write still holds the poison; otherwise the first difference.
std::string first_mismatch(const Problem& problem, const Layout& layout, const Result& expected,
                           const GpuOutput& output);

// Runs `run` on a new thread, which starts with no current CUDA context, and waits for it: the
// message of what it threw, or "" when it returned.
std::string failure_on_new_thread(const std::function<void()>& run);

// Generates, runs and compares one case, printing one line about it. True when it matched.
// `adjust`, when given, changes the generated inputs before the run and the reference.
bool check_on_gpu(const std::string& label, const CaseSpec& spec,
                  const std::function<void(Problem&)>& adjust = {});

}  // namespace deepselect::testing
