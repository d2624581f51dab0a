// Recorded traces of the android-style examples (tests/fixtures/event_order, written by
// bench/explore's driver from real debugged runs): parsing, round trip, anchors.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "looper_trace/statement_trace.hpp"

using namespace flakescan;
namespace fs = std::filesystem;

namespace {
std::string read(const std::string& name) {
  std::ifstream in(fs::path(FLAKESCAN_SOURCE_DIR) / "tests/fixtures/event_order" / name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace

TEST_CASE("every recorded trace parses and round-trips", "[unit][trace]") {
  int n = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(FLAKESCAN_SOURCE_DIR) / "tests/fixtures/event_order")) {
    if (entry.path().extension() != ".trace") continue;
    ++n;
    auto text = read(entry.path().filename().string());
    auto t = looper_trace::parse_trace(text);
    INFO(entry.path().filename().string());
    REQUIRE(t);
    CHECK(looper_trace::format_trace(*t) == text);
    CHECK_FALSE(t->lines.empty());
    CHECK(t->async_events().size() >= 1);  // every example posts from a background thread
  }
  CHECK(n == 12);
}

TEST_CASE("anchors are the first non-async event of a statement", "[unit][trace]") {
  auto t = looper_trace::parse_trace(read("LifecycleTest.playAfterLaunch.trace"));
  REQUIRE(t);
  // system.launch (line 70) only makes binder:system post: two async events, no anchor.
  REQUIRE(t->async_events().size() == 2);
  CHECK(t->events[0].thread_name == "binder:system");
  CHECK(t->events[1].identity.occurrence == 1);
  CHECK_FALSE(t->anchor(70));
  CHECK(t->anchored_lines() == std::vector<int>{71, 72, 73});
}

TEST_CASE("malformed traces are refused with the line", "[unit][trace]") {
  CHECK_FALSE(looper_trace::parse_trace("lines\t1 2\n"));  // no test
  auto bad = looper_trace::parse_trace("test\ta.B#c\nevent\tx\tmain\t0\tt\tf\n");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().message.find("line 2") != std::string::npos);
  CHECK_FALSE(looper_trace::parse_trace("test\ta.B#c\nevent\t3\tboss\t0\tt\tf\n"));
}
