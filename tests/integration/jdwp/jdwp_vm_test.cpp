// The JDWP engine against a real HotSpot JVM (tests/fixtures/jdwp/java): each test
// launches the fixture program under the debugger in one of its modes.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "jdwp/codec.hpp"
#include "jdwp/launch.hpp"
#include "jdwp/wire_log.hpp"

using namespace flakescan;
using namespace std::chrono_literals;

namespace {

const std::string fixture_class = "flakescan.fixture.JdwpTarget";
const std::string fixture_source = FLAKESCAN_SOURCE_DIR "/tests/fixtures/jdwp/java/flakescan/fixture/";

// Line of the "@line <name>" marker in a fixture source file.
int marker_line(const std::string& file, const std::string& name) {
  std::ifstream in(fixture_source + file);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    auto at = line.find("@line " + name);
    if (at != std::string::npos && (at + 6 + name.size() == line.size() || line[at + 6 + name.size()] == ' ')) return n;
  }
  FAIL("no marker " << name << " in " << file);
  return -1;
}

core::Deadline soon() { return core::deadline_in(20s); }

jdwp::Launched start(const std::vector<std::string>& args, const std::string& trace = "", bool vm_listens = false) {
  util::SpawnOptions spawn;
  spawn.argv = {"java", "-cp", JDWP_FIXTURE_JAR, fixture_class};
  spawn.argv.insert(spawn.argv.end(), args.begin(), args.end());
  // One log per JVM: ctest runs test cases of one mode at once, and a listening VM's port is
  // read from its log.
  spawn.stdout_path = FLAKESCAN_BINARY_DIR "/jdwp-fixture-" + args.front() + "-" + std::to_string(::getpid()) + ".log";
  jdwp::LaunchOptions options;
  options.vm.session.trace_path = trace;
  options.vm_listens = vm_listens;
  auto launched = jdwp::launch(spawn, options);
  REQUIRE(launched);
  auto first = launched->vm->next_event(soon());
  REQUIRE(first);
  REQUIRE(first->kind == core::EventKind::vm_start);
  return std::move(*launched);
}

core::VmEvent next_breakpoint(core::Vm& vm) {
  for (;;) {
    auto e = vm.next_event(soon());
    REQUIRE(e);
    if (e->kind == core::EventKind::breakpoint) return *e;
    REQUIRE(e->kind != core::EventKind::vm_death);
    REQUIRE(e->kind != core::EventKind::disconnected);
  }
}

// Stops `mode` at JdwpTarget.pause() and returns the stopped thread.
core::ThreadRef run_to_pause(jdwp::Launched& l) {
  auto bp = l.vm->set_breakpoint({.class_name = fixture_class, .method = "pause"}, soon());
  REQUIRE(bp);
  REQUIRE(l.vm->resume_all(soon()));
  auto hit = next_breakpoint(*l.vm);
  CHECK(hit.handle == *bp);
  CHECK(hit.frame.method == "pause");
  CHECK(hit.frame.line == marker_line("JdwpTarget.java", "pause"));
  return hit.thread;
}

core::Value static_value(core::Vm& vm, const std::string& field) {
  auto fields = vm.static_fields(fixture_class, soon());
  REQUIRE(fields);
  for (const auto& f : *fields) {
    if (f.name == field) return f.value;
  }
  FAIL("no static field " << field);
  return {};
}

const core::HeapNode& node(const core::HeapGraph& g, const core::Value& v) {
  REQUIRE(v.is_reference());
  auto it = g.nodes.find(v.object.id);
  REQUIRE(it != g.nodes.end());
  return it->second;
}

const core::Value& root(const core::HeapGraph& g, const std::string& name) {
  for (const auto& [n, v] : g.roots) {
    if (n == fixture_class + "." + name) return v;
  }
  FAIL("no root " << name);
  static core::Value none;
  return none;
}

core::Value field(const core::HeapNode& n, const std::string& name) {
  for (const auto& [f, v] : n.fields) {
    if (f == name) return v;
  }
  FAIL("no field " << name << " in " << n.class_name);
  return {};
}

}  // namespace

