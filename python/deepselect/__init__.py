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
         fill_value=None, row_status=None, out=None, stream=None):
    """The top k of every row of x: (values, indices) like torch.topk(x, k, dim=1), or indices
    alone when return_values is False.

    x: a 2-D CUDA tensor of float32, bfloat16 or float16 whose last dimension is contiguous
    (any row stride). k: 1..4096, the output width. begin, end, k_per_row, index_offset: optional
    int32 tensors of one value per row (row r is x[r, begin[r]:end[r]]; k_per_row[r] selects
    fewer; index_offset[r] is added to row r's indices). row_status: an int32 tensor per row that
    receives bit 0 when the row held a NaN. order: "unsorted", "by_value" or "by_index".
    nan: "largest" (NaN ranks above +inf, like torch) or "smallest". index_dtype: torch.int32
    (default) or torch.int64, or their names. Slots past a short row get fill_index and
    fill_value (default -inf for largest, +inf for smallest).

    out: (indices, values), or indices alone with return_values=False (the reverse of
    torch.topk's out order; a swap fails the dtype checks): written instead of allocating.
    stream: a torch.cuda.Stream or a CUstream handle; default torch's current stream on x's
    device. Outputs are allocated with torch on x's device, and nothing else is: the call never
    synchronizes the host and can be captured in a CUDA graph.

    Raises ValueError (TypeError for a wrong type) naming the argument before anything runs,
    and RuntimeError when the library fails (no GPU, driver, compile).
    """
    call = _args.check_call(
        x, k, largest=largest, order=order, index_dtype=index_dtype,
        return_values=return_values, nan=nan, fill_index=fill_index, fill_value=fill_value,
        out=out, stream=stream, begin=begin, end=end, k_per_row=k_per_row,
        index_offset=index_offset, row_status=row_status)
    if (call.indices is None or call.stream is None) and _torch() is None:
        raise RuntimeError("deepselect.topk: PyTorch is not installed: pass out= and stream= "
                           "(a CUstream handle) to call it without torch")
    lib = _binding.library()
    if call.indices is None:
        _allocate(call)
    _launch(lib, call)
    return (call.values, call.indices) if return_values else call.indices


@functools.lru_cache(maxsize=None)
def _torch():
    """torch, or None when it is not installed (imported on first use, not with the package)."""
    try:
        import torch
    except ImportError:
        return None
    return torch


def _allocate(call):
    torch = _torch()
    size = (call.rows, call.k)
    call.indices = torch.empty(size, dtype=getattr(torch, call.index_dtype), device=call.device)
    if call.return_values:
        call.values = torch.empty(size, dtype=call.dtype, device=call.device)


def _launch(lib, call):
    args = _binding.new_args(lib)
    for name, value in call.fields.items():
        setattr(args, name, value)
    args.indices = call.indices.data_ptr()
    args.values = None if call.values is None else call.values.data_ptr()
    if call.stream is not None:
        _binding.topk(lib, args, call.stream)
        return
    torch = _torch()
    # A stream handle of 0 (torch's default stream) means the current context's: make it x's.
    with torch.cuda.device(call.device):
        _binding.topk(lib, args, torch.cuda.current_stream(call.device).cuda_stream)
