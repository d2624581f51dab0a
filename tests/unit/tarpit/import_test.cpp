#include <catch2/catch.hpp>

#include <filesystem>

#include "tarpit/abstraction.hpp"
#include "tarpit/load.hpp"
#include "tarpit/tarpit_report.hpp"
#include "tarpit/tar.hpp"

using namespace flakescan::tarpit;
namespace fs = std::filesystem;

namespace {
const fs::path fixtures = fs::path(FLAKESCAN_SOURCE_DIR) / "tests/fixtures/tarpit";
constexpr std::int64_t t0 = 1'700'000'000'000;

bool has_problem(const Trace& t, const std::string& file) {
  for (const auto& p : t.problems)
    if (p.file == file) return true;
  return false;
}

std::vector<std::pair<std::string, std::string>> read_folder(const fs::path& dir, const std::string& prefix) {
  std::vector<std::pair<std::string, std::string>> files;
  DiskTraceFiles disk(dir);
  for (const auto& n : disk.names()) files.emplace_back(prefix + n, *disk.read(n));
  return files;
}
}  // namespace

TEST_CASE("TOLLER folder: screens, sources, and skipped corrupt files", "[tarpit][import]") {
  auto traces = load_trace_dir(fixtures / "toller-small");
  REQUIRE(traces);
  REQUIRE(traces->size() == 1);
  const auto& t = traces->front();
  CHECK(t.format == "toller");
  CHECK(t.name == "toller-small");
  CHECK(t.timeline.size() == 6);  // the jpg-only capture counts for the timeline
  REQUIRE(t.screens.size() == 4);
  CHECK(t.problems.size() == 2);
  CHECK(has_problem(t, "1700000002000.json"));  // truncated JSON
  CHECK(has_problem(t, "1700000003000.jpg"));   // no JSON for this capture

  const auto& first = t.screens[0];
  CHECK(first.time_ms == t0);
  CHECK(first.elements.size() == 5);  // the {} child is not an element
  CHECK(first.source == 2);
  CHECK(first.action == ActionType::click);
  CHECK(t.screens[1].action == ActionType::back);
  CHECK(t.screens[1].source == -1);

  auto d = describe_action(t, t0);
  CHECK(d.activity == "com.example.notes.MainActivity");
  CHECK(d.element_id == "com.example.notes:id/sync");
  CHECK(d.element_class == "androidx.appcompat.widget.AppCompatButton");
  CHECK(d.element_text == "Sync now");
  CHECK(action_sentence(d).find("click on androidx.appcompat.widget.AppCompatButton id=com.example.notes:id/sync") == 0);

  auto a = abstract_screens(t, 0, t.screens.size(), {});
  CHECK(a.uniques.at(0).tokens.size() == 3);  // hidden progress bar and off-screen text pruned
  CHECK(a.drop_reason[2] == DropReason::unknown_activity);
  CHECK(a.drop_reason[3] == DropReason::no_bounds);
}

TEST_CASE("recorded folder: actions.jsonl and UI Automator dumps, corrupt parts skipped", "[tarpit][import]") {
  auto traces = load_trace_dir(fixtures / "recorded-small");
  REQUIRE(traces);
  const auto& t = traces->front();
  CHECK(t.format == "flakescan");
  REQUIRE(t.screens.size() == 3);
  CHECK(t.timeline.size() == 5);
  CHECK(t.problems.size() == 3);
  CHECK(has_problem(t, "actions.jsonl line 3"));
  CHECK(has_problem(t, "screens/missing.xml"));
  CHECK(has_problem(t, "screens/0005.xml"));

  auto click = describe_action(t, t0);
  CHECK(click.element_id == "com.example.notes:id/sync");  // target path [0, 1]
  CHECK(click.element_class == "android.widget.Button");
  CHECK(click.activity == "com.example.notes/.MainActivity");
  auto lc = describe_action(t, t0 + 1000);
  CHECK(lc.type == ActionType::long_click);
  CHECK(lc.element_id == "com.example.notes:id/status");  // resolved from x, y
  CHECK(describe_action(t, t0 + 5000).type == ActionType::back);

  // The synthetic root, the frame, the title, the button; the hidden spinner is pruned.
  auto a = abstract_screens(t, 0, t.screens.size(), {});
  CHECK(a.uniques.at(0).tokens.size() == 4);
  CHECK(a.screen_unique[0] == a.screen_unique[2]);  // the same dump twice
  // Entities are decoded.
  CHECK(t.pool.at(t.screens[0].elements[2].text) == "Notes & lists");
}