// What one breakpoint round trip (hit, top frame, resume) costs on the wire, counted on a
// real agent: the event, then Frames and Resume in one write, then their two replies.
// A JDI client needs two writes and two round trips for the same (frame(0), then resume).
TEST_CASE("a breakpoint round trip is one write of two commands and three packets back", "[jdwp][integration]") {
  const int calls = 50;
  auto l = start({"hits", std::to_string(calls)});
  REQUIRE(l.vm->set_breakpoint({.class_name = fixture_class, .method = "work"}, soon()));
  REQUIRE(l.vm->resume_all(soon()));
  const auto& stats = l.vm->client().stats();
  std::uint64_t in0 = 0, out0 = 0, writes0 = 0, in_last = 0, out_last = 0, writes_last = 0;
  for (int hit = 1; hit <= calls; ++hit) {
    auto e = next_breakpoint(*l.vm);
    // Only the hitting thread sends events, and it is stopped here: the counts are exact.
    if (hit == 1) {
      in0 = stats.packets_in;
      out0 = stats.packets_out;
      writes0 = stats.writes;
    }
    if (hit == calls) {
      in_last = stats.packets_in;
      out_last = stats.packets_out;
      writes_last = stats.writes;
    }
    auto top = l.vm->stack_then_resume(e.thread, 1, soon());
    REQUIRE(top);
    REQUIRE(top->size() == 1);
    CHECK(top->front().method == "work");
  }
  // From the first hit's event to the last one's: per hit, two commands in one write, and
  // back their two replies and the next hit's event.
  const std::uint64_t round_trips = calls - 1;
  CHECK(writes_last - writes0 == round_trips);
  CHECK(out_last - out0 == 2 * round_trips);
  CHECK(in_last - in0 == 3 * round_trips);
  auto status = l.child.wait(soon());
  REQUIRE(status);
  CHECK(status->success());
}

TEST_CASE("a method breakpoint is hit once per call with the right frames and lines", "[jdwp][integration]") {
  const std::string trace = FLAKESCAN_BINARY_DIR "/jdwp-hits.trace";
  auto l = start({"hits", "5"}, trace);
  auto bp = l.vm->set_breakpoint({.class_name = fixture_class, .method = "work"}, soon());
  REQUIRE(bp);
  REQUIRE(l.vm->resume_all(soon()));
  int hits = 0;
  for (;;) {
    auto e = l.vm->next_event(soon());
    REQUIRE(e);
    if (e->kind == core::EventKind::vm_death || e->kind == core::EventKind::disconnected) break;
    if (e->kind != core::EventKind::breakpoint) continue;
    ++hits;
    CHECK(e->handle == *bp);
    CHECK(e->suspended);
    auto frames = l.vm->stack(e->thread, 0, soon());
    REQUIRE(frames);
    REQUIRE(frames->size() >= 2);
    CHECK((*frames)[0] == core::Frame{fixture_class, "work", "(I)I", marker_line("JdwpTarget.java", "work-first")});
    CHECK((*frames)[1] == core::Frame{fixture_class, "main", "([Ljava/lang/String;)V", marker_line("JdwpTarget.java", "hits-call")});
    CHECK(e->frame == (*frames)[0]);
    auto top = l.vm->stack(e->thread, 1, soon());
    REQUIRE(top);
    CHECK(top->size() == 1);
    if (hits % 2 == 0) {
      REQUIRE(l.vm->resume(e->thread, soon()));
      continue;
    }
    // Frames and Resume in one round trip: the frame is the one read while suspended, and
    // the thread goes on (otherwise the next hit would never come: hits == 5 below).
    auto pipelined = l.vm->stack_then_resume(e->thread, 1, soon());
    REQUIRE(pipelined);
    REQUIRE(pipelined->size() == 1);
    CHECK(pipelined->front() == (*frames)[0]);
  }
  CHECK(hits == 5);
  auto status = l.child.wait(soon());
  REQUIRE(status);
  CHECK(status->success());

  // The wire trace of this session is in the codec's fixture format: every packet in it
  // decodes and encodes back to the same bytes.
  std::ifstream in(trace);
  std::stringstream text;
  text << in.rdbuf();
  auto entries = jdwp::parse_trace(text.str());
  REQUIRE(entries);
  CHECK(entries->size() > 20);
  std::map<std::uint32_t, jdwp::Command> sent;
  int checked = 0;
  for (const auto& e : *entries) {
    if (e.handshake) continue;
    auto framed = jdwp::decode_packet(e.bytes);
    REQUIRE(framed);
    const auto& p = framed->packet;
    std::optional<jdwp::Command> command;
    if (p.is_reply()) {
      if (p.error != 0 || !sent.contains(p.id)) continue;
      command = sent[p.id];
    } else {
      command = jdwp::find_command(p.command_set, p.command);
      REQUIRE(command);
      if (!e.from_vm) sent[p.id] = *command;
    }
    auto again = jdwp::reencode(*command, p.is_reply() ? jdwp::Direction::reply : jdwp::Direction::request, p.data, e.sizes);
    if (!again && again.error().code == util::Errc::unsupported) continue;  // encode-only layout
    INFO("trace line " << e.line);
    REQUIRE(again);
    CHECK(*again == p.data);
    ++checked;
  }
  CHECK(checked > 20);
}

