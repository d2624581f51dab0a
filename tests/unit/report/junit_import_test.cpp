// JUnit XML import on hand-written reports in the shapes Surefire and Gradle write
// (tests/fixtures/junit), and on inputs that must be refused without a crash.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>

#include "report/junit_import.hpp"

using namespace flakescan;
using report::ImportedOutcome;

namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(FLAKESCAN_SOURCE_DIR) + "/tests/fixtures/junit/" + name, std::ios::binary);
  REQUIRE(in);
  return {std::istreambuf_iterator<char>(in), {}};
}

std::map<std::string, report::ImportedResult> by_test(const report::JunitImport& imported) {
  std::map<std::string, report::ImportedResult> out;
  for (const auto& r : imported.results) out[r.test] = r;
  return out;
}

void check_refused(const std::string& xml, util::Errc code, const std::string& says) {
  auto r = report::parse_junit_xml(xml);
  REQUIRE_FALSE(r);
  CHECK(r.error().code == code);
  CHECK_THAT(r.error().message, Catch::Contains(says));
}

}  // namespace

TEST_CASE("a Surefire report with reruns: flaky passes, failures after reruns, errors, skips", "[report][junit_import]") {
  auto imported = report::parse_junit_xml(fixture("surefire-reruns.xml"));
  REQUIRE(imported);
  CHECK(imported->testcases == 7);
  CHECK(imported->ignored == 0);
  REQUIRE(imported->results.size() == 7);
  CHECK(imported->results[0].test == "com.example.checkout.CartTest#addsItem");  // document order
  auto t = by_test(*imported);

  const auto& pass = t["com.example.checkout.CartTest#addsItem"];
  CHECK(pass.outcome == ImportedOutcome::pass);
  CHECK(pass.failed_attempts == 0);
  CHECK_FALSE(pass.flaky_by_rerun());
  CHECK(pass.duration_ms == Approx(11));
  CHECK(pass.message.empty());

  const auto& flaky = t["com.example.checkout.CartTest#refreshesTotal"];
  CHECK(flaky.outcome == ImportedOutcome::pass);
  CHECK(flaky.failed_attempts == 2);
  CHECK(flaky.flaky_by_rerun());
  CHECK(flaky.message == "expected:<42> but was:<null>");

  const auto& failed = t["com.example.checkout.CartTest#appliesDiscount"];
  CHECK(failed.outcome == ImportedOutcome::fail);
  CHECK(failed.failed_attempts == 2);  // two reruns after the first failure, all failed
  CHECK_FALSE(failed.flaky_by_rerun());
  CHECK(failed.message == "discount not applied");  // first line of a two-line message

  const auto& error = t["com.example.checkout.CartTest#loadsPrices"];
  CHECK(error.outcome == ImportedOutcome::error);
  CHECK(error.failed_attempts == 1);
  CHECK(error.message == "Connection refused (Connection refused)");
  CHECK(error.duration_ms == Approx(5003));

  CHECK(t["com.example.checkout.CartTest#printsReceipt"].outcome == ImportedOutcome::skipped);
  CHECK(t.contains("com.example.checkout.CartTest#computesTax[0]"));
  CHECK(t.contains("com.example.checkout.CartTest#computesTax[1: rate=0.2]"));
}

TEST_CASE("a Gradle report: JUnit 5 names, test-retry executions merged per test", "[report][junit_import]") {
  auto imported = report::parse_junit_xml(fixture("gradle-retry.xml"));
  REQUIRE(imported);
  CHECK(imported->testcases == 7);
  REQUIRE(imported->results.size() == 5);
  auto t = by_test(*imported);

  // Failed, then passed on the retry: flaky by rerun, with the failure's message and the
  // passing execution's time.
  const auto& retried = t["com.example.login.LoginViewModelTest#showsErrorOnTimeout"];
  CHECK(retried.outcome == ImportedOutcome::pass);
  CHECK(retried.failed_attempts == 1);
  CHECK(retried.flaky_by_rerun());
  CHECK(retried.duration_ms == Approx(101));
  CHECK(retried.message == "org.opentest4j.AssertionFailedError: expected: <Error> but was: <Loading>");

  // Failed on both executions: a failure with one failed attempt before the last.
  const auto& failed = t["com.example.login.LoginViewModelTest#rejectsEmptyPassword"];
  CHECK(failed.outcome == ImportedOutcome::fail);
  CHECK(failed.failed_attempts == 1);

  // Parameter types dropped, the index kept: ids flakescan scan takes.
  CHECK(t.contains("com.example.login.LoginViewModelTest#validatesEmail[1]"));
  CHECK(t.contains("com.example.login.LoginViewModelTest#validatesEmail[2]"));
  CHECK(t["com.example.login.LoginViewModelTest#logsIn"].outcome == ImportedOutcome::pass);
}

TEST_CASE("a <testsuites> wrapper with nested suites, missing class names and odd times", "[report][junit_import]") {
  auto imported = report::parse_junit_xml(fixture("testsuites-wrapper.xml"));
  REQUIRE(imported);
  CHECK(imported->testcases == 5);
  CHECK(imported->ignored == 1);  // the testcase without a name
  auto t = by_test(*imported);
  REQUIRE(t.size() == 4);
  CHECK(t["com.example.a.FirstTest#one"].duration_ms == Approx(1234500));  // "1,234.5" seconds
  // No classname: the enclosing suite's name; no message attribute: the text's first line.
  const auto& two = t["com.example.a.FirstTest#two"];
  CHECK(two.outcome == ImportedOutcome::fail);
  CHECK(two.message == "java.lang.IllegalStateException: boom");
  CHECK(t["com.example.b.SecondTest$Nested#three"].outcome == ImportedOutcome::pass);
  CHECK(t["com.example.b.SecondTest#four"].duration_ms == 0);  // time="abc"
}

