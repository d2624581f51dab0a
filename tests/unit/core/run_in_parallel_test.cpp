#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

#include "core/technique.hpp"

using namespace flakescan;
using namespace flakescan::core;

namespace {
RunSpec spec_of(std::vector<std::string> tests) {
  RunSpec s;
  s.tests = std::move(tests);
  return s;
}
}  // namespace

TEST_CASE("a spec of one test is that test's; a spec of several has none", "[core][parallel]") {
  CHECK(solo_test(spec_of({"p.A#t"})) == "p.A#t");
  CHECK(solo_test(spec_of({"p.A#t", "p.A#t"})) == "p.A#t");
  CHECK(solo_test(spec_of({"p.A#t", "p.A#u"})).empty());
  CHECK(solo_test(spec_of({})).empty());
}

TEST_CASE("one test never runs twice at once; other specs run beside it", "[core][parallel]") {
  // Lanes: 3. Specs: t, t, u. The first t to run waits until u has started: u runs beside it,
  // and while it waits a lane is free but must not start the second t.
  const std::vector<RunSpec> specs{spec_of({"p.A#t"}), spec_of({"p.A#t", "p.A#t"}), spec_of({"p.B#u"})};
  std::mutex m;
  std::condition_variable cv;
  bool u_started = false, waited_for_u = false, first_t = true;
  int t_now = 0, t_most = 0, calls = 0;
  auto r = run_in_parallel(specs, 3, [&](const RunSpec& s) -> util::Result<RecordedRun> {
    std::unique_lock lock(m);
    ++calls;
    if (s.tests.front() == "p.B#u") {
      u_started = true;
      cv.notify_all();
    } else {
      t_most = std::max(t_most, ++t_now);
      if (first_t) {  // 30 s: a safety net against a broken scheduler, not a timing assertion
        first_t = false;
        waited_for_u = cv.wait_for(lock, std::chrono::seconds(30), [&] { return u_started; });
      }
      --t_now;
    }
    return RecordedRun{.id = calls, .spec = s};
  });
  REQUIRE(r);
  CHECK(calls == 3);
  CHECK(waited_for_u);
  CHECK(t_most == 1);
  REQUIRE(r->size() == 3);
  for (size_t i = 0; i < specs.size(); ++i) CHECK((*r)[i].spec.tests == specs[i].tests);
}

TEST_CASE("the first error stops specs that have not started", "[core][parallel]") {
  const std::vector<RunSpec> specs{spec_of({"p.A#a"}), spec_of({"p.A#b"}), spec_of({"p.A#c"})};
  std::atomic<int> calls{0};
  auto r = run_in_parallel(specs, 1, [&](const RunSpec&) -> util::Result<RecordedRun> {
    ++calls;
    return util::fail(util::Errc::io, "no JVM");
  });
  REQUIRE_FALSE(r);
  CHECK(r.error().message == "no JVM");
  CHECK(calls == 1);
}
