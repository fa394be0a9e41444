"""Tests of the deepselect package that need no GPU and no torch (plain unittest).

Fake tensors drive the argument checks, which must not touch the library; the tests that load
the library ($DEEPSELECT_LIBRARY, else the checkout's build/libdeepselect.so) skip when it has
not been built.
"""

import ctypes
import itertools
import os
import subprocess
import sys
import unittest
from pathlib import Path
from unittest import mock

PYTHON_DIR = str(Path(__file__).resolve().parents[1])  # the checkout's python/
if PYTHON_DIR not in sys.path:  # run from anywhere, not only with PYTHONPATH=python
    sys.path.insert(0, PYTHON_DIR)

import deepselect  # noqa: E402
from deepselect import _binding  # noqa: E402

ROWS, N, K = 4, 1000, 16
_addresses = itertools.count(0x7F0000000000, 1 << 24)


class FakeDevice:
    def __init__(self, type_, index=None):
        self.type, self.index = type_, index

    def __eq__(self, other):
        return isinstance(other, FakeDevice) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"


class FakeDtype:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"torch.{self.name}"


CUDA0, CUDA1, CPU = FakeDevice("cuda", 0), FakeDevice("cuda", 1), FakeDevice("cpu")


class FakeTensor:
    """What deepselect.topk reads of a torch tensor: row-major unless stride is given, at a
    distinct, aligned fake device address unless address is given."""

    def __init__(self, shape, dtype="float32", device=CUDA0, stride=None, address=None):
        self.shape = tuple(shape)
        self.dtype = FakeDtype(dtype)
        self.device = device
        self.is_cuda = device.type == "cuda"
        self._stride = tuple(stride) if stride is not None else row_major(self.shape)
        self._address = next(_addresses) if address is None else address

    def dim(self):
        return len(self.shape)

    def stride(self, dim=None):
        return self._stride if dim is None else self._stride[dim]

    def data_ptr(self):
        return self._address


def row_major(shape):
    strides, step = [], 1
    for size in reversed(shape):
        strides.insert(0, step)
        step *= size
    return tuple(strides)


def valid_call(**changes):
    """The keyword arguments of a valid call with fake tensors that allocates nothing, with
    changes applied."""
    call = {"x": FakeTensor((ROWS, N)), "k": K, "stream": 0,
            "out": (FakeTensor((ROWS, K), "int32"), FakeTensor((ROWS, K), "float32"))}
    call.update(changes)
    return call


class ReachedLibrary(Exception):
    """Raised instead of loading the library: the arguments passed every check."""


class StubbedLibraryTest(unittest.TestCase):
    """A base for argument checks: the library is replaced by ReachedLibrary, and make_call
    builds the keyword arguments of one call from the changes a test makes."""

    make_call = staticmethod(valid_call)

    def setUp(self):
        patcher = mock.patch.object(_binding, "library", side_effect=ReachedLibrary)
        patcher.start()
        self.addCleanup(patcher.stop)

    def assertRejects(self, argument, error=ValueError, **changes):
        with self.assertRaises(error) as caught:
            deepselect.topk(**self.make_call(**changes))
        self.assertIn(f"argument '{argument}'", str(caught.exception))
        return str(caught.exception)

    def assertAccepts(self, **changes):
        with self.assertRaises(ReachedLibrary):
            deepselect.topk(**self.make_call(**changes))