TEST_CASE("a breakpoint on a class that is not loaded yet fires once the class loads", "[jdwp][integration]") {
  auto l = start({"late"});
  auto classes = l.vm->loaded_classes(soon());
  REQUIRE(classes);
  CHECK(std::find(classes->begin(), classes->end(), "flakescan.fixture.LateLoaded") == classes->end());
  auto by_method = l.vm->set_breakpoint({.class_name = "flakescan.fixture.LateLoaded", .method = "run"}, soon());
  REQUIRE(by_method);
  const int line = marker_line("LateLoaded.java", "late-run");
  auto by_line = l.vm->set_breakpoint({.class_name = "flakescan.fixture.LateLoaded", .line = line}, soon());
  REQUIRE(by_line);
  REQUIRE(l.vm->resume_all(soon()));
  std::set<core::RequestHandle> seen;
  std::set<std::uint64_t> stops;
  std::vector<core::VmEvent> hits;
  for (;;) {
    auto e = l.vm->next_event(soon());
    REQUIRE(e);
    if (e->kind == core::EventKind::vm_death || e->kind == core::EventKind::disconnected) break;
    if (e->kind != core::EventKind::breakpoint) continue;
    seen.insert(e->handle);
    CHECK(e->frame.class_name == "flakescan.fixture.LateLoaded");
    CHECK(e->frame.method == "run");
    CHECK(e->frame.line == line);
    // Both breakpoints sit on the method's first line: the VM reports them as one set,
    // one suspension, resumed once (regression: resuming per event hit a dead thread).
    if (stops.insert(e->set_id).second) REQUIRE(l.vm->resume(e->thread, soon()));
  }
  CHECK(stops.size() == 1);
  CHECK(seen == std::set<core::RequestHandle>{*by_method, *by_line});
}

TEST_CASE("threads: one suspended while others run, waiting and blocked states", "[jdwp][integration]") {
  auto l = start({"threads"});
  auto main_thread = run_to_pause(l);
  auto all = l.vm->threads(soon());
  REQUIRE(all);
  std::map<std::string, core::ThreadRef> by_name;
  for (const auto& t : *all) by_name[t.name] = t.thread;
  for (const char* name : {"spinner", "counter", "waiter", "parker", "blocked"}) REQUIRE(by_name.contains(name));

  auto status = l.vm->thread_status(main_thread, soon());
  REQUIRE(status);
  CHECK(status->suspended);

  // Threads reach their blocking calls in their own time: poll until each shows its state.
  auto state_becomes = [&](const std::string& name, core::ThreadState want) {
    const auto until = core::deadline_in(20s);
    core::ThreadState last = core::ThreadState::unknown;
    while (std::chrono::steady_clock::now() < until) {
      auto s = l.vm->thread_status(by_name[name], soon());
      REQUIRE(s);
      last = s->state;
      if (last == want) return;
      std::this_thread::sleep_for(10ms);
    }
    FAIL(name << " stayed " << core::thread_state_name(last) << ", expected " << core::thread_state_name(want));
  };
  state_becomes("waiter", core::ThreadState::waiting);   // Object.wait()
  state_becomes("parker", core::ThreadState::waiting);   // LockSupport.park()
  state_becomes("blocked", core::ThreadState::monitor);  // synchronized on a held monitor

  REQUIRE(l.vm->suspend(by_name["spinner"], soon()));
  auto spinner = l.vm->thread_status(by_name["spinner"], soon());
  REQUIRE(spinner);
  CHECK(spinner->suspended);
  const auto spins = static_value(*l.vm, "spins").integer;
  // The counter thread keeps going while the spinner stays put.
  const auto others_before = static_value(*l.vm, "others").integer;
  const auto until = core::deadline_in(20s);
  std::int64_t others_now = others_before;
  while (others_now < others_before + 100000 && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(5ms);
    others_now = static_value(*l.vm, "others").integer;
  }
  CHECK(others_now >= others_before + 100000);
  CHECK(static_value(*l.vm, "spins").integer == spins);
  auto counter = l.vm->thread_status(by_name["counter"], soon());
  REQUIRE(counter);
  CHECK_FALSE(counter->suspended);

  // A suspended thread's stack shows where it waits.
  REQUIRE(l.vm->suspend(by_name["waiter"], soon()));
  auto frames = l.vm->stack(by_name["waiter"], 0, soon());
  INFO((frames ? "" : util::describe(frames.error())));
  REQUIRE(frames);
  bool in_wait = false, in_fixture = false;
  for (const auto& f : *frames) {
    in_wait = in_wait || (f.class_name == "java.lang.Object" && f.method.starts_with("wait"));
    in_fixture = in_fixture || f.class_name == fixture_class;
  }
  CHECK(in_wait);
  CHECK(in_fixture);

  REQUIRE(l.vm->resume(by_name["spinner"], soon()));
  std::int64_t spins_now = spins;
  while (spins_now == spins && std::chrono::steady_clock::now() < until) spins_now = static_value(*l.vm, "spins").integer;
  CHECK(spins_now > spins);
  REQUIRE(l.vm->exit(0, soon()));
}

