#include "api/server.hpp"

#include <chrono>
#include <cstdint>
#include <string>
#include <tuple>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "api/auth.hpp"
#include "api/problem.hpp"
#include "util/log.hpp"

namespace flakescan::api {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using net::awaitable;
using net::ip::tcp;
using namespace std::chrono_literals;

namespace {

constexpr auto use_tuple = net::as_tuple(net::use_awaitable);

http::response<http::string_body> to_beast(const Response& r, unsigned version, bool keep_alive) {
  http::response<http::string_body> out{static_cast<http::status>(r.status), version};
  out.set(http::field::server, "flakescand/" FLAKESCAN_VERSION);
  out.set(http::field::content_type, r.content_type);
  for (const auto& [k, v] : r.headers) out.set(k, v);
  out.keep_alive(keep_alive);
  out.body() = r.body;
  out.prepare_payload();
  return out;
}

std::string sse_frame(const scan::ScanEvent& e) {
  return "id: " + std::to_string(e.seq) + "\nevent: " + e.type + "\ndata: " + e.data + "\n\n";
}

awaitable<void> stream_events(beast::tcp_stream& stream, const Response& r, unsigned version, int write_timeout_seconds) {
  http::response<http::empty_body> head{http::status::ok, version};
  head.set(http::field::server, "flakescand/" FLAKESCAN_VERSION);
  head.set(http::field::content_type, "text/event-stream");
  head.set(http::field::cache_control, "no-cache");
  head.keep_alive(false);
  http::response_serializer<http::empty_body> serializer{head};
  // Every write has a deadline: a client that stops reading is dropped, it never pins the
  // connection (and its place under the per-scan limit) for good.
  stream.expires_after(std::chrono::seconds(write_timeout_seconds));
  auto [ec, written] = co_await http::async_write_header(stream, serializer, use_tuple);
  if (ec) co_return;
  net::steady_timer timer(co_await net::this_coro::executor);
  std::uint64_t after = r.stream_after;
  auto last_write = std::chrono::steady_clock::now();
  for (;;) {
    auto events = r.stream->since(after);
    bool closed = events.empty() && r.stream->closed();
    std::string text;
    for (const auto& e : events) {
      text += sse_frame(e);
      after = e.seq;
    }
    if (text.empty() && std::chrono::steady_clock::now() - last_write > 15s) text = ": keep-alive\n\n";
    if (!text.empty()) {
      stream.expires_after(std::chrono::seconds(write_timeout_seconds));
      auto [wec, n] = co_await net::async_write(stream, net::buffer(text), use_tuple);
      if (wec) co_return;
      last_write = std::chrono::steady_clock::now();
    }
    if (closed) break;
    if (events.empty()) {
      timer.expires_after(100ms);
      co_await timer.async_wait(use_tuple);
    }
  }
  beast::error_code ignored;
  stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
}

// Runs the router on whatever executor awaits this (the worker pool).
awaitable<Response> route_on_worker(const Router& router, Request request) { co_return router.route(request); }

}  // namespace

// One request and its response on a connection. In the named namespace, not the anonymous
// one: Server::session's frame holds it (see ConnectionPlace in server.hpp on linkage), and
// it is default-initialised, never aggregate-initialised, for g++ 12's sake.
struct HttpExchange {
  std::string method;
  std::string target;
  unsigned version = 11;
  bool keep_alive = false;
  bool too_large = false;     // the body is over the route's limit: 413, then a lingering close
  bool unauthorized = false;  // 401, with the two challenges
  Response response;
};

namespace {

// Reads one request and answers it: 413 over the route's body limit, 401 without the token,
// else the router's response, computed on the worker pool (handlers may block). False when
// there is nothing to answer: the client closed or timed out, sent garbage, or its body failed.
awaitable<bool> read_and_answer(beast::tcp_stream& stream, beast::flat_buffer& buffer, const Router& router,
                                const ServerConfig& config, net::thread_pool& workers, HttpExchange& x) {
  http::request_parser<http::string_body> parser;
  parser.header_limit(16 * 1024);
  // The body limit depends on the route, known only once the header is in: read the header
  // with no limit, then apply the route's (to a declared length here, to chunks as they come).
  parser.body_limit(boost::none);
  // One deadline for the whole header, however slowly its bytes come.
  stream.expires_after(std::chrono::seconds(config.header_timeout_seconds));
  beast::error_code hec;
  std::tie(hec, std::ignore) = co_await http::async_read_header(stream, buffer, parser, use_tuple);
  if (hec) co_return false;  // closed, timed out, or garbage before a header: nothing to answer
  stream.expires_after(std::chrono::seconds(config.read_timeout_seconds));
  const auto& header = parser.get();
  x.method = std::string(header.method_string());
  x.target = std::string(header.target());
  const size_t limit = router.body_limit(x.method, x.target);
  beast::error_code bec;
  x.too_large = parser.content_length() && *parser.content_length() > limit;
  if (!x.too_large) {
    parser.body_limit(limit);
    std::tie(bec, std::ignore) = co_await http::async_read(stream, buffer, parser, use_tuple);
    x.too_large = bec == http::error::body_limit;
  }
  x.keep_alive = header.keep_alive();
  x.version = header.version();  // `header` is moved out by release() below
  if (x.too_large) {
    x.response = error_response({util::Errc::too_large, "the request body is over the limit of " +
                                                            std::to_string(limit) + " bytes"}, x.target);
    x.keep_alive = false;
    co_return true;
  }
  if (bec) {
    util::logger("api")->debug("{} {}: reading the body failed: {}", x.method, x.target, bec.message());
    co_return false;
  }
  auto req = parser.release();
  if (!token_accepted(req[http::field::authorization], config.token)) {
    x.response = error_response({util::Errc::invalid_argument, "a valid bearer token is required"}, x.target);
    x.response.status = 401;
    x.unauthorized = true;
    co_return true;
  }
  Request request{x.method, x.target, std::move(req.body()), std::string(req[http::field::content_type]),
                  std::string(req["Last-Event-ID"])};
  x.response = co_await net::co_spawn(workers, route_on_worker(router, std::move(request)), net::use_awaitable);
  co_return true;
}

// Writes the response. False when the connection ends with it: the write failed or the
// exchange does not keep the connection alive. After a 413 it takes in the rest of the refused
// body first (bounded), so that a client still sending it can read the 413 instead of
// meeting a reset.
awaitable<bool> write_answer(beast::tcp_stream& stream, const HttpExchange& x, int write_timeout_seconds) {
  auto out = to_beast(x.response, x.version, x.keep_alive);
  if (x.unauthorized) {
    // Two challenges, one line each: a browser on the dashboard answers the Basic one.
    out.insert(http::field::www_authenticate, bearer_challenge);
    out.insert(http::field::www_authenticate, basic_challenge);
  }
  stream.expires_after(std::chrono::seconds(write_timeout_seconds));
  beast::error_code wec;
  std::tie(wec, std::ignore) = co_await http::async_write(stream, out, use_tuple);
  util::logger("api")->debug("{} {}: answered {} ({})", x.method, x.target, x.response.status, wec ? wec.message() : "ok");
  if (!wec && x.too_large) {
    std::vector<char> scratch(64 * 1024);
    stream.expires_after(std::chrono::seconds(5));
    for (size_t drained = 0; drained < (size_t(256) << 20);) {
      beast::error_code rec;
      size_t n = 0;
      std::tie(rec, n) = co_await stream.async_read_some(net::buffer(scratch), use_tuple);
      if (rec) break;
      drained += n;
    }
  }
  if (wec || !x.keep_alive) {
    beast::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
    co_return false;
  }
  co_return true;
}

}  // namespace

Server::Server(net::io_context& io, const Router& router, ServerConfig config)
    : io_(io), router_(router), config_(std::move(config)), workers_(std::max(1, config_.worker_threads)), acceptor_(io) {}

Server::~Server() { join_workers(); }

void Server::join_workers() { workers_.join(); }

void Server::stop_accepting() {
  beast::error_code ec;
  acceptor_.close(ec);
}

util::Result<unsigned short> Server::start() {
  beast::error_code ec;
  auto address = net::ip::make_address(config_.host, ec);
  if (ec) return util::fail(util::Errc::invalid_argument, "not an IP address: " + config_.host);
  if (!address.is_loopback() && config_.token.empty())
    return util::fail(util::Errc::invalid_argument,
                      "listening on " + config_.host + " (not loopback) needs a bearer token (--token or FLAKESCAN_TOKEN)");
  tcp::endpoint endpoint{address, config_.port};
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(net::socket_base::max_listen_connections, ec);
  if (ec) return util::fail(util::Errc::io, "cannot listen on " + config_.host + ":" + std::to_string(config_.port) + ": " + ec.message());
  unsigned short port = acceptor_.local_endpoint().port();

  net::co_spawn(io_, accept_loop(), net::detached);
  return port;
}


awaitable<void> Server::accept_loop() {
  net::steady_timer pause(io_);
  for (;;) {
    auto [ec, socket] = co_await acceptor_.async_accept(use_tuple);
    if (ec) {
      if (!acceptor_.is_open()) co_return;
      // Out of descriptors (EMFILE) fails every accept at once: wait instead of spinning.
      util::logger("api")->warn("accept failed: {}", ec.message());
      pause.expires_after(100ms);
      co_await pause.async_wait(use_tuple);
      continue;
    }
    if (slots_->connections.load() >= config_.max_connections) {
      refuse(std::move(socket));
      continue;
    }
    ++slots_->connections;
    net::co_spawn(io_, session(std::move(socket)), net::detached);
  }
}

void Server::refuse(tcp::socket socket) {
  static const std::string body =
      problem_json({util::Errc::too_large, "the daemon has its maximum of open connections; retry later"}, "", 503);
  static const std::string text = "HTTP/1.1 503 Service Unavailable\r\nServer: flakescand/" FLAKESCAN_VERSION
                                  "\r\nContent-Type: application/problem+json\r\nRetry-After: 1\r\nConnection: close\r\n"
                                  "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  // A fresh socket's send buffer takes this whole: one non-blocking write, never a wait.
  beast::error_code ec;
  socket.non_blocking(true, ec);
  if (!ec) socket.write_some(net::buffer(text), ec);
  socket.shutdown(tcp::socket::shutdown_send, ec);
  socket.close(ec);
  util::logger("api")->debug("refused a connection: {} open (limit {})", slots_->connections.load(), config_.max_connections);
}

bool Server::Slots::enter_stream(const std::string& key, int max) {
  std::lock_guard lock(mutex);
  int& n = streams[key];
  if (n >= max) {
    if (n == 0) streams.erase(key);
    return false;
  }
  ++n;
  return true;
}

void Server::Slots::leave_stream(const std::string& key) {
  std::lock_guard lock(mutex);
  if (auto it = streams.find(key); it != streams.end() && --it->second <= 0) streams.erase(it);
}

awaitable<void> Server::session(tcp::socket socket) {
  ConnectionPlace counted(slots_);
  beast::tcp_stream stream(std::move(socket));
  beast::flat_buffer buffer;
  for (;;) {
    HttpExchange x;
    if (!co_await read_and_answer(stream, buffer, router_, config_, workers_, x)) co_return;
    ++slots_->answered;
    if (x.response.stream) {
      auto& response = x.response;
      std::string key = response.stream_key.empty() ? std::to_string(reinterpret_cast<std::uintptr_t>(response.stream.get()))
                                                    : response.stream_key;
      if (slots_->enter_stream(key, config_.max_event_streams_per_scan)) {
        StreamPlace leave(slots_, key);
        co_await stream_events(stream, response, x.version, config_.read_timeout_seconds);
        co_return;
      }
      response = Response{};
      response.status = 503;
      response.content_type = "application/problem+json";
      response.body = problem_json({util::Errc::too_large, "this scan has its maximum of " +
                                                               std::to_string(config_.max_event_streams_per_scan) +
                                                               " event streams open; retry later"}, x.target, 503);
      response.headers["Retry-After"] = "1";
      x.keep_alive = false;
    }
    if (!co_await write_answer(stream, x, config_.read_timeout_seconds)) co_return;
  }
}

}  // namespace flakescan::api
