#pragma once
// jdwp::Session: one debugger connection to one VM, over Asio.
//
// Policy and invariants
//   * The public functions may be called from any thread. Timers and the completion
//     handlers of the socket's asynchronous operations run on the strand (one per VM).
//     The reading state (inbox, event queue, event waiters, flow control, who reads) is
//     guarded by `mutex_`, the pending table by `pending_mutex_`, the write side by
//     `out_mutex_`; lock order mutex_, out_mutex_, pending_mutex_. Asio owns the socket only
//     for the handshake; then the session takes its descriptor (release()), because asio's
//     reactor watches every socket it owns for input, edge-triggered, and would wake the io
//     thread for every packet a caller reads. From then on the socket is read and written
//     with send/recv/epoll on the descriptor, and the io thread learns of it only through two
//     private epoll sets (reading below; room to write while a write waits, one-shot).
//     Calls on asio objects (waits, cancel) are made under mutex_.
//     Handlers are never called with a lock held (a handler may call back into the session).
//   * One reader at a time, and it may be any thread (leader/follower). A caller about to
//     block for something only the socket brings (read_until: a reply, an event) takes the
//     reading role if nobody holds it, reads the socket itself (epoll_wait + recv, its own
//     deadline), and gives the role back as soon as what it waits for has come. While
//     another caller reads, it sleeps as before and that reader wakes it; while the io
//     thread reads (a short turn that never blocks) it waits for the turn to end and looks
//     again. A reading caller waits in epoll_wait on a set of its own made once (the socket and
//     the wake eventfd). The io thread is the reader of last resort: it waits for readability and reads
//     (non-blocking) whenever no caller holds the role, so asynchronous waiters, flow
//     control and disconnects work when nobody waits. It watches the socket through a
//     private one-shot epoll set whose interest is on only while nobody holds the role: a
//     caller switches it off when it takes the role and on when it gives it back (one
//     epoll_ctl each), so the io thread is not woken by what a caller reads.
//     `SessionStats::caller_reads` counts packets read by callers, `caller_turns` the times
//     a caller took the role (so a test can tell who read, and wait until a caller reads).
//   * The reader only frames and dispatches: a reply completes the request with the same
//     id; an Event.Composite becomes an EventSet in the event queue, handed to the oldest
//     event waiter. Handlers run on the reading thread (the io thread or a caller), outside
//     the locks, and must not block. A packet that does not decode (unknown event kind,
//     truncated data) is dropped and counted; the session goes on.
//   * Something completed off the reading thread (a waiter's timer, a delivery from the
//     strand, JdwpVm's pump) is followed by wake_reader(), which makes a reading caller
//     look at its condition again (an eventfd in its wait set).
//   * Every request has a deadline; a late reply is dropped.
//   * Fast path (submit): a caller thread registers its request and writes the packet to
//     the socket itself when nothing else is queued (non-blocking send under the write
//     mutex; whatever does not fit goes to the strand's write queue). The caller waits with
//     its own deadline and abandons the request when it passes.
//   * Batches (submit_all): several commands are registered at once and their packets go
//     out in one buffer, one send() (loopback TCP costs a whole transmit path per send).
//     The VM's agent still reads and answers them one by one, in order; replies are matched
//     by id whatever order they come in. `SessionStats::writes` counts buffers handed to
//     the socket, so tests can tell one write per batch from one per packet.
//   * The event queue is bounded: at `event_capacity` queued sets the session tells the VM
//     to hold events (VirtualMachine.HoldEvents, fire-and-forget) and releases them when
//     the queue drains to half; sets already in flight still queue, and at twice the
//     capacity nobody reads (io thread or caller) until the consumer catches up.
//   * On disconnect (EOF, socket error, close()) every pending request fails at once with
//     Errc::disconnected; queued event sets are still handed out, then event waiters fail
//     with Errc::disconnected too. Nothing is retried. The end runs on the strand (a caller
//     that reads the EOF posts it); the socket is shut down at once, and its descriptor is
//     closed only with the session, so a caller still waiting on it never sees it reused.
//   * Wire trace: with `trace_path` set, every packet in both directions is appended in
//     the format of wire_log.hpp (the format the codec tests read), whoever reads it.
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include "jdwp/codec.hpp"