TEST_CASE("static fields read and object graphs walked: maps, lists, arrays, strings, cycles", "[jdwp][integration]") {
  auto l = start({"pause"});
  run_to_pause(l);
  REQUIRE(l.vm->suspend_all(soon()));
  auto graph = l.vm->walk_statics(fixture_class, core::GraphBounds{}, soon());
  REQUIRE(graph);

  CHECK(node(*graph, root(*graph, "name")).text == "flakescan");

  const auto& numbers = node(*graph, root(*graph, "numbers"));
  CHECK(numbers.class_name == "int[]");
  CHECK(numbers.length == 5);
  std::vector<std::int64_t> ints;
  for (const auto& v : numbers.elements) ints.push_back(v.integer);
  CHECK(ints == std::vector<std::int64_t>{3, 1, 4, 1, 5});

  CHECK(node(*graph, root(*graph, "map")).class_name == "java.util.HashMap");
  CHECK(node(*graph, root(*graph, "list")).class_name == "java.util.ArrayList");
  CHECK(field(node(*graph, root(*graph, "list")), "size").integer == 2);
  std::set<std::string> texts;
  for (const auto& [id, n] : graph->nodes) {
    if (n.kind == core::HeapNode::Kind::string) texts.insert(n.text);
  }
  for (const char* s : {"one", "two", "alpha", "beta"}) CHECK(texts.contains(s));

  const auto& a = node(*graph, root(*graph, "ring"));
  CHECK(a.class_name == "flakescan.fixture.JdwpTarget$Node");
  const auto& b = node(*graph, field(a, "next"));
  CHECK(node(*graph, field(b, "label")).text == "b");
  CHECK(field(b, "next").object == a.id);  // the cycle is one node each, not an endless walk

  auto shallow = l.vm->walk_statics(fixture_class, core::GraphBounds{.max_depth = 0}, soon());
  REQUIRE(shallow);
  CHECK(shallow->truncated);
  CHECK(shallow->nodes.size() < graph->nodes.size());
  REQUIRE(l.vm->exit(0, soon()));
}

TEST_CASE("a static field set by the debugger is what the program sees", "[jdwp][integration]") {
  auto l = start({"flag"});
  auto bp = l.vm->set_breakpoint({.class_name = fixture_class, .method = "main"}, soon());
  REQUIRE(bp);
  REQUIRE(l.vm->resume_all(soon()));
  auto hit = next_breakpoint(*l.vm);
  CHECK(static_value(*l.vm, "flag").integer == 0);
  REQUIRE(l.vm->set_static_field(fixture_class, "flag", core::Value::of_int(42), soon()));
  CHECK(static_value(*l.vm, "flag").integer == 42);
  REQUIRE(l.vm->clear(*bp, soon()));
  REQUIRE(l.vm->resume(hit.thread, soon()));
  auto status = l.child.wait(soon());
  REQUIRE(status);
  CHECK(status->exited);
  CHECK(status->code == 42);  // the program exits with the value it read
}