class ArgumentChecksTest(StubbedLibraryTest):
    """The checks of the arguments every call has."""

    def test_valid_calls_reach_the_library(self):
        self.assertAccepts()
        self.assertAccepts(k=4096, out=(FakeTensor((ROWS, 4096), "int32"),
                                        FakeTensor((ROWS, 4096), "float32")))
        self.assertAccepts(x=FakeTensor((ROWS, N), stride=(N + 24, 1)))  # padded rows
        self.assertAccepts(x=FakeTensor((1, N), stride=(1, 1)),  # one row: any row stride
                           out=(FakeTensor((1, K), "int32"), FakeTensor((1, K), "float32")))
        self.assertAccepts(x=FakeTensor((ROWS, N), "bfloat16"),
                           out=(FakeTensor((ROWS, K), "int64"), FakeTensor((ROWS, K), "bfloat16")),
                           index_dtype="int64", fill_index=1 << 40, fill_value=0.0)
        self.assertAccepts(return_values=False, out=FakeTensor((ROWS, K), "int32", stride=(64, 1)),
                           begin=FakeTensor((ROWS,), "int32"), end=FakeTensor((ROWS,), "int32"),
                           k_per_row=FakeTensor((ROWS,), "int32"),
                           index_offset=FakeTensor((ROWS,), "int32"),
                           row_status=FakeTensor((ROWS,), "int32"), order="by_value",
                           nan="smallest", largest=False, index_dtype=FakeDtype("int32"))
        self.assertAccepts(stream=mock.Mock(cuda_stream=0x1234, device=CUDA0))  # torch.cuda.Stream

    def test_k_out_of_range(self):
        self.assertIn("0 is not in 1..4096", self.assertRejects("k", k=0))
        self.assertIn("4097 is not in 1..4096", self.assertRejects("k", k=4097))
        self.assertRejects("k", TypeError, k=16.0)
        self.assertRejects("k", TypeError, k=True)

    def test_x_dtype(self):
        self.assertIn("float64", self.assertRejects("x", x=FakeTensor((ROWS, N), "float64")))
        self.assertRejects("x", x=FakeTensor((ROWS, N), "int32"))

    def test_x_shape_and_strides(self):
        self.assertIn("1-D", self.assertRejects("x", x=FakeTensor((N,))))
        self.assertRejects("x", x=FakeTensor((2, ROWS, N)))
        message = self.assertRejects("x", x=FakeTensor((ROWS, N), stride=(1, ROWS)))
        self.assertIn("stride(-1)", message)
        self.assertRejects("x", x=FakeTensor((ROWS, N), stride=(N - 1, 1)))
        self.assertRejects("x", x=FakeTensor((ROWS, N), stride=(0, 1)))  # expanded rows
        self.assertRejects("x", x=FakeTensor((ROWS, 1 << 31)))
        self.assertRejects("x", x=FakeTensor((ROWS, (1 << 31) - 65535)))

    def test_x_device_and_type(self):
        self.assertIn("cpu", self.assertRejects("x", x=FakeTensor((ROWS, N), device=CPU)))
        self.assertRejects("x", TypeError, x=[[1.0, 2.0]])

    def test_flags(self):
        self.assertIn("'sorted' is not one of", self.assertRejects("order", order="sorted"))
        self.assertRejects("order", TypeError, order=1)
        self.assertRejects("nan", nan="largest_first")
        self.assertRejects("nan", TypeError, nan=None)
        self.assertRejects("largest", TypeError, largest=1)
        self.assertRejects("return_values", TypeError, return_values="yes")
        self.assertRejects("pdl", TypeError, pdl=1)
        self.assertAccepts(pdl=True)

    def test_row_arrays(self):
        for argument in ("begin", "end", "k_per_row", "index_offset", "row_status"):
            with self.subTest(argument=argument):
                self.assertIn(f"({ROWS},)", self.assertRejects(
                    argument, **{argument: FakeTensor((ROWS + 1,), "int32")}))
                self.assertRejects(argument, **{argument: FakeTensor((ROWS, 1), "int32")})
                self.assertIn("int64", self.assertRejects(
                    argument, **{argument: FakeTensor((ROWS,), "int64")}))
                self.assertRejects(argument, **{argument: FakeTensor((ROWS,), "int32", CPU)})
                self.assertRejects(argument, **{argument: FakeTensor((ROWS,), "int32", CUDA1)})
                self.assertRejects(argument, **{argument: FakeTensor((ROWS,), "int32",
                                                                     stride=(2,))})
                self.assertRejects(argument, TypeError, **{argument: [0] * ROWS})

    def test_out_shapes_and_strides(self):
        values = FakeTensor((ROWS, K), "float32")
        for indices in (FakeTensor((ROWS, K - 1), "int32"), FakeTensor((ROWS + 1, K), "int32"),
                        FakeTensor((ROWS * K,), "int32"),
                        FakeTensor((ROWS, K), "int32", stride=(1, ROWS)),
                        FakeTensor((ROWS, K), "int32", stride=(K - 1, 1))):
            with self.subTest(indices=(indices.shape, indices.stride())):
                self.assertIn("(indices)", self.assertRejects("out", out=(indices, values)))
        indices = FakeTensor((ROWS, K), "int32")
        message = self.assertRejects("out", out=(indices, FakeTensor((ROWS, K), stride=(K, 2))))
        self.assertIn("(values)", message)

    def test_out_dtypes_devices_and_form(self):
        indices, values = FakeTensor((ROWS, K), "int32"), FakeTensor((ROWS, K), "float32")
        self.assertRejects("out", out=(values, indices))  # torch.topk's order
        self.assertRejects("out", out=(indices, FakeTensor((ROWS, K), "float16")))
        self.assertRejects("out", out=(indices, FakeTensor((ROWS, K), device=CUDA1)))
        self.assertRejects("out", out=(FakeTensor((ROWS, K), "int32", CPU), values))
        self.assertRejects("out", TypeError, out=indices)
        self.assertRejects("out", TypeError, out=(indices, values), return_values=False)
        self.assertRejects("out", TypeError, out=(indices, values, values))
        self.assertRejects("out", TypeError, out=("indices", values))

    def test_index_dtype(self):
        for bad in ("int16", "torch.int64", FakeDtype("float32"), 3):
            with self.subTest(index_dtype=bad):
                self.assertRejects("index_dtype", index_dtype=bad)
        self.assertIn("index_dtype int64", self.assertRejects("out", index_dtype="int64"))

    def test_fills_and_stream(self):
        self.assertRejects("fill_index", fill_index=1 << 31)
        self.assertRejects("fill_index", TypeError, fill_index=-1.0)
        self.assertRejects("fill_value", TypeError, fill_value="-inf")
        self.assertRejects("stream", TypeError, stream="default")
        self.assertRejects("stream", stream=-1)
        self.assertIn("is on cuda:1, x on cuda:0",
                      self.assertRejects("stream", stream=mock.Mock(cuda_stream=1, device=CUDA1)))
        self.assertIn("pass out=", self.assertRejects("stream", stream=2, out=None))
        self.assertAccepts(stream=2)  # with out=, nothing is allocated on it

    @unittest.skipIf(deepselect._torch() is not None, "PyTorch is installed")
    def test_without_torch_out_and_stream_are_needed(self):
        for changes in ({"out": None}, {"stream": None}):
            with self.subTest(**changes), self.assertRaisesRegex(RuntimeError, "PyTorch"):
                deepselect.topk(**valid_call(**changes))


