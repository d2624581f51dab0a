// The floor of the jdwp_roundtrip benchmark: the same round trip as engine.cpp (hit, read the
// top frame, resume) by the plainest client there is, one thread with blocking reads and
// writes on the socket and no queues, timers or hand-offs. What it reaches is what the
// JVM's agent allows on this machine; the benchmark prints it beside the engine and JDI so
// the engine's share of a hit can be told from the agent's.
//   floor hits=<n> measured=<m> seconds=<s> events_per_s=<r>
// Usage: jdwp_roundtrip_floor <calls> [warmup]
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "jdwp/codec.hpp"
#include "jdwp/launch.hpp"
#include "util/process.hpp"
#include "usage.hpp"

using namespace flakescan;
using namespace flakescan::jdwp;

namespace {

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "floor: %s\n", what.c_str());
  std::exit(1);
}

struct Wire {
  int fd = -1;
  IdSizes sizes;
  std::uint32_t next_id = 1;
  Bytes inbox;

  void write_all(const Bytes& bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::send(fd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
      if (n <= 0) die("send failed");
      done += static_cast<std::size_t>(n);
    }
  }
  Packet read_packet() {
    for (;;) {
      if (auto framed = decode_packet(inbox)) {
        Packet p = std::move(framed->packet);
        inbox.erase(inbox.begin(), inbox.begin() + static_cast<std::ptrdiff_t>(framed->consumed));
        return p;
      } else if (framed.error().code != util::Errc::need_more) {
        die("bad packet: " + framed.error().message);
      }
      std::uint8_t chunk[4096];
      const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) die("nothing from the VM for 60 s");
      if (n <= 0) die("the VM closed the connection");
      inbox.insert(inbox.end(), chunk, chunk + n);
    }
  }
  Bytes command_bytes(Command c, Bytes data) {
    Packet p;
    p.id = next_id++;
    p.command_set = command_set_of(c);
    p.command = command_number_of(c);
    p.data = std::move(data);
    return encode_packet(p);
  }
  // One command, and its reply; event packets that come first are kept for later.
  template <class C>
  typename C::Reply call(const typename C::Request& request, std::vector<EventSet>& early) {
    const std::uint32_t id = next_id;
    write_all(command_bytes(C::id, encode(request, sizes)));
    for (;;) {
      Packet p = read_packet();
      if (!p.is_reply()) {
        early.push_back(event_set(p));
        continue;
      }
      if (p.id != id) die("reply out of order");
      if (p.error != 0) die("command failed: " + error_name(p.error));
      auto reply = decode<typename C::Reply>(p.data, sizes);
      if (!reply) die("bad reply: " + reply.error().message);
      return *reply;
    }
  }
  EventSet event_set(const Packet& p) {
    auto set = decode<EventSet>(p.data, sizes);
    if (!set) die("bad event: " + set.error().message);
    return *set;
  }
  EventSet next_event(std::vector<EventSet>& early) {
    if (!early.empty()) {
      EventSet s = std::move(early.front());
      early.erase(early.begin());
      return s;
    }
    Packet p = read_packet();
    if (p.is_reply()) die("unexpected reply");
    return event_set(p);
  }
};

}  // namespace

