#include "jdwp/session.hpp"

#include <cerrno>
#include <cstring>

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

#include "jdwp/wire_log.hpp"
#include "util/log.hpp"

namespace flakescan::jdwp {

namespace asio = boost::asio;
using util::Errc;

namespace {
auto log() {
  static auto logger = util::logger("jdwp");
  return logger;
}
}  // namespace

std::shared_ptr<Session> Session::create(asio::ip::tcp::socket socket, SessionOptions options) {
  return std::shared_ptr<Session>(new Session(std::move(socket), std::move(options)));
}

namespace {
// A private epoll set holding only `fd`, with its interest off (EPOLLONESHOT alone); -1 if
// it cannot be made.
int private_watch(int fd) {
  const int set = ::epoll_create1(EPOLL_CLOEXEC);
  if (set < 0) return -1;
  epoll_event ev{};
  ev.events = EPOLLONESHOT;
  if (::epoll_ctl(set, EPOLL_CTL_ADD, fd, &ev) == 0) return set;
  ::close(set);
  return -1;
}
// A reading caller's wait set: `socket` and `wake` for input, level-triggered; -1 if it
// cannot be made.
int reader_set(int socket, int wake) {
  if (socket < 0 || wake < 0) return -1;
  const int set = ::epoll_create1(EPOLL_CLOEXEC);
  if (set < 0) return -1;
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLRDHUP;
  ev.data.fd = socket;
  epoll_event woken{};
  woken.events = EPOLLIN;
  woken.data.fd = wake;
  if (::epoll_ctl(set, EPOLL_CTL_ADD, socket, &ev) == 0 && ::epoll_ctl(set, EPOLL_CTL_ADD, wake, &woken) == 0) return set;
  ::close(set);
  return -1;
}
}  // namespace

Session::Session(asio::ip::tcp::socket socket, SessionOptions options)
    : socket_(std::move(socket)), strand_(asio::make_strand(socket_.get_executor())), options_(std::move(options)) {
  if (!options_.trace_path.empty()) {
    trace_.open(options_.trace_path, std::ios::out | std::ios::trunc);
    if (trace_) trace_ << "# flakescan jdwp wire trace (" << options_.name << ")\n";
  }
  boost::system::error_code ec;
  socket_.set_option(asio::ip::tcp::no_delay(true), ec);
  fd_ = socket_.native_handle();
  wake_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  reader_set_ = reader_set(fd_, wake_fd_);
  watch_fd_ = private_watch(fd_);
  if (watch_fd_ >= 0) watch_ = std::make_unique<asio::posix::stream_descriptor>(socket_.get_executor(), watch_fd_);
  const int write_fd = private_watch(fd_);
  if (write_fd >= 0) write_watch_ = std::make_unique<asio::posix::stream_descriptor>(socket_.get_executor(), write_fd);
}

Session::~Session() {
  boost::system::error_code ec;
  if (socket_.is_open()) socket_.close(ec);
  else if (fd_ >= 0) ::close(fd_);  // released from asio after the handshake
  if (wake_fd_ >= 0) ::close(wake_fd_);
  if (reader_set_ >= 0) ::close(reader_set_);
}

IdSizes Session::id_sizes() const {
  std::lock_guard lock(sizes_mutex_);
  return sizes_;
}

// Callers hold out_mutex_ (writers, and the reader for each packet it frames).
void Session::trace(bool from_vm, ByteView bytes, std::string_view note) {
  if (!trace_) return;
  trace_ << format_trace_packet(from_vm, bytes, note);
  trace_.flush();
}

// ---- start: handshake, IDSizes, reader ----------------------------------------------------

void Session::start(Clock::time_point deadline, StartHandler done) {
  asio::post(strand_, [self = shared_from_this(), deadline, done = std::move(done)]() mutable {
    self->do_handshake(deadline, std::move(done));
  });
}

void Session::do_handshake(Clock::time_point deadline, StartHandler done) {
  if (!watch_ || !write_watch_ || wake_fd_ < 0 || reader_set_ < 0) {
    shutdown("cannot make the reader's descriptors (epoll, eventfd)");
    return done(util::fail(Errc::io, close_reason_));
  }
  auto timer = std::make_shared<asio::steady_timer>(strand_, deadline);
  auto self = shared_from_this();
  timer->async_wait(asio::bind_executor(strand_, [self](boost::system::error_code ec) {
    if (!ec) self->shutdown("handshake timed out");
  }));
  auto out = std::make_shared<Bytes>(encode_handshake());
  if (trace_) trace_ << format_trace_handshake(false);
  asio::async_write(socket_, asio::buffer(*out), asio::bind_executor(strand_, [self, out, timer, done](boost::system::error_code ec, std::size_t) mutable {
    if (ec) {
      timer->cancel();
      self->shutdown("handshake write failed: " + ec.message());
      return done(util::fail(Errc::disconnected, self->close_reason_));
    }
    auto in = std::make_shared<Bytes>(handshake_text.size());
    asio::async_read(self->socket_, asio::buffer(*in), asio::bind_executor(self->strand_, [self, in, timer, done](boost::system::error_code ec2, std::size_t) mutable {
      timer->cancel();
      if (ec2) {
        self->shutdown("handshake read failed: " + (self->closed_ ? self->close_reason_ : ec2.message()));
        return done(util::fail(self->close_reason_.find("timed out") != std::string::npos ? Errc::timeout : Errc::disconnected, self->close_reason_));
      }
      if (auto ok = decode_handshake(*in); !ok) {
        self->shutdown("peer sent no JDWP handshake");
        return done(util::fail(Errc::malformed, self->close_reason_));
      }
      if (self->trace_) self->trace_ << format_trace_handshake(true);
      bool taken = false;
      {
        // From here on the socket is read and written only through its descriptor: asio
        // lets go of it, so that its reactor (which watches every socket it owns, edge-
        // triggered, for input) does not wake the io thread for every packet a caller reads.
        std::lock_guard lock(self->mutex_);
        boost::system::error_code released;
        taken = self->socket_.release(released) >= 0 && !released;
        self->started_ = taken;
      }
      if (!taken) {
        self->shutdown("cannot take the socket from asio");
        return done(util::fail(Errc::io, self->close_reason_));
      }
      self->io_read(false);
      // IDSizes is answered with 8-byte defaults never in play: its reply has no ids.
      self->request(Command::VirtualMachine_IDSizes, {}, Clock::now() + std::chrono::seconds(30),
                    [self, done](util::Result<Packet> reply) mutable {
                      if (!reply) return done(std::unexpected(reply.error()));
                      if (reply->error != 0) return done(std::unexpected(error_from_jdwp(reply->error, "IDSizes")));
                      auto sizes = decode<VmIdSizes::Reply>(reply->data, IdSizes{});
                      if (!sizes) return done(std::unexpected(sizes.error()));
                      if (auto ok = validate(sizes->sizes); !ok) return done(std::unexpected(ok.error()));
                      {
                        std::lock_guard lock(self->sizes_mutex_);
                        self->sizes_ = sizes->sizes;
                      }
                      if (self->trace_) {
                        std::lock_guard lock(self->out_mutex_);
                        self->trace_ << format_trace_sizes(sizes->sizes);
                      }
                      done(sizes->sizes);
                    });
    }));
  }));
}

// ---- requests -----------------------------------------------------------------------------

std::uint32_t Session::submit(Command command, Bytes data, ReplyHandler done) {
  std::vector<std::pair<Command, Bytes>> one;
  one.emplace_back(command, std::move(data));
  auto handler = std::make_shared<ReplyHandler>(std::move(done));
  return submit_all(std::move(one), [handler](std::size_t, util::Result<Packet> reply) { (*handler)(std::move(reply)); })
      .front();
}

std::vector<std::uint32_t> Session::submit_all(std::vector<std::pair<Command, Bytes>> commands, IndexedReplyHandler done) {
  std::vector<std::uint32_t> ids(commands.size(), 0);
  auto shared = std::make_shared<IndexedReplyHandler>(std::move(done));
  {
    std::lock_guard lock(pending_mutex_);
    if (!closed_) {
      for (std::size_t i = 0; i < commands.size(); ++i) {
        ids[i] = next_id_++;
        pending_.emplace(ids[i], Pending{commands[i].first, [shared, i](util::Result<Packet> r) { (*shared)(i, std::move(r)); },
                                         nullptr});
      }
    }
  }
  if (!commands.empty() && ids.front() == 0) {
    for (std::size_t i = 0; i < commands.size(); ++i) (*shared)(i, util::fail(Errc::disconnected, close_reason_));
    return ids;
  }
  std::vector<Packet> packets(commands.size());
  for (std::size_t i = 0; i < commands.size(); ++i) {
    packets[i].id = ids[i];
    packets[i].command_set = command_set_of(commands[i].first);
    packets[i].command = command_number_of(commands[i].first);
    packets[i].data = std::move(commands[i].second);
  }
  send(std::move(packets));
  return ids;
}

std::optional<Session::ReplyHandler> Session::abandon(std::uint32_t id) {
  std::unique_ptr<asio::steady_timer> timer;
  ReplyHandler handler;
  {
    std::lock_guard lock(pending_mutex_);
    auto it = pending_.find(id);
    if (it == pending_.end()) return std::nullopt;
    handler = std::move(it->second.done);
    timer = std::move(it->second.timer);
    pending_.erase(it);
  }
  drop_timer(std::move(timer));  // a timer is the strand's to cancel and destroy
  return handler;
}

void Session::request(Command command, Bytes data, Clock::time_point deadline, ReplyHandler done) {
  const std::uint32_t id = submit(command, std::move(data), std::move(done));
  if (id == 0) return;
  asio::post(strand_, [self = shared_from_this(), id, command, deadline] {
    auto timer = std::make_unique<asio::steady_timer>(self->strand_, deadline);
    auto* raw = timer.get();
    {
      std::lock_guard lock(self->pending_mutex_);
      auto it = self->pending_.find(id);
      if (it == self->pending_.end()) return;  // answered already
      it->second.timer = std::move(timer);
    }
    raw->async_wait(asio::bind_executor(self->strand_, [self, id, command](boost::system::error_code ec) {
      if (ec) return;  // cancelled: answered or shut down
      auto handler = self->abandon(id);
      if (!handler) return;
      auto name = command_name(command_set_of(command), command_number_of(command));
      (*handler)(util::fail(Errc::timeout, std::string(name.value_or("request")) + " had no reply before its deadline"));
      self->wake_reader();
    }));
  });
}

void Session::fire_and_forget(Command command) {
  // Only used for HoldEvents / ReleaseEvents: a reply is expected and discarded.
  Packet packet;
  {
    std::lock_guard lock(pending_mutex_);
    packet.id = next_id_++;
  }
  packet.command_set = command_set_of(command);
  packet.command = command_number_of(command);
  std::vector<Packet> one;
  one.push_back(std::move(packet));
  send(std::move(one));
}

// Every packet of `packets` in one buffer and, when nothing is queued, one send().
void Session::send(std::vector<Packet> packets) {
  Bytes bytes;
  std::vector<std::size_t> ends;  // where each packet ends in `bytes`, for the trace
  for (const auto& packet : packets) {
    Bytes one = encode_packet(packet);
    if (packets.size() == 1) bytes = std::move(one);
    else bytes.insert(bytes.end(), one.begin(), one.end());
    ends.push_back(bytes.size());
  }
  stats_.packets_out += packets.size();
  std::lock_guard lock(out_mutex_);
  if (closed_) return;  // the pending entries have been failed by shutdown()
  if (trace_) {
    std::size_t begin = 0;
    for (std::size_t i = 0; i < packets.size(); ++i) {
      auto name = command_name(packets[i].command_set, packets[i].command);
      trace(false, ByteView(bytes).subspan(begin, ends[i] - begin), name.value_or(""));
      begin = ends[i];
    }
  }
  stats_.writes++;
  if (!writing_ && outbox_.empty()) {
    (void)write_now(bytes);  // an error is the strand's to report: do_write() meets it again
    if (bytes.empty()) return;
  }
  outbox_.push_back(std::move(bytes));
  if (!writing_) {
    writing_ = true;
    asio::post(strand_, [self = shared_from_this()] { self->do_write(); });
  }
}

// Writes what the socket takes at once (out_mutex_ held; non-blocking) and leaves the rest
// in `bytes`. Returns errno of a failed send (0: all sent, or the socket is full).
int Session::write_now(Bytes& bytes) {
  std::size_t done = 0;
  int error = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) error = errno;
      break;  // full: the rest waits for the strand
    }
  }
  bytes.erase(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(done));
  return error;
}

