#pragma once
// A scripted fake VM for the session tests (session_test.cpp, session_reader_test.cpp):
// accepts one debugger on loopback (port 0), answers the handshake and IDSizes, then runs
// `script` with blocking helpers to read commands and write packets.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

#include <catch2/catch.hpp>

#include "jdwp/client.hpp"

namespace flakescan::jdwp::testing {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

class FakeVm {
 public:
  explicit FakeVm(std::function<void(FakeVm&)> script) : acceptor_(io_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
    port_ = acceptor_.local_endpoint().port();
    thread_ = std::thread([this, script = std::move(script)] {
      socket_ = std::make_unique<tcp::socket>(acceptor_.accept());
      Bytes hs(14);
      asio::read(*socket_, asio::buffer(hs));
      asio::write(*socket_, asio::buffer(encode_handshake()));
      auto sizes = read_command();
      Writer w(IdSizes{});
      w(std::int32_t{8}, std::int32_t{8}, std::int32_t{8}, std::int32_t{8}, std::int32_t{8});
      reply(sizes.id, w.take());
      script(*this);
    });
  }
  ~FakeVm() { join(); }
  // Waits for the script to end. A test whose script reads the client's SessionStats joins
  // before the client goes: what the script sends afterwards reaches the test through the
  // socket, which orders nothing for ThreadSanitizer, and the stats die with the client.
  void join() {
    if (thread_.joinable()) thread_.join();
  }

  unsigned short port() const { return port_; }

  Packet read_command() {
    Bytes header(4);
    asio::read(*socket_, asio::buffer(header));
    const std::uint32_t length = (header[0] << 24) | (header[1] << 16) | (header[2] << 8) | header[3];
    Bytes rest(length - 4);
    asio::read(*socket_, asio::buffer(rest));
    header.insert(header.end(), rest.begin(), rest.end());
    return decode_packet(header).value().packet;
  }
  void reply(std::uint32_t id, Bytes data, std::uint16_t error = 0) {
    Packet p{.id = id, .flags = reply_flag, .command_set = 0, .command = 0, .error = error, .data = std::move(data)};
    asio::write(*socket_, asio::buffer(encode_packet(p)));
  }
  void event(const EventSet& set) { send_event_bytes(encode(set, IdSizes{})); }
  void send_event_bytes(Bytes data) {
    Packet p{.id = next_id_++, .flags = 0, .command_set = 64, .command = 100, .error = 0, .data = std::move(data)};
    asio::write(*socket_, asio::buffer(encode_packet(p)));
  }
  void close() { socket_->close(); }

 private:
  asio::io_context io_;
  tcp::acceptor acceptor_;
  unsigned short port_ = 0;
  std::unique_ptr<tcp::socket> socket_;
  std::thread thread_;
  std::uint32_t next_id_ = 1000;
};

inline EventSet thread_start(std::uint64_t thread) {
  EventSet set;
  set.suspend = SuspendPolicy::none;
  Event e;
  e.kind = EventKind::thread_start;
  e.request_id = 3;
  e.thread = ObjectId{thread};
  set.events.push_back(e);
  return set;
}

inline Clock::time_point soon() { return Clock::now() + std::chrono::seconds(10); }

inline std::unique_ptr<Client> connect(FakeVm& vm, SessionOptions options = {}) {
  auto client = Client::connect("127.0.0.1", vm.port(), std::move(options), soon());
  REQUIRE(client);
  return std::move(*client);
}


// Blocks until a calling thread has taken the reading role `turns` times in all (the
// session counts it when it takes the role, before it waits): what is sent after this is
// read by that caller. `stats` is set by the test once connected; the test joins the fake
// before its client goes (FakeVm::join).
inline void wait_for_reading_caller(const std::atomic<const SessionStats*>& stats, std::uint64_t turns = 1) {
  while (stats.load() == nullptr || stats.load()->caller_turns < turns) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

}  // namespace flakescan::jdwp::testing
