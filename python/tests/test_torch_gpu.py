"""deepselect.topk against PyTorch on a CUDA GPU (unittest; skips without torch, a GPU or the
library). From the repository root, after the build:

    python3 -m unittest python/tests/test_torch_gpu.py -v

The library is $DEEPSELECT_LIBRARY, else build/libdeepselect.so. The reference is plain torch:
per row, a stable sort of the valid columns (ties to the lower column, -0.0 == +0.0), the first
k of them, fills past a short row; the page-table epilogue is translated with torch indexing.
Every input comes from a fixed seed.
"""

import itertools
import sys
import unittest
from pathlib import Path

PYTHON_DIR = str(Path(__file__).resolve().parents[1])  # the checkout's python/
if PYTHON_DIR not in sys.path:
    sys.path.insert(0, PYTHON_DIR)

import deepselect  # noqa: E402
from deepselect import _binding  # noqa: E402

try:
    import torch
except ImportError:
    torch = None

DTYPES = ("float32", "bfloat16", "float16")
# (rows, n, k): the DSA decode shapes, a small one, and rows shorter than k.
SHAPES = ((1, 131072, 2048), (64, 131072, 2048), (7, 5000, 100), (3, 10, 16))
SLEEP_CYCLES = 50_000_000  # ~25 ms of torch.cuda._sleep: long enough to expose a wrong stream


def skip_reason():
    """Why these tests cannot run here, or None."""
    if torch is None:
        return "PyTorch is not installed"
    if not torch.cuda.is_available():
        return "torch.cuda sees no CUDA GPU"
    try:
        _binding.library()
    except OSError as error:
        return str(error)
    return None


SKIP = skip_reason()


# ---------------------------------------------------------------------------------------------
# The reference


def clamp(value, low, high):
    return min(max(value, low), high)


def reference(x, k, lo=None, hi=None, k_per_row=None, index_offset=None, largest=True,
              fill_index=-1):
    """(values, indices, counts) in by_value order. Row r's candidates are the columns
    clamp(lo[r]) <= c < clamp(hi[r]) (clamped to [0, n]; lists, default the whole row), sorted by
    value (descending for largest) with ties to the lower column (a stable sort, -0.0 made
    +0.0); the first counts[r] = min(k, k_per_row[r], valid columns) of them are selected, as
    values and int64 indices (plus index_offset[r]); the other slots hold fill_index and -inf
    (+inf for smallest)."""
    rows, n = x.shape
    fill_value = float("-inf") if largest else float("inf")
    values = torch.full((rows, k), fill_value, dtype=x.dtype, device=x.device)
    indices = torch.full((rows, k), fill_index, dtype=torch.int64, device=x.device)
    counts = []
    for r in range(rows):
        a = clamp(0 if lo is None else lo[r], 0, n)
        b = clamp(n if hi is None else hi[r], 0, n)
        take = min(k, max(b - a, 0))
        if k_per_row is not None:
            take = min(take, clamp(k_per_row[r], 0, k))
        counts.append(take)
        if take == 0:
            continue
        segment = x[r, a:b]
        key = segment.float()
        key = torch.where(key == 0, torch.zeros_like(key), key)  # -0.0 == +0.0
        order = torch.sort(key, descending=largest, stable=True).indices[:take]
        values[r, :take] = segment[order]
        indices[r, :take] = order + a + (0 if index_offset is None else index_offset[r])
    return values, indices, counts


