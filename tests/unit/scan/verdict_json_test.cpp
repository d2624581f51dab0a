// verdict_to_json: the runs a verdict names come from the scan's run index; their order is
// embedded only as evidence (flaky or failing verdicts), up to and including the test.
#include <catch2/catch.hpp>

#include "scan/verdict_json.hpp"
#include "support/recorded_run.hpp"

using namespace flakescan;
using core::Outcome;
using nlohmann::json;

namespace {

core::RecordedRun stored(std::int64_t id, std::vector<std::string> tests, std::vector<Outcome> outcomes) {
  auto r = test_support::recorded_run(id, std::move(tests), std::move(outcomes));
  r.spec.technique = "suite";
  return r;
}

}  // namespace

TEST_CASE("verdict json: a flaky verdict's runs carry the order up to the test, read from the index", "[scan][verdict_json]") {
  const std::vector<core::RecordedRun> runs{
      stored(1, {"p.A#a", "p.T#m", "p.B#b", "p.C#c"}, {Outcome::pass, Outcome::pass, Outcome::pass, Outcome::pass}),
      stored(2, {"p.B#b", "p.A#a", "p.T#m", "p.C#c"}, {Outcome::pass, Outcome::pass, Outcome::fail, Outcome::pass})};
  const core::RunIndex index(runs);
  int reads = 0;
  scan::RunLookup lookup = [&](std::int64_t) -> std::optional<core::RecordedRun> { ++reads; return std::nullopt; };
  core::Verdict v{.test = "p.T#m", .verdict = core::VerdictKind::flaky, .category = core::Category::unknown};
  v.evidence.passing_run = 1;
  v.evidence.failing_run = 2;
  auto j = scan::verdict_to_json(v, lookup, &index);
  CHECK(reads == 0);
  CHECK(j["evidence"]["passing_run"]["order"] == json{"p.A#a", "p.T#m"});
  CHECK(j["evidence"]["failing_run"]["order"] == json{"p.B#b", "p.A#a", "p.T#m"});
  CHECK(j["evidence"]["failing_run"]["outcome"] == "fail");
  CHECK(j["evidence"]["run_strip"] == json::parse(R"([{"run":1,"outcome":"pass","technique":"suite"},
                                                      {"run":2,"outcome":"fail","technique":"suite"}])"));
}

TEST_CASE("verdict json: a not_flaky verdict's passing run has no order; a run outside the index is read from the store",
          "[scan][verdict_json]") {
  const std::vector<core::RecordedRun> runs{stored(1, {"p.A#a", "p.T#m"}, {Outcome::pass, Outcome::pass})};
  const core::RunIndex index(runs);
  int reads = 0;
  scan::RunLookup lookup = [&](std::int64_t id) -> std::optional<core::RecordedRun> {
    ++reads;
    return stored(id, {"p.T#m"}, {Outcome::pass});
  };
  core::Verdict v{.test = "p.T#m", .verdict = core::VerdictKind::not_flaky};
  v.evidence.passing_run = 1;
  auto j = scan::verdict_to_json(v, lookup, &index);
  CHECK(reads == 0);
  CHECK(j["evidence"]["passing_run"]["outcome"] == "pass");
  CHECK_FALSE(j["evidence"]["passing_run"].contains("order"));
  v.evidence.passing_run = 40;  // not a run of this scan's index
  j = scan::verdict_to_json(v, lookup, &index);
  CHECK(reads == 1);
  CHECK(j["evidence"]["passing_run"]["id"] == 40);
  CHECK(j["evidence"]["passing_run"]["outcome"] == "pass");
}

TEST_CASE("verdict json: a NIO run shows the pass with its first execution and the failure with both", "[scan][verdict_json]") {
  const std::vector<core::RecordedRun> runs{stored(3, {"p.T#m", "p.T#m"}, {Outcome::pass, Outcome::fail}),
                                            stored(4, {"p.A#a", "p.T#m"}, {Outcome::pass})};  // ended before the test
  const core::RunIndex index(runs);
  scan::RunLookup lookup = [](std::int64_t) -> std::optional<core::RecordedRun> { return std::nullopt; };
  core::Verdict v{.test = "p.T#m", .verdict = core::VerdictKind::flaky, .category = core::Category::nio};
  v.evidence.passing_run = 3;
  v.evidence.failing_run = 3;
  auto j = scan::verdict_to_json(v, lookup, &index);
  CHECK(j["evidence"]["passing_run"]["order"] == json{"p.T#m"});
  CHECK(j["evidence"]["passing_run"]["outcome"] == "pass");
  CHECK(j["evidence"]["failing_run"]["order"] == json{"p.T#m", "p.T#m"});
  CHECK(j["evidence"]["failing_run"]["outcome"] == "fail");
  // One strip entry per run: the run's failing execution; a run that ended before the test is infra.
  CHECK(j["evidence"]["run_strip"] == json::parse(R"([{"run":3,"outcome":"fail","technique":"suite"},
                                                      {"run":4,"outcome":"infra","technique":"suite"}])"));
}
