#!/usr/bin/env python3
"""DeepSelect against torch.topk on the docs/workloads.md suite, timed the same way for both.

Loads libdeepselect.so through its C ABI (ctypes), builds each input on the GPU with torch,
rotates over buffers totalling more than 4 x the 60 MB L2, and times CUDA-graph replays of many
calls with CUDA events (median of the replays, microseconds per call). Our result is checked
against torch on buffer 0: per row, the sorted selected values must be equal.

Needs Python 3.12+, PyTorch with CUDA and a GPU; no other packages.
    python3 tools/bench_torch.py [--lib build/libdeepselect.so] [--json FILE] [--all-dists]
"""

import argparse
import json
import math
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

from torch_timing import missing_gpu, time_calls, torch

# The ctypes binding of deepselect.h, from this checkout's Python package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))
from deepselect import _binding as abi  # noqa: E402

ROTATION_BYTES = 256 << 20  # > 4 x the H200's 60 MB L2
MAX_DEVICE_BYTES = 16 << 30

@dataclass(frozen=True)
class Shape:
    name: str
    rows: int
    n: int
    k: int
    dtype: str = "f32"
    ragged: str = "none"  # none | uniform (lengths 1..n) | causal (row i: prefix + i + 1)
    prefix: int = 0
    by_value: bool = False  # sorted by value (torch: sorted=True)
    values: bool = False  # ours writes values too (sampling wants them)


# The suite of docs/workloads.md, with the names `deepselect bench` uses.
SUITE = [
    Shape("dsa-decode-b1", 1, 131072, 2048),
    Shape("dsa-decode-b8", 8, 65536, 2048),
    Shape("dsa-decode-b64", 64, 131072, 2048),
    Shape("dsa-decode-b256", 256, 32768, 2048, ragged="uniform"),
    Shape("dsa-prefill-128k", 1024, 131072, 2048, ragged="causal", prefix=131072 - 1024),
    Shape("dsa-prefill-8k", 4096, 8192, 2048, ragged="causal"),
    Shape("dsa-bf16-b256", 256, 131072, 512, dtype="bf16"),
    Shape("dsa-bf16-b256", 256, 131072, 1024, dtype="bf16"),
    Shape("dsa-bf16-b256", 256, 131072, 2048, dtype="bf16"),
    Shape("dsa-bf16-b6", 6, 131072, 512, dtype="bf16"),
    Shape("sample-b1", 1, 129280, 50, values=True),
    Shape("sample-b64", 64, 129280, 512, by_value=True, values=True),
    Shape("sample-b256", 256, 151936, 1024, values=True),
]
# Shapes also run on relu_ties and ascending data by default (--all-dists: every shape).
MORE_DISTS = {"dsa-decode-b1", "dsa-decode-b64", "dsa-decode-b256", "dsa-bf16-b256", "sample-b256"}
DISTS = ["normal", "relu_ties", "ascending"]

DTYPES = {"f32": (abi.DS_F32, "float32"), "bf16": (abi.DS_BF16, "bfloat16"),
          "f16": (abi.DS_F16, "float16")}


def torch_dtype(shape):
    return getattr(torch, DTYPES[shape.dtype][1])


class DeepSelect:
    """The C ABI of libdeepselect.so."""

    def __init__(self, path):
        self.lib = abi.load(path)

    def version(self):
        return self.lib.ds_version().decode()

    def args(self, shape, x, end, indices, values):
        a = abi.new_args(self.lib)
        a.x = x.data_ptr()
        a.dtype = DTYPES[shape.dtype][0]
        a.rows = shape.rows
        a.n = shape.n
        a.k = shape.k
        a.end = end.data_ptr() if end is not None else None
        a.order = abi.DS_BY_VALUE if shape.by_value else abi.DS_UNSORTED
        a.indices = indices.data_ptr()
        a.index_type = abi.DS_INDEX_I32
        a.values = values.data_ptr() if values is not None else None
        return a

    def topk(self, args):
        abi.topk(self.lib, args, torch.cuda.current_stream().cuda_stream)


# ---------------------------------------------------------------------------------------------
# Inputs


