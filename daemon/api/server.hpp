#pragma once
// The HTTP server: Boost.Beast over one io_context. Listener -> one coroutine per connection;
// each request is read with a header timeout and a body limit, then handed to the Router on
// a worker pool (handlers may block), and the response is written back on the connection's
// executor. /events responses stream server-sent events until the scan's log closes or the
// client goes away. A bearer token, when configured, is required on every request.
#include <functional>
#include <memory>
#include <string>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/thread_pool.hpp>

#include "api/router.hpp"

namespace flakescan::api {

struct ServerConfig {
  std::string host = "127.0.0.1";
  unsigned short port = 7711;   // 0: any free port
  std::string token;            // empty: no authentication (loopback only)
  int read_timeout_seconds = 30;
  int worker_threads = 4;
};

class Server {
 public:
  Server(boost::asio::io_context& io, const Router& router, ServerConfig config);
  ~Server();
  // Binds and starts accepting; returns the port actually bound.
  util::Result<unsigned short> start();
  // Stops accepting new connections; open ones finish their current exchange.
  void stop_accepting();
  // Waits for handlers running on the worker pool.
  void join_workers();

 private:
  // Coroutines are members, not capturing lambdas: g++ 12 destroys a coroutine lambda's
  // captures twice when co_spawn owns the lambda.
  boost::asio::awaitable<void> accept_loop();
  boost::asio::awaitable<void> session(boost::asio::ip::tcp::socket socket);

  boost::asio::io_context& io_;
  const Router& router_;
  ServerConfig config_;
  boost::asio::thread_pool workers_;
  boost::asio::ip::tcp::acceptor acceptor_;
};

}  // namespace flakescan::api
