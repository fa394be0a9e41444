"""DeepSelect JIT: exact, deterministic top-k of CUDA tensors (libdeepselect.so via ctypes).

    values, indices = deepselect.topk(scores, 2048)  # like torch.topk(scores, 2048, dim=1)

The contract is docs/api.md. Importing this package needs neither torch nor the library: the
library is loaded on the first call ($DEEPSELECT_LIBRARY, else the checkout's
build/libdeepselect.so, else libdeepselect.so on the loader path).
"""

import functools

from . import _args, _binding

__all__ = ["topk", "version"]


def version():
    """The library's version, "MAJOR.MINOR.PATCH" (loads the library; needs no GPU)."""
    return _binding.version()


def topk(x, k, *, begin=None, end=None, largest=True, order="unsorted", index_dtype=None,
         return_values=True, index_offset=None, k_per_row=None, nan="largest", fill_index=-1,
         fill_value=None, row_status=None, seq_lens=None, next_n=1, page_table=None,
         page_size=None, row_to_batch=None, return_raw_indices=False, out=None, stream=None,
         pdl=False):
    """The top k of every row of x: (values, indices) like torch.topk(x, k, dim=1), or indices
    alone when return_values is False; with return_raw_indices=True, raw_indices is appended:
    (values, indices, raw_indices), or (indices, raw_indices) without values.

    x: a 2-D CUDA tensor of float32, bfloat16 or float16 whose last dimension is contiguous
    (any row stride). k: 1..4096, the output width. begin, end, k_per_row, index_offset: optional
    int32 tensors of one value per row (row r is x[r, begin[r]:end[r]]; k_per_row[r] selects
    fewer; index_offset[r] is added to row r's indices). row_status: an int32 tensor per row that
    receives bit 0 when the row held a NaN. order: "unsorted", "by_value" or "by_index".
    nan: "largest" (NaN ranks above +inf, like torch) or "smallest". index_dtype: torch.int32
    (default) or torch.int64, or their names. Slots past a short row get fill_index and
    fill_value (default -inf for largest, +inf for smallest).

    Decode bounds (sparse-attention indexer): seq_lens, a 1-D contiguous int32 tensor of one
    length per batch entry (at least ceil(rows / next_n) of them), with next_n query rows per
    entry (default 1), makes row r x[r, 0:seq_lens[r // next_n] - next_n + r % next_n + 1]
    (clamped to [0, n]); it replaces begin and end, which it cannot be combined with.

    Page table (paged KV cache): page_table, a 2-D int32 tensor (batch entries, pages; last
    dimension contiguous, any row stride), with page_size >= 1 (required with it), makes every
    selected index i (the column, plus index_offset[r]) page_table[b, i // page_size] *
    page_size + i % page_size, where b = row_to_batch[r] (an optional int32 tensor per row)
    or r // next_n; a batch entry, page or index outside the table, or a negative entry,
    gives -1. return_raw_indices=True also returns the untranslated indices (index_dtype).
    Fill slots hold fill_index in both. row_to_batch, page_size and return_raw_indices need
    page_table.

    out: written instead of allocating, in the order (indices, values[, raw_indices]) (the
    reverse of torch.topk's out order; a swap fails the dtype checks). By the flags:
        return_values=True                             out=(indices, values)
        return_values=True,  return_raw_indices=True   out=(indices, values, raw_indices)
        return_values=False                            out=indices
        return_values=False, return_raw_indices=True   out=(indices, raw_indices)
    raw_indices has the shape (rows, k) and the dtype of indices.

    stream: a torch.cuda.Stream on x's device or a CUstream handle of its context; default
    torch's current stream on x's device. Outputs are allocated with torch on x's device, on the
    call's stream (so that the caching allocator reuses their memory only after that stream
    has written them), and nothing else is: the call never synchronizes the host and can be
    captured in a CUDA graph. Outputs used on another stream need tensor.record_stream(that
    stream) before they are freed, as any torch tensor does; the per-thread default stream
    (handle 2) needs out=.
    pdl=True launches it with programmatic dependent launch (sm_90+, FlashInfer's enable_pdl):
    the kernel may start while the previous kernel on the stream runs, and waits for it to
    complete before touching memory (either way a next kernel launched with PDL may start as
    its CTAs exit).

    Raises ValueError (TypeError for a wrong type) naming the argument before anything runs,
    and RuntimeError when the library fails (no GPU, driver, compile).
    """
    call = _args.check_call(
        x, k, largest=largest, order=order, index_dtype=index_dtype,
        return_values=return_values, nan=nan, fill_index=fill_index, fill_value=fill_value,
        out=out, stream=stream, begin=begin, end=end, k_per_row=k_per_row,
        index_offset=index_offset, row_status=row_status, seq_lens=seq_lens, next_n=next_n,
        page_table=page_table, page_size=page_size, row_to_batch=row_to_batch,
        return_raw_indices=return_raw_indices, pdl=pdl)
    if (call.indices is None or call.stream is None) and _torch() is None:
        raise RuntimeError("deepselect.topk: PyTorch is not installed: pass out= and stream= "
                           "(a CUstream handle) to call it without torch")
    lib = _binding.library()
    torch = _torch()
    if torch is None:  # out= and stream= given (checked above): the caller's context is current
        _launch(lib, call, call.stream)
    else:
        # A stream handle of 0 (torch's default stream) means the current context's: make it x's.
        with torch.cuda.device(call.device):
            stream = _torch_stream(torch, call.stream)
            if call.indices is None:
                _allocate(torch, call, stream)
            _launch(lib, call, stream.cuda_stream)
    result = (call.values, call.indices) if return_values else (call.indices,)
    if return_raw_indices:
        result += (call.raw_indices,)
    return result if len(result) > 1 else result[0]


@functools.lru_cache(maxsize=None)
def _torch():
    """torch, or None when it is not installed (imported on first use, not with the package)."""
    try:
        import torch
    except ImportError:
        return None
    return torch


def _torch_stream(torch, handle):
    """The torch stream of the current device that the call runs on: torch's current one, or the
    one of stream= (the legacy stream's handles 0 and 1 are torch's default stream)."""
    current = torch.cuda.current_stream()
    if handle is None or handle == current.cuda_stream:
        return current
    default = torch.cuda.default_stream()
    if handle == default.cuda_stream or (handle == _args.CU_STREAM_LEGACY and
                                         default.cuda_stream == 0):
        return default
    return torch.cuda.ExternalStream(handle)


def _allocate(torch, call, stream):
    size = (call.rows, call.k)
    with torch.cuda.stream(stream):
        call.indices = torch.empty(size, dtype=getattr(torch, call.index_dtype),
                                   device=call.device)
        if call.return_values:
            call.values = torch.empty(size, dtype=call.dtype, device=call.device)
        if call.return_raw_indices:
            call.raw_indices = torch.empty_like(call.indices)


def _launch(lib, call, stream):
    args = _binding.new_args(lib)
    for name, value in call.fields.items():
        setattr(args, name, value)
    args.indices = call.indices.data_ptr()
    args.values = None if call.values is None else call.values.data_ptr()
    args.raw_indices = None if call.raw_indices is None else call.raw_indices.data_ptr()
    _binding.topk(lib, args, stream)
