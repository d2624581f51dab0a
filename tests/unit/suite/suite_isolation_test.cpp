// The lanes of the isolation step share the scan's JVMs (suite_isolation.hpp, JvmSlots): a
// lane's run_all uses the JVMs of lanes that have no suspect, and the lanes together never
// run more JVMs at once than there are.
#include <catch2/catch.hpp>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "suite/suite_isolation.hpp"

using namespace flakescan;

namespace {

// A scan's RunLog whose runs each wait (up to 10 s, a safety net) until `together` runs have
// been under way at once, so that runs made at the same time are seen together.
class TogetherRunLog final : public core::RunLog {
 public:
  explicit TogetherRunLog(int together) : together_(together) {}
  util::Result<core::RecordedRun> run(const core::RunSpec& spec) override {
    std::unique_lock lock(mutex_);
    most_ = std::max(most_, ++now_);
    changed_.notify_all();
    changed_.wait_for(lock, std::chrono::seconds(10), [&] { return most_ >= together_; });
    --now_;
    core::RecordedRun r;
    r.id = ++made_;
    r.spec = spec;
    return r;
  }
  util::Result<std::vector<core::RecordedRun>> run_all(const std::vector<core::RunSpec>& specs) override {
    return core::run_in_parallel(specs, 1, [this](const core::RunSpec& s) { return run(s); });
  }
  int parallelism() const override { return 2; }
  bool cancelled() const override { return false; }
  void plan(int) override {}
  int most() {
    std::lock_guard lock(mutex_);
    return most_;
  }

 private:
  const int together_;
  std::mutex mutex_;
  std::condition_variable changed_;
  int now_ = 0, most_ = 0, made_ = 0;
};

// Two orders that may run at the same time (runs of one test alone never do: run_in_parallel).
std::vector<core::RunSpec> two_runs() {
  return {core::RunSpec{.tests = {"p.C#polluter", "p.A#victim"}}, core::RunSpec{.tests = {"p.C#polluter", "p.A#victim"}}};
}

}  // namespace

TEST_CASE("suite: a lane uses the JVMs of lanes that have no suspect left", "[suite][isolation]") {
  TogetherRunLog scan(2);
  suite::JvmSlots slots(2);
  std::atomic<int> made{0};
  suite::Lane lane(scan, slots, made, 100);
  slots.isolating = 1;  // the other lane has nothing left to isolate
  CHECK(lane.parallelism() == 2);
  auto runs = lane.run_all(two_runs());
  REQUIRE(runs);
  CHECK(runs->size() == 2);
  CHECK(scan.most() == 2);  // both under way at once
  CHECK(lane.kept().size() == 2);
}

TEST_CASE("suite: lanes isolating at the same time share the JVMs", "[suite][isolation]") {
  TogetherRunLog scan(1);
  suite::JvmSlots slots(2);
  std::atomic<int> made{0};
  suite::Lane lane(scan, slots, made, 100);
  slots.isolating = 2;
  CHECK(lane.parallelism() == 1);
  auto runs = lane.run_all(two_runs());
  REQUIRE(runs);
  CHECK(scan.most() == 1);  // one after the other
}

TEST_CASE("suite: the lanes together never hold more JVMs than there are", "[suite][isolation]") {
  // Two lanes that each believe they may start two runs at once (a neighbour just finished a
  // suspect): the slots still let only two JVMs run.
  TogetherRunLog scan(2);
  suite::JvmSlots slots(2);
  std::atomic<int> made{0};
  suite::Lane first(scan, slots, made, 100), second(scan, slots, made, 100);
  slots.isolating = 1;
  std::thread other([&] { REQUIRE(second.run_all(two_runs())); });
  REQUIRE(first.run_all(two_runs()));
  other.join();
  CHECK(scan.most() == 2);
  CHECK(made == 4);
}
