// The CI history resources of a real flakescand over HTTP: two CI reports imported, the
// suspects they point at, the quarantine in its three formats from verdicts in the store
// (written before the daemon starts, as an earlier scan would have), a real scan of
// examples/jvm-basic taking a test out of the quarantine, and the CLI commands.
#include <catch2/catch.hpp>

#include <fstream>

#include "store/store.hpp"
#include "support/daemon/cli_process.hpp"
#include "support/daemon/daemon_process.hpp"

using namespace flakescan;
using nlohmann::json;

namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(FLAKESCAN_SOURCE_DIR) + "/tests/fixtures/junit/" + name, std::ios::binary);
  REQUIRE(in);
  return {std::istreambuf_iterator<char>(in), {}};
}

app::HttpResponse post_xml(testing::DaemonProcess& d, const std::string& target, const std::string& xml) {
  auto r = d.client().request("POST", target, xml, std::chrono::seconds(60), "application/xml");
  REQUIRE(r);
  return *r;
}

app::HttpResponse get(testing::DaemonProcess& d, const std::string& target) {
  auto r = d.client().request("GET", target);
  REQUIRE(r);
  return *r;
}

void check_problem(const app::HttpResponse& r, int status, const std::string& says) {
  INFO(r.body);
  CHECK(r.status == status);
  CHECK(r.content_type == "application/problem+json");
  auto body = json::parse(r.body, nullptr, false);
  REQUIRE(body.is_object());
  CHECK(body["status"] == status);
  CHECK_THAT(body["detail"].get<std::string>(), Catch::Contains(says));
}

// A scan that an earlier daemon finished, with its verdicts, in the store the daemon will open.
void seed_verdicts(const std::filesystem::path& data_dir) {
  auto s = store::Store::open(data_dir / "flakescan.db").value();
  store::ScanRecord scan{.id = "s-earlier", .state = "completed", .request = "{}", .backend = "local",
                         .techniques = {"rerun"}, .created_at = "2024-01-01T00:00:00.000Z"};
  REQUIRE(s->create_scan(scan));
  REQUIRE(s->save_verdicts("s-earlier", {{"demo.basic.MathTest#adds", "flaky", "concurrency",
                                          R"({"evidence":{"reason":"2 out of 10 runs failed"}})"},
                                         {"demo.other.CacheTest#evicts[2]", "flaky", "order_dependent", "{}"},
                                         {"demo.other.CacheTest#loads", "not_flaky", "", "{}"}}));
}

struct CliResult {
  int code = -1;
  std::string out, err;
};

CliResult cli(const std::vector<std::string>& args) {
  auto dir = testing::fresh_dir("history-cli-out");
  std::vector<std::string> argv{testing::build_path("daemon/app/flakescan").string()};
  argv.insert(argv.end(), args.begin(), args.end());
  auto child = util::Child::spawn({.argv = argv, .working_dir = dir.string(), .stdout_path = (dir / "out").string(),
                                   .stderr_path = (dir / "err").string()});
  REQUIRE(child);
  auto status = child->wait(std::chrono::steady_clock::now() + std::chrono::seconds(120));
  REQUIRE(status);
  CliResult r;
  r.code = status->exited ? status->code : -1;
  std::ifstream o(dir / "out"), e(dir / "err");
  r.out.assign(std::istreambuf_iterator<char>(o), {});
  r.err.assign(std::istreambuf_iterator<char>(e), {});
  return r;
}

}  // namespace

