"""The argument checks of deepselect.topk.

Tensors are duck-typed (dim(), shape, stride(), dtype, data_ptr(), device, is_cuda; a dtype is
known by the last part of its name, as in 'torch.bfloat16'), so the checks need neither torch
nor the library. They mirror the host-side checks of ds_topk so that every mistake is reported
under the Python argument's name before the library is called.
"""

import numbers
from dataclasses import dataclass
from typing import Any, Optional

from . import _binding as ds

MAX_K = 4096
INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1
INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
POINTER_MAX = (1 << 64) - 1
CU_STREAM_LEGACY, CU_STREAM_PER_THREAD = 1, 2  # cuda.h's special stream handles
MAX_ROWS = INT32_MAX // 16  # src/topk.cpp: rows * the largest cluster must fit a grid dimension
MAX_N = INT32_MAX - 65536  # src/topk.cpp: the kernel indexes a row's elements with int

VALUE_DTYPES = {"float32": ds.DS_F32, "bfloat16": ds.DS_BF16, "float16": ds.DS_F16}
INDEX_DTYPES = {"int32": ds.DS_INDEX_I32, "int64": ds.DS_INDEX_I64}
ORDERS = {"unsorted": ds.DS_UNSORTED, "by_value": ds.DS_BY_VALUE, "by_index": ds.DS_BY_INDEX}
NAN_POLICIES = {"largest": ds.DS_NAN_IS_LARGEST, "smallest": ds.DS_NAN_IS_SMALLEST}
TENSOR_ATTRIBUTES = ("dim", "shape", "stride", "dtype", "data_ptr", "device", "is_cuda")
# The optional per-row int32 arrays, by their ds_topk_args field (also the Python argument).
ROW_ARRAYS = ("begin", "end", "k_per_row", "index_offset", "row_status")
INDEX_BYTES = {"int32": 4, "int64": 8}


@dataclass
class Call:
    """A checked call: the ds_topk_args fields known before the outputs exist, and the outputs
    (out's tensors, or what to allocate)."""

    fields: dict
    rows: int
    k: int
    device: Any
    dtype: Any  # x's, and so the values'
    index_dtype: Optional[str]  # "int32" or "int64" (None until out or the default decides)
    return_values: bool
    return_raw_indices: bool = False
    indices: Any = None  # out's tensors; None: allocate
    values: Any = None
    raw_indices: Any = None
    stream: Optional[int] = None  # a CUstream handle; None: torch's current stream


def error(argument, message, kind=ValueError, part=None):
    where = f"argument '{argument}'" + (f" ({part})" if part else "")
    return kind(f"deepselect.topk: {where}: {message}")


def dtype_name(dtype):
    return str(dtype).rsplit(".", 1)[-1]


def shape_of(tensor):
    return tuple(int(size) for size in tensor.shape)


def check_tensor(tensor, argument, part=None):
    missing = [name for name in TENSOR_ATTRIBUTES if not hasattr(tensor, name)]
    if missing:
        raise error(argument, f"a {type(tensor).__name__} is not a tensor (it has no "
                    f"{', '.join(missing)})", TypeError, part)


def check_device(tensor, device, argument, part=None):
    if tensor.device != device:
        raise error(argument, f"is on {tensor.device}, x is on {device}", part=part)


def check_matrix(tensor, argument, part=None):
    """(rows, columns, row stride) of a 2-D tensor whose last dimension is contiguous.
    The stride of a dimension of size 1 is meaningless in torch, so it is not checked."""
    if tensor.dim() != 2:
        raise error(argument, f"is {tensor.dim()}-D, expected 2-D (rows, columns)", part=part)
    rows, columns = shape_of(tensor)
    row_stride, column_stride = (int(stride) for stride in tensor.stride())
    if column_stride != 1 and columns > 1:
        raise error(argument, f"its last dimension is not contiguous (stride(-1) is "
                    f"{column_stride}, expected 1)", part=part)
    ld = row_stride if rows > 1 else columns
    if ld < columns:
        raise error(argument, f"its row stride {ld} is less than its {columns} columns",
                    part=part)
    return rows, columns, ld


