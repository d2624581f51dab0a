// The session against a scripted fake VM on loopback (port 0): reply matching, deadlines,
// bad packets, back-pressure, disconnects, and the wire trace. Who reads (callers or the io
// thread) is tested in session_reader_test.cpp.
#include <catch2/catch.hpp>

#include <future>

#include <atomic>
#include <fstream>
#include <sstream>
#include <thread>

#include "fake_vm.hpp"
#include "jdwp/client.hpp"
#include "jdwp/wire_log.hpp"

using namespace flakescan;
using namespace flakescan::jdwp;
using namespace flakescan::jdwp::testing;
using namespace std::chrono_literals;

TEST_CASE("replies are matched by id and ids sizes come from IDSizes", "[jdwp][session]") {
  FakeVm vm([](FakeVm& fake) {
    auto a = fake.read_command();
    auto b = fake.read_command();
    // Answer out of order: the session matches by id.
    fake.reply(b.id, encode(OneString{"second"}, IdSizes{}));
    fake.reply(a.id, encode(OneString{"first"}, IdSizes{}));
    fake.read_command();  // the client's close
  });
  auto client = connect(vm);
  CHECK(client->sizes() == IdSizes{8, 8, 8, 8, 8});
  util::Result<OneString> first = util::fail(util::Errc::internal, "");
  std::thread t([&] { first = client->call<SrValue>({ObjectId{1}}, soon()); });
  // IDSizes went first; the first call is written (or queued in order) once it counts as a write.
  while (client->stats().writes < 2) std::this_thread::yield();
  auto second = client->call<SrValue>({ObjectId{2}}, soon());
  t.join();
  REQUIRE(first);
  REQUIRE(second);
  CHECK(first->value == "first");
  CHECK(second->value == "second");
  (void)client->raw_call(Command::VirtualMachine_Dispose, {}, Clock::now() + 50ms);
}

TEST_CASE("a batch goes out in one write and its replies, out of order, reach their commands", "[jdwp][session]") {
  std::vector<Packet> seen;
  FakeVm vm([&](FakeVm& fake) {
    for (int i = 0; i < 3; ++i) seen.push_back(fake.read_command());
    // The VM answers the last command first, then the first, then the second.
    fake.reply(seen[2].id, encode(OneInt{30}, IdSizes{}));
    fake.reply(seen[0].id, encode(OneString{"first"}, IdSizes{}));
    fake.reply(seen[1].id, {}, 20);  // INVALID_OBJECT
    fake.read_command();
  });
  auto client = connect(vm);
  const auto writes = client->stats().writes.load();
  const auto out = client->stats().packets_out.load();
  std::vector<std::pair<Command, Bytes>> batch;
  batch.emplace_back(SrValue::id, encode(SrValue::Request{ObjectId{1}}, client->sizes()));
  batch.emplace_back(TrResume::id, encode(TrResume::Request{ObjectId{2}}, client->sizes()));
  batch.emplace_back(ArLength::id, encode(ArLength::Request{ObjectId{3}}, client->sizes()));
  auto replies = client->raw_call_all(std::move(batch), soon());
  CHECK(client->stats().writes - writes == 1);
  CHECK(client->stats().packets_out - out == 3);
  REQUIRE(replies.size() == 3);
  auto first = client->decode_reply<SrValue>(replies[0]);
  REQUIRE(first);
  CHECK(first->value == "first");
  auto resumed = client->decode_reply<TrResume>(replies[1]);
  REQUIRE_FALSE(resumed);
  CHECK(resumed.error().code == util::Errc::not_found);
  auto length = client->decode_reply<ArLength>(replies[2]);
  REQUIRE(length);
  CHECK(length->value == 30);
  // In the order they were given, with consecutive ids.
  REQUIRE(seen.size() == 3);
  CHECK(seen[0].command_set == command_set_of(SrValue::id));
  CHECK(seen[1].command_set == command_set_of(TrResume::id));
  CHECK(seen[2].command_set == command_set_of(ArLength::id));
  CHECK(seen[1].id == seen[0].id + 1);
  CHECK(seen[2].id == seen[1].id + 1);
  (void)client->raw_call(Command::VirtualMachine_Dispose, {}, Clock::now() + 50ms);
}

