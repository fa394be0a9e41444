// The shapes `deepselect bench` times: the suite of docs/workloads.md, or one custom shape.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <deepselect/deepselect.hpp>

#include "data_gen.hpp"

namespace deepselect::cli {

// How long the rows are: all n, uniform in 1..n (a decode batch of requests), or causal
// (row i holds prefix + i + 1 elements, a prefill chunk).
enum class Ragged { none, uniform, causal };

struct BenchShape {
  std::string name;
  int64_t rows = 1;
  int64_t n = 1;  // the row stride too: rows are padded to n, garbage past their end
  std::vector<int> ks;
  DType dtype = DType::f32;
  Order order = Order::unsorted;
  Ragged ragged = Ragged::none;
  int64_t prefix = 0;   // causal: row i is valid on [0, prefix + i + 1)
  bool values = false;  // the timed calls write values too (sampling wants them)
};

const std::vector<BenchShape>& suite_shapes();

const char* order_name(Order order);
Order parse_order(std::string_view text);
const char* ragged_name(Ragged ragged);
Ragged parse_ragged(std::string_view text);
// A comma-separated list of distribution names (data_gen.hpp).
std::vector<testing::Dist> parse_dists(std::string_view list);

// Every row's end (empty when the rows are full); the same for every buffer of the shape.
std::vector<int32_t> row_ends(const BenchShape& shape);
// Elements inside the rows' valid ranges.
int64_t valid_elements(const BenchShape& shape, const std::vector<int32_t>& ends);

}  // namespace deepselect::cli
