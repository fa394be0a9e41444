"""Tests of the decode-bounds and page-table arguments of deepselect.topk (seq_lens, next_n,
page_table, page_size, row_to_batch, return_raw_indices) and of the ctypes mirror of
ds_topk_args: no GPU, no torch (plain unittest, the fake tensors of test_package).
"""

import ctypes
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parents[1]
for directory in (TESTS, ROOT / "python"):  # run from anywhere, not only with PYTHONPATH
    if str(directory) not in sys.path:
        sys.path.insert(0, str(directory))

import deepselect  # noqa: E402
from deepselect import _binding  # noqa: E402
from test_package import (CPU, CUDA1, K, ROWS, LIBRARY_MISSING, FakeTensor,  # noqa: E402
                          StubbedLibraryTest, gpu_visible, valid_call)

HEADER = ROOT / "include" / "deepselect" / "deepselect.h"
NEXT_N = 2
BATCH = -(-ROWS // NEXT_N)
PAGES = 8


def table(shape=(BATCH, PAGES), dtype="int32", **kwargs):
    return FakeTensor(shape, dtype, **kwargs)


def seq_lens(size=BATCH, dtype="int32", **kwargs):
    return FakeTensor((size,), dtype, **kwargs)


def paged_call(**changes):
    """valid_call with decode bounds, a page table and raw indices, with changes applied."""
    call = {"seq_lens": seq_lens(), "next_n": NEXT_N, "page_table": table(), "page_size": 64,
            "row_to_batch": FakeTensor((ROWS,), "int32"), "return_raw_indices": True,
            "out": (FakeTensor((ROWS, K), "int32"), FakeTensor((ROWS, K), "float32"),
                    FakeTensor((ROWS, K), "int32"))}
    call.update(changes)
    return valid_call(**call)


class EpilogueChecksTest(StubbedLibraryTest):
    """The checks of the decode-bounds and page-table arguments."""

    make_call = staticmethod(paged_call)

    def test_valid_calls_reach_the_library(self):
        self.assertAccepts()
        self.assertAccepts(seq_lens=seq_lens(BATCH + 3))  # more lengths than batch entries
        self.assertAccepts(next_n=1, seq_lens=seq_lens(ROWS))
        self.assertAccepts(next_n=3, seq_lens=seq_lens(2))  # ceil(4 / 3)
        self.assertAccepts(next_n=ROWS + 1, seq_lens=seq_lens(1))
        self.assertAccepts(seq_lens=None, row_to_batch=None, return_raw_indices=False,
                           out=valid_call()["out"])
        self.assertAccepts(next_n=ROWS, seq_lens=seq_lens(1, stride=(7,)))  # any stride
        self.assertAccepts(page_table=table(stride=(PAGES + 24, 1)))  # padded table rows
        self.assertAccepts(page_table=table((1, PAGES), stride=(3, 1)))  # one row: any stride
        self.assertAccepts(page_table=table((1, 1)), page_size=1)
        self.assertAccepts(return_values=False, out=(FakeTensor((ROWS, K), "int32"),
                                                     FakeTensor((ROWS, K), "int32")))
        self.assertAccepts(index_dtype="int64",
                           out=(FakeTensor((ROWS, K), "int64"), FakeTensor((ROWS, K)),
                                FakeTensor((ROWS, K), "int64", stride=(K + 8, 1))))
        self.assertAccepts(return_raw_indices=False, out=valid_call()["out"])
        self.assertAccepts(seq_lens=None, begin=FakeTensor((ROWS,), "int32"),
                           end=FakeTensor((ROWS,), "int32"), next_n=3)
        self.assertAccepts(index_offset=FakeTensor((ROWS,), "int32"),
                           k_per_row=FakeTensor((ROWS,), "int32"))

    def test_next_n(self):
        self.assertIn("0 is not in 1..", self.assertRejects("next_n", next_n=0))
        self.assertRejects("next_n", next_n=-2)
        self.assertRejects("next_n", next_n=1 << 31)
        self.assertRejects("next_n", TypeError, next_n=2.0)
        self.assertRejects("next_n", TypeError, next_n=True)
        self.assertRejects("next_n", TypeError, next_n=None)

    def test_seq_lens_cannot_be_combined_with_begin_or_end(self):
        for argument in ("begin", "end"):
            with self.subTest(argument=argument):
                message = self.assertRejects(
                    "seq_lens", **{argument: FakeTensor((ROWS,), "int32")})
                self.assertIn("begin or end", message)

    def test_seq_lens(self):
        message = self.assertRejects("seq_lens", seq_lens=seq_lens(BATCH - 1))
        self.assertIn(f"ceil({ROWS} / {NEXT_N}) = {BATCH}", message)
        self.assertRejects("seq_lens", next_n=1, seq_lens=seq_lens(ROWS - 1))
        self.assertRejects("seq_lens", seq_lens=FakeTensor((BATCH, 1), "int32"))
        self.assertRejects("seq_lens", seq_lens=FakeTensor((), "int32"))
        self.assertIn("int64", self.assertRejects("seq_lens", seq_lens=seq_lens(dtype="int64")))
        self.assertRejects("seq_lens", seq_lens=seq_lens(device=CPU))
        self.assertRejects("seq_lens", seq_lens=seq_lens(device=CUDA1))
        self.assertIn("contiguous", self.assertRejects("seq_lens",
                                                       seq_lens=seq_lens(stride=(2,))))
        self.assertIn("aligned", self.assertRejects(
            "seq_lens", seq_lens=seq_lens(address=0x7E0000000002)))
        self.assertRejects("seq_lens", TypeError, seq_lens=[100] * BATCH)

    def test_page_table_arguments_need_page_table(self):
        for argument in ("page_size", "row_to_batch", "return_raw_indices"):
            with self.subTest(argument=argument):
                changes = {"page_table": None, "page_size": None, "row_to_batch": None,
                           "return_raw_indices": False, "out": valid_call()["out"]}
                changes[argument] = paged_call()[argument]
                self.assertIn("needs page_table", self.assertRejects(argument, **changes))

    def test_page_table(self):
        self.assertIn("int64", self.assertRejects("page_table", page_table=table(dtype="int64")))
        self.assertRejects("page_table", page_table=table(dtype="float32"))
        self.assertIn("1-D", self.assertRejects("page_table", page_table=FakeTensor(
            (PAGES,), "int32")))
        self.assertRejects("page_table", page_table=FakeTensor((1, BATCH, PAGES), "int32"))
        self.assertRejects("page_table", page_table=table((0, PAGES)))
        self.assertRejects("page_table", page_table=table((BATCH, 0)))
        self.assertIn("stride(-1)", self.assertRejects(
            "page_table", page_table=table(stride=(1, BATCH))))
        self.assertRejects("page_table", page_table=table(stride=(PAGES - 1, 1)))
        self.assertRejects("page_table", page_table=table(stride=(0, 1)))  # expanded rows
        self.assertRejects("page_table", page_table=table(device=CPU))
        self.assertRejects("page_table", page_table=table(device=CUDA1))
        self.assertIn("aligned", self.assertRejects(
            "page_table", page_table=table(address=0x7E0000000002)))
        self.assertIn("overflow", self.assertRejects(
            "page_table", page_table=table((BATCH, PAGES), stride=(1 << 61, 1))))
        self.assertRejects("page_table", TypeError, page_table=[[0] * PAGES] * BATCH)

    def test_page_size(self):
        self.assertIn("required", self.assertRejects("page_size", page_size=None))
        self.assertIn("0 is not in 1..", self.assertRejects("page_size", page_size=0))
        self.assertRejects("page_size", page_size=-64)
        self.assertRejects("page_size", page_size=1 << 31)
        self.assertRejects("page_size", TypeError, page_size=64.0)
        self.assertRejects("page_size", TypeError, page_size=True)

    def test_row_to_batch(self):
        self.assertIn(f"({ROWS},)", self.assertRejects(
            "row_to_batch", row_to_batch=FakeTensor((BATCH,), "int32")))
        self.assertRejects("row_to_batch", row_to_batch=FakeTensor((ROWS,), "int64"))
        self.assertRejects("row_to_batch", row_to_batch=FakeTensor((ROWS,), "int32", CPU))
        self.assertRejects("row_to_batch", row_to_batch=FakeTensor((ROWS,), "int32",
                                                                   stride=(2,)))
        self.assertIn("aligned", self.assertRejects(
            "row_to_batch", row_to_batch=FakeTensor((ROWS,), "int32", address=0x7E0000000002)))
        self.assertRejects("row_to_batch", TypeError, row_to_batch=list(range(ROWS)))

    def test_return_raw_indices(self):
        self.assertRejects("return_raw_indices", TypeError, return_raw_indices=1)
        self.assertRejects("return_raw_indices", TypeError, return_raw_indices=None)

    def test_out_forms(self):
        indices, values = FakeTensor((ROWS, K), "int32"), FakeTensor((ROWS, K), "float32")
        raw = FakeTensor((ROWS, K), "int32")
        message = self.assertRejects("out", TypeError, out=(indices, values))
        self.assertIn("(indices, values, raw_indices)", message)
        self.assertRejects("out", TypeError, out=(indices, values, raw, raw))
        self.assertRejects("out", TypeError, out=indices)
        self.assertRejects("out", TypeError, return_raw_indices=False, out=(indices, values, raw))
        message = self.assertRejects("out", TypeError, return_values=False, out=indices)
        self.assertIn("(indices, raw_indices)", message)
        self.assertRejects("out", TypeError, return_values=False, out=(indices, values, raw))
        self.assertRejects("out", TypeError, return_values=False, return_raw_indices=False,
                           out=(indices, raw))

    def test_out_raw_indices(self):
        indices, values = FakeTensor((ROWS, K), "int32"), FakeTensor((ROWS, K), "float32")
        for raw in (FakeTensor((ROWS, K + 1), "int32"), FakeTensor((ROWS - 1, K), "int32"),
                    FakeTensor((ROWS * K,), "int32"),
                    FakeTensor((ROWS, K), "int32", stride=(1, ROWS)),
                    FakeTensor((ROWS, K), "int32", stride=(K - 1, 1)),
                    FakeTensor((ROWS, K), "int32", CPU), FakeTensor((ROWS, K), "int32", CUDA1),
                    FakeTensor((ROWS, K), "int64"), FakeTensor((ROWS, K), "float32"),
                    FakeTensor((ROWS, K), "int32", address=0x7E0000000002)):
            with self.subTest(raw=(raw.shape, raw.stride(), raw.dtype, str(raw.device))):
                message = self.assertRejects("out", out=(indices, values, raw))
                self.assertIn("(raw_indices)", message)
        message = self.assertRejects("out", index_dtype="int64", out=(
            FakeTensor((ROWS, K), "int64"), values,
            FakeTensor((ROWS, K), "int64", address=0x7E0000000004)))
        self.assertIn("aligned to 8 bytes", message)


class LaunchFieldsTest(unittest.TestCase):
    """What reaches ds_topk_args, and what topk returns, with ds_topk replaced by a recorder."""

    def setUp(self):
        self.launched = []
        for name, replacement in (
                ("library", mock.Mock(return_value="lib")),
                ("new_args", mock.Mock(side_effect=lambda lib: initialized_args())),
                ("topk", mock.Mock(side_effect=lambda lib, args, stream:
                                   self.launched.append((args, stream))))):
            patcher = mock.patch.object(_binding, name, replacement)
            patcher.start()
            self.addCleanup(patcher.stop)

    def launch(self, **changes):
        call = paged_call(**changes)
        result = deepselect.topk(**call)
        self.assertEqual(len(self.launched), 1)
        return call, result, self.launched.pop()[0]

    def test_paged_call_fields_and_result(self):
        padded = table(stride=(PAGES + 8, 1))
        call, result, args = self.launch(page_table=padded, stream=0x1234, index_dtype="int64",
                                         out=(FakeTensor((ROWS, K), "int64"), FakeTensor((ROWS, K)),
                                              FakeTensor((ROWS, K), "int64", stride=(K + 3, 1))))
        indices, values, raw = call["out"]
        self.assertEqual(result, (values, indices, raw))
        self.assertEqual(args.seq_lens, call["seq_lens"].data_ptr())
        self.assertEqual(args.next_n, NEXT_N)
        self.assertEqual(args.page_table, padded.data_ptr())
        self.assertEqual((args.page_table_rows, args.page_table_cols, args.ld_page_table),
                         (BATCH, PAGES, PAGES + 8))
        self.assertEqual(args.page_size, 64)
        self.assertEqual(args.row_to_batch, call["row_to_batch"].data_ptr())
        self.assertEqual(args.indices, indices.data_ptr())
        self.assertEqual(args.values, values.data_ptr())
        self.assertEqual(args.raw_indices, raw.data_ptr())
        self.assertEqual((args.ld_idx, args.ld_val, args.ld_raw), (K, K, K + 3))
        self.assertEqual(args.index_type, _binding.DS_INDEX_I64)
        self.assertIsNone(args.begin)
        self.assertIsNone(args.end)

    def test_result_forms(self):
        indices, values = FakeTensor((ROWS, K), "int32"), FakeTensor((ROWS, K), "float32")
        raw = FakeTensor((ROWS, K), "int32")
        self.assertEqual(self.launch(out=(indices, values, raw))[1], (values, indices, raw))
        self.assertEqual(self.launch(return_values=False, out=(indices, raw))[1], (indices, raw))
        _, result, args = self.launch(return_raw_indices=False, out=(indices, values))
        self.assertEqual(result, (values, indices))
        self.assertIsNone(args.raw_indices)
        _, result, args = self.launch(return_raw_indices=False, return_values=False, out=indices)
        self.assertIs(result, indices)
        self.assertIsNone(args.values)

    def test_defaults_without_the_new_arguments(self):
        _, _, args = self.launch(seq_lens=None, next_n=1, page_table=None, page_size=None,
                                 row_to_batch=None, return_raw_indices=False,
                                 out=valid_call()["out"])
        check_new_defaults(self, args)

    def test_pdl(self):
        self.assertEqual(self.launch(pdl=True)[2].pdl, 1)
        self.assertEqual(self.launch(pdl=False)[2].pdl, 0)


def check_new_defaults(test, args):
    """The fields that ds_topk_args_init leaves at their defaults, past the first version's."""
    test.assertEqual(args.next_n, 1)
    for name in ("seq_lens", "page_table", "row_to_batch", "raw_indices"):
        test.assertIsNone(getattr(args, name), name)
    test.assertEqual((args.page_table_rows, args.page_table_cols, args.ld_page_table,
                      args.page_size, args.ld_raw, args.pdl), (0, 0, 0, 0, 0, 0))


def initialized_args():
    """A DsTopkArgs with the defaults that ds_topk_args_init documents."""
    args = _binding.DsTopkArgs()
    args.largest, args.fill_index, args.next_n = 1, -1, 1
    return args


# ---------------------------------------------------------------------------------------------
# The ctypes mirror of ds_topk_args against deepselect.h

C_TYPES = {"int32_t": ctypes.c_int32, "int64_t": ctypes.c_int64, "double": ctypes.c_double}


def header_fields():
    """[(name, ctypes type)] of ds_topk_args, in the order of deepselect.h."""
    text = HEADER.read_text()
    body = re.search(r"typedef struct ds_topk_args \{(.*?)\} ds_topk_args;", text, re.S)
    if body is None:
        raise AssertionError(f"no 'typedef struct ds_topk_args {{...}} ds_topk_args;' in {HEADER}")
    code = re.sub(r"//[^\n]*", "", re.sub(r"/\*.*?\*/", "", body.group(1), flags=re.S))
    fields = []
    for declaration in filter(None, (part.strip() for part in code.split(";"))):
        match = re.fullmatch(r"(.*?)\s*\b(\w+)", " ".join(declaration.split()))
        if match is None:
            raise AssertionError(f"cannot parse the field declaration '{declaration}'")
        type_, name = match.groups()
        if "*" in type_:
            fields.append((name, ctypes.c_void_p))
        elif type_ in C_TYPES:
            fields.append((name, C_TYPES[type_]))
        else:
            raise AssertionError(f"field {name}: no ctypes mapping for '{type_}'")
    return fields


class StructLayoutTest(unittest.TestCase):
    def test_fields_match_the_header(self):
        expected = header_fields()
        self.assertGreaterEqual(len(expected), 32)  # the parser saw the whole struct
        ours = [(name, type_) for name, type_ in _binding.DsTopkArgs._fields_]
        self.assertEqual([name for name, _ in ours], [name for name, _ in expected])
        for (name, type_), (_, header_type) in zip(ours, expected):
            self.assertIs(type_, header_type, f"field {name}")

    @unittest.skipIf(shutil.which(os.environ.get("CC", "cc")) is None, "no C compiler (cc)")
    def test_offsets_match_the_c_compiler(self):
        """offsetof of every field and sizeof, as the C compiler lays the header's struct out."""
        names = [name for name, _ in _binding.DsTopkArgs._fields_]
        program = "#include <stddef.h>\n#include <stdio.h>\n#include <deepselect/deepselect.h>\n"
        program += "int main(void) {\n"
        program += '  printf("sizeof %zu\\n", sizeof(ds_topk_args));\n'
        for name in names:
            program += f'  printf("{name} %zu\\n", offsetof(ds_topk_args, {name}));\n'
        program += "  return 0;\n}\n"
        with tempfile.TemporaryDirectory() as directory:
            source, binary = Path(directory) / "layout.c", Path(directory) / "layout"
            source.write_text(program)
            subprocess.run([os.environ.get("CC", "cc"), "-std=c99", "-I", str(ROOT / "include"),
                            str(source), "-o", str(binary)], check=True, capture_output=True)
            output = subprocess.run([str(binary)], check=True, capture_output=True, text=True)
        layout = dict(line.split() for line in output.stdout.splitlines())
        self.assertEqual(int(layout.pop("sizeof")), ctypes.sizeof(_binding.DsTopkArgs))
        self.assertEqual({name: int(offset) for name, offset in layout.items()},
                         {name: getattr(_binding.DsTopkArgs, name).offset for name in names})


@unittest.skipIf(LIBRARY_MISSING, LIBRARY_MISSING)
class LibraryTest(unittest.TestCase):
    def test_init_sets_the_new_defaults(self):
        args = _binding.new_args(_binding.library())
        check_new_defaults(self, args)

    @unittest.skipIf(gpu_visible(), "a GPU is visible: fake device pointers must not reach it")
    def test_paged_call_passes_the_library_checks(self):
        """What Python accepts, ds_topk's own checks accept: the call reaches the driver."""
        for changes in ({}, {"return_values": False, "return_raw_indices": False,
                             "out": FakeTensor((ROWS, K), "int32")},
                        {"seq_lens": None, "page_table": None, "page_size": None,
                         "row_to_batch": None, "return_raw_indices": False, "next_n": 3,
                         "out": valid_call()["out"]}):
            with self.subTest(**{name: str(value) for name, value in changes.items()}):
                with self.assertRaisesRegex(RuntimeError, "no CUDA driver|sees no GPU|cuInit"):
                    deepselect.topk(**paged_call(**changes))


if __name__ == "__main__":
    unittest.main()
