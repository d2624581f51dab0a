#pragma once
// A core::RunLog straight over a TestExecutor, without a store: run ids count from 1,
// run_all uses up to parallelism() threads. For integration tests of the `order` and `nio`
// techniques against real JVMs (the scan layer's ScanRunLog adds the store and events).
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "core/technique.hpp"

namespace flakescan::test_support {

class ExecutorRunLog : public core::RunLog {
 public:
  explicit ExecutorRunLog(core::TestExecutor& executor) : executor_(executor) {}

  util::Result<core::RecordedRun> run(const core::RunSpec& spec) override {
    auto report = executor_.run(spec, cancel_);
    if (!report) return std::unexpected(report.error());
    core::RecordedRun r;
    r.id = ++next_id_;
    r.spec = spec;
    r.report = std::move(*report);
    std::lock_guard lock(mutex_);
    made_.push_back(r);
    return r;
  }

  util::Result<std::vector<core::RecordedRun>> run_all(const std::vector<core::RunSpec>& specs) override {
    std::vector<util::Result<core::RecordedRun>> results(specs.size(), util::fail(util::Errc::internal, "not run"));
    std::atomic<size_t> next{0};
    std::vector<std::thread> workers;
    for (int w = 0; w < parallelism(); ++w)
      workers.emplace_back([&] {
        for (size_t i; (i = next++) < specs.size();) results[i] = run(specs[i]);
      });
    for (auto& t : workers) t.join();
    std::vector<core::RecordedRun> out;
    for (auto& r : results) {
      if (!r) return std::unexpected(r.error());
      out.push_back(std::move(*r));
    }
    return out;
  }

  int parallelism() const override { return executor_.parallelism(); }
  bool cancelled() const override { return cancel_.load(); }
  void plan(int) override {}

  std::vector<core::RecordedRun> made() const {
    std::lock_guard lock(mutex_);
    return made_;
  }

 private:
  core::TestExecutor& executor_;
  core::CancelFlag cancel_{false};
  std::atomic<std::int64_t> next_id_{0};
  mutable std::mutex mutex_;
  std::vector<core::RecordedRun> made_;
};

}  // namespace flakescan::test_support
