#pragma once
// The HTTP server: Boost.Beast over one io_context. Listener -> one coroutine per connection;
// each request is read with a header timeout and a body limit, then handed to the Router on
// a worker pool (handlers may block), and the response is written back on the connection's
// executor. /events responses stream server-sent events until the scan's log closes or the
// client goes away. A bearer token, when configured, is required on every request.
// Limits (ServerConfig): open connections, event streams per scan, the time to send a
// header, the time to send a body or take a response; a client over one is answered 503 or
// closed, and never holds the daemon up.
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/thread_pool.hpp>

#include "api/router.hpp"

namespace flakescan::api {

// The limits that protect the daemon from its clients (flakescand flags, docs/daemon.md).
struct ServerConfig {
  std::string host = "127.0.0.1";
  unsigned short port = 7711;   // 0: any free port
  std::string token;            // empty: no authentication (loopback only)
  // From a connection's start (or the end of its previous exchange) to a complete request
  // header: a client that sends its header slowly (slowloris) or idles is closed after it.
  int header_timeout_seconds = 10;
  // Reading a request's body, and writing any response or event-stream chunk: a client that
  // stops reading is dropped after it.
  int read_timeout_seconds = 30;
  // Open connections; past it a new connection is answered 503 and closed at once.
  int max_connections = 512;
  // Event-stream (SSE) clients on one scan; past it GET .../events answers 503.
  int max_event_streams_per_scan = 256;
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
  // Connections open now (event streams included).
  int open_connections() const { return slots_->connections.load(); }
  // Requests answered since the start: one that came and went between two looks at
  // open_connections() still shows here. A connection that sends nothing (a port probe) does not.
  std::uint64_t requests_answered() const { return slots_->answered.load(); }

 private:
  // Coroutines are members, not capturing lambdas: g++ 12 destroys a coroutine lambda's
  // captures twice when co_spawn owns the lambda.
  boost::asio::awaitable<void> accept_loop();
  boost::asio::awaitable<void> session(boost::asio::ip::tcp::socket socket);

  // Answers 503 on a connection over max_connections without reading it, then closes it.
  void refuse(boost::asio::ip::tcp::socket socket);

  // Open connections and event streams. Shared with the sessions: a session frame that the
  // io_context destroys after the Server (at exit) still gives its places back safely.
  struct Slots {
    std::atomic<int> connections{0};
    std::atomic<std::uint64_t> answered{0};
    std::mutex mutex;
    std::map<std::string, int> streams;  // open event streams per scan
    // Counts an event stream of `key` (a scan) in; false when the scan has `max` already.
    bool enter_stream(const std::string& key, int max);
    void leave_stream(const std::string& key);
  };
  // Give a session's places back when it ends. Classes of the Server, not local to the
  // coroutine (a coroutine frame holding a type without linkage is what -Wsubobject-linkage
  // warns about once the file is part of a unity batch); constructors, not aggregate
  // initialisation: g++ 12 destroys an aggregate-initialised local of a coroutine twice.
  class ConnectionPlace {
   public:
    explicit ConnectionPlace(std::shared_ptr<Slots> slots) : slots_(std::move(slots)) {}
    ~ConnectionPlace() { --slots_->connections; }

   private:
    std::shared_ptr<Slots> slots_;
  };
  class StreamPlace {
   public:
    StreamPlace(std::shared_ptr<Slots> slots, std::string key) : slots_(std::move(slots)), key_(std::move(key)) {}
    ~StreamPlace() { slots_->leave_stream(key_); }

   private:
    std::shared_ptr<Slots> slots_;
    std::string key_;
  };

  boost::asio::io_context& io_;
  const Router& router_;
  ServerConfig config_;
  std::shared_ptr<Slots> slots_ = std::make_shared<Slots>();
  boost::asio::thread_pool workers_;
  boost::asio::ip::tcp::acceptor acceptor_;
};

}  // namespace flakescan::api