def row_ends(shape, device):
    """int32 per-row ends, or None for full rows (the same for every buffer)."""
    if shape.ragged == "none":
        return None
    if shape.ragged == "uniform":
        gen = torch.Generator(device=device).manual_seed(7)
        ends = torch.randint(1, shape.n + 1, (shape.rows,), generator=gen, device=device)
    else:
        ends = (shape.prefix + 1 + torch.arange(shape.rows, device=device)).clamp(max=shape.n)
    return ends.to(torch.int32)


def generate(shape, dist, seed, device):
    """One rows x n buffer of dist, made in f32 and rounded to the shape's dtype."""
    gen = torch.Generator(device=device).manual_seed(seed)
    size = (shape.rows, shape.n)
    if dist == "normal":
        x = torch.randn(size, generator=gen, device=device)
    elif dist == "relu_ties":
        x = torch.relu(torch.randn(size, generator=gen, device=device) - 1.28)
    elif dist == "ascending":
        step = 8.0 / shape.n
        ramp = torch.arange(shape.n, device=device, dtype=torch.float32) * step - 4.0
        noise = torch.randn(size, generator=gen, device=device) * (0.1 * step)
        x = ramp.expand(size) + noise
    else:
        raise ValueError(f"unknown distribution {dist}")
    return x.to(torch_dtype(shape))


