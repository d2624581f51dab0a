#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "backend/adb/adb_executor.hpp"
#include "backend/adb/instrumentation_output.hpp"

using namespace flakescan::backend::adb;
using flakescan::core::Outcome;

namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(FLAKESCAN_SOURCE_DIR) + "/tests/fixtures/instrumentation/" + name, std::ios::binary);
  REQUIRE(in);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> ids(const InstrumentationOutput& out) {
  std::vector<std::string> v;
  for (const auto& t : out.tests) v.push_back(t.id());
  return v;
}

}  // namespace

TEST_CASE("adam log_10: ten passing tests and an extra result key", "[backend_adb][instrumentation]") {
  auto out = parse_instrumentation(fixture("adam_log_10.input"));
  REQUIRE(out.tests.size() == 10);
  CHECK(out.num_tests == 10);
  CHECK(out.finished());
  CHECK(*out.code == -1);
  CHECK(out.result.at("allure-id") == "some-value");
  CHECK(out.result.at("stream").find("OK (10 tests)") != std::string::npos);
  for (const auto& t : out.tests) CHECK(t.code == 0);
  CHECK(out.tests[9].id() == "com.example.MainActivityTest#testText");
  CHECK(out.failure_reason().empty());
}

TEST_CASE("adam log_4: assertion failures with stacks, output cut in the ninth test", "[backend_adb][instrumentation]") {
  auto out = parse_instrumentation(fixture("adam_log_4.input"));
  REQUIRE(out.tests.size() == 9);
  CHECK_FALSE(out.finished());
  CHECK(out.tests[4].method == "testTextFlaky4");
  CHECK(out.tests[4].code == -2);
  CHECK(out.tests[4].stack.starts_with("java.lang.AssertionError\n\tat org.junit.Assert.fail(Assert.java:86)"));
  CHECK(out.tests[4].stack.find("MainActivityFlakyTest.kt:57") != std::string::npos);
  CHECK_FALSE(out.tests[8].ended());

  std::vector<std::string> want = {"com.example.MainActivityFlakyTest#testTextFlaky4",
                                   "com.example.MainActivityFlakyTest#testTextFlaky5",
                                   "com.example.MainActivityFlakyTest#testTextFlaky8"};
  auto results = map_results(want, out, std::nullopt);
  CHECK(results[0].outcome == Outcome::fail);
  CHECK(results[0].exception_type == "java.lang.AssertionError");
  CHECK(results[0].signature.find("MainActivityFlakyTest") != std::string::npos);
  CHECK(results[1].outcome == Outcome::pass);
  CHECK(results[2].outcome == Outcome::infra);  // running when the output ended
}

TEST_CASE("adam log_8: a process crash is the running test's error; parameterised names", "[backend_adb][instrumentation]") {
  auto out = parse_instrumentation(fixture("adam_log_8.input"));
  REQUIRE(out.tests.size() == 9);
  CHECK(out.process_crashed());
  CHECK(out.tests[7].id() == "kz.kolesa.tests.login.SignInEmptyDataTest#signInWithEmptyPassword[0]");
  auto results = map_results({"kz.kolesa.tests.login.SignInEmptyDataTest#signInWithEmptyPassword[0]",
                              "kz.kolesa.tests.login.SignInEmptyDataTest#signInWithEmptyPassword[1]",
                              "kz.kolesa.tests.report.ReportBugTest#neverRan"},
                             out, std::nullopt);
  CHECK(results[0].outcome == Outcome::pass);
  CHECK(results[1].outcome == Outcome::error);
  CHECK(results[1].exception_type == "java.lang.NullPointerException");
  CHECK(results[1].message.starts_with("process crashed: Attempt to read from field"));
  CHECK(results[2].outcome == Outcome::infra);  // the crash stopped the run before it
  CHECK(results[2].message.find("crashed") != std::string::npos);
}

TEST_CASE("adam log_9: custom status code 2 keys go to the running test", "[backend_adb][instrumentation]") {
  auto out = parse_instrumentation(fixture("adam_log_9.input"));
  REQUIRE(out.tests.size() == 1);
  CHECK(out.tests[0].code == 0);
  CHECK(out.tests[0].extras.at("testIdentifier") == "Ex-1023");
  CHECK(out.tests[0].extras.at("displayName") == "TestDisplayName");
}