def check_x(x):
    """(rows, n, ld, dtype code) of x."""
    check_tensor(x, "x")
    if not (x.is_cuda and getattr(x.device, "type", None) == "cuda"):
        raise error("x", f"is on {x.device}, expected a CUDA device")
    rows, n, ld = check_matrix(x, "x")
    if rows > MAX_ROWS or n > MAX_N:
        raise error("x", f"shape {(rows, n)} exceeds ({MAX_ROWS}, {MAX_N})")
    name = dtype_name(x.dtype)
    if name not in VALUE_DTYPES:
        raise error("x", f"dtype {name} is not one of {', '.join(VALUE_DTYPES)}")
    return rows, n, ld, VALUE_DTYPES[name]


def check_int(value, argument, low, high):
    # bool is an Integral, and a tensor would need a host synchronization to read.
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise error(argument, f"{value!r} is not an int", TypeError)
    if not low <= value <= high:
        raise error(argument, f"{value} is not in {low}..{high}")
    return int(value)


def check_bool(value, argument):
    if not isinstance(value, bool):
        raise error(argument, f"{value!r} is not a bool", TypeError)
    return value


def check_choice(value, argument, choices):
    if not isinstance(value, str):
        raise error(argument, f"{value!r} is not a str", TypeError)
    if value not in choices:
        raise error(argument, f"'{value}' is not one of {', '.join(choices)}")
    return choices[value]


def check_index_dtype(index_dtype):
    """'int32' or 'int64' from a torch dtype or its name."""
    name = index_dtype if isinstance(index_dtype, str) else dtype_name(index_dtype)
    if name not in INDEX_DTYPES:
        raise error("index_dtype", f"{index_dtype!r} is not int32 or int64 (torch.int32, "
                    "torch.int64, 'int32' or 'int64')")
    return name


def check_fill_value(fill_value):
    """(has_fill_value, fill_value) of ds_topk_args."""
    if fill_value is None:
        return 0, 0.0
    if isinstance(fill_value, bool) or not isinstance(fill_value, numbers.Real):
        raise error("fill_value", f"{fill_value!r} is not a float", TypeError)
    return 1, float(fill_value)


def check_stream(stream, device):
    """The CUstream handle of stream: a torch.cuda.Stream on device (its cuda_stream), an int,
    or None."""
    if stream is None:
        return None
    stream_device = getattr(stream, "device", None)
    if stream_device is not None and stream_device != device:
        raise error("stream", f"is on {stream_device}, x on {device}")
    handle = getattr(stream, "cuda_stream", stream)
    if isinstance(handle, bool) or not isinstance(handle, numbers.Integral):
        raise error("stream", f"{stream!r} is not a CUstream handle (int) or a "
                    "torch.cuda.Stream", TypeError)
    if not 0 <= handle <= POINTER_MAX:
        raise error("stream", f"{handle} is not a CUstream handle")
    return int(handle)


def check_row_array(array, argument, rows, device):
    """The device pointer of an optional 1-D contiguous int32 array of one value per row."""
    if array is None:
        return None
    check_tensor(array, argument)
    if array.dim() != 1 or shape_of(array)[0] != rows:
        raise error(argument, f"has shape {shape_of(array)}, expected ({rows},): one value per "
                    "row of x")
    if dtype_name(array.dtype) != "int32":
        raise error(argument, f"dtype {dtype_name(array.dtype)} is not int32")
    if rows > 1 and int(array.stride(0)) != 1:
        raise error(argument, f"is not contiguous (stride {int(array.stride(0))})")
    check_device(array, device, argument)
    return int(array.data_ptr())


def check_aligned(tensor, alignment, argument, part=None):
    address = int(tensor.data_ptr())
    if address % alignment:
        raise error(argument, f"its address {address:#x} is not aligned to {alignment} bytes",
                    part=part)


