// The daemon's HTTP API over real HTTP: health, and every kind of bad input answered with a
// 4xx problem+json body that names the problem, without crashing or writing anything.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

#include "support/daemon/daemon_process.hpp"
#include "support/polling.hpp"

using namespace flakescan;
using nlohmann::json;

namespace {

testing::DaemonProcess& daemon() {
  static testing::DaemonProcess d(testing::fresh_dir("api"));
  return d;
}

void check_problem(const app::HttpResponse& r, int status, const std::string& says) {
  INFO(r.body);
  CHECK(r.status == status);
  CHECK(r.content_type == "application/problem+json");
  auto body = json::parse(r.body, nullptr, false);
  REQUIRE(body.is_object());
  CHECK(body["status"] == status);
  CHECK(body["type"].get<std::string>().starts_with("https://flakescan.io/problems/"));
  CHECK_THAT(body["detail"].get<std::string>(), Catch::Contains(says));
}

}  // namespace

TEST_CASE("health answers with the techniques the daemon has", "[integration][api]") {
  auto r = daemon().client().request("GET", "/v1/health");
  REQUIRE(r);
  CHECK(r->status == 200);
  auto body = json::parse(r->body);
  CHECK(body["status"] == "ok");
  CHECK(std::find(body["techniques"].begin(), body["techniques"].end(), "rerun") != body["techniques"].end());
}

TEST_CASE("a daemon that exits when idle stays while short requests keep coming, then exits once they stop",
          "[integration][api]") {
  // Each request opens and closes its connection between two of the daemon's looks (every
  // 500 ms): a CLI's health probe, then its scan a moment later. The requests go on for
  // three times the idle time; before, the daemon saw no open connection and exited under them.
  testing::DaemonProcess d(testing::fresh_dir("idle-exit"), {"--exit-when-idle", "2"});
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(6);
  int answered = 0;
  while (std::chrono::steady_clock::now() < until) {
    auto r = d.client().request("GET", "/v1/health");
    REQUIRE(r);
    CHECK(r->status == 200);
    ++answered;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  CHECK(answered > 10);
  CHECK(testing_support::running(d.pid()));
  CHECK(testing_support::eventually([&] { return !testing_support::running(d.pid()); }));  // then quiet: it goes
}

TEST_CASE("bad scan requests get 4xx problem+json naming the problem", "[integration][api]") {
  auto& c = daemon().client();
  std::string cp = testing::jvm_basic_classpath();
  check_problem(c.request("POST", "/v1/scans", "{not json").value(), 400, "not valid JSON");
  check_problem(c.request("POST", "/v1/scans", "[1,2]").value(), 400, "JSON object");
  check_problem(c.request("POST", "/v1/scans", json{{"classpath", cp}, {"tests", 42}}.dump()).value(), 400, "'tests' must be");
  check_problem(c.request("POST", "/v1/scans", json{{"classpath", cp}, {"tests", "demo.X"}, {"runz", 3}}.dump()).value(), 400,
                "unknown field 'runz'");
  check_problem(c.request("POST", "/v1/scans", json{{"classpath", cp + ":/nonexistent/x.jar"}, {"tests", "demo.X"}}.dump()).value(),
                400, "do not exist: /nonexistent/x.jar");
  check_problem(c.request("POST", "/v1/scans", json{{"classpath", cp}, {"tests", "demo.X#$(reboot)"}}.dump()).value(), 400,
                "not a test method name");
  check_problem(c.request("GET", "/v1/scans/s000000000000").value(), 404, "no scan with id");
  check_problem(c.request("GET", "/v1/scans/s000000000000/verdicts").value(), 404, "no scan with id");
  check_problem(c.request("DELETE", "/v1/scans/s000000000000").value(), 404, "no scan with id");
  check_problem(c.request("POST", "/v1/scans/s000000000000/replays", "{\"test\":\"a.B#c\"}").value(), 404, "no scan with id");
  check_problem(c.request("GET", "/v1/nothing").value(), 404, "no resource");
  check_problem(c.request("GET", "/metrics").value(), 404, "under /v1");
  auto wrong_method = c.request("PUT", "/v1/health").value();
  check_problem(wrong_method, 405, "not allowed");
  // Nothing was created by any of these.
  CHECK(json::parse(c.request("GET", "/v1/scans").value().body)["scans"].empty());
}

TEST_CASE("an oversize body is refused with 413 before it is read whole", "[integration][api]") {
  std::string big(2 << 20, ' ');
  auto r = daemon().client().request("POST", "/v1/scans", big);
  INFO((r ? std::string() : r.error().message));
  REQUIRE(r);
  check_problem(*r, 413, "over the limit");
  // The daemon still serves.
  CHECK(daemon().client().request("GET", "/v1/health").value().status == 200);
}

TEST_CASE("garbage on the socket closes that connection only", "[integration][api]") {
  namespace net = boost::asio;
  net::io_context io;
  net::ip::tcp::socket socket(io);
  net::ip::tcp::resolver resolver(io);
  net::connect(socket, resolver.resolve("127.0.0.1", daemon().client().url().port));
  std::string junk = "\x16\x03\x01 this is not HTTP\r\n\r\n";
  net::write(socket, net::buffer(junk));
  char buf[256];
  boost::system::error_code ec;
  net::read(socket, net::buffer(buf), ec);  // the daemon closes it
  CHECK(ec);
  CHECK(daemon().client().request("GET", "/v1/health").value().status == 200);
}