namespace flakescan::jdwp {

using Clock = std::chrono::steady_clock;

struct SessionOptions {
  std::size_t max_packet = default_max_packet;
  std::size_t event_capacity = 256;  // queued event sets before HoldEvents
  std::string trace_path;            // empty: no wire trace
  std::string name = "vm";           // for logs
};

struct SessionStats {
  std::atomic<std::uint64_t> packets_in{0}, packets_out{0}, dropped_malformed{0}, late_replies{0}, holds{0};
  std::atomic<std::uint64_t> writes{0};  // buffers handed to the socket (a batch is one)
  std::atomic<std::uint64_t> caller_reads{0};  // packets read by a calling thread, not the io thread
  std::atomic<std::uint64_t> caller_turns{0};  // times a calling thread took the reading role
  std::atomic<std::uint64_t> io_wakes{0};      // times the io thread was woken by the socket's watch
};

class Session : public std::enable_shared_from_this<Session> {
 public:
  using ReplyHandler = std::function<void(util::Result<Packet>)>;
  using EventHandler = std::function<void(util::Result<EventSet>)>;
  using StartHandler = std::function<void(util::Result<IdSizes>)>;

  // Takes an already-connected socket (loopback, or a `jdwp:<pid>` stream through the adb
  // server); the session's strand is made on the socket's executor.
  static std::shared_ptr<Session> create(boost::asio::ip::tcp::socket socket, SessionOptions options);
  ~Session();

  // Handshake, then VirtualMachine.IDSizes, then the reader starts. `done` gets the sizes.
  void start(Clock::time_point deadline, StartHandler done);
  // Sends a command; `done` gets the reply packet (check its error code) or an error.
  void request(Command command, Bytes data, Clock::time_point deadline, ReplyHandler done);
  // Sends a command from the calling thread, without a deadline of its own: `done` runs on
  // the strand with the reply, or at once (on the caller) if the session has ended. Pair
  // with abandon() when the caller's own deadline passes. Returns the packet id.
  std::uint32_t submit(Command command, Bytes data, ReplyHandler done);
  // Several commands in one write (policy above); `done` is called once per command with
  // that command's index and reply. Returns the packet ids in the order of `commands` (all
  // 0, with every `done` already called, if the session has ended).
  using IndexedReplyHandler = std::function<void(std::size_t, util::Result<Packet>)>;
  std::vector<std::uint32_t> submit_all(std::vector<std::pair<Command, Bytes>> commands, IndexedReplyHandler done);
  // Forgets a submitted request; returns its handler if the reply had not come yet.
  std::optional<ReplyHandler> abandon(std::uint32_t id);
  // The next event set, in arrival order. Clock::time_point::max() waits without a timer
  // (a waiter that lives as long as the session; it still fails on disconnect). When no
  // event is queued the waiter is registered at once, on the calling thread; otherwise the
  // strand hands the next set out (never `done` called from inside next_event).
  void next_event(Clock::time_point deadline, EventHandler done);
  // Reads the socket on this thread until `done()` holds or `deadline` passes, if no other
  // thread is reading (policy above); `done` is checked outside the session's locks, after
  // every batch of packets and on wake_reader(). Returns false at once if it could not take
  // the role (another reader, not started, paused, ended): wait for `done` some other way.
  bool read_until(const std::function<bool()>& done, Clock::time_point deadline);
  // Makes a caller that is reading look at its `done` again (no-op when none reads).
  void wake_reader();
  // Closes the socket; pending work fails with Errc::disconnected.
  void close(std::string reason = "closed by the debugger");

  bool closed() const { return closed_.load(); }
  IdSizes id_sizes() const;
  const SessionStats& stats() const { return stats_; }