TEST_CASE("several reports combined under one <testsuites> are read as one", "[report][junit_import]") {
  auto imported = report::parse_junit_xml("<testsuites><testsuites><testsuite name=\"a.B\"><testcase name=\"c\"/></testsuite>"
                                          "</testsuites><testsuite name=\"d.E\"><testcase name=\"f\"/></testsuite></testsuites>");
  REQUIRE(imported);
  REQUIRE(imported->results.size() == 2);
  CHECK(imported->results[0].test == "a.B#c");
  CHECK(imported->results[1].test == "d.E#f");
}

TEST_CASE("test ids: parameter type lists dropped, other names kept", "[report][junit_import]") {
  CHECK(report::import_test_id("p.A", "m") == "p.A#m");
  CHECK(report::import_test_id("p.A", "m()") == "p.A#m");
  CHECK(report::import_test_id("p.A", "m(String, int)[3]") == "p.A#m[3]");
  CHECK(report::import_test_id("p.A", "m[1]") == "p.A#m[1]");
  CHECK(report::import_test_id("p.A", "[1] apple (red)") == "p.A#[1] apple (red)");
  CHECK(report::import_test_id("p.A", "shows the price()") == "p.A#shows the price()");
  CHECK(report::import_test_id("p.A", "m(int) and more") == "p.A#m(int) and more");
}

TEST_CASE("malformed and non-JUnit inputs are refused as invalid, never crash", "[report][junit_import]") {
  check_refused(fixture("truncated.xml"), util::Errc::invalid_argument, "not well-formed XML");
  check_refused(fixture("not-junit.xml"), util::Errc::invalid_argument, "root is <project>");
  check_refused(fixture("empty-suite.xml"), util::Errc::invalid_argument, "holds no <testcase>");
  check_refused("", util::Errc::invalid_argument, "");
  check_refused("just text", util::Errc::invalid_argument, "");
  check_refused("{\"tests\": []}", util::Errc::invalid_argument, "");
  check_refused("<testsuite><testcase classname=\"a.B\" name=\"c\"></testsuite>", util::Errc::invalid_argument,
                "not well-formed XML");
  check_refused("<testsuite><testcase name=\"c\"/></testsuite>", util::Errc::invalid_argument,
                "both a class name and a name");
  check_refused("<testsuite name=\"a.B\"><testcase name=\"c\"/></testsuite><testsuite/>", util::Errc::invalid_argument, "");
}

TEST_CASE("deep nesting is refused before the parser recurses", "[report][junit_import]") {
  std::string deep = "<testsuites>";
  for (int i = 0; i < 200000; ++i) deep += "<testsuite>";
  check_refused(deep, util::Errc::invalid_argument, "deeper than");
  // Within the limit, nesting is fine; self-closing tags and '>' in attributes do not count.
  std::string nested = "<testsuites>";
  for (int i = 0; i < 20; ++i) nested += "<testsuite name=\"a.B\" note=\"x > y\"><properties/>";
  nested += "<testcase name=\"c\"/>";
  for (int i = 0; i < 20; ++i) nested += "</testsuite>";
  nested += "</testsuites>";
  auto r = report::parse_junit_xml(nested);
  REQUIRE(r);
  CHECK(r->results.at(0).test == "a.B#c");
}

TEST_CASE("a report over the size limit is too_large", "[report][junit_import]") {
  std::string xml = fixture("surefire-reruns.xml");
  CHECK(report::parse_junit_xml(xml, xml.size()));
  auto r = report::parse_junit_xml(xml, xml.size() - 1);
  REQUIRE_FALSE(r);
  CHECK(r.error().code == util::Errc::too_large);
}

TEST_CASE("long failure messages are cut to the limit on a UTF-8 boundary", "[report][junit_import]") {
  std::string message;
  for (int i = 0; i < 600; ++i) message += "\xC3\xA9";  // é: 1200 bytes
  auto r = report::parse_junit_xml("<testsuite name=\"a.B\"><testcase name=\"c\"><failure message=\"" + message +
                                   "\"/></testcase></testsuite>");
  REQUIRE(r);
  const auto& m = r->results.at(0).message;
  CHECK(m.size() <= report::max_junit_message_bytes);
  CHECK(m.ends_with("..."));
  CHECK((static_cast<unsigned char>(m[m.size() - 4]) & 0xC0) != 0xC0);  // no lead byte left dangling
}

// Found with fuzz_junit_import's properties (regression input in tests/fixtures/junit/corpus/cdata-comments-doctype.xml):
// a time whose seconds are finite but whose milliseconds are not.
TEST_CASE("a time too large for milliseconds imports as 0, never as infinity", "[report][junit_import]") {
  auto imported = report::parse_junit_xml(
      "<testsuite name=\"a.B\"><testcase name=\"big\" time=\"1e308\"/><testcase name=\"nan\" time=\"nan\"/>"
      "<testcase name=\"neg\" time=\"-0.5\"/></testsuite>");
  REQUIRE(imported);
  REQUIRE(imported->results.size() == 3);
  for (const auto& r : imported->results) {
    INFO(r.test);
    CHECK(r.duration_ms == 0);
  }
}