class TorchStreamTest(unittest.TestCase):
    """The torch stream a call runs on and allocates its outputs on, with torch.cuda faked."""

    def test_handles(self):
        current, default = mock.Mock(cuda_stream=0x50), mock.Mock(cuda_stream=0)
        torch = mock.Mock()
        torch.cuda.current_stream.return_value = current
        torch.cuda.default_stream.return_value = default
        torch.cuda.ExternalStream.side_effect = lambda handle: ("external", handle)
        for handle, expected in ((None, current), (0x50, current), (0, default), (1, default),
                                 (0x60, ("external", 0x60))):
            with self.subTest(handle=handle):
                self.assertEqual(deepselect._torch_stream(torch, handle), expected)
        default.cuda_stream = 0x70  # torch's default stream is not the legacy one
        self.assertEqual(deepselect._torch_stream(torch, 1), ("external", 1))
        self.assertEqual(deepselect._torch_stream(torch, 0x70), default)


class ImportTest(unittest.TestCase):
    def test_import_loads_neither_torch_nor_library(self):
        script = ("import sys, deepselect; from deepselect import _binding; "
                  "print('torch' in sys.modules, _binding._load_once.cache_info().currsize)")
        environment = dict(os.environ, DEEPSELECT_LIBRARY="/nonexistent/libdeepselect.so",
                           PYTHONPATH=os.pathsep.join(filter(None, (
                               PYTHON_DIR, os.environ.get("PYTHONPATH")))))
        result = subprocess.run([sys.executable, "-c", script], env=environment,
                                capture_output=True, text=True, check=True)
        self.assertEqual(result.stdout.split(), ["False", "0"])

    def test_missing_library_is_named(self):
        path = "/nonexistent/libdeepselect.so"
        with mock.patch.dict(os.environ, {"DEEPSELECT_LIBRARY": path}):
            with self.assertRaisesRegex(OSError, f"cannot load {path} .*DEEPSELECT_LIBRARY"):
                deepselect.topk(**valid_call())
            with self.assertRaisesRegex(OSError, path):
                deepselect.version()

    def test_library_of_another_version_is_refused(self):
        """A library whose ds_topk_args is not DsTopkArgs (another version's struct), or which
        cannot say (older than ds_topk_args_size), is not loaded."""
        size = ctypes.sizeof(_binding.DsTopkArgs)
        other = mock.MagicMock()
        other.ds_topk_args_size.return_value = size + 8
        older = mock.MagicMock(spec=["ds_topk", "ds_topk_args_init"])
        for lib, message in ((other, f"is {size + 8} bytes, this package's {size}: they come "
                                     "from different versions"),
                             (older, "no ds_topk_args_size: it is older than this package")):
            with self.subTest(message=message), mock.patch.object(_binding.ctypes, "CDLL",
                                                                  return_value=lib):
                with self.assertRaisesRegex(OSError, message):
                    _binding.load("/some/libdeepselect.so")


