#include <catch2/catch.hpp>

#include "tarpit/xml.hpp"

using namespace flakescan::tarpit;
using flakescan::util::Errc;

TEST_CASE("xml: a UI Automator dump with entities", "[tarpit][xml]") {
  auto doc = parse_xml(
      "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<hierarchy rotation=\"0\">"
      "<node index=\"0\" text=\"A &amp; B &lt;3 &#65;&#x42;\" class='android.widget.FrameLayout' bounds=\"[0,0][1080,1920]\">"
      "<!-- a comment --><node index=\"0\" text=\"\" class=\"android.widget.Button\" /></node></hierarchy>\n");
  REQUIRE(doc);
  REQUIRE(doc->elements.size() == 3);
  CHECK(doc->elements[0].name == "hierarchy");
  CHECK(*doc->elements[1].attribute("text") == "A & B <3 AB");
  CHECK(*doc->elements[1].attribute("class") == "android.widget.FrameLayout");
  CHECK(doc->elements[1].children.size() == 1);
  CHECK(doc->elements[2].depth == 2);
  CHECK(doc->elements[1].attribute("missing") == nullptr);
}

TEST_CASE("xml: truncated documents need more, broken ones are malformed", "[tarpit][xml]") {
  std::string full = "<hierarchy><node text=\"a\"><node/></node></hierarchy>";
  for (std::size_t cut = 1; cut < full.size(); ++cut) {
    auto r = parse_xml(full.substr(0, cut));
    INFO("cut at " << cut);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == Errc::need_more);
  }
  for (const char* bad : {"<a></b>", "<a x=1/>", "<a>&bogus;</a><b/>", "<a x=\"&bogus;\"/>", "text<a/>",
                          "<a/><b/>"}) {
    INFO(bad);
    auto r = parse_xml(bad);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == Errc::malformed);
  }
}

TEST_CASE("xml: nesting deeper than the limit is refused, not a stack overflow", "[tarpit][xml]") {
  std::string deep;
  for (int i = 0; i < 10000; ++i) deep += "<n>";
  auto r = parse_xml(deep);
  REQUIRE_FALSE(r);
  CHECK(r.error().code == Errc::malformed);
}
