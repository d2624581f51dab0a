// The limits that protect the daemon from its clients (api::ServerConfig, flakescand flags):
// a header sent slowly is cut off at the header deadline, connections past the maximum are
// answered 503, event streams past the per-scan maximum are answered 503. A real Server on
// a loopback port 0 in this process; the clients are plain blocking sockets whose every read
// is bounded (SO_RCVTIMEO), so a broken limit fails the test instead of hanging it.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/executor_work_guard.hpp>

#include "api/router.hpp"
#include "api/server.hpp"

using namespace flakescan;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

// A loopback client socket; reads wait at most `read_bound`.
class Client {
 public:
  explicit Client(unsigned short port, std::chrono::seconds read_bound = 20s) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    timeval tv{static_cast<time_t>(read_bound.count()), 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  }
  ~Client() { close(); }
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  bool connected() const { return connected_; }
  bool send(const std::string& text) { return ::send(fd_, text.data(), text.size(), MSG_NOSIGNAL) == ssize_t(text.size()); }
  // Reads until the text holds `until` (or the peer closes, or the bound passes).
  std::string read_until(const std::string& until) {
    while (buffer_.find(until) == std::string::npos) {
      if (read_some() <= 0) break;
    }
    return buffer_;
  }
  // > 0 bytes read, 0 the peer closed, < 0 an error or the read bound passed.
  ssize_t read_some() {
    char chunk[4096];
    ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n > 0) buffer_.append(chunk, size_t(n));
    return n;
  }
  // True when the peer closed (EOF or reset) within the read bound.
  bool closed_by_peer() {
    for (;;) {
      ssize_t n = read_some();
      if (n == 0) return true;
      if (n < 0) return errno == ECONNRESET;
    }
  }
  // Waits up to `wait` for the peer to close; false when it did not (or sent bytes instead).
  bool closed_within(std::chrono::milliseconds wait) {
    pollfd p{fd_, POLLIN | POLLRDHUP, 0};
    if (::poll(&p, 1, int(wait.count())) <= 0) return false;
    ssize_t n = read_some();
    return n == 0 || (n < 0 && errno == ECONNRESET);
  }
  std::string status_line() {
    read_until("\r\n");
    return buffer_.substr(0, buffer_.find("\r\n"));
  }
  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
  bool connected_ = false;
  std::string buffer_;
};

std::string get(const std::string& target, bool keep_alive = true) {
  return "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + (keep_alive ? "" : "Connection: close\r\n") + "\r\n";
}

struct ServerFixture {
  fs::path dir = fs::temp_directory_path() / ("flakescan-server-limits-" + std::to_string(getpid()));
  std::unique_ptr<store::Store> store;
  std::unique_ptr<scan::ScanManager> scans;
  std::unique_ptr<api::Router> router;
  std::shared_ptr<scan::EventLog> log_a = std::make_shared<scan::EventLog>();
  std::shared_ptr<scan::EventLog> log_b = std::make_shared<scan::EventLog>();
  boost::asio::io_context io;
  std::unique_ptr<api::Server> server;
  std::thread runner;
  unsigned short port = 0;

  explicit ServerFixture(api::ServerConfig config) {
    fs::remove_all(dir);
    store = store::Store::open(dir / "store.db").value();
    scans = std::make_unique<scan::ScanManager>(*store, scan::ScanManagerConfig{.data_dir = dir});
    // Two "scans" whose event logs stay open until the test closes them.
    auto stream_route = [](std::string path, std::shared_ptr<scan::EventLog> log, std::string key) {
      api::ExtraRoute route{"GET", std::move(path), 1 << 10, nullptr};
      route.respond = [log, key](const api::Request&) -> util::Result<api::Response> {
        api::Response r;
        r.stream = log;
        r.stream_key = key;
        return r;
      };
      return route;
    };
    std::vector<api::ExtraRoute> routes{stream_route("/v1/stream/a", log_a, "a"), stream_route("/v1/stream/b", log_b, "b")};
    router = std::make_unique<api::Router>(*scans, std::move(routes));
    config.host = "127.0.0.1";
    config.port = 0;
    server = std::make_unique<api::Server>(io, *router, config);
    port = server->start().value();
    runner = std::thread([this] { io.run(); });
  }
  ~ServerFixture() {
    log_a->close();
    log_b->close();
    server->stop_accepting();
    io.stop();
    runner.join();
    server.reset();
    scans.reset();
    store.reset();
    fs::remove_all(dir);
  }
};

