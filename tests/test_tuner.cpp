// Tuning's choice rule on the host, and a small tuning run on the GPU.
#include <doctest/doctest.h>

#include <cmath>
#include <set>
#include <string>

#include "data_gen.hpp"
#include "device_buffer.hpp"
#include "plan.hpp"
#include "test_support.hpp"
#include "topk_internal.hpp"
#include "tuner.hpp"

namespace deepselect {
namespace {

TEST_CASE("tune: a candidate's score is the geometric mean of its times") {
  CHECK(geometric_mean(DistTimes{1.0, 4.0, 16.0}) == doctest::Approx(4.0));
  CHECK(geometric_mean(DistTimes{7.5, 7.5, 7.5}) == doctest::Approx(7.5));
  CHECK(geometric_mean(DistTimes{2.0, 8.0, 1.0}) == doctest::Approx(std::cbrt(16.0)));
}

TEST_CASE("tune: a candidate beats the default only when faster overall and nowhere slower") {
  const DistTimes base{100.0, 120.0, 150.0};
  CHECK(beats({90.0, 108.0, 135.0}, base));  // 10% faster everywhere
  CHECK(beats({80.0, 120.0, 150.0}, base));  // faster on one, equal elsewhere: score -7%
  CHECK(beats({80.0, 110.0, 152.0}, base));  // within the margin where it is slower
  // The score must drop by more than the margin.
  CHECK_FALSE(beats({98.0, 118.0, 147.0}, base));
  CHECK_FALSE(beats(base, base));
  // A loss beyond the margin on any distribution vetoes, however much the others gain (the
  // normal-data winners that ran 30% slower on ascending rows).
  CHECK_FALSE(beats({60.0, 70.0, 195.0}, base));
  CHECK_FALSE(beats({60.0, 124.0 * 1.01, 100.0}, base));
  CHECK_FALSE(beats({104.0, 80.0, 100.0}, base));
}

TEST_CASE("tune: it times the suite's distributions, under the suite's names") {
  std::set<std::string> names;
  for (TuneDist dist : kTuneDists) names.insert(tune_dist_name(dist));
  CHECK(names == std::set<std::string>{testing::dist_name(testing::Dist::normal),
                                       testing::dist_name(testing::Dist::relu_ties),
                                       testing::dist_name(testing::Dist::ascending)});
}

TEST_CASE("gpu: tune times every distribution and keeps only a choice that beats the default") {
  DS_REQUIRE_GPU();
  testing::PrimaryContext context;
  const TuneShape shape{"tune test", DType::f32, 132, 131072, 2048};
  TuneOptions options;
  options.budget_s = 30.0;
  options.replays = 5;
  TuningTable table(DeviceFingerprint::of_device(0));
  const std::vector<TuneResult> results = tune({shape}, options, table);
  REQUIRE(results.size() == 1);
  const TuneResult& result = results[0];
  CHECK(result.candidates >= 2);
  for (size_t d = 0; d < kTuneDists.size(); ++d) {
    CAPTURE(tune_dist_name(kTuneDists[d]));
    CHECK(result.default_us[d] > 0.0);
    CHECK(result.chosen_us[d] > 0.0);
  }
  if (result.chosen_spec == result.default_spec) {
    CHECK(result.chosen_us == result.default_us);
  } else {
    CHECK(beats(result.chosen_us, result.default_us));
  }
  const TunedChoice* stored = table.find(result.bucket);
  REQUIRE(stored != nullptr);
  CHECK(stored->tuned == LaunchShape::of(result.chosen_spec));
  CHECK(stored->planned == LaunchShape::of(result.default_spec));
  DeviceInfo untuned = device_info(nullptr);
  untuned.tuning = nullptr;
  CHECK(result.default_spec == plan_spec(shape.dtype, shape.k, shape.rows, shape.n, untuned));
  CHECK(stored->tuned_us == doctest::Approx(geometric_mean(result.chosen_us)));
  CHECK(stored->default_us == doctest::Approx(geometric_mean(result.default_us)));
}

}  // namespace
}  // namespace deepselect