TEST_CASE("a batch past its deadline keeps the replies that came; the others time out", "[jdwp][session]") {
  std::promise<void> timed_out;
  auto after_timeout = timed_out.get_future();
  FakeVm vm([&](FakeVm& fake) {
    auto a = fake.read_command();
    auto b = fake.read_command();
    fake.reply(b.id, encode(OneInt{2}, IdSizes{}));
    after_timeout.wait();
    fake.reply(a.id, encode(OneInt{1}, IdSizes{}));  // too late: dropped
    auto next = fake.read_command();
    fake.reply(next.id, encode(OneInt{3}, IdSizes{}));
    fake.read_command();
  });
  auto client = connect(vm);
  std::vector<std::pair<Command, Bytes>> batch;
  batch.emplace_back(ArLength::id, encode(ArLength::Request{ObjectId{1}}, client->sizes()));
  batch.emplace_back(ArLength::id, encode(ArLength::Request{ObjectId{2}}, client->sizes()));
  // The deadline must pass for the first command; the second's reply, sent at once, only
  // has to arrive before it: 2 s leaves room for a loaded machine.
  auto replies = client->raw_call_all(std::move(batch), Clock::now() + 2s);
  timed_out.set_value();
  REQUIRE(replies.size() == 2);
  REQUIRE_FALSE(replies[0]);
  CHECK(replies[0].error().code == util::Errc::timeout);
  auto second = client->decode_reply<ArLength>(replies[1]);
  REQUIRE(second);
  CHECK(second->value == 2);
  auto next = client->call<ArLength>({ObjectId{1}}, soon());
  REQUIRE(next);
  CHECK(next->value == 3);
  CHECK(client->stats().late_replies == 1);
  (void)client->raw_call(Command::VirtualMachine_Dispose, {}, Clock::now() + 50ms);
}

TEST_CASE("a batch on an ended session fails at once, every command of it", "[jdwp][session]") {
  FakeVm vm([](FakeVm& fake) { fake.close(); });
  auto client = connect(vm);
  const auto far = Clock::now() + 120s;  // a timeout here would mean "not released"
  // An event waiter without a deadline (no timer) is released by the disconnect too.
  auto gone = client->next_event(Clock::time_point::max());
  REQUIRE_FALSE(gone);
  CHECK(gone.error().code == util::Errc::disconnected);
  std::vector<std::pair<Command, Bytes>> batch;
  batch.emplace_back(Command::VirtualMachine_Version, Bytes{});
  batch.emplace_back(Command::VirtualMachine_Resume, Bytes{});
  const auto out = client->stats().packets_out.load();
  auto replies = client->raw_call_all(std::move(batch), far);
  REQUIRE(replies.size() == 2);
  for (const auto& r : replies) {
    REQUIRE_FALSE(r);
    CHECK(r.error().code == util::Errc::disconnected);
  }
  CHECK(client->stats().packets_out == out);  // nothing written
}

TEST_CASE("a request past its deadline fails alone; its late reply is dropped", "[jdwp][session]") {
  std::atomic<bool> timed_out{false};
  FakeVm vm([&](FakeVm& fake) {
    auto slow = fake.read_command();
    while (!timed_out) std::this_thread::sleep_for(1ms);
    fake.reply(slow.id, encode(OneInt{1}, IdSizes{}));  // too late
    auto next = fake.read_command();
    fake.reply(next.id, encode(OneInt{2}, IdSizes{}));
    fake.read_command();
  });
  auto client = connect(vm);
  auto slow = client->call<ArLength>({ObjectId{1}}, Clock::now() + 50ms);
  REQUIRE_FALSE(slow);
  CHECK(slow.error().code == util::Errc::timeout);
  timed_out = true;
  auto next = client->call<ArLength>({ObjectId{1}}, soon());
  REQUIRE(next);
  CHECK(next->value == 2);
  CHECK(client->stats().late_replies == 1);
  (void)client->raw_call(Command::VirtualMachine_Dispose, {}, Clock::now() + 50ms);
}

TEST_CASE("a bad event packet is dropped and the session goes on", "[jdwp][session]") {
  FakeVm vm([](FakeVm& fake) {
    Bytes unknown_kind = {0, 0, 0, 0, 1, 77, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 1};
    fake.send_event_bytes(unknown_kind);
    fake.send_event_bytes({0xff});
    fake.event(thread_start(0x42));
    auto c = fake.read_command();
    fake.reply(c.id, {}, 20);  // INVALID_OBJECT
    fake.read_command();
  });
  auto client = connect(vm);
  auto set = client->next_event(soon());
  REQUIRE(set);
  REQUIRE(set->events.size() == 1);
  CHECK(set->events[0].thread.value == 0x42);
  CHECK(client->stats().dropped_malformed == 2);
  auto gone = client->call<TrName>({ObjectId{0x42}}, soon());
  REQUIRE_FALSE(gone);
  CHECK(gone.error().code == util::Errc::not_found);
  CHECK(gone.error().message.find("INVALID_OBJECT") != std::string::npos);
  (void)client->raw_call(Command::VirtualMachine_Dispose, {}, Clock::now() + 50ms);
}