TEST_CASE("CI reports in, suspects and quarantine out, over real HTTP", "[integration][history]") {
  auto data_dir = testing::fresh_dir("history");
  seed_verdicts(data_dir);
  testing::DaemonProcess daemon(data_dir);

  // Two CI runs of the same commit.
  auto first = post_xml(daemon, "/v1/results?source=ci-101&commit=c0ffee&branch=main", fixture("gradle-retry.xml"));
  INFO(first.body);
  REQUIRE(first.status == 201);
  auto one = json::parse(first.body);
  CHECK(one["imported"] == 5);
  CHECK(one["failed"] == 1);
  CHECK(one["flaky_by_rerun"] == 1);
  auto second = post_xml(daemon, "/v1/results?source=ci-102&commit=c0ffee&branch=main", fixture("gradle-run-2.xml"));
  REQUIRE(second.status == 201);
  CHECK(json::parse(second.body)["failed"] == 2);

  auto suspects = get(daemon, "/v1/suspects");
  REQUIRE(suspects.status == 200);
  auto body = json::parse(suspects.body);
  CHECK(body["imports"] == 2);
  std::map<std::string, json> s;
  for (const auto& x : body["suspects"]) s[x["test"]] = x;
  CHECK(s.size() == 2);
  CHECK(s["com.example.login.LoginViewModelTest#logsIn"]["reasons"] == json::array({"same_commit", "mixed_recently"}));
  CHECK(s["com.example.login.LoginViewModelTest#showsErrorOnTimeout"]["reasons"] == json::array({"passed_on_rerun"}));

  // The second run's report uploaded again (a retried CI step): replaced, not counted twice.
  auto again = post_xml(daemon, "/v1/results?source=ci-102&commit=c0ffee&branch=main", fixture("gradle-run-2.xml"));
  REQUIRE(again.status == 201);
  CHECK(json::parse(again.body)["replaced"] == json::parse(second.body)["id"]);
  auto after = json::parse(get(daemon, "/v1/suspects").body);
  CHECK(after["imports"] == 2);
  for (const auto& x : after["suspects"])
    if (x["test"] == "com.example.login.LoginViewModelTest#logsIn") CHECK(x["counts"]["failed"] == 1);

  // Quarantine, from the verdicts the earlier scan left in the store.
  auto q = get(daemon, "/v1/quarantine");
  REQUIRE(q.status == 200);
  auto qj = json::parse(q.body);
  CHECK(qj["count"] == 2);
  CHECK(qj["tests"][0]["test"] == "demo.basic.MathTest#adds");
  CHECK(qj["tests"][0]["scan"] == "s-earlier");
  CHECK(qj["tests"][0]["category"] == "concurrency");
  CHECK(qj["tests"][0]["reason"] == "2 out of 10 runs failed");
  auto txt = get(daemon, "/v1/quarantine?format=notTestFile");
  CHECK(txt.status == 200);
  CHECK(txt.content_type == "text/plain; charset=utf-8");
  CHECK(txt.body == "demo.basic.MathTest#adds\ndemo.other.CacheTest#evicts\n");
  auto gradle = get(daemon, "/v1/quarantine?format=gradle");
  CHECK(gradle.status == 200);
  CHECK_THAT(gradle.body, Catch::Contains("'demo.basic.MathTest.adds',") && Catch::Contains("'demo.other.CacheTest.evicts[*',") &&
                              Catch::Contains("(scan s-earlier)"));

  // A real scan finds MathTest#adds not flaky: it leaves the quarantine.
  auto scan = daemon.run_scan({{"classpath", testing::jvm_basic_classpath()}, {"tests", "demo.basic.MathTest#adds"}, {"runs", 2}});
  REQUIRE(scan["state"] == "completed");
  auto verdicts = daemon.get_json("/v1/scans/" + scan["id"].get<std::string>() + "/verdicts");
  REQUIRE(verdicts["verdicts"].size() == 1);
  REQUIRE(verdicts["verdicts"][0]["verdict"] == "not_flaky");
  CHECK(get(daemon, "/v1/quarantine?format=notTestFile").body == "demo.other.CacheTest#evicts\n");
  CHECK(json::parse(get(daemon, "/v1/quarantine").body)["count"] == 1);

  // Bad input: 4xx problem+json, nothing stored.
  check_problem(post_xml(daemon, "/v1/results?source=ci-bad", fixture("truncated.xml")), 400, "not well-formed XML");
  check_problem(post_xml(daemon, "/v1/results?source=ci-bad", fixture("empty-suite.xml")), 400, "no <testcase>");
  check_problem(post_xml(daemon, "/v1/results", fixture("gradle-retry.xml")), 400, "'source' is required");
  check_problem(post_xml(daemon, "/v1/results?source=ci-bad", std::string((16u << 20) + 1, ' ')), 413, "over the limit");
  check_problem(get(daemon, "/v1/quarantine?format=yaml"), 400, "'format' must be");
  CHECK(json::parse(get(daemon, "/v1/suspects").body)["imports"] == 2);

  // The CLI against the same daemon.
  auto imported = cli({"import-results", std::string(FLAKESCAN_SOURCE_DIR) + "/tests/fixtures/junit/surefire-reruns.xml",
                       std::string(FLAKESCAN_SOURCE_DIR) + "/tests/fixtures/junit/testsuites-wrapper.xml", "--source",
                       "ci-103", "--commit", "beef", "--daemon", daemon.url()});
  INFO(imported.err);
  CHECK(imported.code == 0);
  CHECK_THAT(imported.out, Catch::Contains("imported 11 tests from 2 files") && Catch::Contains("(source ci-103)"));
  auto listed = cli({"quarantine", "--format", "notTestFile", "--daemon", daemon.url()});
  CHECK(listed.code == 0);
  CHECK(listed.out == "demo.other.CacheTest#evicts\n");
  auto refused = cli({"import-results", std::string(FLAKESCAN_SOURCE_DIR) + "/tests/fixtures/junit/not-junit.xml",
                      "--source", "ci-104", "--daemon", daemon.url()});
  CHECK(refused.code == 1);
  CHECK_THAT(refused.err, Catch::Contains("HTTP 400") && Catch::Contains("<project>"));
  CHECK(cli({"import-results", "--daemon", daemon.url()}).code == 2);
}

