// Who reads the socket (session.hpp, leader/follower): a caller waiting for a reply or an
// event reads it itself when nobody else reads; what it reads for others reaches them; a
// disconnect while it reads fails everyone. The fake VM sends only once a caller holds the
// reading role (SessionStats::caller_turns), so who read each packet is known, not timed.
#include <catch2/catch.hpp>

#include <atomic>
#include <future>
#include <thread>

#include <sys/resource.h>

#include <boost/asio/post.hpp>

#include "fake_vm.hpp"
#include "jdwp/client.hpp"

using namespace flakescan;
using namespace flakescan::jdwp;
using namespace flakescan::jdwp::testing;
using namespace std::chrono_literals;

TEST_CASE("a caller waiting for its reply reads it itself", "[jdwp][session][reader]") {
  std::atomic<const SessionStats*> stats{nullptr};
  FakeVm vm([&](FakeVm& fake) {
    auto c = fake.read_command();
    wait_for_reading_caller(stats);
    fake.reply(c.id, encode(OneInt{41}, IdSizes{}));
    fake.read_command();  // the Dispose below
  });
  auto client = connect(vm);
  CHECK(client->stats().caller_reads == 0);  // the handshake's IDSizes came to the io thread
  stats = &client->stats();
  auto length = client->call<ArLength>({ObjectId{1}}, soon());
  REQUIRE(length);
  CHECK(length->value == 41);
  CHECK(client->stats().caller_turns == 1);
  CHECK(client->stats().caller_reads == 1);
  (void)client->raw_call(Command::VirtualMachine_Dispose, {}, Clock::now() + 50ms);
  vm.join();  // before the client and its stats go (FakeVm::join)
}

TEST_CASE("a caller waiting for an event reads it itself", "[jdwp][session][reader]") {
  std::atomic<const SessionStats*> stats{nullptr};
  FakeVm vm([&](FakeVm& fake) {
    wait_for_reading_caller(stats);
    fake.event(thread_start(0x51));
    fake.read_command();
  });
  auto client = connect(vm);
  stats = &client->stats();
  auto set = client->next_event(soon());
  REQUIRE(set);
  CHECK(set->events[0].thread.value == 0x51);
  CHECK(client->stats().caller_reads == 1);
  (void)client->raw_call(Command::VirtualMachine_Dispose, {}, Clock::now() + 50ms);
  vm.join();  // before the client and its stats go (FakeVm::join)
}

TEST_CASE("events read by a caller waiting for its reply are queued and handed out in order", "[jdwp][session][reader]") {
  std::atomic<const SessionStats*> stats{nullptr};
  FakeVm vm([&](FakeVm& fake) {
    auto c = fake.read_command();
    wait_for_reading_caller(stats);
    fake.event(thread_start(1));
    fake.event(thread_start(2));
    fake.reply(c.id, encode(OneString{"after two events"}, IdSizes{}));
    fake.event(thread_start(3));
    fake.read_command();
  });
  auto client = connect(vm);
  stats = &client->stats();
  auto value = client->call<SrValue>({ObjectId{9}}, soon());
  REQUIRE(value);
  CHECK(value->value == "after two events");
  CHECK(client->stats().caller_reads >= 3);  // both events came before the reply
  for (std::uint64_t thread = 1; thread <= 3; ++thread) {
    auto set = client->next_event(soon());
    REQUIRE(set);
    CHECK(set->events[0].thread.value == thread);
  }
  (void)client->raw_call(Command::VirtualMachine_Dispose, {}, Clock::now() + 50ms);
  vm.join();  // before the client and its stats go (FakeVm::join)
}

TEST_CASE("a reply read by a caller for another thread's request wakes that thread", "[jdwp][session][reader]") {
  std::atomic<const SessionStats*> stats{nullptr};
  std::atomic<bool> second_answered{false};
  FakeVm vm([&](FakeVm& fake) {
    auto first = fake.read_command();
    auto second = fake.read_command();
    // The first caller holds the role (the second was sent after it took it, below).
    fake.reply(second.id, encode(OneInt{2}, IdSizes{}));
    while (!second_answered) std::this_thread::sleep_for(1ms);
    fake.reply(first.id, encode(OneInt{1}, IdSizes{}));
    fake.read_command();
  });
  auto client = connect(vm);
  stats = &client->stats();
  util::Result<ArLength::Reply> first = util::fail(util::Errc::internal, "");
  std::thread reader([&] { first = client->call<ArLength>({ObjectId{1}}, soon()); });
  wait_for_reading_caller(stats);
  // The role is taken: this call cannot read, it sleeps until the reader hands it its reply
  // (which the VM sends before the reader's own).
  auto second = client->call<ArLength>({ObjectId{2}}, soon());
  second_answered = true;
  reader.join();
  REQUIRE(second);
  CHECK(second->value == 2);
  REQUIRE(first);
  CHECK(first->value == 1);
  CHECK(client->stats().caller_turns == 1);
  CHECK(client->stats().caller_reads == 2);
  (void)client->raw_call(Command::VirtualMachine_Dispose, {}, Clock::now() + 50ms);
}

