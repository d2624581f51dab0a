// VET-compatible mode against regions worked out by hand from docs/tarpits.md's rules (and VET's
// scripts) on small traces: one screen per minute, every screen 3 nodes, so different
// screens are never similar (equal node counts) and groups are screens.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "support/tarpit/generator.hpp"
#include "support/tarpit/trace_builder.hpp"
#include "tarpit/analysis.hpp"

using namespace flakescan::tarpit;

namespace {

constexpr std::int64_t base = 1'700'000'000'000;
using testing::minute;

// A trace from screen names, one per minute from minute 0.
Trace minutes(const std::vector<std::string>& names) {
  Trace t;
  t.name = "hand";
  for (std::size_t m = 0; m < names.size(); ++m) {
    auto tree = "Frame(Button:" + names[m] + "_button Text:title)";
    auto i = testing::add_screen(t, base + std::int64_t(m) * minute, "com.example.Main", tree);
    t.screens[i].source = 1;  // the button
  }
  return t;
}

struct Expected {
  RegionKind kind;
  std::int64_t action, begin, end;  // minutes
};

void check_regions(const TraceAnalysis& a, const std::vector<Expected>& expected) {
  REQUIRE(a.regions.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO("region " << i);
    CHECK(a.regions[i].kind == expected[i].kind);
    CHECK(a.regions[i].ts_action == base + expected[i].action * minute);
    CHECK(a.regions[i].ts_begin == base + expected[i].begin * minute);
    CHECK(a.regions[i].ts_end == base + expected[i].end * minute);
  }
}

std::vector<std::string> seq(const std::string& prefix, int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back(prefix + std::to_string(i));
  return out;
}

}  // namespace

TEST_CASE("VET mode: a two-screen loop between new screens", "[tarpit][vet]") {
  // Minutes 0-19 S0..S19, 20-44 T1 T2 T1 ..., 45-59 U0..U14.
  auto names = seq("S", 20);
  for (int m = 20; m <= 44; ++m) names.push_back(m % 2 == 0 ? "T1" : "T2");
  for (auto& u : seq("U", 15)) names.push_back(u);
  auto t = minutes(names);
  auto a = analyze(t, Options::vet_compatible());
  REQUIRE(a.usable);
  CHECK(a.padded == 0);  // ends at 59:00, nothing to pad
  // Local: [20,44] scores 2/25, the minimum; reported as (ts[19], ts[20], ts[44]). The parts
  // before and after are all-new screens: best score 1 at a single screen, under 10 min: dropped.
  // Partition: U_end = {U4..U14} (t >= 49 min); at the last split (t = 49) distinct(after) = 10,
  // c3 = 2*sigmoid(10/11 - 1) - 1 < 0, the minimum; 27 screens before > 10 after: reported.
  // Ranking by length: local (24 min) before partition (10 min).
  check_regions(a, {{RegionKind::local, 19, 20, 44}, {RegionKind::partition, 49, 49, 59}});
  REQUIRE(a.guidance.size() == 2);
  // Restart at the first occurrence of the most frequent screen of the loop: T1 at minute 20.
  CHECK(a.guidance[0].restart);
  CHECK(a.guidance[0].restart_ts == base + 20 * minute);
  CHECK_FALSE(a.guidance[1].restart);  // partition regions only disable
}

TEST_CASE("VET mode: a partition into a small new area, and the per-action weakness", "[tarpit][vet]") {
  // Minutes 0-29 cycle S0..S9, minutes 30-59 cycle P0 P1 P2.
  std::vector<std::string> names;
  for (int m = 0; m < 30; ++m) names.push_back("S" + std::to_string(m % 10));
  for (int m = 30; m < 60; ++m) names.push_back("P" + std::to_string(m % 3));
  auto t = minutes(names);
  auto a = analyze(t, Options::vet_compatible());
  REQUIRE(a.usable);
  // Partition: at split 29 (last S) c2 = 0 and distinct(after) = |U_end| = 3, score 0.
  // Local: [30,59] scores 3/30; then the sub-trace [0,29] scores 10/30 over 29 minutes and is
  // reported too, with ts_action = ts[l] because l is its first screen: VET reports healthy
  // exploration when it spans t_min (the weakness the standard mode fixes).
  // Ranking: partition (30 min); then the two 29-min regions by begin.
  check_regions(a, {{RegionKind::partition, 29, 29, 59}, {RegionKind::local, 0, 0, 29}, {RegionKind::local, 29, 30, 59}});
  REQUIRE(a.guidance.size() == 3);
  CHECK(a.guidance[1].restart_ts == base);  // S0 first, all S tie at 3 visits
  CHECK(a.guidance[2].restart_ts == base + 30 * minute);  // P0
  // VET's output form: the screen whose action to disable, and "!" the restart screen.
  CHECK(a.guidance[0].disable_ts == base + 29 * minute);
}

TEST_CASE("VET mode: a short trace is padded with its last screen; no restart on padding", "[tarpit][vet]") {
  // Minutes 0-30, all new screens; padding at the average interval (1 min) up to 59:10.
  auto t = minutes(seq("X", 31));
  auto a = analyze(t, Options::vet_compatible());
  REQUIRE(a.usable);
  CHECK(a.padded == 29);  // minutes 31..59
  // Local: X30 + 29 padded copies, 1/30. Partition: split 29, score 0.
  check_regions(a, {{RegionKind::partition, 29, 29, 59}, {RegionKind::local, 29, 30, 59}});
  REQUIRE(a.guidance.size() == 2);
  // The most frequent screen of the local region is the padding screen and the region runs
  // to the end: VET takes the app or tool for dead and does not restart there.
  CHECK_FALSE(a.guidance[1].restart);
}

TEST_CASE("VET mode: screens after 59 min 10 s are cut", "[tarpit][vet]") {
  auto names = seq("S", 20);
  for (int m = 20; m <= 59; ++m) names.push_back(m % 2 == 0 ? "T1" : "T2");
  auto t = minutes(names);
  testing::add_screen(t, base + 59 * minute + 10'000, "com.example.Main", "Frame(Button:late1 Text:title)");
  testing::add_screen(t, base + 59 * minute + 10'001, "com.example.Main", "Frame(Button:late2 Text:title)");
  auto vet = analyze(t, Options::vet_compatible());
  CHECK(vet.screens_read == 61);  // 59:10.000 is kept, 59:10.001 is not
  CHECK(vet.last_ms == base + 59 * minute + 10'000);
  auto standard = analyze(t, Options::standard());
  CHECK(standard.screens_read == 62);
}

TEST_CASE("standard mode on the same hand traces", "[tarpit][vet]") {
  auto names = seq("S", 20);
  for (int m = 20; m <= 44; ++m) names.push_back(m % 2 == 0 ? "T1" : "T2");
  for (auto& u : seq("U", 15)) names.push_back(u);
  auto a = analyze(minutes(names), Options::standard());
  // The loop: 2 groups over 24 minutes = 0.083/min <= 0.5: the same local region.
  // The partition detector is VET's in both modes.
  check_regions(a, {{RegionKind::local, 19, 20, 44}, {RegionKind::partition, 49, 49, 59}});
  auto short_trace = analyze(minutes(seq("X", 31)), Options::standard());
  CHECK(short_trace.padded == 0);
  // No padding: 31 new screens, nothing local; the partition quirk still fires at the last split.
  for (const auto& r : short_trace.regions) CHECK(r.kind == RegionKind::partition);
}