int main(int argc, char** argv) {
  const int calls = argc > 1 ? std::atoi(argv[1]) : 20000;
  const int warmup = argc > 2 ? std::atoi(argv[2]) : 500;

  const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (::bind(listener, reinterpret_cast<sockaddr*>(&addr), len) != 0 || ::listen(listener, 1) != 0 ||
      ::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    die("cannot listen on loopback");
  }
  util::SpawnOptions spawn;
  spawn.argv = {"java", agent_option(ntohs(addr.sin_port), true), "-cp", JDWP_FIXTURE_JAR, "flakescan.fixture.JdwpTarget",
                "hits", std::to_string(calls)};
  auto child = util::Child::spawn(spawn);
  if (!child) die("cannot start java: " + util::describe(child.error()));
  Wire w;
  w.fd = ::accept(listener, nullptr, nullptr);
  if (w.fd < 0) die("the agent did not connect");
  const int one = 1;
  ::setsockopt(w.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  // A deadline for every read: a client that waits for nothing fails the round, not the benchmark.
  const timeval patience{.tv_sec = 60, .tv_usec = 0};
  ::setsockopt(w.fd, SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof patience);
  w.write_all(encode_handshake());
  Bytes hello(handshake_text.size());
  for (std::size_t got = 0; got < hello.size();) {
    const ssize_t n = ::recv(w.fd, hello.data() + got, hello.size() - got, 0);
    if (n <= 0) die("no handshake");
    got += static_cast<std::size_t>(n);
  }
  std::vector<EventSet> early;
  w.sizes = w.call<VmIdSizes>({}, early).sizes;
  // Resume only once the VM has stopped at VMStart (suspend=y): a resume the agent handles
  // before that suspension is a no-op, and the VM then stays suspended at VMStart for good
  // (seen once under stress-ng, when the VM's start was slow).
  for (bool started = false; !started;) {
    for (const auto& e : w.next_event(early).events) started = started || e.kind == EventKind::vm_start;
  }

  // Stopped at VMStart: ask for the fixture's class, run to it, break on work().
  ErSet::Request prepare;
  prepare.kind = EventKind::class_prepare;
  prepare.suspend = SuspendPolicy::all;
  prepare.modifiers.push_back(Modifier::class_match("flakescan.fixture.JdwpTarget"));
  w.call<ErSet>(prepare, early);
  w.call<VmResume>({}, early);
  ReferenceTypeId type;
  while (!type) {
    for (const auto& e : w.next_event(early).events) {
      if (e.kind == EventKind::class_prepare) type = e.type;
    }
  }
  MethodId work;
  for (const auto& m : w.call<RtMethods>({type}, early).methods) {
    if (m.name == "work") work = m.method;
  }
  if (!work) die("no method work");
  ErSet::Request bp;
  bp.kind = EventKind::breakpoint;
  bp.suspend = SuspendPolicy::event_thread;
  bp.modifiers.push_back(Modifier::location_only(Location{TypeTag::class_, type, work, 0}));
  w.call<ErSet>(bp, early);
  w.call<VmResume>({}, early);

  int hits = 0;
  std::chrono::steady_clock::time_point start;
  bench::Usage at_start;
  for (bool done = false; !done;) {
    for (const auto& e : w.next_event(early).events) {
      if (e.kind == EventKind::vm_death) done = true;
      if (e.kind != EventKind::breakpoint) continue;
      // Frames (the top one) and Resume in one write, then both replies.
      Bytes out = w.command_bytes(TrFrames::id, encode(TrFrames::Request{e.thread, 0, 1}, w.sizes));
      const std::uint32_t frames_id = w.next_id - 1;
      Bytes resume = w.command_bytes(TrResume::id, encode(TrResume::Request{e.thread}, w.sizes));
      out.insert(out.end(), resume.begin(), resume.end());
      w.write_all(out);
      for (int replies = 0; replies < 2;) {
        Packet p = w.read_packet();
        if (!p.is_reply()) {
          early.push_back(w.event_set(p));
          continue;
        }
        if (p.error != 0) die("round trip failed: " + error_name(p.error));
        if (p.id == frames_id) {
          auto top = decode<TrFrames::Reply>(p.data, w.sizes);
          if (!top || top->frames.size() != 1 || top->frames[0].location.method != work) die("top frame not read");
        }
        ++replies;
      }
      if (++hits == warmup) {
        start = std::chrono::steady_clock::now();
        at_start = bench::usage();
      }
    }
  }
  const bench::Usage at_end = bench::usage();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const int measured = hits - warmup;
  std::fprintf(stderr, "floor per hit: own CPU %.1f us, %.2f voluntary switches\n", 1e6 * (at_end.cpu_s - at_start.cpu_s) / measured,
               double(at_end.switches - at_start.switches) / measured);
  std::printf("floor hits=%d measured=%d seconds=%.3f events_per_s=%.0f\n", hits, measured, seconds, measured / seconds);
  ::close(w.fd);
  (void)child->wait(core::deadline_in(std::chrono::seconds(30)));
  return hits == calls ? 0 : 1;
}
