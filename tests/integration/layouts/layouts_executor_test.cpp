// examples/jvm-layouts on the local-JVM executor (issue 12, real layouts): class directories
// and resources on the classpath; what the runner lists and runs for @Nested, parameterised,
// repeated, dynamic and @Disabled tests, JUnit 4 Parameterized and a failing @BeforeClass; and
// tests that print megabytes, leave a thread running or call System.exit.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "layouts_fixture.hpp"
#include "support/polling.hpp"
#include "util/process.hpp"

using namespace flakescan;
using namespace flakescan::test_support::layouts;
using core::Outcome;
using testing_support::eventually;
namespace fs = std::filesystem;

namespace {

core::RunReport run(backend::LocalJvmExecutor& ex, std::vector<std::string> tests) {
  core::CancelFlag cancel{false};
  core::RunSpec spec{.tests = std::move(tests), .technique = "test"};
  spec.timeout_ms = 120000;  // a safety net: every run here ends by itself (checked below)
  auto r = ex.run(spec, cancel);
  REQUIRE(r);
  CHECK_FALSE(r->timed_out);
  return *r;
}

}  // namespace

TEST_CASE("jvm-layouts: the example is in class directories with its resources, not in a jar", "[integration][layouts]") {
  auto cp = classpath();
  REQUIRE(cp.size() > 4);
  for (size_t i = 0; i < 4; ++i) {
    INFO(cp[i]);
    CHECK(fs::is_directory(cp[i]));
  }
  CHECK(fs::exists(fs::path(cp[0]) / "example/layouts/CartTest$WithOneItem.class"));
  CHECK(fs::exists(fs::path(cp[1]) / "example/layouts/catalogue.csv"));
  CHECK(fs::exists(fs::path(cp[3]) / "example/layouts/app/shipping-rates.properties"));
}

TEST_CASE("jvm-layouts: discovery names @Nested tests by their nested class and lists each test once", "[integration][layouts]") {
  WorkDir dir("discover");
  backend::LocalJvmExecutor ex(config(dir.path()));
  core::CancelFlag cancel{false};
  std::vector<core::TestId> ids;
  for (const char* id : {"example.layouts.CartTest", "example.layouts.CartTest$Checkout", "example.layouts.ReceiptTest",
                         "example.layouts.DiscountRuleTest", "example.layouts.ShippingCostTest#costsPerCountry",
                         "example.layouts.CartTest#totalIsItsPrice"})
    ids.push_back(core::TestId::parse(id).value());
  auto d = ex.discover(ids, cancel);
  REQUIRE(d);
  auto tests = d->tests;
  std::sort(tests.begin(), tests.end());
  CHECK(tests == std::vector<std::string>{pkg + "CartTest#startsEmpty", nested_nio,
                                          pkg + "CartTest$WithOneItem#removingItEmptiesTheCart", nested_stable,
                                          junit4_parameterized, disabled, dynamic, repeated, victim});
  // The outer class's id of a nested test is not a test, and says which id is.
  REQUIRE(d->missing.size() == 1);
  CHECK(d->missing[0].first == "example.layouts.CartTest#totalIsItsPrice");
  CHECK(d->missing[0].second.find(nested_stable) != std::string::npos);
}

TEST_CASE("jvm-layouts: one JVM on class directories: every kind of test gives a clear outcome", "[integration][layouts]") {
  WorkDir dir("run");
  backend::LocalJvmExecutor ex(config(dir.path()));
  auto report = run(ex, {polluter, victim, nested_nio, nested_nio, nested_stable, dynamic, repeated, disabled,
                         junit4_parameterized, before_class_fails, resource, chatty, stable, exits, stable});
  REQUIRE(report.results.size() == 15);
  auto outcome = [&](size_t i) { return report.results[i].outcome; };
  CHECK(outcome(0) == Outcome::pass);
  // The parameterised victim after its polluter: the FR case fails, and the message says so.
  CHECK(outcome(1) == Outcome::fail);
  CHECK(report.results[1].message == "[2] FR, 7: shipping to FR ==> expected: <7> but was: <10>");
  CHECK(outcome(2) == Outcome::pass);  // the @Nested NIO test, first run
  CHECK(outcome(3) == Outcome::fail);  // and its second run in the same JVM
  CHECK(report.results[3].message == "expected: <1> but was: <2>");
  for (size_t i : {4, 5, 6, 8, 10, 11, 12}) {
    INFO(report.results[i].test << ": " << report.results[i].message);
    CHECK(outcome(i) == Outcome::pass);
  }
  CHECK(outcome(7) == Outcome::skipped);
  CHECK(report.results[7].message == "waits for the tax service");
  CHECK(outcome(9) == Outcome::error);  // the @BeforeClass error is the test's
  CHECK(report.results[9].exception_type == "java.lang.IllegalStateException");
  CHECK(report.results[9].message.starts_with("no database at jdbc:legacy://localhost:5432"));
  // Its 40 KB message is cut by the runner, saying how long it was.
  CHECK(report.results[9].message.size() < 8300);
  CHECK(report.results[9].message.ends_with(" chars in all)"));
  // ChattyReportTest's 4 MB went to the log, not into the results; the log keeps its head
  // and tail only (backend/local_jvm/run_log.hpp).
  std::ifstream in(report.log_path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str().find("report line 0 abc") != std::string::npos);
  CHECK(text.str().find(" bytes of output cut here ...") != std::string::npos);
  CHECK(text.str().size() < 1'100'000);
  // The @Disabled test that never started kept its place in ReceiptTest's one launcher call.
  CHECK(text.str().find("did not run example.layouts.ReceiptTest's tests in their discovery order") == std::string::npos);
  CHECK(outcome(13) == Outcome::infra);
  CHECK(report.results[13].message == exit_message);
  CHECK(report.results[13].stack.starts_with("\tat example.layouts.ExitingTest.exitsTheJvm(ExitingTest.java:10)\n"));
  CHECK(outcome(14) == Outcome::infra);
  CHECK(report.results[14].message == "test never started: the JVM exited with status 3 before it");
  CHECK(report.exit_code == 3);
}