TEST_CASE("a disconnect while a caller reads fails every waiter", "[jdwp][session][reader]") {
  std::atomic<const SessionStats*> stats{nullptr};
  FakeVm vm([&](FakeVm& fake) {
    fake.read_command();
    fake.read_command();
    wait_for_reading_caller(stats);
    fake.close();
  });
  auto client = connect(vm);
  stats = &client->stats();
  const auto far = Clock::now() + 120s;  // a timeout here would mean "not released"
  util::Result<Packet> a = util::fail(util::Errc::internal, ""), b = a;
  util::Result<EventSet> event = util::fail(util::Errc::internal, "");
  std::thread ta([&] { a = client->raw_call(Command::VirtualMachine_Version, {}, far); });
  std::thread tb([&] { b = client->raw_call(Command::VirtualMachine_Version, {}, far); });
  std::thread te([&] { event = client->next_event(far); });
  ta.join();
  tb.join();
  te.join();
  for (const auto* r : {&a, &b}) {
    REQUIRE_FALSE(*r);
    CHECK(r->error().code == util::Errc::disconnected);
  }
  REQUIRE_FALSE(event);
  CHECK(event.error().code == util::Errc::disconnected);
  CHECK(client->closed());
  vm.join();  // before the client and its stats go (FakeVm::join)
}

TEST_CASE("close() while a caller reads ends its wait", "[jdwp][session][reader]") {
  std::atomic<bool> closed{false};
  FakeVm vm([&](FakeVm& fake) {
    fake.read_command();
    while (!closed) std::this_thread::sleep_for(1ms);
  });
  auto client = connect(vm);
  util::Result<Packet> r = util::fail(util::Errc::internal, "");
  std::thread t([&] { r = client->raw_call(Command::VirtualMachine_Version, {}, Clock::now() + 120s); });
  while (client->stats().caller_turns == 0) std::this_thread::sleep_for(1ms);
  client->close("closed by the test");
  t.join();
  closed = true;
  REQUIRE_FALSE(r);
  CHECK(r.error().code == util::Errc::disconnected);
}

TEST_CASE("wake_reader makes a reading caller look at its condition again", "[jdwp][session][reader]") {
  FakeVm vm([](FakeVm& fake) { fake.read_command(); });
  auto client = connect(vm);
  std::atomic<bool> flag{false};
  bool read = false;
  std::thread t([&] { read = client->read_until([&] { return flag.load(); }, Clock::now() + 120s); });
  while (client->stats().caller_turns == 0) std::this_thread::sleep_for(1ms);
  flag = true;  // nothing comes on the socket: only the wake ends the wait
  client->wake_reader();
  t.join();
  CHECK(read);
  CHECK(client->stats().caller_reads == 0);
  (void)client->raw_call(Command::VirtualMachine_Dispose, {}, Clock::now() + 50ms);
}

TEST_CASE("a reading caller returns at its deadline and the io thread reads after it", "[jdwp][session][reader]") {
  std::atomic<bool> gave_up{false};
  FakeVm vm([&](FakeVm& fake) {
    while (!gave_up) std::this_thread::sleep_for(1ms);
    fake.event(thread_start(0x77));
    fake.read_command();
  });
  auto client = connect(vm);
  // Long enough for the io thread's turn after the handshake to end first on a loaded machine
  // (the caller waits for that turn, not past its deadline), then it reads until the deadline.
  const bool read = client->read_until([] { return false; }, Clock::now() + 500ms);
  CHECK(read);
  gave_up = true;
  // Nobody waits now: the io thread reads the event and hands it to an asynchronous waiter.
  std::promise<util::Result<EventSet>> got;
  client->async_next_event(Clock::time_point::max(), [&](util::Result<EventSet> set) { got.set_value(std::move(set)); });
  auto set = got.get_future().get();
  REQUIRE(set);
  CHECK(set->events[0].thread.value == 0x77);
  CHECK(client->stats().caller_reads == 0);
  (void)client->raw_call(Command::VirtualMachine_Dispose, {}, Clock::now() + 50ms);
}