def decode_bounds(seq_lens, next_n, rows):
    """hi of every row under seq_lens (a list) and next_n (the row starts at 0)."""
    return [seq_lens[r // next_n] - next_n + r % next_n + 1 for r in range(rows)]


def filled_mask(counts, k, device):
    return torch.arange(k, device=device)[None, :] >= torch.tensor(counts, device=device)[:, None]


def translate(raw, filled, page_table, page_size, batch_of_row, fill_index=-1):
    """The page-table epilogue on reference indices: page_table[b][i // page_size] * page_size +
    i % page_size, -1 for a batch entry, page or index outside the table or a negative entry,
    fill_index in fill slots."""
    table_rows, table_cols = page_table.shape
    b = batch_of_row.long()[:, None].expand_as(raw)
    page = torch.div(raw, page_size, rounding_mode="floor")
    inside = (b >= 0) & (b < table_rows) & (raw >= 0) & (page < table_cols)
    entry = page_table[b.clamp(0, table_rows - 1), page.clamp(0, table_cols - 1)].long()
    inside &= entry >= 0
    translated = torch.where(inside, entry * page_size + raw % page_size, torch.full_like(raw, -1))
    return torch.where(filled, torch.full_like(raw, fill_index), translated)


def allocation_stream(tensor):
    """The CUstream handle that torch's caching allocator gave tensor's memory to."""
    address = tensor.data_ptr()
    for segment in torch.cuda.memory_snapshot():
        if segment["address"] <= address < segment["address"] + segment["total_size"]:
            return segment["stream"]
    raise AssertionError(f"no allocator segment holds address {address:#x}")


def by_index_order(indices, filled):
    """Reference indices in by_index order: the selected ones ascending, then the fills (which
    are the trailing slots of every row in both orders)."""
    big = torch.iinfo(torch.int64).max
    ascending = torch.where(filled, torch.full_like(indices, big), indices).sort(dim=1).values
    return torch.where(filled, indices, ascending)


def sorted_pairs(raw, translated):
    """Both index arrays, with each row reordered by raw (stable): compares unsorted output."""
    order = torch.sort(raw, dim=1, stable=True).indices
    return raw.gather(1, order), translated.gather(1, order)


@unittest.skipIf(SKIP, SKIP)
class TorchGpuTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.device = torch.device("cuda", torch.cuda.current_device())

    def randn(self, rows, n, dtype="float32", seed=0):
        generator = torch.Generator(device=self.device).manual_seed(seed)
        x = torch.randn((rows, n), generator=generator, device=self.device)
        return x.to(getattr(torch, dtype))

    def relu_ties(self, rows, n, dtype, seed):
        """Mostly zeros (about 0.1% of the row is positive), half of them -0.0."""
        generator = torch.Generator(device=self.device).manual_seed(seed)
        x = torch.relu(torch.randn((rows, n), generator=generator, device=self.device) - 3.0)
        negative = torch.rand((rows, n), generator=generator, device=self.device) < 0.5
        x = torch.where((x == 0) & negative, torch.full_like(x, -0.0), x)
        return x.to(getattr(torch, dtype))

    def rows_tensor(self, values):
        return torch.tensor(values, dtype=torch.int32, device=self.device)

    def assertSame(self, got, expected, what):
        """Equal shapes and elements (-0.0 == +0.0), with the first differing row in the message."""
        self.assertEqual(tuple(got.shape), tuple(expected.shape), what)
        differ = got != expected
        if not bool(differ.any()):
            return
        rows = differ.any(dim=1).nonzero().flatten().tolist()
        r = rows[0]
        columns = differ[r].nonzero().flatten()[:6].tolist()
        self.fail(f"{what}: {len(rows)} rows differ; row {r}, columns {columns}: got "
                  f"{got[r, columns].tolist()}, expected {expected[r, columns].tolist()}")

    def assertGathers(self, x, values, indices, what):
        """values[r, j] == x[r, indices[r, j]] wherever an index was selected."""
        idx = indices.long()
        selected = idx >= 0
        gathered = x.gather(1, idx.clamp(min=0))
        self.assertSame(torch.where(selected, gathered, values), values, f"{what}: gather")

    # -----------------------------------------------------------------------------------------

    def test_orders_match_torch(self):
        for (rows, n, k), dtype in itertools.product(SHAPES, DTYPES):
            with self.subTest(rows=rows, n=n, k=k, dtype=dtype):
                what = f"{rows}x{n} k={k} {dtype}"
                x = self.randn(rows, n, dtype, seed=rows * 7 + n)
                ref_values, ref_indices, counts = reference(x, k)
                filled = filled_mask(counts, k, self.device)

                values, indices = deepselect.topk(x, k, order="by_value")
                self.assertEqual(indices.dtype, torch.int32)
                self.assertEqual(values.dtype, x.dtype)
                self.assertSame(values, ref_values, f"{what} by_value values")
                self.assertSame(indices.long(), ref_indices, f"{what} by_value indices")
                if k <= n:
                    expected = torch.topk(x, k, dim=1, largest=True, sorted=True).values
                    self.assertSame(values, expected, f"{what} by_value values vs torch.topk")
                self.assertGathers(x, values, indices, what)

                values, indices = deepselect.topk(x, k)  # unsorted: compare as sets
                self.assertSame(values.sort(dim=1, descending=True).values, ref_values,
                                f"{what} unsorted values (sorted)")
                self.assertSame(indices.long().sort(dim=1).values,
                                ref_indices.sort(dim=1).values, f"{what} unsorted indices (sorted)")
                self.assertGathers(x, values, indices, what)

                indices = deepselect.topk(x, k, order="by_index", return_values=False)
                self.assertSame(indices.long(), by_index_order(ref_indices, filled),
                                f"{what} by_index indices")

    def test_smallest(self):
        for dtype in DTYPES:
            with self.subTest(dtype=dtype):
                x = self.randn(7, 5000, dtype, seed=3)
                ref_values, ref_indices, _ = reference(x, 100, largest=False)
                values, indices = deepselect.topk(x, 100, largest=False, order="by_value")
                self.assertSame(values, ref_values, f"{dtype} smallest values")
                self.assertSame(indices.long(), ref_indices, f"{dtype} smallest indices")
                self.assertSame(values, torch.topk(x, 100, dim=1, largest=False).values,
                                f"{dtype} smallest values vs torch.topk")

    def test_ties_go_to_the_lower_index(self):
        for (rows, n, k), dtype in itertools.product(SHAPES[:3], DTYPES):
            with self.subTest(rows=rows, n=n, k=k, dtype=dtype):
                what = f"relu ties {rows}x{n} k={k} {dtype}"
                x = self.relu_ties(rows, n, dtype, seed=rows + n)
                ref_values, ref_indices, _ = reference(x, k)
                self.assertTrue(bool((ref_values == 0).any()), "the input has no selected ties")
                values, indices = deepselect.topk(x, k, order="by_value")
                self.assertSame(values, ref_values, f"{what} by_value values")
                self.assertSame(indices.long(), ref_indices, f"{what} by_value indices")
                indices = deepselect.topk(x, k, return_values=False)
                self.assertSame(indices.long().sort(dim=1).values,
                                ref_indices.sort(dim=1).values, f"{what} unsorted indices")

    def test_int64_indices(self):
        x = self.randn(64, 131072, "float32", seed=5)
        ref_values, ref_indices, _ = reference(x, 2048)
        values, indices = deepselect.topk(x, 2048, order="by_value", index_dtype=torch.int64)
        self.assertEqual(indices.dtype, torch.int64)
        self.assertSame(indices, ref_indices, "int64 indices")
        self.assertSame(values, ref_values, "values with int64 indices")
        short = self.randn(3, 10, "bfloat16", seed=6)
        fill = -(1 << 40)
        _, ref_indices, _ = reference(short, 16, fill_index=fill)
        indices = deepselect.topk(short, 16, order="by_value", index_dtype="int64",
                                  fill_index=fill, return_values=False)
        self.assertSame(indices, ref_indices, "int64 fill_index beyond int32")

    def test_out_writes_in_place_and_allocates_nothing(self):
        x = self.randn(7, 5000, "bfloat16", seed=8)
        ref_values, ref_indices, _ = reference(x, 100)
        indices = torch.full((7, 100), -7, dtype=torch.int32, device=self.device)
        values = torch.full((7, 100), float("nan"), dtype=x.dtype, device=self.device)
        deepselect.topk(x, 100, order="by_value", out=(indices, values))  # load the kernel
        indices.fill_(-7)
        values.fill_(float("nan"))
        torch.cuda.synchronize()
        key = "allocation.all.allocated"
        before = torch.cuda.memory_stats().get(key, 0)
        result = deepselect.topk(x, 100, order="by_value", out=(indices, values))
        alone = deepselect.topk(x, 100, order="by_value", return_values=False, out=indices)
        self.assertEqual(torch.cuda.memory_stats().get(key, 0), before, "torch allocations")
        self.assertIs(result[0], values)
        self.assertIs(result[1], indices)
        self.assertIs(alone, indices)
        self.assertSame(values, ref_values, "out values")
        self.assertSame(indices.long(), ref_indices, "out indices")

    def test_cuda_graph_capture_and_replay(self):
        rows, n, k = 64, 131072, 2048
        x = self.randn(rows, n, "float32", seed=9)
        indices = torch.empty((rows, k), dtype=torch.int32, device=self.device)
        values = torch.empty((rows, k), dtype=x.dtype, device=self.device)
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):  # warm up (compile or load the kernel) outside the graph
            deepselect.topk(x, k, order="by_value", out=(indices, values))
        torch.cuda.current_stream().wait_stream(side)
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):  # captures on a side stream of its own
            deepselect.topk(x, k, order="by_value", out=(indices, values))
        for seed in (10, 11):
            x.copy_(self.randn(rows, n, "float32", seed=seed))
            indices.fill_(-7)
            values.fill_(0.0)
            graph.replay()
            torch.cuda.synchronize()
            ref_values, ref_indices, _ = reference(x, k)
            self.assertSame(values, ref_values, f"replay {seed} values")
            self.assertSame(indices.long(), ref_indices, f"replay {seed} indices")

    def test_pdl_chain_reads_what_the_call_before_wrote(self):
        """pdl=True: the second call, which selects from the first one's values, must wait for
        them (the poison otherwise), on a stream and replayed in a CUDA graph."""
        rows, n, k, k_second = 2, 131072, 2048, 100  # 16-CTA clusters, then rows of 2048
        x = self.randn(rows, n, "float32", seed=21)
        first = (torch.empty((rows, k), dtype=torch.int32, device=self.device),
                 torch.empty((rows, k), dtype=x.dtype, device=self.device))
        second = (torch.empty((rows, k_second), dtype=torch.int32, device=self.device),
                  torch.empty((rows, k_second), dtype=x.dtype, device=self.device))

        def chain():
            deepselect.topk(x, k, order="by_value", out=first, pdl=True)
            deepselect.topk(first[1], k_second, order="by_index", out=second, pdl=True)

        def check(label):
            torch.cuda.synchronize()
            ref_values, _, _ = reference(x, k)
            self.assertSame(first[1], ref_values, f"{label} first values")
            ref_second = reference(ref_values, k_second)[1].sort(dim=1).values
            self.assertSame(second[0].long(), ref_second, f"{label} second indices")

        first[1].fill_(float("nan"))
        second[0].fill_(-7)
        chain()
        check("stream")
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            chain()
        for seed in (22, 23):
            x.copy_(self.randn(rows, n, "float32", seed=seed))
            first[1].fill_(float("nan"))
            second[0].fill_(-7)
            graph.replay()
            check(f"replay {seed}")

    def test_non_default_stream(self):
        x = self.randn(7, 5000, "float32", seed=12)
        later = self.randn(7, 5000, "float32", seed=13)
        last = self.randn(7, 5000, "float32", seed=14)
        side = torch.cuda.Stream()
        sleep = getattr(torch.cuda, "_sleep", lambda cycles: None)
        # The current stream: the call must see the copy that the sleep delays on that stream.
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            sleep(SLEEP_CYCLES)
            x.copy_(later)
            values, indices = deepselect.topk(x, 100, order="by_value")
        torch.cuda.current_stream().wait_stream(side)
        ref_values, ref_indices, _ = reference(later, 100)
        self.assertSame(values, ref_values, "current stream values")
        self.assertSame(indices.long(), ref_indices, "current stream indices")
        # stream= while the default stream is current.
        out = torch.full((7, 100), -7, dtype=torch.int32, device=self.device)
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            sleep(SLEEP_CYCLES)
            x.copy_(last)
        deepselect.topk(x, 100, order="by_value", return_values=False, out=out, stream=side)
        torch.cuda.current_stream().wait_stream(side)
        _, ref_indices, _ = reference(last, 100)
        self.assertSame(out.long(), ref_indices, "stream= indices")

    @unittest.skipIf(SKIP is None and torch.cuda.get_allocator_backend() != "native",
                     "the allocator's snapshot holds segments only with the native backend")
    def test_allocated_outputs_belong_to_the_call_stream(self):
        x = self.randn(7, 5000, "float32", seed=15)
        ref_values, ref_indices, _ = reference(x, 100)
        side = torch.cuda.Stream()
        default = torch.cuda.default_stream()
        # (stream current during the call, stream=, the stream the outputs must belong to)
        cases = ((default, None, default), (side, None, side), (default, side, side),
                 (default, side.cuda_stream, side), (side, default.cuda_stream, default))
        for current, stream, expected in cases:
            side.wait_stream(default)
            with torch.cuda.stream(current):
                values, indices = deepselect.topk(x, 100, order="by_value", stream=stream)
            default.wait_stream(side)
            what = f"current {current.cuda_stream:#x}, stream={stream!r}"
            for output in (values, indices):
                self.assertEqual(allocation_stream(output), expected.cuda_stream, what)
            self.assertSame(values, ref_values, f"{what} values")
            self.assertSame(indices.long(), ref_indices, f"{what} indices")

    def test_begin_end_k_per_row_index_offset(self):
        rows, n, k = 7, 5000, 100
        begin = [0, 100, 4990, 3000, -5, 2500, 0]
        end = [5000, 200, 5000, 2000, 6000, 2600, 50]  # 10 columns; end < begin; clamped
        k_per_row = [100, 50, 100, 100, 0, 120, 7]
        offset = [-b for b in begin]
        for dtype in DTYPES:
            with self.subTest(dtype=dtype):
                x = self.randn(rows, n, dtype, seed=15)
                ref_values, ref_indices, _ = reference(x, k, begin, end)
                values, indices = deepselect.topk(x, k, order="by_value",
                                                  begin=self.rows_tensor(begin),
                                                  end=self.rows_tensor(end))
                self.assertSame(values, ref_values, f"{dtype} begin/end values")
                self.assertSame(indices.long(), ref_indices, f"{dtype} begin/end indices")
                self.assertGathers(x, values, indices, f"{dtype} begin/end")
                ref_values, ref_indices, _ = reference(x, k, begin, end, k_per_row, offset)
                values, indices = deepselect.topk(
                    x, k, order="by_value", begin=self.rows_tensor(begin),
                    end=self.rows_tensor(end), k_per_row=self.rows_tensor(k_per_row),
                    index_offset=self.rows_tensor(offset))
                self.assertSame(values, ref_values, f"{dtype} k_per_row values")
                self.assertSame(indices.long(), ref_indices, f"{dtype} k_per_row/offset indices")

    def test_decode_bounds(self):
        n, k = 3000, 256
        cases = (  # (next_n, rows, seq_lens): short, empty, clamped and extra entries
            (1, 6, [3000, 1, 100, 5000, 0, 256]),
            (2, 10, [3000, 1, 100, 5000, 2, 7]),
            (3, 7, [2999, 2, 300]),
        )
        for dtype in DTYPES:
            for next_n, rows, lengths in cases:
                with self.subTest(dtype=dtype, next_n=next_n, rows=rows):
                    hi = decode_bounds(lengths, next_n, rows)
                    x = self.randn(rows, n, dtype, seed=16 + next_n)
                    for r, bound in enumerate(hi):  # garbage past the bounds is never read
                        x[r, clamp(bound, 0, n):] = float("nan")
                    ref_values, ref_indices, _ = reference(x, k, hi=hi)
                    values, indices = deepselect.topk(
                        x, k, order="by_value", seq_lens=self.rows_tensor(lengths),
                        next_n=next_n)
                    what = f"{dtype} next_n={next_n}"
                    self.assertSame(values, ref_values, f"{what} decode values")
                    self.assertSame(indices.long(), ref_indices, f"{what} decode indices")

    def paged_case(self, dtype="float32", seed=20):
        """A batch of 4 sequences, next_n 2, 16-column pages through a padded, shuffled table
        with two negative entries."""
        batch, next_n, n, page_size = 4, 2, 1000, 16
        pages = -(-n // page_size)
        generator = torch.Generator().manual_seed(seed)
        shuffled = torch.randperm(batch * pages, generator=generator).to(self.device)
        storage = torch.full((batch, pages + 9), -3, dtype=torch.int32, device=self.device)
        table = storage[:, :pages]  # row stride pages + 9
        table.copy_(shuffled.view(batch, pages).to(torch.int32))
        table[1, 5] = -1
        table[3, 0] = -2
        lengths = [1000, 500, 37, 900]
        rows = batch * next_n
        return {"x": self.randn(rows, n, dtype, seed), "lengths": lengths, "next_n": next_n,
                "table": table, "page_size": page_size,
                "hi": decode_bounds(lengths, next_n, rows)}

    def test_page_table(self):
        k, fill = 128, -5
        variants = (  # (index_offset, row_to_batch)
            (None, None),
            ([0, -10, 5, 0, 2000, 0, 0, -2000], None),  # negative and past-the-table indices
            (None, [0, 0, 1, 1, 2, 3, -1, 4]),  # batch entries outside the table
        )
        for dtype in DTYPES:
            case = self.paged_case(dtype)
            x, table, page_size = case["x"], case["table"], case["page_size"]
            rows = x.shape[0]
            for offset, row_to_batch in variants:
                with self.subTest(dtype=dtype, offset=offset, row_to_batch=row_to_batch):
                    batch_of_row = (torch.arange(rows, device=self.device) // case["next_n"]
                                    if row_to_batch is None else self.rows_tensor(row_to_batch))
                    ref_values, ref_raw, counts = reference(x, k, hi=case["hi"],
                                                            index_offset=offset, fill_index=fill)
                    filled = filled_mask(counts, k, self.device)
                    ref_translated = translate(ref_raw, filled, table, page_size, batch_of_row,
                                               fill)
                    if offset is not None or row_to_batch is not None:
                        self.assertTrue(bool((ref_translated == -1).any()),
                                        "the case has no untranslatable index")
                    arguments = dict(
                        seq_lens=self.rows_tensor(case["lengths"]), next_n=case["next_n"],
                        page_table=table, page_size=page_size, fill_index=fill,
                        index_offset=None if offset is None else self.rows_tensor(offset),
                        row_to_batch=None if row_to_batch is None
                        else self.rows_tensor(row_to_batch))
                    values, indices, raw = deepselect.topk(x, k, order="by_value",
                                                           return_raw_indices=True, **arguments)
                    self.assertEqual(raw.dtype, torch.int32)
                    self.assertSame(values, ref_values, f"{dtype} paged values")
                    self.assertSame(raw.long(), ref_raw, f"{dtype} raw indices")
                    self.assertSame(indices.long(), ref_translated, f"{dtype} translated indices")

                    indices, raw = deepselect.topk(x, k, return_values=False,
                                                   return_raw_indices=True, **arguments)
                    got = sorted_pairs(raw.long(), indices.long())
                    expected = sorted_pairs(ref_raw, ref_translated)
                    self.assertSame(got[0], expected[0], f"{dtype} unsorted raw indices")
                    self.assertSame(got[1], expected[1], f"{dtype} unsorted translated indices")

                    indices = deepselect.topk(x, k, order="by_value", return_values=False,
                                              **arguments)
                    self.assertSame(indices.long(), ref_translated, f"{dtype} without raw")

    def test_page_table_int64_out(self):
        case = self.paged_case("bfloat16", seed=21)
        x, k = case["x"], 64
        rows = x.shape[0]
        _, ref_raw, counts = reference(x, k, hi=case["hi"])
        ref_translated = translate(ref_raw, filled_mask(counts, k, self.device), case["table"],
                                   case["page_size"],
                                   torch.arange(rows, device=self.device) // case["next_n"])
        indices = torch.full((rows, k), -7, dtype=torch.int64, device=self.device)
        raw_storage = torch.full((rows, k + 5), -7, dtype=torch.int64, device=self.device)
        raw = raw_storage[:, :k]  # ld_raw = k + 5
        result = deepselect.topk(
            x, k, order="by_value", seq_lens=self.rows_tensor(case["lengths"]),
            next_n=case["next_n"], page_table=case["table"], page_size=case["page_size"],
            index_dtype=torch.int64, return_values=False, return_raw_indices=True,
            out=(indices, raw))
        self.assertIs(result[0], indices)
        self.assertIs(result[1], raw)
        self.assertSame(raw, ref_raw, "int64 raw indices")
        self.assertSame(indices, ref_translated, "int64 translated indices")
        self.assertTrue(bool((raw_storage[:, k:] == -7).all()), "written past k in raw_indices")

    def test_paged_decode_in_a_cuda_graph(self):
        case = self.paged_case("bfloat16", seed=22)
        x, table, k = case["x"], case["table"], 128
        rows = x.shape[0]
        seq_lens = self.rows_tensor(case["lengths"])
        indices = torch.empty((rows, k), dtype=torch.int32, device=self.device)
        raw = torch.empty_like(indices)
        arguments = dict(seq_lens=seq_lens, next_n=case["next_n"], page_table=table,
                         page_size=case["page_size"], return_values=False,
                         return_raw_indices=True, out=(indices, raw))
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            deepselect.topk(x, k, **arguments)
        torch.cuda.current_stream().wait_stream(side)
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            deepselect.topk(x, k, **arguments)
        for lengths in (case["lengths"], [3, 1000, 999, 64]):  # new lengths, same graph
            seq_lens.copy_(self.rows_tensor(lengths))
            indices.fill_(-7)
            raw.fill_(-7)
            graph.replay()
            torch.cuda.synchronize()
            _, ref_raw, counts = reference(x, k, hi=decode_bounds(lengths, case["next_n"], rows))
            ref_translated = translate(ref_raw, filled_mask(counts, k, self.device), table,
                                       case["page_size"],
                                       torch.arange(rows, device=self.device) // case["next_n"])
            got = sorted_pairs(raw.long(), indices.long())
            expected = sorted_pairs(ref_raw, ref_translated)
            self.assertSame(got[0], expected[0], f"graph raw indices, seq_lens {lengths}")
            self.assertSame(got[1], expected[1], f"graph translated indices, seq_lens {lengths}")

    def test_argument_errors_name_the_argument(self):
        x = self.randn(4, 1000, "float32", seed=23)
        rows = self.rows_tensor([10, 20, 30, 40])
        table = torch.zeros((4, 8), dtype=torch.int32, device=self.device)
        cases = (
            ("seq_lens", dict(seq_lens=rows, end=rows)),
            ("seq_lens", dict(seq_lens=self.rows_tensor([10]), next_n=2)),
            ("seq_lens", dict(seq_lens=rows.long())),
            ("seq_lens", dict(seq_lens=rows.cpu())),
            ("next_n", dict(seq_lens=rows, next_n=0)),
            ("page_size", dict(page_table=table)),
            ("page_size", dict(page_table=table, page_size=0)),
            ("page_size", dict(page_size=64)),
            ("page_table", dict(page_table=table.long(), page_size=64)),
            ("page_table", dict(page_table=table.t(), page_size=64)),
            ("page_table", dict(page_table=table[:, :0], page_size=64)),
            ("row_to_batch", dict(row_to_batch=rows)),
            ("row_to_batch", dict(page_table=table, page_size=64, row_to_batch=rows[:2])),
            ("return_raw_indices", dict(return_raw_indices=True)),
            ("out", dict(page_table=table, page_size=64, return_raw_indices=True,
                         out=(torch.empty((4, 16), dtype=torch.int32, device=self.device),
                              torch.empty((4, 16), device=self.device)))),
            ("k", dict(k=0)),
        )
        for argument, changes in cases:
            with self.subTest(argument=argument, changes=sorted(changes)):
                call = dict(k=16)
                call.update(changes)
                error = TypeError if argument == "out" else ValueError
                with self.assertRaisesRegex(error, f"argument '{argument}'"):
                    deepselect.topk(x, **call)
        with self.assertRaisesRegex(ValueError, "argument 'x'"):
            deepselect.topk(x.cpu(), 16)


if __name__ == "__main__":
    unittest.main()