void Session::do_write() {
  for (;;) {
    std::unique_lock lock(out_mutex_);
    if (outbox_.empty() || closed_) {
      writing_ = false;
      return;
    }
    const int error = write_now(outbox_.front());
    if (error != 0) {
      writing_ = false;
      lock.unlock();
      return shutdown(std::string("write failed: ") + std::strerror(error));
    }
    if (outbox_.front().empty()) {
      outbox_.pop_front();
      continue;
    }
    break;  // the socket is full
  }
  std::lock_guard lock(mutex_);
  if (closed_) {  // shutdown() has cancelled the socket's waits already: queue none after it
    std::lock_guard out(out_mutex_);
    writing_ = false;
    return;
  }
  // Wait for room through the private write set: interest in EPOLLOUT, one-shot.
  epoll_event ev{};
  ev.events = EPOLLOUT | EPOLLONESHOT;
  (void)::epoll_ctl(write_watch_->native_handle(), EPOLL_CTL_MOD, fd_, &ev);
  write_watch_->async_wait(asio::posix::descriptor_base::wait_read,
                           asio::bind_executor(strand_, [self = shared_from_this()](boost::system::error_code ec) {
                             if (!ec) {
                               epoll_event report{};
                               (void)::epoll_wait(self->write_watch_->native_handle(), &report, 1, 0);
                               return self->do_write();
                             }
                             {
                               std::lock_guard guard(self->out_mutex_);
                               self->writing_ = false;
                             }
                             self->shutdown("write failed: " + ec.message());
                           }));
}