TEST_CASE("adam log_12: an ignored class reported as test=null with code -3", "[backend_adb][instrumentation]") {
  auto out = parse_instrumentation(fixture("adam_log_12.input"));
  REQUIRE(out.tests.size() == 1);
  CHECK(out.tests[0].method == "null");
  CHECK(out.tests[0].code == -3);
  auto results = map_results({"com.example.ClassIgnoredTest#anything"}, out, std::nullopt);
  CHECK(results[0].outcome == Outcome::skipped);
}

TEST_CASE("adam log_13: process crashed before any test ran", "[backend_adb][instrumentation]") {
  auto out = parse_instrumentation(fixture("adam_log_13.input"));
  CHECK(out.tests.empty());
  CHECK(out.process_crashed());
  CHECK(out.finished());
  CHECK(out.other.find("Process crashed before executing the test(s)") != std::string::npos);
  auto results = map_results({"com.example.FooTest#bar"}, out, std::nullopt);
  CHECK(results[0].outcome == Outcome::infra);
  CHECK(results[0].message.find("crashed") != std::string::npos);
}

TEST_CASE("the parser gives the same answer however the stream is cut into chunks", "[backend_adb][instrumentation]") {
  for (const char* name : {"adam_log_4.input", "adam_log_8.input", "adam_log_10.input", "adam_log_13.input"}) {
    std::string text = fixture(name);
    auto whole = parse_instrumentation(text);
    for (std::size_t step : {1, 7, 64, 1000}) {
      InstrumentationParser p;
      for (std::size_t i = 0; i < text.size(); i += step) p.feed(text.substr(i, step), double(i));
      const auto& out = p.finish(double(text.size()));
      INFO(name << " step " << step);
      CHECK(ids(out) == ids(whole));
      for (std::size_t k = 0; k < out.tests.size(); ++k) {
        CHECK(out.tests[k].code == whole.tests[k].code);
        CHECK(out.tests[k].stack == whole.tests[k].stack);
      }
      CHECK(out.code == whole.code);
    }
  }
}

TEST_CASE("INSTRUMENTATION_FAILED and CRLF line ends", "[backend_adb][instrumentation]") {
  auto out = parse_instrumentation(
      "INSTRUMENTATION_FAILED: com.example.test/androidx.test.runner.AndroidJUnitRunner\r\n"
      "INSTRUMENTATION_STATUS: Error=Unable to find instrumentation info for: ComponentInfo{com.example.test/androidx.test.runner.AndroidJUnitRunner}\r\n"
      "INSTRUMENTATION_STATUS: id=ActivityManagerService\r\n"
      "INSTRUMENTATION_STATUS_CODE: -1\r\n");
  CHECK(out.failed == "com.example.test/androidx.test.runner.AndroidJUnitRunner");
  CHECK(out.failure_reason().starts_with("instrumentation failed to start"));
  auto results = map_results({"com.example.FooTest#bar"}, out, std::nullopt);
  CHECK(results[0].outcome == Outcome::infra);
}

TEST_CASE("a test that fails with a non-assertion exception is an error", "[backend_adb][instrumentation]") {
  auto out = parse_instrumentation(
      "INSTRUMENTATION_STATUS: class=a.B\nINSTRUMENTATION_STATUS: test=c\nINSTRUMENTATION_STATUS_CODE: 1\n"
      "INSTRUMENTATION_STATUS: class=a.B\nINSTRUMENTATION_STATUS: test=c\n"
      "INSTRUMENTATION_STATUS: stack=java.lang.IllegalStateException: boom\n\tat a.B.c(B.java:3)\n"
      "INSTRUMENTATION_STATUS_CODE: -2\n"
      "INSTRUMENTATION_STATUS: class=a.B\nINSTRUMENTATION_STATUS: test=d\nINSTRUMENTATION_STATUS_CODE: 1\n"
      "INSTRUMENTATION_STATUS: class=a.B\nINSTRUMENTATION_STATUS: test=d\n"
      "INSTRUMENTATION_STATUS: stack=org.junit.AssumptionViolatedException: not today\n"
      "INSTRUMENTATION_STATUS_CODE: -4\n"
      "INSTRUMENTATION_RESULT: stream=\nINSTRUMENTATION_CODE: -1\n");
  auto results = map_results({"a.B#c", "a.B#d", "a.B#e"}, out, std::nullopt);
  CHECK(results[0].outcome == Outcome::error);
  CHECK(results[0].exception_type == "java.lang.IllegalStateException");
  CHECK(results[0].message == "boom");
  CHECK(results[1].outcome == Outcome::skipped);
  CHECK(results[2].outcome == Outcome::not_found);  // finished cleanly without it
}
