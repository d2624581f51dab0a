#pragma once
// jdwp::Session: one debugger connection to one VM, over Asio.
//
// Policy and invariants
//   * Everything the session owns is touched only on its strand (one strand per VM); the
//     public functions post to it and may be called from any thread. Handlers run on the
//     strand and must not block.
//   * One reader. It only frames and decodes packets: a reply completes the request with
//     the same id; an Event.Composite becomes an EventSet in the event queue. It never
//     waits for a reply itself. A packet that does not decode (unknown event kind,
//     truncated data) is dropped and counted; the session goes on.
//   * Every request has a deadline; a late reply is dropped.
//   * Fast path (submit): a caller thread registers its request and writes the packet to
//     the socket itself when nothing else is queued (non-blocking send under the write
//     mutex; whatever does not fit goes to the strand's write queue). The caller waits with
//     its own deadline and abandons the request when it passes. This saves two thread
//     hand-offs per request, which is most of a round trip on a busy machine. The write
//     state and the pending table are therefore guarded by mutexes as well as the strand.
//   * Batches (submit_all): several commands are registered at once and their packets go
//     out in one buffer, one send() (loopback TCP costs a whole transmit path per send).
//     The VM's agent still reads and answers them one by one, in order; replies are matched
//     by id whatever order they come in. `SessionStats::writes` counts buffers handed to
//     the socket, so tests can tell one write per batch from one per packet.
//   * The event queue is bounded: at `event_capacity` queued sets the session tells the VM
//     to hold events (VirtualMachine.HoldEvents, fire-and-forget) and releases them when
//     the queue drains to half; sets already in flight still queue, and at twice the
//     capacity the reader stops reading until the consumer catches up.
//   * On disconnect (EOF, socket error, close()) every pending request fails at once with
//     Errc::disconnected; queued event sets are still handed out, then event waiters fail
//     with Errc::disconnected too. Nothing is retried.
//   * Wire trace: with `trace_path` set, every packet in both directions is appended in
//     the format of wire_log.hpp (the format the codec tests read).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include <boost/asio/ip/tcp.hpp>
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
  // (a waiter that lives as long as the session; it still fails on disconnect).
  void next_event(Clock::time_point deadline, EventHandler done);
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

  void do_handshake(Clock::time_point deadline, StartHandler done);
  void do_read();
  void on_read(boost::system::error_code ec, std::size_t n);
  void on_packet(Packet packet);
  void on_event_packet(const Packet& packet);
  void send(std::vector<Packet> packets);
  void write_now(Bytes& bytes);
  void do_write();
  void deliver_events();
  void expire_waiter(std::uint64_t id);
  void flow_control();
  void shutdown(const std::string& reason);
  void trace(bool from_vm, ByteView bytes, std::string_view note);
  void fire_and_forget(Command command);

  boost::asio::ip::tcp::socket socket_;
  boost::asio::strand<boost::asio::any_io_executor> strand_;
  SessionOptions options_;
  SessionStats stats_;

  mutable std::mutex sizes_mutex_;  // sizes_ is read from other threads
  IdSizes sizes_;
  std::mutex pending_mutex_;  // next_id_, pending_
  std::uint32_t next_id_ = 1;
  std::unordered_map<std::uint32_t, Pending> pending_;
  std::deque<EventSet> events_;
  std::deque<Waiter> waiters_;
  std::uint64_t next_waiter_ = 1;
  bool held_ = false;
  bool reading_ = false;
  bool read_paused_ = false;
  bool started_ = false;

  Bytes inbox_;
  std::array<std::uint8_t, 64 * 1024> chunk_{};
  std::mutex out_mutex_;  // outbox_, writing_, the socket's close, the trace file
  std::deque<Bytes> outbox_;
  bool writing_ = false;

  std::atomic<bool> closed_{false};
  std::string close_reason_;
  std::ofstream trace_;
};

}  // namespace flakescan::jdwp