// ---- end ----------------------------------------------------------------------------------

void Session::close(std::string reason) {
  asio::post(strand_, [self = shared_from_this(), reason = std::move(reason)] { self->shutdown(reason); });
}

void Session::shutdown(const std::string& reason) {
  if (closed_) return;
  std::unordered_map<std::uint32_t, Pending> pending;
  {
    std::lock_guard reading(mutex_);  // calls on the socket object
    std::lock_guard out(out_mutex_);  // no direct send() on a closing socket
    std::lock_guard lock(pending_mutex_);
    close_reason_ = "VM session ended: " + reason;
    closed_ = true;
    // Shut down, not closed: a caller may be waiting on the descriptor (the EOF wakes
    // it); the descriptor is closed with the session. cancel() ends the strand's waits.
    boost::system::error_code ec;
    if (fd_ >= 0) ::shutdown(fd_, SHUT_RDWR);
    if (socket_.is_open()) socket_.cancel(ec);  // the handshake's operations
    if (watch_) watch_->cancel(ec);
    if (write_watch_) write_watch_->cancel(ec);
    outbox_.clear();
    pending = std::move(pending_);
    pending_.clear();
  }
  log()->debug("{}: {}", options_.name, close_reason_);
  for (auto& [id, p] : pending) {
    if (p.timer) p.timer->cancel();
    p.done(util::fail(Errc::disconnected, close_reason_));
  }
  Calls calls;
  {
    std::lock_guard lock(mutex_);
    deliver_locked(calls);
  }
  for (auto& call : calls) call();
  wake_reader();
}

}  // namespace flakescan::jdwp
