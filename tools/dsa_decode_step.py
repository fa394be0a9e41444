#!/usr/bin/env python3
"""One DeepSeek-V3.2-style sparse-attention decode step from Python, checked against PyTorch.

A batch of B sequences (random lengths, every fourth one shorter than k) decodes next_n query
rows each (2 by default: multi-token prediction) against a paged KV cache: 64-token pages placed
through a shuffled block table (int32 [B, max_pages], -1 past each sequence). The indexer scores
every cached position t of sequence b for each of its query rows r:

    score[r, t] = sum_h w[r, h] * relu(q[r, h] . k_b[t])     (B * next_n, max_len), --dtype

and leaves garbage (NaN) past each sequence. One call then selects, per row, the k = 2048 best
positions inside the causal decode bound (row r of sequence b sees seq_lens[b] - next_n +
r % next_n + 1 positions) and translates them through the block table into KV-cache slots:

    slots, positions = deepselect.topk(scores, 2048, seq_lens=seq_lens, next_n=next_n,
                                       page_table=block_table, page_size=64,
                                       return_raw_indices=True, return_values=False)

The reference is the same step in plain PyTorch (decode mask, stable sort so that ties go to the
lower position, block-table gather, -1 fill): the (position, slot) pairs of every row must be
equal. Both paths are timed with CUDA events over CUDA-graph replays (median), next to the
usual PyTorch path (mask, torch.topk, block-table gather). Exits 1 on a mismatch, 2 without
PyTorch or a GPU.

    python3 tools/dsa_decode_step.py [--batch 64] [--next-n 2] [--max-len 65536] [--dtype bf16]
"""

import argparse
import os
import statistics
import sys
from pathlib import Path

from torch_timing import missing_gpu, time_calls, torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))  # this checkout's package (and build/libdeepselect.so)
import deepselect  # noqa: E402

DTYPES = {"f32": "float32", "bf16": "bfloat16", "f16": "float16"}


