// Schedule space and ordering against the recorded traces of the android-style examples
// (tests/fixtures/event_order) and the outcomes measured per position by the looper fixture's
// probe (examples/android-style/expectations.json): walking positions top down with
// next_position must end at the racing statement for every flaky example and find nothing
// for the twins.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "event_order/schedule_space.hpp"

using namespace flakescan;
using event_order::PositionOutcome;
namespace fs = std::filesystem;

namespace {

looper_trace::StatementTrace load_trace(const std::string& test) {
  std::string file = test.substr(test.rfind('.') + 1);
  file[file.find('#')] = '.';
  std::ifstream in(fs::path(FLAKESCAN_SOURCE_DIR) / "tests/fixtures/event_order" / (file + ".trace"));
  std::stringstream s;
  s << in.rdbuf();
  auto t = looper_trace::parse_trace(s.str());
  REQUIRE(t);
  return *t;
}

int position_of(const nlohmann::json& j) { return j.is_string() ? event_order::end_of_test : int(j); }

bool contains(const nlohmann::json& list, int position) {
  for (const auto& j : list)
    if (position_of(j) == position) return true;
  return false;
}

}  // namespace

TEST_CASE("the ordering logic finds each example's racing statement from measured outcomes", "[unit][explore]") {
  std::ifstream in(fs::path(FLAKESCAN_SOURCE_DIR) / "examples/android-style/expectations.json");
  auto expectations = nlohmann::json::parse(in);
  for (const auto& t : expectations["tests"]) {
    const std::string id = t["id"];
    INFO(id);
    // Multi-message examples (#14): holding one event at a time never fails them, and they
    // have no recorded trace; the multi-message strategy's own tests cover them.
    if (t.contains("needs")) continue;
    auto trace = load_trace(id);
    auto async = trace.async_events();
    REQUIRE_FALSE(async.empty());
    std::optional<int> upper;
    if (!t["upper_bound_line"].is_null()) upper = int(t["upper_bound_line"]);
    auto space = event_order::schedule_space(trace, async[0], upper);
    CHECK(space.lower_line == int(t["work_starts_line"]));
    REQUIRE_FALSE(space.positions.empty());
    for (size_t i = 1; i < space.positions.size(); ++i) {
      if (space.positions[i - 1] != event_order::end_of_test)
        CHECK(space.positions[i] < space.positions[i - 1]);  // top down, positions after the lower bound
      CHECK(space.positions[i] > space.lower_line);
    }
    CHECK((space.positions.front() == event_order::end_of_test) == !upper);

    std::vector<PositionOutcome> outcomes(space.positions.size(), PositionOutcome::untried);
    int tried = 0;
    while (auto next = event_order::next_position(outcomes)) {
      int p = space.positions[*next];
      bool fails = t.contains("fails_when_delayed_to") && contains(t["fails_when_delayed_to"], p);
      outcomes[*next] = fails ? PositionOutcome::fail : PositionOutcome::pass;
      ++tried;
    }
    auto race = event_order::racing_statement(trace, space, outcomes);
    if (t["flaky"]) {
      REQUIRE(race);
      CHECK(race->racing_line == int(t["racing_line"]));
      CHECK(contains(t["fails_when_delayed_to"], space.positions[race->failing]));
    } else {
      CHECK_FALSE(race);
      CHECK(tried == int(space.positions.size()));  // every position tried before saying no
    }
  }
}

TEST_CASE("next_position keeps going past a pass and skips unrealised positions", "[unit][explore]") {
  using P = PositionOutcome;
  // end, 46, 45, 44, 43 (keyboardHiddenAfterSubmit): the failure needs the event between two statements.
  std::vector<P> o{P::pass, P::pass, P::untried, P::untried, P::untried};
  CHECK(event_order::next_position(o) == 2u);
  o[2] = P::fail;
  CHECK(event_order::next_position(o) == 3u);
  o[3] = P::unrealised;
  CHECK(event_order::next_position(o) == 4u);
  o[4] = P::pass;
  CHECK_FALSE(event_order::next_position(o));
  // A failure at the lowest realised position decides too.
  std::vector<P> low{P::pass, P::fail, P::unrealised};
  CHECK_FALSE(event_order::next_position(low));
  // Failures all the way down still look for a passing lower position.
  std::vector<P> down{P::fail, P::fail, P::untried};
  CHECK(event_order::next_position(down) == 2u);
}

TEST_CASE("racing statement with no realised position below the failure is the statement after the lower bound",
          "[unit][explore]") {
  auto trace = load_trace("demo.android.DataRaceTest#nicknameEditSurvivesSync");
  auto space = event_order::schedule_space(trace, trace.async_events()[0], std::nullopt);
  REQUIRE(space.positions == std::vector<int>{event_order::end_of_test, 33, 32});
  std::vector<PositionOutcome> o{PositionOutcome::pass, PositionOutcome::pass, PositionOutcome::fail};
  auto race = event_order::racing_statement(trace, space, o);
  REQUIRE(race);
  CHECK(race->failing == 2u);
  CHECK(race->racing_line == 31);  // the unanchored write
}
