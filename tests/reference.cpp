#include "reference.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "dtype_bits.hpp"
#include "parallel.hpp"

namespace deepselect::testing {

Scored score_of(uint32_t bits, int32_t column, DType dtype, bool largest, NanPolicy policy) {
  const double value = decode(bits, dtype);
  Scored scored{value, 0, column};
  if (std::isnan(value)) {
    scored.score = 0.0;
    scored.cls = policy == NanPolicy::nan_is_largest ? 1 : -1;
  }
  if (!largest) {
    scored.score = -scored.score;
    scored.cls = -scored.cls;
  }
  return scored;
}

bool better(const Scored& a, const Scored& b) {
  if (a.cls != b.cls) return a.cls > b.cls;
  if (a.score != b.score) return a.score > b.score;
  return a.column < b.column;
}

RowRange row_range(const Problem& problem, int64_t row) {
  int64_t begin = problem.begin.empty() ? 0 : problem.begin[row];
  int64_t end = problem.end.empty() ? problem.n : problem.end[row];
  if (!problem.seq_lens.empty()) {
    begin = 0;
    end =
        int64_t{problem.seq_lens[row / problem.next_n]} - problem.next_n + row % problem.next_n + 1;
  }
  const int64_t b = std::clamp<int64_t>(begin, 0, problem.n);
  const int64_t e = std::clamp<int64_t>(end, 0, problem.n);
  return {b, std::max(b, e)};
}

int row_k(const Problem& problem, int64_t row) {
  if (problem.k_per_row.empty()) return problem.k;
  return std::clamp(problem.k_per_row[row], 0, problem.k);
}

uint32_t fill_value_bits(const Problem& problem) {
  const double infinity = std::numeric_limits<double>::infinity();
  return encode(problem.fill_value.value_or(problem.largest ? -infinity : infinity), problem.dtype);
}

int64_t page_translate(const Problem& problem, int64_t row, int64_t index) {
  const int64_t batch =
      problem.row_to_batch.empty() ? row / problem.next_n : problem.row_to_batch[row];
  if (batch < 0 || batch >= problem.page_table_rows || index < 0) return -1;
  const int64_t page = index / problem.page_size;
  if (page >= problem.page_table_cols) return -1;
  const int32_t entry = problem.page_table[batch * problem.page_table_stride() + page];
  return entry < 0 ? -1 : int64_t{entry} * problem.page_size + index % problem.page_size;
}

Result reference_topk(const Problem& problem) {
  if (problem.n > std::numeric_limits<int32_t>::max()) throw Error("reference: n too large");
  const int64_t k = problem.k;
  Result result;
  result.k = problem.k;
  result.indices.assign(problem.rows * k, problem.fill_index);
  result.raw_indices.assign(problem.rows * k, problem.fill_index);
  result.values.assign(problem.rows * k, fill_value_bits(problem));
  result.row_status.assign(problem.rows, 0);
  result.selected.assign(problem.rows, 0);
  parallel_for(problem.rows, [&](int64_t r) {
    const RowRange range = row_range(problem, r);
    const uint32_t* row = problem.x.data() + r * problem.stride();
    std::vector<Scored> candidates;
    candidates.reserve(range.end - range.begin);
    for (int64_t c = range.begin; c < range.end; ++c) {
      if (is_nan_bits(row[c], problem.dtype)) result.row_status[r] = 1;
      candidates.push_back(score_of(row[c], static_cast<int32_t>(c), problem.dtype, problem.largest,
                                    problem.nan_policy));
    }
    const auto cut = candidates.begin() +
                     std::min<int64_t>(row_k(problem, r), static_cast<int64_t>(candidates.size()));
    std::nth_element(candidates.begin(), cut, candidates.end(), better);
    candidates.erase(cut, candidates.end());
    if (problem.order == Order::by_index) {
      std::sort(candidates.begin(), candidates.end(),
                [](const Scored& a, const Scored& b) { return a.column < b.column; });
    } else {
      // Unsorted output is compared as a set; best-first keeps the reference deterministic.
      std::sort(candidates.begin(), candidates.end(), better);
    }
    const int64_t offset = problem.index_offset.empty() ? 0 : problem.index_offset[r];
    for (size_t slot = 0; slot < candidates.size(); ++slot) {
      const int64_t index = candidates[slot].column + offset;
      result.raw_indices[r * k + slot] = index;
      result.indices[r * k + slot] =
          problem.page_table.empty() ? index : page_translate(problem, r, index);
      result.values[r * k + slot] = row[candidates[slot].column];
    }
    result.selected[r] = static_cast<int32_t>(candidates.size());
  });
  return result;
}

}  // namespace deepselect::testing
