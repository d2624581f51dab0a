// The placements of a maxdiff schedule as verdict details carry them: "<key> after <key>"
// per line, read back exactly (replay depends on it), and bad text refused.
#include <catch2/catch.hpp>

#include "event_order/message_scheduler.hpp"

using namespace flakescan;
using event_order::Placement;

TEST_CASE("placements format one per line and parse back", "[event_order][placements]") {
  std::vector<Placement> placements{{"background 9f3a0c1d #0", "background 11aa22bb #0"},
                                    {"testing 01234567 #2", "background 9f3a0c1d #0"}};
  auto text = event_order::format_placements(placements);
  CHECK(text == "background 9f3a0c1d #0 after background 11aa22bb #0\ntesting 01234567 #2 after background 9f3a0c1d #0\n");
  auto back = event_order::parse_placements(text);
  REQUIRE(back);
  CHECK(*back == placements);
  CHECK(event_order::parse_placements("")->empty());
}

TEST_CASE("malformed placements are refused", "[event_order][placements]") {
  for (std::string bad : {"background 9f3a0c1d #0", " after background 1 #0", "background 1 #0 after "}) {
    INFO(bad);
    auto r = event_order::parse_placements(bad);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == util::Errc::invalid_argument);
  }
}

// What a held poster waits for (event_order::HandledMessages): a main-thread anchor is handled
// only once the main thread asked its queue for the next message, not when its dispatch
// began; an idle check that looks at the queue while it runs must not see the held message.
namespace {
const std::string check = "testing 0c0c0c0c #0";     // the anchor: an idle check on main
const std::string forecast = "background 9f3a0c1d #0";
const std::vector<Placement> forecast_after_check{{forecast, check}};
}  // namespace

TEST_CASE("a message placed after a main-thread anchor waits until main asks for its next message",
          "[event_order][hold]") {
  event_order::HandledMessages progress;
  CHECK(progress.waiting_for(forecast_after_check, forecast) == std::vector<std::string>{check});
  progress.dispatch_began(check, /*on_main=*/true);
  CHECK(progress.dispatched(check));
  CHECK_FALSE(progress.handled(check));
  CHECK(progress.waiting_for(forecast_after_check, forecast) == std::vector<std::string>{check});
  progress.main_asked_next();
  CHECK(progress.handled(check));
  CHECK(progress.waiting_for(forecast_after_check, forecast).empty());
  // A message with no placement never waits.
  CHECK(progress.waiting_for(forecast_after_check, "background 11aa22bb #0").empty());
}

TEST_CASE("a main-thread dispatch ends the one before it even without a next() stop", "[event_order][hold]") {
  event_order::HandledMessages progress;
  progress.dispatch_began(check, true);
  progress.dispatch_began("testing 0c0c0c0c #1", true);
  CHECK(progress.handled(check));
  CHECK_FALSE(progress.handled("testing 0c0c0c0c #1"));
  // A message that was not recorded (sent before the test) ends it as well, and is nothing itself.
  progress.dispatch_began("", true);
  CHECK(progress.handled("testing 0c0c0c0c #1"));
  progress.main_asked_next();
  CHECK_FALSE(progress.handled(""));
}

TEST_CASE("next() before any dispatch, or twice, hands nothing over", "[event_order][hold]") {
  event_order::HandledMessages progress;
  progress.main_asked_next();
  CHECK(progress.waiting_for(forecast_after_check, forecast) == std::vector<std::string>{check});
  progress.dispatch_began(check, true);
  progress.main_asked_next();
  progress.main_asked_next();
  CHECK(progress.handled(check));
  CHECK(progress.waiting_for(forecast_after_check, forecast).empty());
}

TEST_CASE("another looper's message counts as handled when its dispatch begins", "[event_order][hold]") {
  event_order::HandledMessages progress;
  progress.dispatch_began(check, /*on_main=*/false);
  CHECK(progress.handled(check));
  CHECK(progress.waiting_for(forecast_after_check, forecast).empty());
}

TEST_CASE("without next() stops a main-thread anchor counts as handled when its dispatch begins",
          "[event_order][hold]") {
  event_order::HandledMessages progress(/*main_next_known=*/false);
  progress.dispatch_began(check, true);
  CHECK(progress.handled(check));
  CHECK(progress.waiting_for(forecast_after_check, forecast).empty());
}

TEST_CASE("a message the main thread posts waits only for anchors not yet dispatched", "[event_order][hold]") {
  // Main is never held; what it posts while it handles the anchor comes after the anchor anyway.
  event_order::HandledMessages progress;
  const std::vector<Placement> placements{{"main 44556677 #0", check}, {"main 44556677 #0", forecast}};
  progress.dispatch_began(check, true);
  CHECK(progress.not_dispatched(placements, "main 44556677 #0") == std::vector<std::string>{forecast});
  CHECK(progress.waiting_for(placements, "main 44556677 #0") == (std::vector<std::string>{check, forecast}));
  progress.main_asked_next();
  progress.dispatch_began(forecast, true);
  CHECK(progress.not_dispatched(placements, "main 44556677 #0").empty());
}
