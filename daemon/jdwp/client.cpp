#include "jdwp/client.hpp"

#include <future>

#include <boost/asio/connect.hpp>

namespace flakescan::jdwp {

namespace asio = boost::asio;
using util::Errc;

util::Result<std::unique_ptr<Client>> Client::connect(const std::string& host, unsigned short port, SessionOptions options,
                                                      Clock::time_point deadline) {
  asio::io_context io;
  asio::ip::tcp::socket socket(io);
  boost::system::error_code ec;
  auto address = asio::ip::make_address(host, ec);
  if (ec) return util::fail(Errc::invalid_argument, "bad address " + host + ": " + ec.message());
  std::optional<boost::system::error_code> result;
  socket.async_connect({address, port}, [&](boost::system::error_code e) { result = e; });
  io.run_until(deadline);
  if (!result) return util::fail(Errc::timeout, "connect to " + host + ":" + std::to_string(port) + " timed out");
  if (*result) return util::fail(Errc::disconnected, "connect to " + host + ":" + std::to_string(port) + ": " + result->message());
  return adopt(std::move(socket), std::move(options), deadline);
}

util::Result<std::unique_ptr<Client>> Client::adopt(asio::ip::tcp::socket socket, SessionOptions options,
                                                    Clock::time_point deadline) {
  std::unique_ptr<Client> client(new Client());
  boost::system::error_code ec;
  const auto protocol = socket.local_endpoint(ec).protocol();
  if (ec) return util::fail(Errc::disconnected, "socket is not connected: " + ec.message());
  const int fd = socket.release(ec);
  if (ec) return util::fail(Errc::io, "cannot take over the socket: " + ec.message());
  asio::ip::tcp::socket own(client->io_, protocol, fd);
  if (auto ok = client->start(std::move(own), std::move(options), deadline); !ok) return std::unexpected(ok.error());
  return client;
}

util::Result<void> Client::start(asio::ip::tcp::socket socket, SessionOptions options, Clock::time_point deadline) {
  work_ = std::make_unique<asio::executor_work_guard<asio::io_context::executor_type>>(io_.get_executor());
  thread_ = std::thread([this] { io_.run(); });
  session_ = Session::create(std::move(socket), std::move(options));
  std::promise<util::Result<IdSizes>> promise;
  auto future = promise.get_future();
  session_->start(deadline, [&promise](util::Result<IdSizes> sizes) { promise.set_value(std::move(sizes)); });
  auto sizes = future.get();
  if (!sizes) return std::unexpected(sizes.error());
  sizes_ = *sizes;
  return {};
}

Client::~Client() {
  if (session_) session_->close();
  work_.reset();
  // Once the socket is closed every handler completes (failed requests, cancelled timers)
  // and run() returns by itself: nobody blocked in call() is left hanging.
  if (thread_.joinable()) thread_.join();
}

util::Result<Packet> Client::raw_call(Command command, Bytes data, Clock::time_point deadline) {
  // The fast path: this thread writes the packet and waits with its own deadline, so no
  // timer and no hand-off to the io thread are needed (session.hpp).
  auto promise = std::make_shared<std::promise<util::Result<Packet>>>();
  auto future = promise->get_future();
  const auto id = session_->submit(command, std::move(data), [promise](util::Result<Packet> reply) {
    promise->set_value(std::move(reply));
  });
  if (future.wait_until(deadline) == std::future_status::timeout && session_->abandon(id)) {
    auto name = command_name(command_set_of(command), command_number_of(command));
    return util::fail(Errc::timeout, std::string(name.value_or("request")) + " had no reply before its deadline");
  }
  return future.get();
}

std::vector<util::Result<Packet>> Client::raw_call_all(std::vector<std::pair<Command, Bytes>> commands,
                                                      Clock::time_point deadline) {
  struct Sent {
    Command command;
    std::uint32_t id;
    std::future<util::Result<Packet>> reply;
  };
  std::vector<Sent> sent;
  for (auto& [command, data] : commands) {
    auto promise = std::make_shared<std::promise<util::Result<Packet>>>();
    auto future = promise->get_future();
    auto id = session_->submit(command, std::move(data), [promise](util::Result<Packet> reply) {
      promise->set_value(std::move(reply));
    });
    sent.push_back({command, id, std::move(future)});
  }
  std::vector<util::Result<Packet>> out;
  for (auto& s : sent) {
    if (s.reply.wait_until(deadline) == std::future_status::timeout && session_->abandon(s.id)) {
      auto name = command_name(command_set_of(s.command), command_number_of(s.command));
      out.push_back(util::fail(Errc::timeout, std::string(name.value_or("request")) + " had no reply before its deadline"));
      continue;
    }
    out.push_back(s.reply.get());
  }
  return out;
}

void Client::async_next_event(Clock::time_point deadline, Session::EventHandler done) {
  session_->next_event(deadline, std::move(done));
}

util::Result<EventSet> Client::next_event(Clock::time_point deadline) {
  std::promise<util::Result<EventSet>> promise;
  auto future = promise.get_future();
  session_->next_event(deadline, [&promise](util::Result<EventSet> set) { promise.set_value(std::move(set)); });
  return future.get();
}

void Client::close(std::string reason) { session_->close(std::move(reason)); }

}  // namespace flakescan::jdwp