TEST_CASE("jvm-layouts: a test that leaves a non-daemon thread running does not keep its JVM alive", "[integration][layouts]") {
  WorkDir dir("thread");
  backend::LocalJvmExecutor ex(config(dir.path()));
  auto report = run(ex, {leaks_thread, stable});
  CHECK(report.results[0].outcome == Outcome::pass);
  CHECK(report.results[1].outcome == Outcome::pass);
  CHECK(report.exit_code == 0);
  CHECK(report.infra_reason.empty());
}

namespace {

// Runs a command to its end (jar, java -version); true when it exited 0.
bool run_command(std::vector<std::string> argv, const fs::path& cwd, const fs::path& log) {
  auto child = util::Child::spawn({.argv = std::move(argv), .working_dir = cwd.string(), .stdout_path = log.string()});
  REQUIRE(child);
  auto status = child->wait(std::chrono::steady_clock::now() + std::chrono::seconds(60));
  REQUIRE(status);
  return status->success();
}

std::vector<fs::path> archives(const fs::path& dir) {
  std::vector<fs::path> out;
  if (fs::is_directory(dir))
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".jsa") out.push_back(e.path());
  return out;
}

}  // namespace

TEST_CASE("jvm-layouts: class directories go behind the jars so that runs start from a class data archive",
          "[integration][layouts][cds]") {
  WorkDir dir("cds-dirs-last");
  auto c = config(dir.path());
  backend::LocalJvmExecutor ex(c);
  core::CancelFlag cancel{false};
  // Before discovery looked at the classpath, the directories keep their place.
  CHECK(ex.process_classpath().front() == classpath().front());
  REQUIRE(ex.discover({core::TestId::parse(resource).value()}, cancel));
  auto cp = ex.process_classpath();
  REQUIRE(cp.size() == classpath().size() + 1 + c.platform_jars.size());
  for (size_t i = cp.size() - 4; i < cp.size(); ++i) CHECK(fs::is_directory(cp[i]));  // the four directories, last
  for (size_t i = 0; i + 4 < cp.size(); ++i) CHECK_FALSE(fs::is_directory(cp[i]));
  auto report = run(ex, {resource, stable, junit4_parameterized, before_class_fails});
  CHECK(report.results[0].outcome == Outcome::pass);  // the test resource is still found
  CHECK(report.results[1].outcome == Outcome::pass);
  CHECK(report.results[2].outcome == Outcome::pass);
  CHECK(report.results[3].outcome == Outcome::error);
  // Made by the warm-up JVM, which discovery started; the run did not wait for it.
  REQUIRE(eventually([&] { return archives(c.cds_dir).size() == 1; }));
  auto jsa = archives(c.cds_dir);
  // HotSpot maps it for this classpath: -Xshare:on refuses to start when it cannot.
  std::string joined;
  for (const auto& p : cp) joined += (joined.empty() ? "" : ":") + p;
  CHECK(run_command({"java", "-Xshare:on", "-XX:SharedArchiveFile=" + jsa[0].string(), "-cp", joined, "-version"}, dir.path(),
                    dir.path() / "share-on.log"));
}

TEST_CASE("jvm-layouts: a class directory whose file is also in a jar keeps its place, and runs go without an archive",
          "[integration][layouts][cds]") {
  WorkDir dir("cds-shadowed");
  // A jar with another catalogue.csv: behind the directories it is never read; in front of
  // them readsTheCatalogue would read its one line and fail.
  auto staged = dir.path() / "shadow" / "example" / "layouts";
  fs::create_directories(staged);
  std::ofstream(staged / "catalogue.csv") << "not the catalogue\n";
  REQUIRE(run_command({"jar", "cf", (dir.path() / "shadow.jar").string(), "example/layouts/catalogue.csv"},
                      dir.path() / "shadow", dir.path() / "jar.log"));
  auto c = config(dir.path());
  c.classpath.push_back((dir.path() / "shadow.jar").string());
  c.jvm_args.push_back("-Xlog:class+load=info");
  backend::LocalJvmExecutor ex(c);
  core::CancelFlag cancel{false};
  REQUIRE(ex.discover({core::TestId::parse(resource).value()}, cancel));
  CHECK(ex.process_classpath().front() == classpath().front());
  auto report = run(ex, {resource});
  INFO(report.results[0].message);
  CHECK(report.results[0].outcome == Outcome::pass);
  // The archive may have been made (its warm-up JVM starts beside discovery, before the
  // shadowing is known), but the run did not map it: no class came from the dynamic archive.
  std::ifstream log(report.log_path);
  std::stringstream text;
  text << log.rdbuf();
  CHECK(text.str().find("io.flakescan.runner.Main source:") != std::string::npos);
  CHECK(text.str().find("shared objects file (top)") == std::string::npos);
}
