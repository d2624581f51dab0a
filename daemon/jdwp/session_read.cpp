// The session's reading side: the reading role shared by the io thread and waiting callers,
// framing and dispatch, the event queue and its waiters, flow control (policy in session.hpp).
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/post.hpp>

#include "jdwp/session.hpp"
#include "jdwp/wire_log.hpp"
#include "util/log.hpp"

namespace flakescan::jdwp {

namespace asio = boost::asio;
using util::Errc;

namespace {
auto read_log() {
  static auto logger = util::logger("jdwp");
  return logger;
}
}  // namespace

// ---- the reading role ---------------------------------------------------------------------

// The io thread watches the socket through a private epoll set (watch_fd_) that holds only
// the socket, with EPOLLONESHOT; asio waits on that set's descriptor (io_armed_: that wait
// is queued). The socket's interest there is on exactly while nobody holds the reading role:
// a caller switches it off when it takes the role and on when it hands the role back, with
// one epoll_ctl each and no wake-up of the io thread. Switching it on looks at the socket at
// once, so data that came in between is reported then, not lost.
void Session::watch_locked(bool on) {
  epoll_event ev{};
  ev.events = on ? (EPOLLIN | EPOLLRDHUP | EPOLLONESHOT) : EPOLLONESHOT;
  (void)::epoll_ctl(watch_fd_, EPOLL_CTL_MOD, fd_, &ev);
}

// On the strand: queues the asio wait on the private set unless it is queued already.
void Session::queue_watch_locked() {
  if (io_armed_ || closed_ || ended_ || !watch_) return;
  io_armed_ = true;
  watch_->async_wait(asio::posix::descriptor_base::wait_read,
                     asio::bind_executor(strand_, [self = shared_from_this()](boost::system::error_code ec) {
                       if (!ec) return self->io_read(true);
                       {
                         std::lock_guard lock(self->mutex_);
                         self->io_armed_ = false;
                       }
                       if (ec != asio::error::operation_aborted) self->shutdown("read failed: " + ec.message());
                     }));
}

void Session::post_io_read() {
  asio::post(strand_, [self = shared_from_this()] { self->io_read(false); });
}

// On the strand: takes the set's report (one-shot: the interest is off until switched on
// again), reads (non-blocking) until the socket is empty, switches the interest back on
// and queues the wait again. Does not read while a caller reads (that caller switches the
// interest on when it is done) or while the queue is full (read_paused_: deliver_locked()
// posts io_read() when the queue has drained).
void Session::io_read(bool from_wait) {
  epoll_event report{};
  (void)::epoll_wait(watch_fd_, &report, 1, 0);
  if (from_wait) stats_.io_wakes++;
  {
    std::lock_guard lock(mutex_);
    if (from_wait) io_armed_ = false;
    if (closed_ || ended_) return;
    queue_watch_locked();
    if (read_paused_ || reader_ != Reader::none) return;
    reader_ = Reader::io;
  }
  std::string why;
  for (;;) {
    const Got got = receive(why);
    if (got == Got::would_block) break;
    if (got == Got::ended || !dispatch_inbox(false, why)) {
      {
        std::lock_guard lock(mutex_);
        ended_ = true;
        release_io_locked();
      }
      return shutdown(why);
    }
    std::lock_guard lock(mutex_);
    if (read_paused_ || closed_) return release_io_locked();
  }
  std::lock_guard lock(mutex_);
  release_io_locked();
  watch_locked(true);
}

// The io thread lets go of the reading role (mutex_ held); a caller may be waiting for it.
void Session::release_io_locked() {
  reader_ = Reader::none;
  if (role_waiters_ != 0) role_cv_.notify_all();
}

bool Session::read_until(const std::function<bool()>& done, Clock::time_point deadline) {
  if (done()) return true;
  {
    std::unique_lock lock(mutex_);
    for (;;) {
      if (reader_ == Reader::caller || closed_ || ended_ || read_paused_ || !started_ || wake_fd_ < 0) return false;
      if (reader_ == Reader::none) break;
      // The io thread's turns are short (it reads what is there and lets go, never waiting):
      // wait for it rather than fall back to being woken, then look again; not past the
      // deadline (a turn that dispatches many packets may outlast a short one).
      ++role_waiters_;
      const auto turn_over = [&] { return reader_ != Reader::io; };
      const bool over = deadline == Clock::time_point::max() ? (role_cv_.wait(lock, turn_over), true)
                                                            : role_cv_.wait_until(lock, deadline, turn_over);
      --role_waiters_;
      if (!over) return false;
      lock.unlock();
      if (done()) return true;
      lock.lock();
    }
    reader_ = Reader::caller;
    watch_locked(false);  // the io thread is not woken by what this caller reads
  }
  stats_.caller_turns++;
  std::string why;
  bool lost = false;
  const int fd = fd_;
  // `done` is looked at after the role is taken: a wake_reader() from before is not missed.
  while (!done()) {
    const auto left = deadline - Clock::now();
    if (left <= Clock::duration::zero()) break;
    const auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
    epoll_event ready[2]{};
    const int n = ::epoll_wait(reader_set_, ready, 2, static_cast<int>(std::min<std::int64_t>(ms, 60'000)));
    if (n < 0 && errno != EINTR) {
      why = std::string("epoll_wait failed: ") + std::strerror(errno);
      lost = true;
      break;
    }
    bool readable = false;
    for (int i = 0; i < n; ++i) {
      if (ready[i].data.fd == fd) {
        readable = true;
      } else {
        std::uint64_t count = 0;
        (void)!::read(wake_fd_, &count, sizeof count);
      }
    }
    if (!readable) continue;
    const Got got = receive(why);
    if (got == Got::would_block) continue;
    if (got == Got::ended || !dispatch_inbox(true, why)) {
      lost = true;
      break;
    }
    std::lock_guard lock(mutex_);
    if (read_paused_ || closed_) break;
  }
  std::lock_guard lock(mutex_);
  reader_ = Reader::none;
  if (lost) {
    ended_ = true;  // nobody reads again; the strand ends the session and fails the waiters
    asio::post(strand_, [self = shared_from_this(), why] { self->shutdown(why); });
  } else if (!closed_ && !read_paused_) {
    watch_locked(true);  // reports at once anything that came after the last recv
  }
  return true;
}

void Session::wake_reader() {
  std::lock_guard lock(mutex_);
  if (reader_ != Reader::caller) return;
  const std::uint64_t one = 1;
  (void)!::write(wake_fd_, &one, sizeof one);
}

// One non-blocking recv() into the inbox (the caller holds the reading role).
Session::Got Session::receive(std::string& why) {
  for (;;) {
    const ssize_t n = ::recv(fd_, chunk_.data(), chunk_.size(), MSG_DONTWAIT);
    if (n > 0) {
      inbox_.insert(inbox_.end(), chunk_.begin(), chunk_.begin() + n);
      return Got::data;
    }
    if (n == 0) {
      why = closed_ ? close_reason_ : "the VM closed the connection";
      return Got::ended;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return Got::would_block;
    why = std::string("read failed: ") + std::strerror(errno);
    return Got::ended;
  }
}

// Frames and dispatches every whole packet in the inbox, then runs the handlers they
// complete, unlocked. False when the stream has lost its framing (`why` says how).
bool Session::dispatch_inbox(bool by_caller, std::string& why) {
  Calls calls;
  std::size_t offset = 0;
  bool framed_ok = true;
  for (;;) {
    auto framed = decode_packet(ByteView(inbox_).subspan(offset), options_.max_packet);
    if (!framed) {
      if (framed.error().code != Errc::need_more) {
        // A bad length cannot be skipped over: the stream has lost its framing.
        why = "lost packet framing: " + framed.error().message;
        framed_ok = false;
      }
      break;
    }
    if (trace_) {
      const auto& p = framed->packet;
      std::string note = p.is_reply() ? (p.error ? "reply " + error_name(p.error) : "reply")
                                      : std::string(command_name(p.command_set, p.command).value_or("command"));
      std::lock_guard lock(out_mutex_);
      trace(true, ByteView(inbox_).subspan(offset, framed->consumed), note);
    }
    offset += framed->consumed;
    stats_.packets_in++;
    if (by_caller) stats_.caller_reads++;
    route(std::move(framed->packet), calls);
  }
  inbox_.erase(inbox_.begin(), inbox_.begin() + static_cast<std::ptrdiff_t>(offset));
  for (auto& call : calls) call();
  return framed_ok;
}

void Session::route(Packet packet, Calls& calls) {
  if (packet.is_reply()) {
    Pending p;
    {
      std::lock_guard lock(pending_mutex_);
      auto it = pending_.find(packet.id);
      if (it == pending_.end()) {
        stats_.late_replies++;  // abandoned earlier, or a HoldEvents/ReleaseEvents reply
        return;
      }
      p = std::move(it->second);
      pending_.erase(it);
    }
    drop_timer(std::move(p.timer));
    calls.push_back([done = std::move(p.done), packet = std::move(packet)]() mutable { done(std::move(packet)); });
    return;
  }
  if (packet.command_set == command_set_of(Command::Event_Composite) &&
      packet.command == command_number_of(Command::Event_Composite)) {
    on_event_packet(packet, calls);
    return;
  }
  read_log()->warn("{}: ignoring command {}/{} sent by the VM", options_.name, packet.command_set, packet.command);
}

void Session::on_event_packet(const Packet& packet, Calls& calls) {
  auto set = decode<EventSet>(packet.data, id_sizes());
  if (!set) {
    stats_.dropped_malformed++;
    read_log()->warn("{}: dropped an event packet: {}", options_.name, set.error().message);
    return;
  }
  std::lock_guard lock(mutex_);
  events_.push_back(std::move(*set));
  flow_control_locked();
  deliver_locked(calls);
  if (events_.size() >= 2 * options_.event_capacity) read_paused_ = true;  // lifted by deliver_locked()
}

// Holds or releases the VM's events by the queue's length (mutex_ held; the packets go out
// under it so that a Hold and a Release are never sent in the other order).
void Session::flow_control_locked() {
  if (closed_) return;
  if (!held_ && events_.size() >= options_.event_capacity) {
    held_ = true;
    stats_.holds++;
    fire_and_forget(Command::VirtualMachine_HoldEvents);
  } else if (held_ && events_.size() <= options_.event_capacity / 2) {
    held_ = false;
    fire_and_forget(Command::VirtualMachine_ReleaseEvents);
  }
}

// A timer belongs to the strand: cancelled and destroyed there, whoever lets go of it.
void Session::drop_timer(std::unique_ptr<asio::steady_timer> timer) {
  if (!timer) return;
  if (strand_.running_in_this_thread()) {
    timer->cancel();
    return;
  }
  asio::post(strand_, [t = std::shared_ptr<asio::steady_timer>(std::move(timer))] { t->cancel(); });
}

// ---- events -------------------------------------------------------------------------------

void Session::next_event(Clock::time_point deadline, EventHandler done) {
  {
    std::lock_guard lock(mutex_);
    if (!closed_ && events_.empty() && posted_waiters_ == 0) {
      // Nothing queued: the set will come from the socket, to whoever reads it.
      const std::uint64_t id = next_waiter_++;
      waiters_.push_back(Waiter{id, std::move(done), nullptr});
      if (deadline != Clock::time_point::max()) {
        asio::post(strand_, [self = shared_from_this(), id, deadline] { self->register_waiter_timer(id, deadline); });
      }
      return;
    }
    ++posted_waiters_;
  }
  asio::post(strand_, [self = shared_from_this(), deadline, done = std::move(done)]() mutable {
    Calls calls;
    std::uint64_t id = 0;
    {
      std::lock_guard lock(self->mutex_);
      --self->posted_waiters_;
      id = self->next_waiter_++;
      self->waiters_.push_back(Waiter{id, std::move(done), nullptr});
      self->deliver_locked(calls);
    }
    for (auto& call : calls) call();
    if (deadline != Clock::time_point::max()) self->register_waiter_timer(id, deadline);
    self->wake_reader();
  });
}

// On the strand: the deadline of a waiter that is still waiting.
void Session::register_waiter_timer(std::uint64_t id, Clock::time_point deadline) {
  auto timer = std::make_unique<asio::steady_timer>(strand_, deadline);
  auto* raw = timer.get();
  {
    std::lock_guard lock(mutex_);
    auto it = std::find_if(waiters_.begin(), waiters_.end(), [id](const Waiter& w) { return w.id == id; });
    if (it == waiters_.end()) return;  // served already
    it->timer = std::move(timer);
  }
  // `raw` stays valid here: a timer taken by another thread is destroyed on this strand, later.
  raw->async_wait(asio::bind_executor(strand_, [self = shared_from_this(), id](boost::system::error_code ec) {
    if (!ec) self->expire_waiter(id);
  }));
}

void Session::expire_waiter(std::uint64_t id) {
  EventHandler handler;
  {
    std::lock_guard lock(mutex_);
    auto it = std::find_if(waiters_.begin(), waiters_.end(), [id](const Waiter& w) { return w.id == id; });
    if (it == waiters_.end()) return;
    handler = std::move(it->done);
    waiters_.erase(it);
  }
  handler(util::fail(Errc::timeout, "no event before the deadline"));
  wake_reader();
}

// Hands queued sets to waiters, oldest first; after the end, fails the waiters left once
// the queue is empty; lifts the read pause when the queue has drained (mutex_ held).
void Session::deliver_locked(Calls& calls) {
  while (!waiters_.empty() && !events_.empty()) {
    Waiter w = std::move(waiters_.front());
    waiters_.pop_front();
    drop_timer(std::move(w.timer));
    calls.push_back([done = std::move(w.done), set = std::move(events_.front())]() mutable { done(std::move(set)); });
    events_.pop_front();
  }
  if (closed_) {
    while (!waiters_.empty() && events_.empty()) {
      Waiter w = std::move(waiters_.front());
      waiters_.pop_front();
      drop_timer(std::move(w.timer));
      calls.push_back([done = std::move(w.done), reason = close_reason_] { done(util::fail(Errc::disconnected, reason)); });
    }
    return;
  }
  flow_control_locked();
  if (read_paused_ && events_.size() < 2 * options_.event_capacity) {
    read_paused_ = false;
    post_io_read();
  }
}

}  // namespace flakescan::jdwp
