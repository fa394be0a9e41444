// Calls launched with programmatic dependent launch (TopkArgs::pdl), each reading what the call
// before it wrote: a kernel that touched memory before the previous one completed would read
// the poison that each run starts from.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "captured_graph.hpp"
#include "device_buffer.hpp"
#include "driver.hpp"
#include "gpu_check.hpp"
#include "test_support.hpp"

namespace deepselect::testing {
namespace {

// Three calls, all writing values, all launched with pdl:
// 0. spec's rows, k = spec.k, by value;
// 1. selects second_k of call 0's values (rows of spec.k columns), by value, its row r ending
//    at call 0's index in slot r of row 0 (a per-row array that a kernel wrote, like the decode
//    step's lengths);
// 2. selects third_k of call 1's values, by index.
struct Chain {
  std::array<Problem, 3> calls;
  std::array<Result, 3> expected;
  Layout layout;
};

Problem selecting_from(const Problem& before, const Result& written, int k, Order order) {
  Problem problem;
  problem.dtype = before.dtype;
  problem.rows = before.rows;
  problem.n = before.k;
  problem.k = k;
  problem.x = written.values;
  problem.largest = before.largest;
  problem.order = order;
  return problem;
}

Chain make_chain(const CaseSpec& spec, int second_k, int third_k) {
  REQUIRE(spec.rows <= spec.k);  // call 1's row ends are the first slots of call 0's row 0
  Chain chain;
  chain.layout = spec.layout;
  chain.calls[0] = make_problem(spec);
  chain.expected[0] = reference_topk(chain.calls[0]);
  chain.calls[1] = selecting_from(chain.calls[0], chain.expected[0], second_k, Order::by_value);
  for (int64_t r = 0; r < spec.rows; ++r) {
    chain.calls[1].end.push_back(static_cast<int32_t>(chain.expected[0].indices[r]));
  }
  chain.expected[1] = reference_topk(chain.calls[1]);
  chain.calls[2] = selecting_from(chain.calls[1], chain.expected[1], third_k, Order::by_index);
  chain.expected[2] = reference_topk(chain.calls[2]);
  return chain;
}

// Runs the chain three times on a stream of its own, the calls enqueued one after the other or
// replayed as one CUDA graph, the outputs poisoned before each run. The first difference from
// the reference, or an empty string.
std::string run_chain(const Chain& chain, bool in_graph) {
  const DeviceInputs inputs(chain.calls[0], chain.layout);
  std::array<std::unique_ptr<DeviceOutputs>, 3> outputs;
  std::array<TopkArgs, 3> args;
  for (size_t c = 0; c < 3; ++c) {
    outputs[c] = std::make_unique<DeviceOutputs>(chain.calls[c], chain.layout);
    args[c] = host_args(chain.calls[c], chain.layout);
    outputs[c]->point(args[c]);
  }
  inputs.point(args[0]);
  args[1].x = outputs[0]->values();
  args[1].end = static_cast<const int32_t*>(outputs[0]->indices());
  args[2].x = outputs[1]->values();
  const Stream stream;
  const auto enqueue = [&] {
    for (const TopkArgs& call : args) topk(call, stream.get());
  };
  const std::unique_ptr<CapturedGraph> graph =
      in_graph ? std::make_unique<CapturedGraph>(stream.get(), enqueue) : nullptr;
  if (graph && graph->programmatic_edges() != 2) {
    return "the graph holds " + std::to_string(graph->programmatic_edges()) +
           " programmatic edges, not 2";
  }
  for (int run = 0; run < 3; ++run) {
    for (const auto& output : outputs) output->poison();
    check_cuda(driver().cuCtxSynchronize(), "cuCtxSynchronize after the poison");
    if (graph) {
      graph->launch(stream.get());
    } else {
      enqueue();
    }
    check_cuda(driver().cuStreamSynchronize(stream.get()), "cuStreamSynchronize");
    for (size_t c = 0; c < 3; ++c) {
      const std::string mismatch =
          first_mismatch(chain.calls[c], chain.layout, chain.expected[c], outputs[c]->download());
      if (!mismatch.empty()) {
        return "run " + std::to_string(run) + ", call " + std::to_string(c) + ": " + mismatch;
      }
    }
  }
  return "";
}

}  // namespace

TEST_CASE("gpu: calls launched with pdl, each reading what the one before it wrote") {
  DS_REQUIRE_GPU();
  PrimaryContext context;
  struct Shape {
    DType dtype;
    int64_t rows;
    int64_t n;
    int k;
    int second_k;
    int third_k;
  };
  // Call 0 on 16-CTA clusters, 8-CTA clusters and lone CTAs (f32 and f16).
  const Shape shapes[] = {{DType::f32, 2, 131072, 2048, 1000, 100},
                          {DType::bf16, 6, 131072, 512, 300, 50},
                          {DType::f32, 300, 40000, 1024, 1000, 64},
                          {DType::f16, 250, 65536, 256, 200, 16}};
  int index = 0;
  for (const Shape& shape : shapes) {
    for (const Dist dist : {Dist::normal, Dist::relu_ties}) {
      CaseSpec spec;
      spec.seed = 2000 + static_cast<uint64_t>(index);
      spec.dtype = shape.dtype;
      spec.rows = shape.rows;
      spec.n = shape.n;
      spec.k = shape.k;
      spec.dist = dist;
      spec.largest = index % 3 != 2;
      spec.order = Order::by_value;
      spec.layout.row_status = false;
      spec.layout.pdl = true;
      const Chain chain = make_chain(spec, shape.second_k, shape.third_k);
      for (const bool in_graph : {false, true}) {
        CAPTURE(describe(spec));
        CAPTURE(shape.second_k);
        CAPTURE(shape.third_k);
        CAPTURE(in_graph);
        CHECK(run_chain(chain, in_graph) == "");
      }
      ++index;
    }
  }
}

}  // namespace deepselect::testing
