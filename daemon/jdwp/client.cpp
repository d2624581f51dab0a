#include "jdwp/client.hpp"

#include <condition_variable>
#include <future>
#include <mutex>
#include <optional>

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

namespace {

// The replies of one batch: the io thread fills them in, the caller sleeps until the last
// one is in (one wake-up per batch, not one per reply) or its deadline passes.
struct Replies {
  std::mutex mutex;
  std::condition_variable cv;
  std::size_t missing = 0;
  std::vector<std::optional<util::Result<Packet>>> slots;

  void fill(std::size_t i, util::Result<Packet> reply) {
    {
      std::lock_guard lock(mutex);
      if (slots[i]) return;
      slots[i] = std::move(reply);
      if (--missing != 0) return;
    }
    // Outside the lock: a waiter woken while the io thread still held the mutex would go
    // straight back to sleep on it (on a loaded machine, for a whole time slice).
    cv.notify_one();
  }
};

}  // namespace

util::Result<Packet> Client::raw_call(Command command, Bytes data, Clock::time_point deadline) {
  std::vector<std::pair<Command, Bytes>> one;
  one.emplace_back(command, std::move(data));
  return std::move(raw_call_all(std::move(one), deadline).front());
}

std::vector<util::Result<Packet>> Client::raw_call_all(std::vector<std::pair<Command, Bytes>> commands,
                                                      Clock::time_point deadline) {
  // The fast path: this thread writes the packets and waits with its own deadline, so no
  // timer and no hand-off to the io thread are needed (session.hpp).
  auto replies = std::make_shared<Replies>();
  replies->missing = commands.size();
  replies->slots.resize(commands.size());
  std::vector<Command> names;
  for (const auto& c : commands) names.push_back(c.first);
  const auto ids = session_->submit_all(std::move(commands), [replies](std::size_t i, util::Result<Packet> reply) {
    replies->fill(i, std::move(reply));
  });
  // Read the replies on this thread if nobody else is reading (leader/follower,
  // session.hpp); otherwise, or once they are in, the wait below.
  session_->read_until(
      [&] {
        std::lock_guard lock(replies->mutex);
        return replies->missing == 0;
      },
      deadline);
  std::unique_lock lock(replies->mutex);
  if (!replies->cv.wait_until(lock, deadline, [&] { return replies->missing == 0; })) {
    lock.unlock();
    for (std::size_t i = 0; i < ids.size(); ++i) {
      // A request the reader has already taken is answered in a moment: wait for it below.
      if (!session_->abandon(ids[i])) continue;
      auto name = command_name(command_set_of(names[i]), command_number_of(names[i]));
      replies->fill(i, util::fail(Errc::timeout, std::string(name.value_or("request")) + " had no reply before its deadline"));
    }
    lock.lock();
    replies->cv.wait(lock, [&] { return replies->missing == 0; });
  }
  std::vector<util::Result<Packet>> out;
  out.reserve(ids.size());
  for (auto& slot : replies->slots) out.push_back(std::move(*slot));
  return out;
}

void Client::async_next_event(Clock::time_point deadline, Session::EventHandler done) {
  session_->next_event(deadline, std::move(done));
}

util::Result<EventSet> Client::next_event(Clock::time_point deadline) {
  struct Slot {
    std::mutex mutex;
    std::condition_variable cv;
    std::optional<util::Result<EventSet>> set;
  };
  auto slot = std::make_shared<Slot>();
  session_->next_event(deadline, [slot](util::Result<EventSet> set) {
    {
      std::lock_guard lock(slot->mutex);
      slot->set = std::move(set);
    }
    slot->cv.notify_one();
  });
  auto done = [&] {
    std::lock_guard lock(slot->mutex);
    return slot->set.has_value();
  };
  session_->read_until(done, deadline);
  // The session's own timer answers the waiter at the deadline if nothing else does.
  std::unique_lock lock(slot->mutex);
  slot->cv.wait(lock, [&] { return slot->set.has_value(); });
  return std::move(*slot->set);
}

bool Client::read_until(const std::function<bool()>& done, Clock::time_point deadline) {
  return session_->read_until(done, deadline);
}

void Client::wake_reader() { session_->wake_reader(); }

void Client::close(std::string reason) { session_->close(std::move(reason)); }

}  // namespace flakescan::jdwp