def buffer_count(shape):
    size = shape.rows * shape.n * torch_dtype(shape).itemsize
    return max(2, min(-(-ROTATION_BYTES // size), MAX_DEVICE_BYTES // (2 * size)))


def masked_for_torch(x, end):
    """torch has no ragged top-k: the padded row with -inf past each row's end."""
    if end is None:
        return x
    columns = torch.arange(x.shape[1], device=x.device)
    return x.masked_fill(columns[None, :] >= end[:, None].long(), float("-inf"))


@dataclass
class Inputs:
    ours: list  # buffers as ours reads them (garbage past each row's end)
    theirs: list  # the same for torch (-inf past each row's end)
    end: object = None


def make_inputs(shape, dist, device):
    end = row_ends(shape, device)
    seeds = [1000 * b + DISTS.index(dist) for b in range(buffer_count(shape))]
    ours = [generate(shape, dist, seed, device) for seed in seeds]
    return Inputs(ours, [masked_for_torch(x, end) for x in ours], end)


def time_torch(shape, inputs, replays):
    x0 = inputs.theirs[0]
    values = torch.empty((shape.rows, shape.k), dtype=x0.dtype, device=x0.device)
    indices = torch.empty((shape.rows, shape.k), dtype=torch.int64, device=x0.device)
    calls = [lambda x=x: torch.topk(x, shape.k, dim=1, sorted=shape.by_value, out=(values, indices))
             for x in inputs.theirs]
    return time_calls(calls, replays)


def time_ours(ds, shape, inputs, replays):
    x0 = inputs.ours[0]
    indices = torch.empty((shape.rows, shape.k), dtype=torch.int32, device=x0.device)
    values = None
    if shape.values:
        values = torch.empty((shape.rows, shape.k), dtype=x0.dtype, device=x0.device)
    all_args = [ds.args(shape, x, inputs.end, indices, values) for x in inputs.ours]
    calls = [lambda a=a: ds.topk(a) for a in all_args]
    return time_calls(calls, replays)


# ---------------------------------------------------------------------------------------------
# Check


def check(ds, shape, inputs):
    """'ok', or what differs: ours on buffer 0 (poisoned output) against torch.topk."""
    x = inputs.ours[0]
    indices = torch.full((shape.rows, shape.k), -7, dtype=torch.int32, device=x.device)
    ds.topk(ds.args(shape, x, inputs.end, indices, None))
    expected = torch.topk(inputs.theirs[0], shape.k, dim=1, sorted=True).values
    torch.cuda.synchronize()
    idx = indices.long()
    selected = idx >= 0
    if not bool(((idx == -1) | selected).all()):
        return "MISMATCH: an index slot was left unwritten or holds a bad fill"
    ends = inputs.end.long()[:, None] if inputs.end is not None else shape.n
    if not bool((~selected | (idx < ends)).all()):
        return "MISMATCH: an index past the row's end"
    ordered = idx.sort(dim=1).values
    if bool(((ordered[:, 1:] == ordered[:, :-1]) & (ordered[:, 1:] >= 0)).any()):
        return "MISMATCH: an index selected twice"
    got = torch.where(selected, torch.gather(x, 1, idx.clamp(min=0)), float("-inf"))
    got = got.float().sort(dim=1, descending=True).values
    bad = (got != expected.float()).any(dim=1)
    if bool(bad.any()):
        rows = bad.nonzero().flatten().tolist()
        return f"MISMATCH: {len(rows)} rows select other values than torch (first: row {rows[0]})"
    return "ok"


# ---------------------------------------------------------------------------------------------


def entries(args):
    for shape in SUITE:
        if args.only and args.only not in shape.name:
            continue
        dists = DISTS if args.all_dists or shape.name in MORE_DISTS else ["normal"]
        for dist in dists:
            yield shape, dist


def measure(ds, shape, dist, replays, device):
    inputs = make_inputs(shape, dist, device)
    result = {
        "name": shape.name, "dist": dist, "rows": shape.rows, "n": shape.n, "k": shape.k,
        "dtype": shape.dtype, "ragged": shape.ragged,
        "order": "by_value" if shape.by_value else "unsorted",
        "buffers": len(inputs.ours),
        "torch_us": time_torch(shape, inputs, replays),
        "ours_us": time_ours(ds, shape, inputs, replays),
        "check": check(ds, shape, inputs),
    }
    result["speedup"] = result["torch_us"] / result["ours_us"]
    return result


def print_row(r):
    shape = f"{r['rows']} x {r['n']}" + ("" if r["ragged"] == "none" else f" {r['ragged']}*")
    print(f"{r['name']:<18} {r['dist']:<10} {shape:>22} {r['k']:>5} {r['dtype']:<5} "
          f"{r['torch_us']:>10.2f} {r['ours_us']:>10.2f} {r['speedup']:>8.2f}x  {r['check']}",
          flush=True)


def parse_args():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--lib", help="libdeepselect.so to load (default: $DEEPSELECT_LIBRARY, "
                   "else build/libdeepselect.so)")
    p.add_argument("--json", help="write every result to this JSON file")
    p.add_argument("--replays", type=int, default=20, help="timed graph replays (median)")
    p.add_argument("--only", default="", help="only the shapes whose name contains this")
    p.add_argument("--all-dists", action="store_true",
                   help="normal, relu_ties and ascending on every shape (default: on a few)")
    return p.parse_args()


def main():
    args = parse_args()
    if missing_gpu("bench_torch"):
        return 2
    if args.replays < 1:
        print("bench_torch: --replays must be positive", file=sys.stderr)
        return 1
    if args.lib is None:
        args.lib = abi.library_path()[0]
    ds = DeepSelect(args.lib)
    device = torch.device("cuda", torch.cuda.current_device())
    props = torch.cuda.get_device_properties(device)
    print(f"gpu: {props.name} ({props.multi_processor_count} SMs), torch {torch.__version__}, "
          f"CUDA {torch.version.cuda}, deepselect {ds.version()} ({args.lib})")
    print("timing: CUDA-graph replays over rotating buffers (> 4 x 60 MB), median us per call; "
          f"torch.topk(sorted=False) (sorted=True for by_value shapes); {args.replays} replays")
    print("* ragged shapes: ours reads each row up to its end (the `end` array, garbage past it); "
          "torch has no ragged top-k and runs on the full padded rows with -inf past each end\n")
    print(f"{'shape':<18} {'dist':<10} {'rows x n':>22} {'k':>5} {'dtype':<5} "
          f"{'torch us':>10} {'ours us':>10} {'speedup':>9}  check")
    results = []
    for shape, dist in entries(args):
        results.append(measure(ds, shape, dist, args.replays, device))
        print_row(results[-1])
        torch.cuda.empty_cache()
    if not results:
        print(f"bench_torch: no shape matches '{args.only}'", file=sys.stderr)
        return 1
    geomean = math.exp(statistics.fmean(math.log(r["speedup"]) for r in results))
    mismatches = sum(r["check"] != "ok" for r in results)
    print(f"\ngeometric mean speedup over torch.topk: {geomean:.2f}x ({len(results)} results, "
          f"{mismatches} MISMATCH)")
    if args.json:
        summary = {"gpu": props.name, "torch": torch.__version__, "deepselect": ds.version(),
                   "replays": args.replays, "geomean_speedup": geomean, "results": results}
        Path(args.json).write_text(json.dumps(summary, indent=2) + "\n")
        print(f"wrote {args.json}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
