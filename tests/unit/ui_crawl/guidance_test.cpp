// From a trace with a planted tarpit to the screens a guided run restarts at.
#include <catch2/catch.hpp>

#include "ui_crawl/guidance.hpp"
#include "support/tarpit/trace_builder.hpp"

using namespace flakescan;
namespace tt = tarpit::testing;

TEST_CASE("a local tarpit's most frequent screen becomes a restart_at screen", "[exploration][guidance]") {
  tarpit::Trace trace;
  trace.name = "monkey";
  trace.format = "flakescan";
  std::int64_t t = 1'700'000'000'000;
  // Five minutes of healthy exploration: a new screen every 2 s.
  for (int i = 0; i < 150; ++i, t += 2000)
    tt::add_screen(trace, t, "com.example.app.Screen" + std::to_string(i), "Frame:root(Button:go" + std::to_string(i) + ")");
  // Then twenty minutes stuck in one settings screen (with a hidden, id-less decoration).
  for (int i = 0; i < 600; ++i, t += 2000)
    tt::add_screen(trace, t, "com.example.app.SettingsActivity", "Frame:root(List:advanced(Text) Button:advanced !Text)");
  auto analysis = tarpit::analyze(trace, tarpit::Options::standard());
  REQUIRE(analysis.usable);
  auto screens = ui_crawl::restart_screens(trace, analysis);
  REQUIRE(screens.size() == 1);
  CHECK(screens[0].activity == "com.example.app.SettingsActivity");
  // Distinct ids in pre-order; "-1" (no id) left out.
  CHECK(screens[0].resource_ids == std::vector<std::string>{"root", "advanced"});
}

TEST_CASE("a healthy trace gives no restart screens", "[exploration][guidance]") {
  tarpit::Trace trace;
  std::int64_t t = 1'700'000'000'000;
  for (int i = 0; i < 300; ++i, t += 2000)
    tt::add_screen(trace, t, "com.example.app.Screen" + std::to_string(i % 150), "Frame:root(Button:go" + std::to_string(i % 150) + ")");
  auto analysis = tarpit::analyze(trace, tarpit::Options::standard());
  CHECK(ui_crawl::restart_screens(trace, analysis).empty());
}

TEST_CASE("a tarpit on the launch screen gives no restart screen (a guided run would restart forever)", "[exploration][guidance]") {
  tarpit::Trace trace;
  std::int64_t t = 1'700'000'000'000;
  // Twenty minutes on the main screen, then five minutes of exploring.
  for (int i = 0; i < 600; ++i, t += 2000) tt::add_screen(trace, t, "com.example.app.MainActivity", "Frame:root(Button:go)");
  for (int i = 0; i < 150; ++i, t += 2000)
    tt::add_screen(trace, t, "com.example.app.Screen" + std::to_string(i), "Frame:root(Button:go" + std::to_string(i) + ")");
  auto analysis = tarpit::analyze(trace, tarpit::Options::standard());
  bool restart_guidance = std::any_of(analysis.guidance.begin(), analysis.guidance.end(), [](const auto& g) { return g.restart; });
  CHECK(restart_guidance);  // the analysis says restart at the main screen ...
  CHECK(ui_crawl::restart_screens(trace, analysis).empty());  // ... which the launch itself shows
}
