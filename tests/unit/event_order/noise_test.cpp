// Technique `noise` (event_order/explore.hpp) against a fake of the tools the scan hands it
// (core/tools.hpp): the load runs for exactly the technique's runs, and a missing load
// generator is said, not worked around.
#include <catch2/catch.hpp>

#include "event_order/explore.hpp"
#include "support/order/fake_suite.hpp"

using namespace flakescan;

namespace {

struct LoadLog {
  int started = 0;
  int runs_when_started = -1;
  int runs_when_ended = -1;
};

class FakeTools final : public core::Tools {
 public:
  FakeTools(LoadLog& log, const test_support::FakeRunLog& runs, bool can_load) : log_(log), runs_(runs), can_load_(can_load) {}
  util::Result<std::shared_ptr<util::CompiledClasses>> compile_java(const std::string&, const std::vector<std::string>&,
                                                                    const std::vector<std::string>&) override {
    return util::fail(util::Errc::unsupported, "no compiler in this test");
  }
  util::Result<std::unique_ptr<core::Load>> start_load(std::chrono::seconds) override {
    if (!can_load_) return util::fail(util::Errc::unsupported, "stress-ng: not installed");
    ++log_.started;
    log_.runs_when_started = runs_.runs();
    return std::unique_ptr<core::Load>(std::make_unique<Load>(log_, runs_));
  }

 private:
  struct Load final : core::Load {
    Load(LoadLog& log, const test_support::FakeRunLog& runs) : log(log), runs(runs) {}
    ~Load() override { log.runs_when_ended = runs.runs(); }
    LoadLog& log;
    const test_support::FakeRunLog& runs;
  };
  LoadLog& log_;
  const test_support::FakeRunLog& runs_;
  bool can_load_;
};

core::TechniqueInput input_of(std::vector<std::string> tests) {
  core::TechniqueInput in;
  in.tests = std::move(tests);
  in.budget.runs_per_test = 4;
  return in;
}

}  // namespace

TEST_CASE("noise: the load covers every run of the technique and ends before its verdicts", "[noise]") {
  test_support::FakeSuite suite;
  suite.nod.insert("p.A#nod");
  test_support::FakeRunLog runs(suite);
  LoadLog load;
  auto in = input_of({"p.A#nod", "p.A#stable"});
  in.tools = std::make_shared<FakeTools>(load, runs, true);
  auto verdicts = event_order::run_noise(in, runs);
  REQUIRE(verdicts);
  CHECK(load.started == 1);
  CHECK(load.runs_when_started == 0);
  CHECK(runs.runs() > 0);
  CHECK(load.runs_when_ended == runs.runs());
  for (const auto& v : *verdicts) {
    CHECK(v.technique == "noise");
    if (v.test == "p.A#nod") CHECK(v.verdict == core::VerdictKind::flaky);
  }
}

TEST_CASE("noise: without a load generator it says so and runs nothing", "[noise]") {
  test_support::FakeRunLog runs(test_support::FakeSuite{});
  LoadLog load;
  auto in = input_of({"p.A#t"});
  in.tools = std::make_shared<FakeTools>(load, runs, false);
  auto refused = event_order::run_noise(in, runs);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == util::Errc::unsupported);
  CHECK_THAT(refused.error().message, Catch::Contains("stress-ng: not installed"));
  in.tools = nullptr;
  auto none = event_order::run_noise(in, runs);
  REQUIRE_FALSE(none);
  CHECK_THAT(none.error().message, Catch::Contains("none was handed to the technique"));
  CHECK(runs.runs() == 0);
}