TEST_CASE("archive: several trace folders of both formats", "[tarpit][import]") {
  auto files = read_folder(fixtures / "toller-small", "traces/phone-a/");
  for (auto& f : read_folder(fixtures / "recorded-small", "traces/phone-b/")) files.push_back(f);
  files.emplace_back("traces/README.txt", "not a trace");
  auto traces = load_trace_archive(write_tar(files));
  REQUIRE(traces);
  REQUIRE(traces->size() == 2);
  CHECK((*traces)[0].name == "traces/phone-a");
  CHECK((*traces)[0].format == "toller");
  CHECK((*traces)[1].name == "traces/phone-b");
  CHECK((*traces)[1].format == "flakescan");
  CHECK((*traces)[1].screens.size() == 3);
}

TEST_CASE("archive: broken or empty archives are invalid arguments", "[tarpit][import]") {
  auto empty = load_trace_archive(write_tar({{"notes.txt", "hello"}}));
  REQUIRE_FALSE(empty);
  CHECK(empty.error().code == flakescan::util::Errc::invalid_argument);
  auto junk = load_trace_archive("this is not a tar archive");
  REQUIRE_FALSE(junk);
  CHECK(junk.error().code == flakescan::util::Errc::invalid_argument);
}

TEST_CASE("a name in actions.jsonl cannot reach outside the trace folder", "[tarpit][import]") {
  MemoryTraceFiles files;
  std::string actions = "{\"ts\": 1, \"screen\": \"../../etc/passwd\", \"activity\": \"A\"}\n";
  files.add("actions.jsonl", actions);
  auto t = import_recorded(files, "evil");
  REQUIRE(t);
  CHECK(t->screens.empty());
  CHECK(t->problems.size() == 1);
  auto disk = DiskTraceFiles(fixtures / "recorded-small");
  CHECK_FALSE(disk.read("../toller-small/1700000000000.json"));
}

TEST_CASE("bounds strings", "[tarpit][import]") {
  Bounds b;
  REQUIRE(parse_bounds("[0,63][1080,1920]", b));
  CHECK(b == Bounds{0, 63, 1080, 1920});
  REQUIRE(parse_bounds("[-5, 10][ 20,30]", b));
  CHECK(b == Bounds{-5, 10, 20, 30});
  CHECK_FALSE(parse_bounds("[0,0][10]", b));
  CHECK_FALSE(parse_bounds("", b));
  CHECK_FALSE(parse_bounds("[0,0][1,1]x", b));
}

TEST_CASE("a tap's x and y: fractional ones resolve, ones beyond any screen are left without a source", "[tarpit][import]") {
  // Found by the fuzzer (corpus file tar-recorded-tap-beyond-int64): 6e113 was converted to an
  // int64, which is undefined behaviour.
  DiskTraceFiles disk(fixtures / "recorded-small");
  const std::string dump = *disk.read("screens/0002.xml");
  auto with_tap = [&](const std::string& x, const std::string& y) {
    MemoryTraceFiles files;  // holds views: the texts must outlive it
    const std::string actions = "{\"ts\": 1700000001000, \"screen\": \"screens/0002.xml\", \"activity\": "
                                "\"com.example.notes/.SyncActivity\", \"action\": \"long_click\", \"x\": " + x + ", \"y\": " + y + "}\n";
    files.add("actions.jsonl", actions);
    files.add("screens/0002.xml", dump);
    auto t = import_recorded(files, "taps");
    REQUIRE(t);
    REQUIRE(t->screens.size() == 1);
    return t->screens[0].source;
  };
  const auto whole = with_tap("500", "250");
  CHECK(whole >= 0);
  CHECK(with_tap("500.75", "250.5") == whole);
  CHECK(with_tap("6e113", "250") == -1);
  CHECK(with_tap("-1e300", "250") == -1);
  CHECK(with_tap("\"500\"", "250") == -1);
}
