#include "fuzz_one.hpp"

#include <string_view>

#include "backend/adb/instrumentation_output.hpp"

namespace flakescan::backend::adb::fuzz {

namespace {

bool same_test(const InstrumentedTest& a, const InstrumentedTest& b) {
  return a.class_name == b.class_name && a.method == b.method && a.code == b.code && a.stack == b.stack &&
         a.stream == b.stream && a.extras == b.extras;
}

bool same_output(const InstrumentationOutput& a, const InstrumentationOutput& b) {
  if (a.tests.size() != b.tests.size()) return false;
  for (std::size_t i = 0; i < a.tests.size(); ++i)
    if (!same_test(a.tests[i], b.tests[i])) return false;
  return a.num_tests == b.num_tests && a.result == b.result && a.code == b.code && a.failed == b.failed &&
         a.aborted == b.aborted && a.other == b.other;
}

}  // namespace

bool fuzz_one(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return true;
  const std::size_t chunk = std::size_t(data[0] % 64) + 1;
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);

  InstrumentationOutput whole = parse_instrumentation(text);
  InstrumentationParser parser;
  double now = 0;
  for (std::size_t at = 0; at < text.size(); at += chunk) parser.feed(text.substr(at, chunk), now += 1);
  const InstrumentationOutput& chunked = parser.finish(now + 1);
  if (!same_output(whole, chunked)) return false;
  for (const auto& t : chunked.tests) {
    if (t.ended() && t.ended_ms < t.started_ms) return false;
    if (t.started_ms < 1 || t.started_ms > now + 1) return false;
  }
  // The summary a run's infra outcome is made from never fails on any output.
  (void)chunked.failure_reason();
  (void)chunked.process_crashed();
  return true;
}

}  // namespace flakescan::backend::adb::fuzz
