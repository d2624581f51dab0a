// RunIndex: where each test ran in a scan's runs, in run order, found in one pass.
#include <catch2/catch.hpp>

#include "core/run_index.hpp"
#include "support/recorded_run.hpp"

using namespace flakescan;
using core::Outcome;
using test_support::recorded_run;

TEST_CASE("run index: each execution of a test, in the order of the runs and of their orders", "[core][run_index]") {
  // Run 7 holds the test twice (a NIO run); run 8 was cut short before its second test.
  const std::vector<core::RecordedRun> runs{recorded_run(5, {"p.A#a", "p.T#m"}, {Outcome::pass, Outcome::fail}),
                                            recorded_run(7, {"p.T#m", "p.T#m"}, {Outcome::pass, Outcome::fail}),
                                            recorded_run(8, {"p.A#a", "p.T#m"}, {Outcome::pass})};
  const core::RunIndex index(runs);
  auto places = index.places("p.T#m");
  REQUIRE(places.size() == 4);
  CHECK(places[0].run->id == 5);
  CHECK(places[0].pos == 1);
  CHECK(places[0].outcome() == Outcome::fail);
  CHECK(places[1].run->id == 7);
  CHECK(places[1].pos == 0);
  CHECK(places[1].outcome() == Outcome::pass);
  CHECK(places[2].run->id == 7);
  CHECK(places[2].pos == 1);
  CHECK(places[2].outcome() == Outcome::fail);
  CHECK(places[3].run->id == 8);
  CHECK(places[3].outcome() == Outcome::infra);  // the run ended before it
  CHECK(index.places("p.A#a").size() == 2);
  CHECK(index.places("p.Never#ran").empty());
  REQUIRE(index.by_id(7) != nullptr);
  CHECK(index.by_id(7)->spec.tests.size() == 2);
  CHECK(index.by_id(6) == nullptr);
  CHECK(&index.runs() == &runs);
}
