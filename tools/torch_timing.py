"""CUDA-graph timing with CUDA events, shared by the tools that run beside PyTorch
(bench_torch.py, dsa_decode_step.py): the method of `deepselect bench` and docs/workloads.md."""

import math
import statistics
import sys

try:
    import torch
except ImportError:  # the tools report it in their main(), so that --help works anywhere
    torch = None

MIN_REPLAY_US = 1000.0
MAX_CALLS_PER_REPLAY = 8192


def missing_gpu(tool):
    """True, after saying why on stderr, when `tool` cannot run here (no torch, or no GPU)."""
    if torch is None:
        reason = "PyTorch is not installed"
    elif not torch.cuda.is_available():
        reason = "torch.cuda sees no GPU"
    else:
        return False
    print(f"{tool}: no GPU: {reason}", file=sys.stderr)
    return True


def capture(calls, passes):
    """A CUDA graph of `passes` passes over calls (one per buffer)."""
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph, capture_error_mode="thread_local"):
        for _ in range(passes):
            for call in calls:
                call()
    return graph


def replay_us(graph):
    """One untimed replay, then one timed."""
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    graph.replay()
    start.record()
    graph.replay()
    stop.record()
    stop.synchronize()
    return 1000.0 * start.elapsed_time(stop)


def time_calls(calls, replays):
    """Median microseconds per call over replays of a graph of whole passes over the buffers
    (grown until a replay takes >= ~1 ms), as `deepselect bench` does."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm up (and load or compile kernels) outside the graph
        for call in calls:
            call()
    torch.cuda.current_stream().wait_stream(side)
    torch.cuda.synchronize()
    passes = 1
    most = max(1, MAX_CALLS_PER_REPLAY // len(calls))
    while True:
        graph = capture(calls, passes)
        pass_us = replay_us(graph) / passes
        wanted = min(most, max(1, math.ceil(MIN_REPLAY_US / max(pass_us, 1e-3))))
        if wanted <= passes:
            break
        del graph
        passes = wanted
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
              for _ in range(replays)]
    for start, stop in events:
        start.record()
        graph.replay()
        stop.record()
    torch.cuda.synchronize()
    per_call = [1000.0 * start.elapsed_time(stop) / (passes * len(calls)) for start, stop in events]
    return statistics.median(per_call)