TEST_CASE("a caller waiting for the io thread's turn to end gives up at its own deadline", "[jdwp][session][reader]") {
  // The io thread reads an event and runs its asynchronous waiter's handler in its turn; the
  // handler blocks (up to 10 s) until the test lets it go. A call made meanwhile cannot read
  // and must time out at its own deadline, not when the turn ends.
  std::atomic<bool> handler_done{false};
  std::promise<void> entered, release;
  auto released = release.get_future();
  FakeVm vm([&](FakeVm& fake) {
    fake.event(thread_start(0x61));
    fake.read_command();  // the call below, sent whenever the session can
    fake.read_command();  // the Dispose at the end
  });
  auto client = connect(vm);
  client->async_next_event(Clock::time_point::max(), [&](util::Result<EventSet> set) {
    CHECK(set);
    entered.set_value();
    released.wait_for(10s);
    handler_done = true;
  });
  entered.get_future().wait();
  auto r = client->raw_call(Command::VirtualMachine_Version, {}, Clock::now() + 100ms);
  const bool turn_still_on = !handler_done;
  release.set_value();
  REQUIRE_FALSE(r);
  CHECK(r.error().code == util::Errc::timeout);
  CHECK(turn_still_on);  // it returned while the io thread's turn went on
  (void)client->raw_call(Command::VirtualMachine_Dispose, {}, Clock::now() + 50ms);
  vm.join();
}

namespace {
// The voluntary context switches of the thread that runs `io`, read on that thread.
long io_thread_switches(boost::asio::io_context& io) {
  std::promise<long> switches;
  boost::asio::post(io, [&switches] {
    rusage usage{};
    getrusage(RUSAGE_THREAD, &usage);
    switches.set_value(usage.ru_nvcsw);
  });
  return switches.get_future().get();
}
}  // namespace

TEST_CASE("the io thread is not woken by the packets callers read", "[jdwp][session][reader]") {
  // Asio's reactor watches every socket it owns for input, edge-triggered, whether or not
  // anything waits on it: the session takes the socket from asio after the handshake, or
  // the io thread wakes (and finds nothing to do) for every packet a caller reads.
  constexpr std::uint64_t rounds = 40;
  std::atomic<const SessionStats*> stats{nullptr};
  FakeVm vm([&](FakeVm& fake) {
    for (std::uint64_t i = 1; i <= rounds; ++i) {
      auto c = fake.read_command();
      wait_for_reading_caller(stats, i);
      fake.reply(c.id, encode(OneInt{static_cast<std::int32_t>(i)}, IdSizes{}));
    }
  });
  boost::asio::io_context io;
  auto work = boost::asio::make_work_guard(io);
  boost::asio::ip::tcp::socket socket(io);
  socket.connect({boost::asio::ip::make_address("127.0.0.1"), vm.port()});
  auto session = Session::create(std::move(socket), {});
  std::thread io_thread([&io] { io.run(); });
  std::promise<util::Result<IdSizes>> started;
  session->start(soon(), [&started](util::Result<IdSizes> sizes) { started.set_value(std::move(sizes)); });
  REQUIRE(started.get_future().get());
  stats = &session->stats();
  const long before = io_thread_switches(io);
  const std::uint64_t watch_wakes_before = session->stats().io_wakes;
  for (std::uint64_t i = 1; i <= rounds; ++i) {
    std::atomic<bool> replied{false};
    session->submit(Command::ArrayReference_Length, encode(ArLength::Request{ObjectId{1}}, IdSizes{}),
                    [&replied](util::Result<Packet> reply) { replied = reply.has_value(); });
    REQUIRE(session->read_until([&replied] { return replied.load(); }, soon()));
    REQUIRE(replied);
  }
  const long woken = io_thread_switches(io) - before;
  vm.join();
  CHECK(session->stats().caller_reads == rounds);
  // One wake-up is the post that reads the count; before the change it was one per reply.
  CHECK(woken < static_cast<long>(rounds) / 4);
  // The socket's watch was off during every caller's turn, and nothing came between turns.
  CHECK(session->stats().io_wakes == watch_wakes_before);
  session->close();
  work.reset();
  io_thread.join();
}
