#pragma once
// Test support: a core::TestExecutor whose outcomes come from a script (a function of the
// run's test list and position), for testing the scan machinery without JVMs. Test code only.
#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "core/test_executor.hpp"

namespace flakescan::testing {

class ScriptedExecutor final : public core::TestExecutor {
 public:
  // outcome(tests, index, run_number) -> outcome of tests[index] in the run_number-th run.
  using Script = std::function<core::Outcome(const std::vector<std::string>&, size_t, int)>;

  ScriptedExecutor(std::vector<std::string> known_tests, Script script, int parallelism = 2)
      : known_(std::move(known_tests)), script_(std::move(script)), parallelism_(parallelism) {}

  util::Result<Discovery> discover(const std::vector<core::TestId>& ids, const core::CancelFlag&) override {
    Discovery d;
    for (const auto& id : ids) {
      bool any = false;
      for (const auto& t : known_) {
        bool match = id.is_class() ? t.starts_with(id.class_name + "#") : t == id.str();
        if (match) {
          d.tests.push_back(t);
          any = true;
        }
      }
      if (!any) d.missing.emplace_back(id.str(), "no test " + id.str());
    }
    return d;
  }

  util::Result<core::RunReport> run(const core::RunSpec& spec, const core::CancelFlag& cancel) override {
    if (cancel) return util::fail(util::Errc::cancelled, "cancelled");
    int n = runs_++;
    core::RunReport report;
    for (size_t i = 0; i < spec.tests.size(); ++i) {
      core::TestResult r;
      r.test = spec.tests[i];
      r.outcome = script_(spec.tests, i, n);
      if (core::is_failure(r.outcome)) {
        r.exception_type = "java.lang.AssertionError";
        r.message = "scripted failure";
        r.signature = "java.lang.AssertionError at scripted";
      }
      report.results.push_back(r);
    }
    return report;
  }

  int parallelism() const override { return parallelism_; }
  int runs() const { return runs_; }

 private:
  std::vector<std::string> known_;
  Script script_;
  int parallelism_;
  std::atomic<int> runs_{0};
};

}  // namespace flakescan::testing
