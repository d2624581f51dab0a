#include <catch2/catch.hpp>

#include "support/tarpit/trace_builder.hpp"
#include "tarpit/abstraction.hpp"
#include "tarpit/md5.hpp"

using namespace flakescan::tarpit;
using testing::add_screen;
using testing::parse_tree;

TEST_CASE("md5 matches RFC 1321's test vectors", "[tarpit][abstraction]") {
  CHECK(md5_hex("") == "d41d8cd98f00b204e9800998ecf8427e");
  CHECK(md5_hex("abc") == "900150983cd24fb0d6963f7d28e17f72");
  CHECK(md5_hex("message digest") == "f96b697d7cb7938d525a2f31aaf161d0");
  CHECK(md5_hex("12345678901234567890123456789012345678901234567890123456789012345678901234567890") ==
        "57edf4a22be3c955ac49da2e2107b67a");
}

TEST_CASE("abstraction keeps visible in-bounds elements with id and class only", "[tarpit][abstraction]") {
  Trace t;
  auto root = parse_tree("Frame(Button:ok Text:title !Spinner:busy(Text:inner) Text:off)");
  root.children[1].text = "Hello";
  root.children[3].bounds = {0, 1920, 1080, 2000};  // starts at the root's bottom edge: outside
  add_screen(t, 1000, "Main", root);
  auto other = parse_tree("Frame(Button:ok Text:title)");
  other.children[1].text = "A different text";
  add_screen(t, 2000, "Main", other);
  add_screen(t, 3000, "Second", "Frame(Button:ok Text:title)");

  auto a = abstract_screens(t, 0, t.screens.size(), {});
  REQUIRE(a.dropped == 0);
  CHECK(a.uniques.size() == 2);  // the first two are one abstract screen; activity splits the third
  CHECK(a.screen_unique[0] == a.screen_unique[1]);
  CHECK(a.screen_unique[2] != a.screen_unique[0]);
  CHECK(a.uniques[0].tokens.size() == 3);
  // VET's key: md5 of act_id + "[" id class ... "]" with "-1" for a missing id.
  CHECK(a.uniques[0].key == md5_hex("Main[-1Frame[okButton][titleText]]"));
}

TEST_CASE("a root of zero size disables the bounds check", "[tarpit][abstraction]") {
  Trace t;
  auto root = parse_tree("Frame(Button:ok Text:far)");
  root.bounds = {0, 0, 0, 0};
  root.children[1].bounds = {5000, 5000, 5100, 5100};
  add_screen(t, 1000, "Main", root);
  auto a = abstract_screens(t, 0, 1, {});
  CHECK(a.uniques.at(0).tokens.size() == 3);
}

TEST_CASE("screens without bounds or activity, or unknown and unfocused, are dropped", "[tarpit][abstraction]") {
  Trace t;
  add_screen(t, 1000, "Main", "Frame(Button:ok)");
  add_screen(t, 2000, "unknown", "Frame(Button:ok)");
  t.screens[1].focus = false;
  add_screen(t, 3000, "unknown", "Frame(Button:ok)");  // focused: kept
  add_screen(t, 4000, "Main", "Frame(Button:ok)");
  t.screens[3].elements[0].has_bounds = false;
  add_screen(t, 5000, "Main", "Frame(Button:ok)");
  t.screens[4].has_activity = false;
  auto a = abstract_screens(t, 0, t.screens.size(), {});
  CHECK(a.dropped == 3);
  CHECK(a.drop_reason[1] == DropReason::unknown_activity);
  CHECK(a.drop_reason[3] == DropReason::no_bounds);
  CHECK(a.drop_reason[4] == DropReason::no_activity);
  CHECK(a.screen_unique[2] >= 0);
}

TEST_CASE("VET's key ambiguity: id and class concatenate without a separator", "[tarpit][abstraction]") {
  Trace t;
  add_screen(t, 1000, "Main", "Frame(bc:a)");  // id "a", class "bc"  -> "[abc"
  add_screen(t, 2000, "Main", "Frame(c:ab)");  // id "ab", class "c"  -> "[abc"
  CHECK(abstract_screens(t, 0, 2, {false}).uniques.size() == 2);
  auto merged = abstract_screens(t, 0, 2, {true});
  CHECK(merged.uniques.size() == 1);
  CHECK(merged.screen_unique[1] == 0);
  CHECK(merged.uniques[0].tokens.size() == 2);  // the kept screen is intact
}

TEST_CASE("merging equal keys keeps every other screen intact", "[tarpit][abstraction]") {
  Trace t;
  add_screen(t, 1000, "Main", "Frame(Button:a)");
  add_screen(t, 2000, "Main", "Frame(Button:a Text:b)");
  auto a = abstract_screens(t, 0, 2, {true});
  REQUIRE(a.uniques.size() == 2);
  CHECK(a.uniques[0].tokens.size() == 2);
  CHECK(a.uniques[1].tokens.size() == 3);
}
