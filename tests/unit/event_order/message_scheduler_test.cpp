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
