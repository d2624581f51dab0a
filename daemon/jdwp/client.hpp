#pragma once
// jdwp::Client: a Session with its own io_context thread and a blocking, typed call API,
// for callers on worker threads (jdwp::JdwpVm, tests, the benchmark).
//
// Policy: the client owns one io_context run by one thread; the session's strand lives on
// it. call() and next_event() block the calling thread (never call them from a handler of
// this client). While it waits, the calling thread reads the socket itself when no other
// thread is reading (Session::read_until, leader/follower): the reply or event it waits
// for then reaches it with no hand-off, and whatever else it reads (other threads' replies,
// event sets for async_next_event) is dispatched by it as the io thread would. When
// another thread reads, it sleeps until woken as before; the io thread reads whenever no
// caller does. Every call has a deadline. Destroying the client closes the session (every
// waiter fails with Errc::disconnected) and joins the thread.
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "jdwp/session.hpp"

namespace flakescan::jdwp {

class Client {
 public:
  // Connects to a VM whose agent listens on host:port (server=y), handshakes, reads IDSizes.
  static util::Result<std::unique_ptr<Client>> connect(const std::string& host, unsigned short port, SessionOptions options,
                                                       Clock::time_point deadline);
  // Takes over an already-connected socket from any io_context (the adb backend's
  // `jdwp:<pid>` stream, an accepted agent connection) and handshakes over it.
  static util::Result<std::unique_ptr<Client>> adopt(boost::asio::ip::tcp::socket socket, SessionOptions options,
                                                     Clock::time_point deadline);

  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // One command, typed: C is a codec struct of commands.hpp/events.hpp.
  template <class C>
  util::Result<typename C::Reply> call(const typename C::Request& request, Clock::time_point deadline) {
    auto reply = raw_call(C::id, encode(request, sizes_), deadline);
    if (!reply) return std::unexpected(reply.error());
    if (reply->error != 0) {
      auto name = command_name(command_set_of(C::id), command_number_of(C::id));
      return std::unexpected(error_from_jdwp(reply->error, name.value_or("command")));
    }
    return decode<typename C::Reply>(reply->data, sizes_);
  }
  util::Result<Packet> raw_call(Command command, Bytes data, Clock::time_point deadline);
  // Several commands sent in one write before any reply is awaited (the VM's agent handles
  // commands in the order they arrive), replies in the order of `commands` whatever order
  // they come in; one round trip in all, and the caller is woken once, when the last reply
  // is in. An element is an error when that command's reply did not come (the packets
  // that did come still count).
  std::vector<util::Result<Packet>> raw_call_all(std::vector<std::pair<Command, Bytes>> commands,
                                                 Clock::time_point deadline);
  // The typed reply of a packet from raw_call_all.
  template <class C>
  util::Result<typename C::Reply> decode_reply(const util::Result<Packet>& reply) const {
    if (!reply) return std::unexpected(reply.error());
    if (reply->error != 0) {
      auto name = command_name(command_set_of(C::id), command_number_of(C::id));
      return std::unexpected(error_from_jdwp(reply->error, name.value_or("command")));
    }
    return decode<typename C::Reply>(reply->data, sizes_);
  }
  util::Result<EventSet> next_event(Clock::time_point deadline);
  // The next event set, handed to `done` on whichever thread reads it: the io thread or a
  // caller reading for itself (must not block, must not wait for this client).
  void async_next_event(Clock::time_point deadline, Session::EventHandler done);
  // For a caller about to wait for something the socket brings (Session::read_until):
  // reads on this thread until `done()` or the deadline if nobody else reads; false if it
  // could not. wake_reader() makes such a reader look at its `done` again.
  bool read_until(const std::function<bool()>& done, Clock::time_point deadline);
  void wake_reader();

  const IdSizes& sizes() const { return sizes_; }
  bool closed() const { return session_->closed(); }
  void close(std::string reason = "closed by the debugger");
  const SessionStats& stats() const { return session_->stats(); }

 private:
  Client() = default;
  util::Result<void> start(boost::asio::ip::tcp::socket socket, SessionOptions options, Clock::time_point deadline);

  boost::asio::io_context io_;
  std::unique_ptr<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work_;
  std::thread thread_;
  std::shared_ptr<Session> session_;
  IdSizes sizes_;
};

}  // namespace flakescan::jdwp
