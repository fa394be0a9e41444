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
MAX_ROWS = INT32_MAX // 8  # src/topk.cpp: rows * the largest cluster must fit a grid dimension

VALUE_DTYPES = {"float32": ds.DS_F32, "bfloat16": ds.DS_BF16, "float16": ds.DS_F16}
INDEX_DTYPES = {"int32": ds.DS_INDEX_I32, "int64": ds.DS_INDEX_I64}
ORDERS = {"unsorted": ds.DS_UNSORTED, "by_value": ds.DS_BY_VALUE, "by_index": ds.DS_BY_INDEX}
NAN_POLICIES = {"largest": ds.DS_NAN_IS_LARGEST, "smallest": ds.DS_NAN_IS_SMALLEST}
TENSOR_ATTRIBUTES = ("dim", "shape", "stride", "dtype", "data_ptr", "device", "is_cuda")
# The optional per-row int32 arrays, by their ds_topk_args field (also the Python argument).
ROW_ARRAYS = ("begin", "end", "k_per_row", "index_offset", "row_status")


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
    indices: Any = None  # out's tensors; None: allocate
    values: Any = None
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
    if rows > MAX_ROWS or n > INT32_MAX:
        raise error("x", f"shape {(rows, n)} exceeds ({MAX_ROWS}, {INT32_MAX})")
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


def check_stream(stream):
    """The CUstream handle of stream: a torch.cuda.Stream (its cuda_stream), an int, or None."""
    if stream is None:
        return None
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


def check_output(tensor, part, rows, k, device):
    """The row stride of an output tensor of shape (rows, k) on device."""
    check_tensor(tensor, "out", part)
    out_rows, columns, ld = check_matrix(tensor, "out", part)
    if (out_rows, columns) != (rows, k):
        raise error("out", f"has shape {(out_rows, columns)}, expected (rows, k) = "
                    f"{(rows, k)}", part=part)
    check_device(tensor, device, "out", part)
    return ld


def split_out(out, return_values):
    """(indices, values) of out: a tuple (indices, values), or indices alone without values."""
    if return_values:
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise error("out", "with return_values=True it must be a tuple (indices, values)",
                        TypeError)
        return out
    if isinstance(out, (tuple, list)):
        raise error("out", "with return_values=False it must be the indices tensor alone",
                    TypeError)
    return out, None


def check_out(out, call):
    """Checks out against the call, and records its tensors, strides and index dtype."""
    indices, values = split_out(out, call.return_values)
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


def check_call(x, k, *, largest, order, index_dtype, return_values, nan, fill_index,
               fill_value, out, stream, **row_arrays):
    """Every argument of deepselect.topk, checked; row_arrays are those of ROW_ARRAYS."""
    rows, n, ld, dtype = check_x(x)
    k = check_int(k, "k", 1, MAX_K)
    fields = {
        "x": int(x.data_ptr()), "dtype": dtype, "rows": rows, "n": n, "ld": ld, "k": k,
        "largest": int(check_bool(largest, "largest")),
        "order": check_choice(order, "order", ORDERS),
        "nan_policy": check_choice(nan, "nan", NAN_POLICIES),
    }
    for name in ROW_ARRAYS:
        fields[name] = check_row_array(row_arrays[name], name, rows, x.device)
    call = Call(fields, rows, k, x.device, x.dtype,
                None if index_dtype is None else check_index_dtype(index_dtype),
                check_bool(return_values, "return_values"), stream=check_stream(stream))
    if out is not None:
        check_out(out, call)
    call.index_dtype = call.index_dtype or "int32"
    fields["index_type"] = INDEX_DTYPES[call.index_dtype]
    low, high = (INT32_MIN, INT32_MAX) if call.index_dtype == "int32" else (INT64_MIN, INT64_MAX)
    fields["fill_index"] = check_int(fill_index, "fill_index", low, high)
    fields["has_fill_value"], fields["fill_value"] = check_fill_value(fill_value)
    return call
