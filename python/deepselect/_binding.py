"""The C ABI of libdeepselect.so (include/deepselect/deepselect.h) through ctypes.

The library is loaded on first use, so that importing the package needs neither the library
nor a GPU. It is found through $DEEPSELECT_LIBRARY, else <checkout>/build/libdeepselect.so when
the package runs from a checkout, else libdeepselect.so on the loader path.
"""

import ctypes
import functools
import os
from pathlib import Path

# deepselect.h enums
DS_F32, DS_BF16, DS_F16 = 0, 1, 2
DS_INDEX_I32, DS_INDEX_I64 = 0, 1
DS_UNSORTED, DS_BY_VALUE, DS_BY_INDEX = 0, 1, 2
DS_NAN_IS_LARGEST, DS_NAN_IS_SMALLEST = 0, 1
DS_OK, DS_ERROR_ARGUMENT, DS_ERROR_RUNTIME = 0, 1, 2

LIBRARY_NAME = "libdeepselect.so"
LIBRARY_ENV = "DEEPSELECT_LIBRARY"


class DsTopkArgs(ctypes.Structure):
    """ds_topk_args of include/deepselect/deepselect.h, field for field."""

    _fields_ = [
        ("x", ctypes.c_void_p),
        ("dtype", ctypes.c_int32),
        ("rows", ctypes.c_int64),
        ("n", ctypes.c_int64),
        ("ld", ctypes.c_int64),
        ("k", ctypes.c_int32),
        ("k_per_row", ctypes.c_void_p),
        ("begin", ctypes.c_void_p),
        ("end", ctypes.c_void_p),
        ("largest", ctypes.c_int32),
        ("order", ctypes.c_int32),
        ("nan_policy", ctypes.c_int32),
        ("indices", ctypes.c_void_p),
        ("index_type", ctypes.c_int32),
        ("ld_idx", ctypes.c_int64),
        ("values", ctypes.c_void_p),
        ("ld_val", ctypes.c_int64),
        ("fill_index", ctypes.c_int64),
        ("has_fill_value", ctypes.c_int32),
        ("fill_value", ctypes.c_double),
        ("index_offset", ctypes.c_void_p),
        ("row_status", ctypes.c_void_p),
        ("seq_lens", ctypes.c_void_p),
        ("next_n", ctypes.c_int32),
        ("page_table", ctypes.c_void_p),
        ("page_table_rows", ctypes.c_int64),
        ("page_table_cols", ctypes.c_int64),
        ("ld_page_table", ctypes.c_int64),
        ("page_size", ctypes.c_int32),
        ("row_to_batch", ctypes.c_void_p),
        ("raw_indices", ctypes.c_void_p),
        ("ld_raw", ctypes.c_int64),
        ("pdl", ctypes.c_int32),
    ]


def library_path():
    """(path, where it came from): the library that library() loads."""
    configured = os.environ.get(LIBRARY_ENV)
    if configured:
        return configured, f"${LIBRARY_ENV}"
    checkout = Path(__file__).resolve().parents[2] / "build" / LIBRARY_NAME
    if checkout.is_file():
        return str(checkout), "the checkout's build directory"
    return LIBRARY_NAME, "the loader path"


def load(path):
    """The library at path with the prototypes of deepselect.h set. OSError when its
    ds_topk_args differs from DsTopkArgs (a library of another version)."""
    lib = ctypes.CDLL(str(path))
    size_function = getattr(lib, "ds_topk_args_size", None)
    if size_function is None:
        raise OSError(f"{path} has no ds_topk_args_size: it is older than this package")
    size_function.argtypes = []
    size_function.restype = ctypes.c_size_t
    size = size_function()
    if size != ctypes.sizeof(DsTopkArgs):
        raise OSError(f"{path}'s ds_topk_args is {size} bytes, this package's "
                      f"{ctypes.sizeof(DsTopkArgs)}: they come from different versions")
    lib.ds_topk_args_init.argtypes = [ctypes.POINTER(DsTopkArgs)]
    lib.ds_topk_args_init.restype = None
    lib.ds_topk.argtypes = [ctypes.POINTER(DsTopkArgs), ctypes.c_void_p]
    lib.ds_topk.restype = ctypes.c_int
    for name in ("ds_last_error", "ds_last_error_argument", "ds_version"):
        getattr(lib, name).argtypes = []
        getattr(lib, name).restype = ctypes.c_char_p
    return lib


@functools.lru_cache(maxsize=None)
def _load_once(path):
    return load(path)


def library():
    """The library of library_path(), loaded once per path; OSError names the path tried."""
    path, origin = library_path()
    try:
        return _load_once(path)
    except OSError as error:
        raise OSError(f"deepselect: cannot load {path} (from {origin}): {error}; build it "
                      f"(cmake --build build) or set {LIBRARY_ENV} to its path") from error


def version():
    return library().ds_version().decode()


def new_args(lib):
    """A ds_topk_args with the library's defaults."""
    args = DsTopkArgs()
    lib.ds_topk_args_init(ctypes.byref(args))
    return args


def topk(lib, args, stream):
    """Calls ds_topk on stream (a CUstream handle, 0 for the current context's default)."""
    code = lib.ds_topk(ctypes.byref(args), stream)
    if code == DS_OK:
        return
    message = lib.ds_last_error().decode(errors="replace")
    if code == DS_ERROR_ARGUMENT:
        argument = lib.ds_last_error_argument().decode(errors="replace")
        raise ValueError(f"{message} (ds_topk argument '{argument}')")
    raise RuntimeError(message)