// Waits (bounded) for `ok` to hold: for the server to have noticed a closed connection.
template <class F>
bool eventually(F ok) {
  auto until = std::chrono::steady_clock::now() + 20s;
  while (std::chrono::steady_clock::now() < until) {
    if (ok()) return true;
    std::this_thread::sleep_for(20ms);
  }
  return false;
}

}  // namespace

TEST_CASE("a header sent a byte at a time is cut off at the header deadline (slowloris)", "[api][server][limits]") {
  api::ServerConfig config;
  config.header_timeout_seconds = 1;
  config.read_timeout_seconds = 60;  // the header deadline, not this one, must end it
  ServerFixture f(config);
  Client slow(f.port);
  REQUIRE(slow.connected());
  REQUIRE(slow.send("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "));
  // One byte per 100 ms keeps every single read short: only a deadline on the whole header
  // ends this. The header never completes (200 bytes at most in the 20 s bound).
  bool cut_off = false;
  for (int i = 0; i < 200 && !cut_off; ++i) cut_off = !slow.send("a") || slow.closed_within(100ms);
  CHECK(cut_off);
  // Nothing was answered: the request never was one.
  CHECK(slow.read_until("HTTP/").find("HTTP/") == std::string::npos);

  // A client that sends its header in time is served.
  Client quick(f.port);
  REQUIRE(quick.send(get("/v1/health", false)));
  CHECK(quick.status_line() == "HTTP/1.1 200 OK");
}

TEST_CASE("connections past the maximum are answered 503 and closed", "[api][server][limits]") {
  api::ServerConfig config;
  config.max_connections = 3;
  config.header_timeout_seconds = 60;
  ServerFixture f(config);
  std::vector<std::unique_ptr<Client>> held;
  for (int i = 0; i < 3; ++i) {
    held.push_back(std::make_unique<Client>(f.port));
    // One exchange on each: the server has accepted and counted it once it answers.
    REQUIRE(held.back()->send(get("/v1/health")));
    REQUIRE(held.back()->read_until("\"status\":\"ok\"").find("200 OK") != std::string::npos);
  }
  Client over(f.port);
  REQUIRE(over.connected());
  CHECK(over.status_line() == "HTTP/1.1 503 Service Unavailable");
  std::string text = over.read_until("}");
  CHECK(text.find("Retry-After: 1") != std::string::npos);
  CHECK(text.find("maximum of open connections") != std::string::npos);
  CHECK(over.closed_by_peer());

  // The held connections still work (keep-alive) ...
  REQUIRE(held[0]->send(get("/v1/health")));
  CHECK(held[0]->read_until("}").find("\"status\":\"ok\"") != std::string::npos);
  // ... and once one closes, its place is free again.
  held[1]->close();
  CHECK(eventually([&] {
    Client next(f.port);
    return next.send(get("/v1/health", false)) && next.status_line() == "HTTP/1.1 200 OK";
  }));
}

TEST_CASE("event streams past the per-scan maximum are answered 503; other scans are not affected",
          "[api][server][limits]") {
  api::ServerConfig config;
  config.max_event_streams_per_scan = 2;
  ServerFixture f(config);
  f.log_a->append("state", R"({"state":"running"})");
  Client first(f.port), second(f.port);
  for (Client* c : {&first, &second}) {
    REQUIRE(c->send(get("/v1/stream/a")));
    CHECK(c->status_line() == "HTTP/1.1 200 OK");
    CHECK(c->read_until("\n\n").find("event: state") != std::string::npos);
  }
  Client third(f.port);
  REQUIRE(third.send(get("/v1/stream/a")));
  CHECK(third.status_line() == "HTTP/1.1 503 Service Unavailable");
  CHECK(third.read_until("}").find("maximum of 2 event streams") != std::string::npos);
  CHECK(third.closed_by_peer());

  Client other(f.port);
  REQUIRE(other.send(get("/v1/stream/b")));
  CHECK(other.status_line() == "HTTP/1.1 200 OK");

  // When the scan's log ends, its streams end and free their places.
  f.log_a->close();
  CHECK(first.closed_by_peer());
  CHECK(second.closed_by_peer());
  CHECK(eventually([&] {
    Client again(f.port);
    return again.send(get("/v1/stream/a")) && again.status_line() == "HTTP/1.1 200 OK";
  }));
}
