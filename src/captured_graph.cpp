#include "captured_graph.hpp"

#include <algorithm>
#include <vector>

#include "driver.hpp"

namespace deepselect {

CapturedGraph::CapturedGraph(CUstream stream, const std::function<void()>& record) {
  const Driver& cu = driver();
  check_cuda(cu.cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL),
             "cuStreamBeginCapture");
  try {
    record();
  } catch (...) {
    CUgraph abandoned = nullptr;
    cu.cuStreamEndCapture(stream, &abandoned);
    if (abandoned != nullptr) cu.cuGraphDestroy(abandoned);
    throw;
  }
  check_cuda(cu.cuStreamEndCapture(stream, &graph_), "cuStreamEndCapture");
  const CUresult result = cu.cuGraphInstantiateWithFlags(&exec_, graph_, 0);
  if (result != CUDA_SUCCESS) cu.cuGraphDestroy(graph_);
  check_cuda(result, "cuGraphInstantiateWithFlags");
}

CapturedGraph::~CapturedGraph() {
  driver().cuGraphExecDestroy(exec_);
  driver().cuGraphDestroy(graph_);
}

void CapturedGraph::launch(CUstream stream) const {
  check_cuda(driver().cuGraphLaunch(exec_, stream), "cuGraphLaunch");
}

size_t CapturedGraph::programmatic_edges() const {
  const Driver& cu = driver();
  size_t count = 0;
  check_cuda(cu.cuGraphGetEdges(graph_, nullptr, nullptr, nullptr, &count), "cuGraphGetEdges");
  std::vector<CUgraphNode> from(count);
  std::vector<CUgraphNode> to(count);
  std::vector<CUgraphEdgeData> edges(count);
  check_cuda(cu.cuGraphGetEdges(graph_, from.data(), to.data(), edges.data(), &count),
             "cuGraphGetEdges");
  return static_cast<size_t>(
      std::count_if(edges.begin(), edges.begin() + static_cast<ptrdiff_t>(count),
                    [](const CUgraphEdgeData& edge) {
                      return edge.type == CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC;
                    }));
}

}  // namespace deepselect