def parse_args():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--batch", type=int, default=64, help="sequences (default 64)")
    p.add_argument("--next-n", type=int, default=2, help="query rows per sequence (default 2)")
    p.add_argument("--max-len", type=int, default=65536,
                   help="score columns: the longest sequence (default 65536)")
    p.add_argument("--dtype", choices=sorted(DTYPES), default="bf16",
                   help="scores and KV cache dtype (default bf16)")
    p.add_argument("--iters", type=int, default=20, help="timed graph replays (default 20)")
    p.add_argument("--k", type=int, default=2048, help="positions kept per row (default 2048)")
    p.add_argument("--page-size", type=int, default=64, help="tokens per KV page (default 64)")
    p.add_argument("--heads", type=int, default=64, help="indexer heads (default 64)")
    p.add_argument("--head-dim", type=int, default=128, help="indexer head dim (default 128)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--lib", help="libdeepselect.so to load (default: $DEEPSELECT_LIBRARY, "
                   "else build/libdeepselect.so)")
    args = p.parse_args()
    for name in ("batch", "next_n", "max_len", "iters", "k", "page_size", "heads", "head_dim"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.k > args.max_len:
        p.error(f"--k {args.k} is larger than --max-len {args.max_len}")
    return args


# ---------------------------------------------------------------------------------------------
# The decode step's inputs


def make_step(args, device):
    """seq_lens, block_table and the indexer scores of one decode step (fixed seeds)."""
    dtype = getattr(torch, DTYPES[args.dtype])
    cpu = torch.Generator().manual_seed(args.seed)
    gpu = torch.Generator(device=device).manual_seed(args.seed)
    batch, next_n, max_len, page_size = args.batch, args.next_n, args.max_len, args.page_size
    lengths = torch.randint(next_n, max_len + 1, (batch,), generator=cpu)
    if args.k > next_n:  # every fourth sequence is shorter than k: its rows get -1 fills
        lengths[::4] = torch.randint(next_n, args.k, (len(lengths[::4]),), generator=cpu)
    max_pages = -(-max_len // page_size)
    pages = [-(-int(length) // page_size) for length in lengths]
    physical = torch.randperm(sum(pages), generator=cpu).to(torch.int32)
    block_table = torch.full((batch, max_pages), -1, dtype=torch.int32)
    start = 0
    for b, count in enumerate(pages):
        block_table[b, :count] = physical[start:start + count]
        start += count

    rows = batch * next_n
    kv_cache = torch.randn((sum(pages), page_size, args.head_dim), generator=gpu,
                           device=device).to(dtype)
    q = torch.randn((rows, args.heads, args.head_dim), generator=gpu, device=device)
    q = (q / args.head_dim ** 0.5).to(dtype)
    weights = torch.rand((rows, args.heads), generator=gpu, device=device)
    scores = torch.full((rows, max_len), float("nan"), dtype=dtype, device=device)
    block_table = block_table.to(device)
    for b, length in enumerate(lengths.tolist()):
        keys = kv_cache[block_table[b, :pages[b]].long()].reshape(-1, args.head_dim)[:length]
        queries = q[b * next_n:(b + 1) * next_n].float()
        logits = torch.einsum("nhd,td->nht", queries, keys.float()).relu_()
        scores[b * next_n:(b + 1) * next_n, :length] = torch.einsum(
            "nht,nh->nt", logits, weights[b * next_n:(b + 1) * next_n]).to(dtype)
    return lengths.to(torch.int32).to(device), block_table, scores


# ---------------------------------------------------------------------------------------------
# The step in PyTorch


def decode_bounds(seq_lens, next_n, rows, n):
    """Each row's number of visible positions, clamped to [0, n] (int64)."""
    r = torch.arange(rows, device=seq_lens.device)
    return (seq_lens.long()[r // next_n] - next_n + r % next_n + 1).clamp(0, n)


def translate(positions, valid, block_table, page_size, next_n):
    """KV-cache slots of positions through the block table; -1 where not valid."""
    rows = positions.shape[0]
    batch = (torch.arange(rows, device=positions.device) // next_n)[:, None]
    page = (positions // page_size).clamp(0, block_table.shape[1] - 1)
    entry = block_table[batch.expand_as(positions), page].long()
    valid = valid & (entry >= 0)
    return torch.where(valid, entry * page_size + positions % page_size,
                       torch.full_like(positions, -1))


def reference_step(scores, seq_lens, next_n, block_table, page_size, k):
    """(slots, positions), int64, in by_value order: per row the k best positions inside its
    decode bound (ties to the lower position: a stable sort), -1 past a short row."""
    rows, n = scores.shape
    bound = decode_bounds(seq_lens, next_n, rows, n)
    columns = torch.arange(n, device=scores.device)
    key = scores.float().masked_fill(columns[None, :] >= bound[:, None], float("-inf"))
    key = torch.where(key == 0, torch.zeros_like(key), key)  # -0.0 == +0.0
    order = torch.sort(key, dim=1, descending=True, stable=True).indices[:, :k]
    valid = torch.arange(k, device=scores.device)[None, :] < bound[:, None]
    positions = torch.where(valid, order, torch.full_like(order, -1))
    return translate(positions, valid, block_table, page_size, next_n), positions


def torch_topk_step(scores, seq_lens, next_n, block_table, page_size, k):
    """The usual PyTorch path (ties broken as torch.topk breaks them): mask, topk, gather."""
    rows, n = scores.shape
    bound = decode_bounds(seq_lens, next_n, rows, n)
    columns = torch.arange(n, device=scores.device)
    masked = scores.masked_fill(columns[None, :] >= bound[:, None], float("-inf"))
    values, order = torch.topk(masked, k, dim=1, sorted=False)
    valid = values != float("-inf")
    positions = torch.where(valid, order, torch.full_like(order, -1))
    return translate(positions, valid, block_table, page_size, next_n), positions


def by_position(slots, positions):
    """Both arrays with each row reordered by position: compares unsorted output as pairs."""
    order = torch.sort(positions, dim=1, stable=True).indices
    return positions.gather(1, order), slots.gather(1, order)


def main():
    args = parse_args()
    if missing_gpu("dsa_decode_step"):
        return 2
    if args.lib:
        os.environ["DEEPSELECT_LIBRARY"] = args.lib
    try:
        version = deepselect.version()
    except OSError as error:
        print(f"dsa_decode_step: {error}", file=sys.stderr)
        return 2
    device = torch.device("cuda", torch.cuda.current_device())
    props = torch.cuda.get_device_properties(device)
    print(f"gpu: {props.name} ({props.multi_processor_count} SMs), torch {torch.__version__}, "
          f"deepselect {version}")

    seq_lens, block_table, scores = make_step(args, device)
    rows, n = scores.shape
    k, next_n, page_size = args.k, args.next_n, args.page_size
    bound = decode_bounds(seq_lens, next_n, rows, n)
    lengths = seq_lens.tolist()
    print(f"decode step: {args.batch} sequences x next_n {next_n} = {rows} query rows, scores "
          f"{rows} x {n} {args.dtype}, k {k}; KV pages of {page_size} through a shuffled "
          f"block table {tuple(block_table.shape)}")
    print(f"seq_lens: min {min(lengths)}, median {int(statistics.median(lengths))}, max "
          f"{max(lengths)}; {int((bound < k).sum())} rows see fewer than k positions (-1 fills)")

    step = dict(seq_lens=seq_lens, next_n=next_n, page_table=block_table, page_size=page_size)
    slots, positions = deepselect.topk(scores, k, return_raw_indices=True, return_values=False,
                                       **step)
    expected_slots, expected_positions = reference_step(scores, seq_lens, next_n, block_table,
                                                        page_size, k)
    got = by_position(slots.long(), positions.long())
    expected = by_position(expected_slots, expected_positions)
    bad = ((got[0] != expected[0]) | (got[1] != expected[1])).any(dim=1)
    mismatches = int(bad.sum())
    verdict = "match" if mismatches == 0 else "MISMATCH"
    print(f"check against the PyTorch reference (decode mask, stable sort, block-table gather): "
          f"{rows - mismatches}/{rows} rows {verdict}")
    if mismatches:
        r = int(bad.nonzero()[0])
        print(f"  first bad row {r} (bound {int(bound[r])}): positions "
              f"{got[0][r, -8:].tolist()} vs {expected[0][r, -8:].tolist()} (last 8, sorted)")

    out = (torch.empty_like(slots), torch.empty_like(positions))
    calls = [
        ("deepselect.topk (bounds, top-k, block table)",
         lambda: deepselect.topk(scores, k, return_raw_indices=True, return_values=False, out=out,
                                 **step)),
        ("torch: mask + topk + block-table gather",
         lambda: torch_topk_step(scores, seq_lens, next_n, block_table, page_size, k)),
        ("torch: mask + stable sort + gather (the reference)",
         lambda: reference_step(scores, seq_lens, next_n, block_table, page_size, k)),
    ]
    timings = [(name, time_calls([call], args.iters)) for name, call in calls]
    ours = timings[0][1]
    print(f"time per call (median of {args.iters} CUDA-graph replays, the same scores every "
          "call):")
    for i, (name, us) in enumerate(timings):
        ratio = f"  ({us / ours:.1f}x deepselect's time)" if i else ""
        print(f"  {name:<52} {us:>10.1f} us{ratio}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