TEST_CASE("static and instance methods invoked with arguments", "[jdwp][integration]") {
  auto l = start({"pause"});
  auto thread = run_to_pause(l);

  auto sum = l.vm->invoke_static(fixture_class, "add", "(II)I", {core::Value::of_int(2), core::Value::of_int(3)}, thread, soon());
  REQUIRE(sum);
  CHECK(sum->result.kind == core::Value::Kind::int_);
  CHECK(sum->result.integer == 5);
  CHECK_FALSE(sum->exception);

  auto who = l.vm->new_string("jdwp", soon());
  REQUIRE(who);
  auto greeting = l.vm->invoke_static(fixture_class, "greet", "", {*who}, thread, soon());
  REQUIRE(greeting);
  REQUIRE(greeting->result.kind == core::Value::Kind::string);
  auto text = l.vm->string_value(greeting->result.object, soon());
  REQUIRE(text);
  CHECK(*text == "hello jdwp");

  auto instance = static_value(*l.vm, "instance");
  REQUIRE(instance.kind == core::Value::Kind::object);
  auto factor = l.vm->get_field(instance.object, "factor", soon());
  REQUIRE(factor);
  CHECK(factor->integer == 3);
  auto scaled = l.vm->invoke_method(instance.object, "scaled", "(I)I", {core::Value::of_int(7)}, thread, soon());
  REQUIRE(scaled);
  CHECK(scaled->result.integer == 21);
  auto cls = l.vm->class_of(instance.object, soon());
  REQUIRE(cls);
  CHECK(*cls == fixture_class);

  auto args = l.vm->arguments(thread, 0, soon());  // pause() takes none
  REQUIRE(args);
  CHECK(args->empty());
  auto wrong = l.vm->invoke_static(fixture_class, "add", "(II)I", {core::Value::of_int(2)}, thread, soon());
  REQUIRE_FALSE(wrong);
  CHECK(wrong.error().code == util::Errc::invalid_argument);
  REQUIRE(l.vm->exit(0, soon()));
}

TEST_CASE("a VM killed mid-request fails every waiter at once", "[jdwp][integration]") {
  auto l = start({"hang"});
  auto thread = run_to_pause(l);
  // Deadlines far away: a waiter that fails with timeout instead of disconnected was not
  // released by the disconnect.
  const auto far = core::deadline_in(120s);
  std::atomic<int> started{0};
  util::Result<core::InvokeResult> invoked = util::fail(util::Errc::internal, "not run");
  std::vector<core::EventKind> events;
  util::Error event_end{util::Errc::internal, "not run"};
  std::thread invoker([&] {
    started++;
    invoked = l.vm->invoke_static(fixture_class, "sleepForever", "()V", {}, thread, far);
  });
  std::thread listener([&] {
    started++;
    for (;;) {
      auto e = l.vm->next_event(far);
      if (!e) {
        event_end = e.error();
        return;
      }
      events.push_back(e->kind);
    }
  });
  while (started < 2) std::this_thread::yield();
  std::this_thread::sleep_for(200ms);  // let the invocation reach the VM (not an assertion)
  l.child.kill_group();
  invoker.join();
  listener.join();
  REQUIRE_FALSE(invoked);
  CHECK(invoked.error().code == util::Errc::disconnected);
  CHECK(event_end.code == util::Errc::disconnected);
  REQUIRE_FALSE(events.empty());
  CHECK(events.back() == core::EventKind::disconnected);
  CHECK_FALSE(l.vm->alive());
  auto after = l.vm->thread_status(thread, far);
  REQUIRE_FALSE(after);
  CHECK(after.error().code == util::Errc::disconnected);
}

TEST_CASE("the agent may listen instead: the debugger reads its port and attaches by address", "[jdwp][integration]") {
  CHECK(jdwp::listening_port("Listening for transport dt_socket at address: 40123\n") == 40123);
  CHECK_FALSE(jdwp::listening_port("Listening for transport dt_socket at address: 401"));  // line not complete
  CHECK_FALSE(jdwp::listening_port("something else\n"));
  auto l = start({"hits", "3"}, "", true);
  REQUIRE(l.vm->set_breakpoint({.class_name = fixture_class, .method = "work", .count = 2}, soon()));
  REQUIRE(l.vm->resume_all(soon()));
  auto hit = next_breakpoint(*l.vm);  // only the second call: Count modifier
  CHECK(hit.frame.line == marker_line("JdwpTarget.java", "work-first"));
  REQUIRE(l.vm->resume(hit.thread, soon()));
  for (;;) {
    auto e = l.vm->next_event(soon());
    REQUIRE(e);
    CHECK(e->kind != core::EventKind::breakpoint);  // the request expired after its one report
    if (e->kind == core::EventKind::vm_death || e->kind == core::EventKind::disconnected) break;
  }
  auto status = l.child.wait(soon());
  REQUIRE(status);
  CHECK(status->success());
}
