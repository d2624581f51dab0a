// MessageTrace: the text format round-trips, malformed records are refused with the line,
// and the derived views (async, dispatch order, async sequence) follow the roles.
#include <catch2/catch.hpp>

#include "looper_trace/message_trace.hpp"

using namespace flakescan;
using looper_trace::parse_message_trace;

namespace {

// main = 0, testing = 1, two background threads; message 2 goes to a background looper
// (thread 3), message 3 is never dispatched.
const char* const sample =
    "test\tdemo.A#b\n"
    "outcome\tpass\n"
    "thread\t0\tmain\tmain\n"
    "thread\t1\ttesting\tInstr: androidx.test.runner.AndroidJUnitRunner\n"
    "thread\t2\tbackground\tconfig-loader\n"
    "thread\t3\tbackground\tsession-restore\n"
    "send\t0\t2\t0\t30\t31\t1.000\t31\t0\tandroid.os.MessageQueue.enqueueMessage;demo.Config.load\n"
    "send\t1\t3\t0\t0\t2\t1.500\t31\t0\tandroid.os.MessageQueue.enqueueMessage;demo.Session.restore\n"
    "dispatch\t1\t0\t2.000\n"
    "send\t2\t0\t3\t5\t8\t2.500\t31\t0\tandroid.os.MessageQueue.enqueueMessage;demo.Screen.save\n"
    "dispatch\t2\t3\t8.000\n"
    "send\t3\t2\t0\t100\t109\t9.000\t32\t0\tandroid.os.MessageQueue.enqueueMessage;demo.Config.retry\n"
    "dispatch\t0\t0\t31.000\n";

}  // namespace

TEST_CASE("a message trace parses, formats back to the same text and answers its views", "[looper_trace][message_trace]") {
  auto trace = parse_message_trace(sample);
  REQUIRE(trace);
  REQUIRE(trace->threads.size() == 4);
  REQUIRE(trace->messages.size() == 4);
  CHECK(trace->main_thread() == 0);
  CHECK(trace->messages[0].delay_ms == 30);
  CHECK(trace->messages[3].delay_ms == 100);
  CHECK(trace->messages[3].handler == 0);
  CHECK_FALSE(trace->messages[3].dispatched_at_ms);
  CHECK(trace->messages[1].identity.role == looper_trace::Role::background);
  CHECK(trace->messages[1].identity.stack.back() == "demo.Session.restore");
  // Background to main: async; main to a background looper: sync.
  CHECK(trace->async(0));
  CHECK(trace->async(1));
  CHECK_FALSE(trace->async(2));
  CHECK(trace->async(3));
  CHECK(trace->dispatched_on(0) == std::vector<size_t>{1, 0});
  CHECK(trace->async_sequence() == std::vector<size_t>{1, 0, 3});
  CHECK(looper_trace::format_message_trace(*trace) == sample);
}

TEST_CASE("malformed message traces are refused with the line that is wrong", "[looper_trace][message_trace]") {
  struct Case {
    std::string text;
    std::string says;
  };
  const std::string head = "test\tdemo.A#b\nthread\t0\tmain\tmain\n";
  std::vector<Case> cases{
      {"thread\t0\tmain\tmain\n", "without a test line"},
      {head + "thread\t2\tbackground\tx\n", "line 3: threads must be numbered"},
      {head + "thread\t1\tpainter\tx\n", "line 3: unknown role"},
      {head + "send\t1\t0\t0\t0\t0\t0\t1\t0\t\n", "line 3: messages must be numbered"},
      {head + "send\t0\t5\t0\t0\t0\t0\t1\t0\t\n", "line 3: unknown sender"},
      {head + "send\t0\t0\t0\tsoon\t0\t0\t1\t0\t\n", "line 3: bad number"},
      {head + "dispatch\t0\t0\t1\n", "line 3: dispatch of a message not sent yet"},
      {head + "send\t0\t0\t0\t0\t0\t0\t1\t0\t\ndispatch\t0\t0\t1\ndispatch\t0\t0\t2\n", "line 5: message dispatched twice"},
      {head + "frobnicate\n", "line 3: unknown record"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    auto r = parse_message_trace(c.text);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == util::Errc::malformed);
    CHECK_THAT(r.error().message, Catch::Contains(c.says));
  }
}