 private:
  Session(boost::asio::ip::tcp::socket socket, SessionOptions options);

  struct Pending {
    Command command;
    ReplyHandler done;
    std::unique_ptr<boost::asio::steady_timer> timer;  // request() only; touched on the strand
  };
  struct Waiter {
    std::uint64_t id;
    EventHandler done;
    std::unique_ptr<boost::asio::steady_timer> timer;  // none for an undeadlined waiter
  };

  using Calls = std::vector<std::move_only_function<void()>>;  // handlers to run unlocked
  enum class Reader { none, io, caller };
  enum class Got { data, would_block, ended };

  void do_handshake(Clock::time_point deadline, StartHandler done);
  // reading (session_read.cpp)
  void io_read(bool from_wait);
  void watch_locked(bool on);
  void queue_watch_locked();
  void post_io_read();
  void release_io_locked();
  Got receive(std::string& why);
  bool dispatch_inbox(bool by_caller, std::string& why);
  void route(Packet packet, Calls& calls);
  void on_event_packet(const Packet& packet, Calls& calls);
  void deliver_locked(Calls& calls);
  void expire_waiter(std::uint64_t id);
  void flow_control_locked();
  void drop_timer(std::unique_ptr<boost::asio::steady_timer> timer);
  void register_waiter_timer(std::uint64_t id, Clock::time_point deadline);
  // writing and the end (session.cpp)
  void send(std::vector<Packet> packets);
  int write_now(Bytes& bytes);
  void do_write();
  void shutdown(const std::string& reason);
  void trace(bool from_vm, ByteView bytes, std::string_view note);
  void fire_and_forget(Command command);

  boost::asio::ip::tcp::socket socket_;  // for the handshake; released to fd_ after it
  int fd_ = -1;                          // the socket's descriptor, the session's own once released
  boost::asio::strand<boost::asio::any_io_executor> strand_;
  SessionOptions options_;
  SessionStats stats_;

  mutable std::mutex sizes_mutex_;  // sizes_ is read from other threads
  IdSizes sizes_;
  std::mutex pending_mutex_;  // next_id_, pending_
  std::uint32_t next_id_ = 1;
  std::unordered_map<std::uint32_t, Pending> pending_;

  std::mutex mutex_;  // everything down to inbox_
  std::deque<EventSet> events_;
  std::deque<Waiter> waiters_;
  std::uint64_t next_waiter_ = 1;
  std::size_t posted_waiters_ = 0;  // next_event() calls on their way to the strand
  bool held_ = false;
  bool read_paused_ = false;
  bool started_ = false;
  bool ended_ = false;   // a reader saw EOF or an error: nobody reads any more
  Reader reader_ = Reader::none;
  bool io_armed_ = false;  // the strand's wait on watch_ is queued
  int watch_fd_ = -1;      // private epoll set: the socket alone, one-shot (session_read.cpp)
  std::unique_ptr<boost::asio::posix::stream_descriptor> watch_;  // asio's view of watch_fd_
  // A second private set: the socket with interest in EPOLLOUT while a write waits for room.
  std::unique_ptr<boost::asio::posix::stream_descriptor> write_watch_;
  std::condition_variable role_cv_;  // callers waiting for the io thread's turn to end
  std::size_t role_waiters_ = 0;
  // Touched only by the thread holding the reading role.
  Bytes inbox_;
  std::array<std::uint8_t, 64 * 1024> chunk_{};
  int wake_fd_ = -1;  // eventfd in a reading caller's wait set
  // A reading caller's wait set (epoll, level-triggered): the socket and wake_fd_, made
  // once, so a caller's wait costs one epoll_wait and no per-call registration as poll()'s.
  int reader_set_ = -1;
  std::mutex out_mutex_;  // outbox_, writing_, the socket's close, the trace file
  std::deque<Bytes> outbox_;
  bool writing_ = false;

  std::atomic<bool> closed_{false};
  std::string close_reason_;
  std::ofstream trace_;
};

}  // namespace flakescan::jdwp
