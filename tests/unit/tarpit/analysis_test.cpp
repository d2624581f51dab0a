// The analysis on generated traces: planted tarpits of both kinds are found with their
// destructive actions, healthy traces give none in the standard mode, and recorder gaps
// do not look like tarpits.
#include <catch2/catch.hpp>

#include "support/tarpit/generator.hpp"
#include "tarpit/analysis.hpp"
#include "tarpit/tarpit_report.hpp"

using namespace flakescan::tarpit;
using testing::GeneratorConfig;
using testing::Phase;

namespace {

using testing::minute;

GeneratorConfig config(std::vector<Phase> phases, std::uint64_t seed) {
  GeneratorConfig c;
  c.seed = seed;
  c.activities = 6;
  c.templates_per_activity = 15;
  c.phases = std::move(phases);
  return c;
}

const Region* find_kind(const TraceAnalysis& a, RegionKind kind) {
  for (const auto& r : a.regions)
    if (r.kind == kind) return &r;
  return nullptr;
}

}  // namespace

TEST_CASE("a planted local tarpit is found with its destructive action", "[tarpit][analysis]") {
  auto g = testing::generate_trace(config({{Phase::explore, 20 * minute}, {Phase::local, 20 * minute, 2},
                                           {Phase::explore, 20 * minute}}, 11));
  REQUIRE(g.planted.size() == 1);
  const auto& planted = g.planted[0];
  for (auto mode : {Mode::standard, Mode::vet_compatible}) {
    INFO("mode " << mode_name(mode));
    auto a = analyze(g.trace, Options::for_mode(mode));
    REQUIRE(a.usable);
    // VET may also report healthy stretches (its per-action weakness), so look the planted
    // region up by its start; the standard mode must rank it first.
    const Region* local = nullptr;
    std::size_t index = 0;
    for (std::size_t i = 0; i < a.regions.size(); ++i)
      if (a.regions[i].kind == RegionKind::local && a.regions[i].ts_begin == planted.begin_ms) {
        local = &a.regions[i];
        index = i;
      }
    REQUIRE(local != nullptr);
    if (mode == Mode::standard) CHECK(local->rank == 1);
    CHECK(local->ts_end == planted.end_ms);
    CHECK(local->ts_action == planted.action_ms);
    auto d = describe_action(g.trace, local->ts_action);
    CHECK(d.element_id == planted.element_id);
    CHECK(d.type == ActionType::click);
    CHECK(d.activity.starts_with("com.example.app.Activity"));
    const Guidance* guide = nullptr;
    for (const auto& gd : a.guidance)
      if (gd.region == index) guide = &gd;
    REQUIRE(guide != nullptr);
    CHECK(guide->disable_ts == planted.action_ms);
    CHECK(guide->restart);
    CHECK(guide->restart_ts >= planted.begin_ms);
    CHECK(guide->restart_ts <= planted.end_ms);
  }
}

TEST_CASE("a planted exploration-space partition is found at its entry action", "[tarpit][analysis]") {
  auto g = testing::generate_trace(config({{Phase::explore, 25 * minute}, {Phase::partition, 35 * minute, 4}}, 12));
  REQUIRE(g.planted.size() == 1);
  const auto& planted = g.planted[0];
  for (auto mode : {Mode::standard, Mode::vet_compatible}) {
    INFO("mode " << mode_name(mode));
    auto a = analyze(g.trace, Options::for_mode(mode));
    const Region* part = find_kind(a, RegionKind::partition);
    REQUIRE(part != nullptr);
    CHECK(part->ts_action == planted.action_ms);
    CHECK(part->ts_begin == planted.action_ms);
    CHECK(part->ts_end == a.last_ms);
    CHECK(describe_action(g.trace, part->ts_action).element_id == planted.element_id);
    // The area is also a local tarpit: a few screens for 35 minutes.
    const Region* local = find_kind(a, RegionKind::local);
    REQUIRE(local != nullptr);
    CHECK(local->ts_begin == planted.begin_ms);
  }
}

TEST_CASE("a healthy trace: no tarpit in the standard mode, VET reports one anyway", "[tarpit][analysis]") {
  auto g = testing::generate_trace(config({{Phase::explore, 60 * minute}}, 13));
  auto standard = analyze(g.trace, Options::standard());
  REQUIRE(standard.usable);
  CHECK(standard.regions.empty());
  auto vet = analyze(g.trace, Options::vet_compatible());
  // VET's per-action score always has a minimum; over a long healthy trace it spans far more
  // than t_min, so VET reports it (the weakness docs/tarpits.md notes).
  REQUIRE_FALSE(vet.regions.empty());
  CHECK(find_kind(vet, RegionKind::local) != nullptr);
}

TEST_CASE("a recorder gap is not a tarpit in the standard mode", "[tarpit][analysis]") {
  auto c = config({{Phase::explore, 60 * minute}}, 14);
  c.gaps = {{20 * minute, 15 * minute}};
  auto g = testing::generate_trace(c);
  auto a = analyze(g.trace, Options::standard());
  REQUIRE(a.usable);
  CHECK(a.regions.empty());
  // Without the gap cap the two screens around the gap span 15 minutes with 2 groups.
  auto uncapped = Options::standard();
  uncapped.gap_cap_ms = 0;
  auto b = analyze(g.trace, uncapped);
  CHECK_FALSE(b.regions.empty());
}

TEST_CASE("two planted tarpits: both found, ranked by length", "[tarpit][analysis]") {
  auto g = testing::generate_trace(config({{Phase::explore, 10 * minute}, {Phase::local, 12 * minute, 1},
                                           {Phase::explore, 10 * minute}, {Phase::local, 18 * minute, 3},
                                           {Phase::explore, 10 * minute}}, 15));
  REQUIRE(g.planted.size() == 2);
  auto a = analyze(g.trace, Options::standard());
  std::vector<const Region*> locals;
  for (const auto& r : a.regions)
    if (r.kind == RegionKind::local) locals.push_back(&r);
  REQUIRE(locals.size() == 2);
  CHECK(locals[0]->ts_begin == g.planted[1].begin_ms);  // 18 minutes, ranked first
  CHECK(locals[1]->ts_begin == g.planted[0].begin_ms);
  CHECK(locals[0]->rank < locals[1]->rank);
  CHECK(describe_action(g.trace, locals[1]->ts_action).element_id == g.planted[0].element_id);
}