TEST_CASE("flakescan scan --from-history scans the tests CI saw pass and fail on one commit", "[integration][history][cli]") {
  testing::DaemonProcess daemon(testing::fresh_dir("history-from"));
  auto report = [](const std::string& outcome) {
    std::string body = outcome == "fail" ? "<failure message=\"expected 4\">AssertionError</failure>" : "";
    return "<testsuite name=\"demo.basic.MathTest\" tests=\"1\"><testcase classname=\"demo.basic.MathTest\" "
           "name=\"adds\" time=\"0.01\">" + body + "</testcase></testsuite>";
  };
  auto out = testing::fresh_dir("history-from-out") / "v.json";
  std::vector<std::string> args{"scan", "--daemon", daemon.url(), "--classpath", testing::jvm_basic_classpath(),
                                "--from-history", "--runs", "2", "--out", out.string()};
  // No history yet: nothing to scan, said as such.
  auto nothing = testing::run_cli(args);
  INFO(nothing.err);
  CHECK(nothing.code == 0);
  CHECK_THAT(nothing.err, Catch::Contains("the CI history has no suspect: nothing to scan"));
  // Two CI runs of one commit: passed in one, failed in the other (flaky across builds).
  CHECK(post_xml(daemon, "/v1/results?source=ci-1&commit=abc", report("pass")).status == 201);
  CHECK(post_xml(daemon, "/v1/results?source=ci-2&commit=abc", report("fail")).status == 201);
  auto r = testing::run_cli(args);
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK_THAT(r.err, Catch::Contains("from the CI history: demo.basic.MathTest#adds (same_commit"));
  std::ifstream in(out);
  json file = json::parse(in);
  REQUIRE(file["verdicts"].size() == 1);
  CHECK(file["verdicts"][0]["test"] == "demo.basic.MathTest#adds");
  // Said plainly on the command line as well.
  CHECK(testing::run_cli({"scan", "--classpath", "x"}).err.find("--tests is required (or --from-history)") != std::string::npos);
}

TEST_CASE("flakescan scan --new-since scans only the tests the base branch's CI history never saw", "[integration][history][cli]") {
  testing::DaemonProcess daemon(testing::fresh_dir("history-new"));
  auto out = testing::fresh_dir("history-new-out") / "v.json";
  std::vector<std::string> args{"scan", "--daemon", daemon.url(), "--classpath", testing::jvm_basic_classpath(),
                                "--tests", "demo.basic.MathTest", "--new-since", "main", "--runs", "1", "--out", out.string()};
  // No history of main: every test is new, and the scan says so.
  auto all = testing::run_cli(args);
  INFO(all.err);
  CHECK(all.code == 0);
  CHECK_THAT(all.err, Catch::Contains("no CI results of branch 'main' in the history"));
  std::size_t every = json::parse(std::ifstream(out))["verdicts"].size();
  REQUIRE(every >= 2);
  // main's CI ran MathTest#adds (on another branch, another test): only the others are new.
  CHECK(post_xml(daemon, "/v1/results?source=ci-9&branch=main",
                 "<testsuite name=\"demo.basic.MathTest\"><testcase classname=\"demo.basic.MathTest\" name=\"adds\"/>"
                 "</testsuite>").status == 201);
  auto fresh = testing::run_cli(args);
  INFO(fresh.err);
  CHECK(fresh.code == 0);
  CHECK_THAT(fresh.err, Catch::Contains(std::to_string(every - 1) + " of the selected tests are new since branch 'main'"));
  json file = json::parse(std::ifstream(out));
  CHECK(file["verdicts"].size() == every - 1);
  for (const auto& v : file["verdicts"]) CHECK(v["test"] != "demo.basic.MathTest#adds");
}