def check_seq_lens(seq_lens, rows, next_n, device, begin, end):
    """The device pointer of the optional decode lengths: a 1-D contiguous int32 array of one
    length per batch entry, ceil(rows / next_n) of them at least."""
    if seq_lens is None:
        return None
    if begin is not None or end is not None:
        raise error("seq_lens", "cannot be combined with begin or end (it sets the row bounds)")
    check_tensor(seq_lens, "seq_lens")
    batch = -(-rows // next_n)
    if seq_lens.dim() != 1 or shape_of(seq_lens)[0] < batch:
        raise error("seq_lens", f"has shape {shape_of(seq_lens)}, expected (batch,) with batch "
                    f">= ceil(rows / next_n) = ceil({rows} / {next_n}) = {batch}")
    if dtype_name(seq_lens.dtype) != "int32":
        raise error("seq_lens", f"dtype {dtype_name(seq_lens.dtype)} is not int32")
    if shape_of(seq_lens)[0] > 1 and int(seq_lens.stride(0)) != 1:
        raise error("seq_lens", f"is not contiguous (stride {int(seq_lens.stride(0))})")
    check_device(seq_lens, device, "seq_lens")
    check_aligned(seq_lens, 4, "seq_lens")
    return int(seq_lens.data_ptr())


def check_page_table(page_table, page_size, row_to_batch, return_raw_indices, rows, device):
    """The page-table fields of ds_topk_args: page_table is a 2-D int32 tensor (last dimension
    contiguous, any row stride) with page_size >= 1; row_to_batch (one int32 per row) and
    return_raw_indices need it."""
    if page_table is None:
        for argument, given in (("page_size", page_size is not None),
                                ("row_to_batch", row_to_batch is not None),
                                ("return_raw_indices", return_raw_indices)):
            if given:
                raise error(argument, "needs page_table")
        return {"page_table": None, "page_table_rows": 0, "page_table_cols": 0,
                "ld_page_table": 0, "page_size": 0, "row_to_batch": None}
    check_tensor(page_table, "page_table")
    table_rows, columns, ld = check_matrix(page_table, "page_table")
    if table_rows < 1 or columns < 1:
        raise error("page_table", f"has shape {(table_rows, columns)}, expected at least one "
                    "row (batch entry) and one column (page)")
    if ld > INT64_MAX // 4 // table_rows:
        raise error("page_table", f"{table_rows} rows of stride {ld} overflow")
    if dtype_name(page_table.dtype) != "int32":
        raise error("page_table", f"dtype {dtype_name(page_table.dtype)} is not int32")
    check_device(page_table, device, "page_table")
    check_aligned(page_table, 4, "page_table")
    if page_size is None:
        raise error("page_size", "is required with page_table")
    fields = {"page_table": int(page_table.data_ptr()), "page_table_rows": table_rows,
              "page_table_cols": columns, "ld_page_table": ld,
              "page_size": check_int(page_size, "page_size", 1, INT32_MAX),
              "row_to_batch": check_row_array(row_to_batch, "row_to_batch", rows, device)}
    if row_to_batch is not None:
        check_aligned(row_to_batch, 4, "row_to_batch")
    return fields


def check_output(tensor, part, rows, k, device):
    """The row stride of an output tensor of shape (rows, k) on device."""
    check_tensor(tensor, "out", part)
    out_rows, columns, ld = check_matrix(tensor, "out", part)
    if (out_rows, columns) != (rows, k):
        raise error("out", f"has shape {(out_rows, columns)}, expected (rows, k) = "
                    f"{(rows, k)}", part=part)
    check_device(tensor, device, "out", part)
    return ld


def split_out(out, return_values, return_raw_indices):
    """(indices, values, raw_indices) of out, whose form is (indices, values[, raw_indices]),
    or without values indices alone or (indices, raw_indices); absent parts are None."""
    parts = ["indices"] + ["values"] * return_values + ["raw_indices"] * return_raw_indices
    flags = (f"return_values={return_values}"
             + (", return_raw_indices=True" if return_raw_indices else ""))
    if len(parts) == 1:
        if isinstance(out, (tuple, list)):
            raise error("out", f"with {flags} it must be the indices tensor alone", TypeError)
        return out, None, None
    if not isinstance(out, (tuple, list)) or len(out) != len(parts):
        raise error("out", f"with {flags} it must be a tuple ({', '.join(parts)})", TypeError)
    tensors = dict(zip(parts, out))
    return tensors["indices"], tensors.get("values"), tensors.get("raw_indices")


def check_out(out, call):
    """Checks out against the call, and records its tensors, strides and index dtype."""
    indices, values, raw_indices = split_out(out, call.return_values, call.return_raw_indices)
    call.fields["ld_idx"] = check_output(indices, "indices", call.rows, call.k, call.device)
    index_name = dtype_name(indices.dtype)
    if index_name not in INDEX_DTYPES:
        raise error("out", f"dtype {index_name} is not int32 or int64", part="indices")
    if call.index_dtype not in (None, index_name):
        raise error("out", f"dtype {index_name} is not index_dtype {call.index_dtype}",
                    part="indices")
    call.index_dtype, call.indices = index_name, indices
    if values is not None:
        call.fields["ld_val"] = check_output(values, "values", call.rows, call.k, call.device)
        if dtype_name(values.dtype) != dtype_name(call.dtype):
            raise error("out", f"dtype {dtype_name(values.dtype)} is not x's "
                        f"{dtype_name(call.dtype)}", part="values")
        call.values = values
    if raw_indices is not None:
        call.fields["ld_raw"] = check_output(raw_indices, "raw_indices", call.rows, call.k,
                                             call.device)
        if dtype_name(raw_indices.dtype) != index_name:
            raise error("out", f"dtype {dtype_name(raw_indices.dtype)} is not the indices' "
                        f"{index_name}", part="raw_indices")
        check_aligned(raw_indices, INDEX_BYTES[index_name], "out", "raw_indices")
        call.raw_indices = raw_indices


def check_call(x, k, *, largest, order, index_dtype, return_values, nan, fill_index,
               fill_value, out, stream, seq_lens=None, next_n=1, page_table=None,
               page_size=None, row_to_batch=None, return_raw_indices=False, pdl=False,
               **row_arrays):
    """Every argument of deepselect.topk, checked; row_arrays are those of ROW_ARRAYS."""
    rows, n, ld, dtype = check_x(x)
    k = check_int(k, "k", 1, MAX_K)
    fields = {
        "x": int(x.data_ptr()), "dtype": dtype, "rows": rows, "n": n, "ld": ld, "k": k,
        "largest": int(check_bool(largest, "largest")),
        "order": check_choice(order, "order", ORDERS),
        "nan_policy": check_choice(nan, "nan", NAN_POLICIES),
        "pdl": int(check_bool(pdl, "pdl")),
    }
    for name in ROW_ARRAYS:
        fields[name] = check_row_array(row_arrays[name], name, rows, x.device)
    fields["next_n"] = check_int(next_n, "next_n", 1, INT32_MAX)
    fields["seq_lens"] = check_seq_lens(seq_lens, rows, fields["next_n"], x.device,
                                        row_arrays["begin"], row_arrays["end"])
    return_raw_indices = check_bool(return_raw_indices, "return_raw_indices")
    fields.update(check_page_table(page_table, page_size, row_to_batch, return_raw_indices,
                                   rows, x.device))
    call = Call(fields, rows, k, x.device, x.dtype,
                None if index_dtype is None else check_index_dtype(index_dtype),
                check_bool(return_values, "return_values"), return_raw_indices,
                stream=check_stream(stream, x.device))
    if out is not None:
        check_out(out, call)
    elif call.stream == CU_STREAM_PER_THREAD:
        raise error("stream", "the per-thread default stream (2) is no torch stream that "
                    "outputs could be allocated on: pass out=")
    call.index_dtype = call.index_dtype or "int32"
    fields["index_type"] = INDEX_DTYPES[call.index_dtype]
    low, high = (INT32_MIN, INT32_MAX) if call.index_dtype == "int32" else (INT64_MIN, INT64_MAX)
    fields["fill_index"] = check_int(fill_index, "fill_index", low, high)
    fields["has_fill_value"], fields["fill_value"] = check_fill_value(fill_value)
    return call