def library_missing():
    """Why the library cannot be tested here, or None when it loads."""
    path, origin = _binding.library_path()
    if os.sep in path and not os.path.isfile(path):
        return f"{path} (from {origin}) is not built"
    try:
        _binding.library()
    except OSError as error:
        if os.sep in path:
            raise  # built but broken: a failure, not a skip
        return str(error)
    return None


def gpu_visible():
    """Whether the CUDA driver loads and sees a GPU (then fake pointers must not reach it)."""
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    count = ctypes.c_int(0)
    return (cuda.cuInit(0) == 0 and cuda.cuDeviceGetCount(ctypes.byref(count)) == 0
            and count.value > 0)


LIBRARY_MISSING = library_missing()


@unittest.skipIf(LIBRARY_MISSING, LIBRARY_MISSING)
class LibraryTest(unittest.TestCase):
    def test_version(self):
        self.assertRegex(deepselect.version(), r"^\d+\.\d+\.\d+$")

    def test_struct_size_matches(self):
        self.assertEqual(_binding.library().ds_topk_args_size(),
                         ctypes.sizeof(_binding.DsTopkArgs))

    @unittest.skipIf(gpu_visible(), "a GPU is visible: fake device pointers must not reach it")
    def test_valid_call_fails_without_gpu(self):
        """The arguments pass the library's own checks, so ds_topk reaches the driver."""
        with self.assertRaisesRegex(RuntimeError, "no CUDA driver|sees no GPU|cuInit failed"):
            deepselect.topk(**valid_call())

    def test_library_argument_errors_are_value_errors(self):
        """Alignment is checked by the library alone: its error names its argument."""
        x = FakeTensor((ROWS, N), address=0x7E0000000002)
        with self.assertRaisesRegex(ValueError, r"argument 'x'.*ds_topk argument 'x'"):
            deepselect.topk(**valid_call(x=x))


if __name__ == "__main__":
    unittest.main()
