#include "bench_suite.hpp"

#include <algorithm>
#include <array>
#include <sstream>
#include <utility>

#include <fmt/format.h>

namespace deepselect::cli {
namespace {

constexpr std::array<std::pair<Order, const char*>, 3> kOrderNames = {
    {{Order::unsorted, "unsorted"}, {Order::by_value, "by_value"}, {Order::by_index, "by_index"}}};
constexpr std::array<std::pair<Ragged, const char*>, 3> kRaggedNames = {
    {{Ragged::none, "none"}, {Ragged::uniform, "uniform"}, {Ragged::causal, "causal"}}};

template <class Enum, size_t N>
const char* name_of(Enum value, const std::array<std::pair<Enum, const char*>, N>& names) {
  for (const auto& [candidate, name] : names) {
    if (candidate == value) return name;
  }
  return "?";
}

template <class Enum, size_t N>
Enum parse_name(std::string_view text, const std::array<std::pair<Enum, const char*>, N>& names,
                const char* option) {
  std::string choices;
  for (const auto& [value, name] : names) {
    if (text == name) return value;
    choices += choices.empty() ? name : fmt::format(", {}", name);
  }
  throw ArgumentError(option, fmt::format("'{}' is not one of {}", text, choices));
}

BenchShape dsa(std::string name, int64_t rows, int64_t n, std::vector<int> ks,
               DType dtype = DType::f32) {
  BenchShape shape;
  shape.name = std::move(name);
  shape.rows = rows;
  shape.n = n;
  shape.ks = std::move(ks);
  shape.dtype = dtype;
  return shape;
}

BenchShape ragged(BenchShape shape, Ragged kind, int64_t prefix = 0) {
  shape.ragged = kind;
  shape.prefix = prefix;
  return shape;
}

BenchShape sampling(std::string name, int64_t rows, int64_t n, int k,
                    Order order = Order::unsorted) {
  BenchShape shape = dsa(std::move(name), rows, n, {k});
  shape.order = order;
  shape.values = true;
  return shape;
}

}  // namespace

const std::vector<BenchShape>& suite_shapes() {
  static const std::vector<BenchShape> shapes = {
      dsa("dsa-decode-b1", 1, 131072, {2048}),
      dsa("dsa-decode-b8", 8, 65536, {2048}),
      dsa("dsa-decode-b64", 64, 131072, {2048}),
      ragged(dsa("dsa-decode-b256", 256, 32768, {2048}), Ragged::uniform),
      ragged(dsa("dsa-prefill-128k", 1024, 131072, {2048}), Ragged::causal, 131072 - 1024),
      ragged(dsa("dsa-prefill-8k", 4096, 8192, {2048}), Ragged::causal),
      dsa("dsa-bf16-b256", 256, 131072, {512, 1024, 2048}, DType::bf16),
      dsa("dsa-bf16-b6", 6, 131072, {512}, DType::bf16),
      sampling("sample-b1", 1, 129280, 50),
      sampling("sample-b64", 64, 129280, 512, Order::by_value),
      sampling("sample-b256", 256, 151936, 1024),
  };
  return shapes;
}

const char* order_name(Order order) {
  return name_of(order, kOrderNames);
}

Order parse_order(std::string_view text) {
  return parse_name(text, kOrderNames, "--order");
}

const char* ragged_name(Ragged ragged) {
  return name_of(ragged, kRaggedNames);
}

Ragged parse_ragged(std::string_view text) {
  return parse_name(text, kRaggedNames, "--ragged");
}

std::vector<testing::Dist> parse_dists(std::string_view list) {
  std::array<std::pair<testing::Dist, const char*>, testing::kAllDists.size()> names;
  std::transform(testing::kAllDists.begin(), testing::kAllDists.end(), names.begin(),
                 [](testing::Dist dist) { return std::pair(dist, testing::dist_name(dist)); });
  std::vector<testing::Dist> dists;
  std::stringstream items{std::string(list)};
  std::string item;
  while (std::getline(items, item, ',')) dists.push_back(parse_name(item, names, "--dists"));
  if (dists.empty()) throw ArgumentError("--dists", "names no distribution");
  return dists;
}

std::vector<int32_t> row_ends(const BenchShape& shape) {
  if (shape.ragged == Ragged::uniform) return testing::bench_uniform_ends(shape.rows, shape.n);
  std::vector<int32_t> ends;
  if (shape.ragged == Ragged::none) return ends;
  ends.resize(static_cast<size_t>(shape.rows));
  for (int64_t r = 0; r < shape.rows; ++r)
    ends[static_cast<size_t>(r)] = static_cast<int32_t>(std::min(shape.prefix + r + 1, shape.n));
  return ends;
}

int64_t valid_elements(const BenchShape& shape, const std::vector<int32_t>& ends) {
  if (ends.empty()) return shape.rows * shape.n;
  int64_t total = 0;
  for (const int32_t end : ends) total += end;
  return total;
}

}  // namespace deepselect::cli
