#include "graph_timing.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "captured_graph.hpp"
#include "driver.hpp"

namespace deepselect {
namespace {

constexpr double kMinReplayUs = 1000.0;
constexpr size_t kMaxCallsPerReplay = 8192;

class Event {
 public:
  Event() { check_cuda(driver().cuEventCreate(&event_, CU_EVENT_DEFAULT), "cuEventCreate"); }
  ~Event() { driver().cuEventDestroy(event_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  void record(CUstream stream) {
    check_cuda(driver().cuEventRecord(event_, stream), "cuEventRecord");
  }
  // Microseconds from start to this event, once this event has completed.
  double us_since(const Event& start) const {
    check_cuda(driver().cuEventSynchronize(event_), "cuEventSynchronize");
    float ms = 0.0f;
    check_cuda(driver().cuEventElapsedTime(&ms, start.event_, event_), "cuEventElapsedTime");
    return 1000.0 * static_cast<double>(ms);
  }

 private:
  CUevent event_ = nullptr;
};

std::unique_ptr<CapturedGraph> capture_passes(const BufferCall& call, size_t buffers, size_t passes,
                                              CUstream stream) {
  return std::make_unique<CapturedGraph>(stream, [&] {
    for (size_t pass = 0; pass < passes; ++pass) {
      for (size_t buffer = 0; buffer < buffers; ++buffer) call(buffer, stream);
    }
  });
}

// One untimed replay, then one timed.
double replay_us(const CapturedGraph& graph, CUstream stream) {
  Event start;
  Event stop;
  graph.launch(stream);
  start.record(stream);
  graph.launch(stream);
  stop.record(stream);
  return stop.us_since(start);
}

// Passes whose replay takes >= kMinReplayUs when one takes pass_us.
size_t passes_for(double pass_us, size_t buffers) {
  const size_t most = std::max<size_t>(1, kMaxCallsPerReplay / buffers);
  const double wanted = std::ceil(kMinReplayUs / std::max(pass_us, 1e-3));
  return std::clamp<size_t>(static_cast<size_t>(std::min(wanted, 1e9)), 1, most);
}

double median(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  const size_t middle = samples.size() / 2;
  return samples.size() % 2 == 1 ? samples[middle] : (samples[middle - 1] + samples[middle]) / 2;
}

}  // namespace

Timing time_calls(const BufferCall& call, size_t buffers, int replays, CUstream stream) {
  call(0, stream);
  check_cuda(driver().cuStreamSynchronize(stream), "cuStreamSynchronize");
  size_t passes = 1;
  std::unique_ptr<CapturedGraph> graph;
  for (;;) {
    graph = capture_passes(call, buffers, passes, stream);
    const size_t wanted =
        passes_for(replay_us(*graph, stream) / static_cast<double>(passes), buffers);
    if (wanted <= passes) break;
    passes = wanted;
  }
  const size_t count = static_cast<size_t>(std::max(replays, 1));
  std::vector<Event> starts(count);
  std::vector<Event> stops(count);
  for (size_t i = 0; i < count; ++i) {
    starts[i].record(stream);
    graph->launch(stream);
    stops[i].record(stream);
  }
  Timing timing;
  timing.calls = passes * buffers;
  std::vector<double> per_call;
  for (size_t i = 0; i < count; ++i) {
    per_call.push_back(stops[i].us_since(starts[i]) / static_cast<double>(timing.calls));
  }
  timing.us_per_call = median(std::move(per_call));
  return timing;
}

double wall_ms(const std::function<void()>& fn, CUstream stream) {
  const auto start = std::chrono::steady_clock::now();
  fn();
  check_cuda(driver().cuStreamSynchronize(stream), "cuStreamSynchronize");
  const std::chrono::duration<double, std::milli> elapsed =
      std::chrono::steady_clock::now() - start;
  return elapsed.count();
}

}  // namespace deepselect
