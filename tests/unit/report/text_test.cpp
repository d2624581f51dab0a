#include <catch2/catch.hpp>

#include "report/text.hpp"

using namespace flakescan;
using namespace flakescan::report;

TEST_CASE("cuts never split a UTF-8 sequence", "[report][text]") {
  CHECK(cut_utf8("short", 10) == "short");
  CHECK(cut_utf8("abcdefghij", 8) == "abcde...");
  // "é" is two bytes; a cut landing inside it steps back.
  std::string s = "aaaa\xC3\xA9zzzzz";
  auto cut = cut_utf8(s, 8);
  CHECK(cut == "aaaa...");
  CHECK(cut.size() <= 8);
}

TEST_CASE("workflow commands escape data and properties", "[report][text]") {
  CHECK(workflow_data_escape("100%\r\nnext: a,b") == "100%25%0D%0Anext: a,b");
  CHECK(workflow_property_escape("C:\\x,y%") == "C%3A\\x%2Cy%25");
}

TEST_CASE("XML escaping drops characters XML 1.0 forbids", "[report][text]") {
  CHECK(xml_escape("a<b>&\"'\x01z") == "a&lt;b&gt;&amp;&quot;&apos;z");
  CHECK(xml_escape("tab\tok\n") == "tab\tok\n");
}

TEST_CASE("string literals escape quotes, backslashes and Kotlin templates", "[report][text]") {
  CHECK(java_string_escape("say \"hi\"\\n$x\n", false) == "say \\\"hi\\\"\\\\n$x\\n");
  CHECK(java_string_escape("$x", true) == "\\$x");
  CHECK(java_string_escape(std::string("\x02", 1), false) == "\\u0002");
}

TEST_CASE("java_string_literal: written so Java reads the same value", "[report][text]") {
  CHECK(java_string_literal("a=1") == "\"a=1\"");
  CHECK(java_string_literal("say \"hi\"\\") == "\"say \\\"hi\\\"\\\\\"");
  CHECK(java_string_literal("a\nb\tc\r") == "\"a\\nb\\tc\\r\"");
  CHECK(java_string_literal("tab\there\r") == R"("tab\there\r")");
  CHECK(java_string_literal("") == "\"\"");
  CHECK(java_string_literal(std::string("\x01", 1)) == "\"\\001\"");
  CHECK(java_string_literal("caf\xc3\xa9") == "\"caf\xc3\xa9\"");
}

TEST_CASE("markdown cells cannot break the table", "[report][text]") {
  CHECK(markdown_cell("a|b\nc<d>") == "a\\|b c&lt;d&gt;");
}

TEST_CASE("run counts use the N out of M wording over observed runs", "[report][text]") {
  core::RunCounts r;
  r.total = 12;
  r.passed = 7;
  r.failed = 3;
  r.infra = 2;
  CHECK(runs_failed_phrase(r) == "3 out of 10 runs failed");
  r.passed = 0;
  r.failed = 1;
  CHECK(runs_failed_phrase(r) == "1 out of 1 run failed");
}

TEST_CASE("the evidence sentence names failure, category and reproducer", "[report][text]") {
  core::Verdict v;
  v.test = "a.B#c";
  v.verdict = core::VerdictKind::flaky;
  v.category = core::Category::order_dependent;
  v.technique = "order";
  v.runs.passed = 1;
  v.runs.failed = 1;
  v.evidence.failures.push_back({"sig", "java.lang.AssertionError", "boom", 1, 3});
  v.evidence.role = "victim";
  v.evidence.reproducer = {"a.B#p", "a.B#c"};
  CHECK(evidence_sentence(v) ==
        "1 out of 2 runs failed (order_dependent) under order. Failure: java.lang.AssertionError: boom. "
        "Fails as victim in the order a.B#p, a.B#c.");
}