TEST_CASE("a full event queue holds the VM's events and releases them when drained", "[jdwp][session]") {
  SessionOptions options;
  options.event_capacity = 4;
  std::atomic<bool> held{false}, released{false};
  FakeVm vm([&](FakeVm& fake) {
    for (int i = 0; i < 4; ++i) fake.event(thread_start(100 + i));
    auto hold = fake.read_command();
    held = hold.command_set == 1 && hold.command == 15;
    fake.reply(hold.id, {});
    auto release = fake.read_command();
    released = release.command_set == 1 && release.command == 16;
    fake.reply(release.id, {});
    auto last = fake.read_command();
    fake.reply(last.id, {});
  });
  auto client = connect(vm, options);
  while (client->stats().holds == 0) std::this_thread::sleep_for(1ms);
  for (int i = 0; i < 4; ++i) {
    auto set = client->next_event(soon());
    REQUIRE(set);
    CHECK(set->events[0].thread.value == static_cast<std::uint64_t>(100 + i));  // in order, none lost
  }
  (void)client->raw_call(Command::VirtualMachine_Dispose, {}, soon());
  CHECK(held);
  CHECK(released);
}

TEST_CASE("on disconnect every waiter fails at once, queued events first", "[jdwp][session]") {
  std::atomic<int> seen{0};
  FakeVm vm([&](FakeVm& fake) {
    fake.event(thread_start(7));
    while (seen < 3) {
      fake.read_command();
      ++seen;
    }
    fake.close();
  });
  auto client = connect(vm);
  std::vector<util::Result<Packet>> results(3, util::fail(util::Errc::internal, ""));
  std::vector<std::thread> waiters;
  const auto far = Clock::now() + 120s;  // a timeout here would mean "not released"
  for (int i = 0; i < 3; ++i) {
    waiters.emplace_back([&, i] { results[i] = client->raw_call(Command::VirtualMachine_Version, {}, far); });
  }
  for (auto& t : waiters) t.join();
  for (const auto& r : results) {
    REQUIRE_FALSE(r);
    CHECK(r.error().code == util::Errc::disconnected);
  }
  auto queued = client->next_event(far);
  REQUIRE(queued);
  CHECK(queued->events[0].thread.value == 7);
  auto after = client->next_event(far);
  REQUIRE_FALSE(after);
  CHECK(after.error().code == util::Errc::disconnected);
  CHECK(client->closed());
  auto late = client->raw_call(Command::VirtualMachine_Version, {}, far);
  REQUIRE_FALSE(late);
  CHECK(late.error().code == util::Errc::disconnected);
}

TEST_CASE("the wire trace is written in the fixture format", "[jdwp][session]") {
  const std::string path = FLAKESCAN_BINARY_DIR "/jdwp-session-test.trace";
  {
    FakeVm vm([](FakeVm& fake) {
      auto c = fake.read_command();
      fake.reply(c.id, encode(OneString{"x"}, IdSizes{}));
      fake.event(thread_start(9));
      fake.read_command();
    });
    SessionOptions options;
    options.trace_path = path;
    auto client = connect(vm, options);
    REQUIRE(client->call<SrValue>({ObjectId{5}}, soon()));
    REQUIRE(client->next_event(soon()));
    (void)client->raw_call(Command::VirtualMachine_Dispose, {}, Clock::now() + 50ms);
  }
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  auto entries = parse_trace(text.str());
  REQUIRE(entries);
  REQUIRE(entries->size() >= 7);  // 2 handshakes, IDSizes x2, Value x2, event, Dispose
  CHECK(entries->at(0).handshake);
  CHECK_FALSE(entries->at(0).from_vm);
  CHECK(entries->at(1).handshake);
  CHECK(entries->at(1).from_vm);
  int events = 0;
  for (const auto& e : *entries) {
    if (e.handshake) continue;
    auto p = decode_packet(e.bytes);
    REQUIRE(p);
    if (!p->packet.is_reply() && p->packet.command_set == 64) {
      ++events;
      auto set = decode<EventSet>(p->packet.data, e.sizes);
      REQUIRE(set);
      CHECK(set->events[0].thread.value == 9);
    }
  }
  CHECK(events == 1);
}

TEST_CASE("a packet larger than the socket buffers goes out whole through the write queue", "[jdwp][session]") {
  constexpr std::size_t big = 32 * 1024 * 1024;  // far past loopback's buffers: send() takes only part
  std::size_t received = 0;
  FakeVm vm([&](FakeVm& fake) {
    auto c = fake.read_command();
    received = c.data.size();
    fake.reply(c.id, encode(OneInt{7}, IdSizes{}));
    fake.read_command();
  });
  auto client = connect(vm);
  Bytes data(big, 0x5a);
  auto reply = client->raw_call(Command::ArrayReference_Length, std::move(data), soon());
  REQUIRE(reply);
  CHECK(client->decode_reply<ArLength>(reply)->value == 7);
  CHECK(received == big);
  (void)client->raw_call(Command::VirtualMachine_Dispose, {}, Clock::now() + 50ms);
}
