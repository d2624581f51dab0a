#include "support/order/fake_suite.hpp"

#include <algorithm>
#include <thread>

namespace flakescan::test_support {

core::Outcome FakeRunLog::outcome(const std::vector<std::string>& tests, size_t i, bool count_nod) {
  const std::string& t = tests[i];
  auto before = [&](const std::string& other, size_t from = 0) {
    for (size_t k = from; k < i; ++k)
      if (tests[k] == other) return true;
    return false;
  };
  if (suite_.broken.count(t)) return core::Outcome::fail;
  if (suite_.nio.count(t) && before(t)) return core::Outcome::fail;
  if (auto s = suite_.timed.find(t); s != suite_.timed.end()) {
    if (!count_nod) return core::Outcome::pass;
    size_t k = timed_count_[t]++;
    return k < s->second.size() ? s->second[k] : core::Outcome::pass;
  }
  if (suite_.nod.count(t) && count_nod) return (nod_count_[t]++ % 2 == 1) ? core::Outcome::fail : core::Outcome::pass;
  if (auto b = suite_.brittles.find(t); b != suite_.brittles.end()) {
    bool set = std::any_of(b->second.begin(), b->second.end(), [&](const std::string& s) { return before(s); });
    return set ? core::Outcome::pass : core::Outcome::fail;
  }
  if (auto v = suite_.victims.find(t); v != suite_.victims.end()) {
    const auto& ps = v->second.polluters;
    // Position of the last polluter that ran, and whether all of them did.
    long last = -1;
    size_t present = 0;
    for (const auto& p : ps) {
      for (size_t k = 0; k < i; ++k)
        if (tests[k] == p) last = std::max(last, static_cast<long>(k));
      if (before(p)) ++present;
    }
    bool polluted = v->second.needs_all ? present == ps.size() && !ps.empty() : present > 0;
    if (!polluted) return core::Outcome::pass;
    for (const auto& c : v->second.cleaners)
      if (before(c, static_cast<size_t>(last) + 1)) return core::Outcome::pass;
    return core::Outcome::fail;
  }
  return core::Outcome::pass;
}

core::Outcome FakeRunLog::predict(const std::vector<std::string>& order) {
  return outcome(order, order.size() - 1, false);
}

util::Result<core::RecordedRun> FakeRunLog::run(const core::RunSpec& spec) {
  if (cancelled()) return util::fail(util::Errc::cancelled, "scan cancelled");
  struct InFlight {
    std::atomic<int>& now;
    explicit InFlight(std::atomic<int>& n, std::atomic<int>& most) : now(n) {
      int current = ++now;
      for (int seen = most; current > seen && !most.compare_exchange_weak(seen, current);) {}
    }
    ~InFlight() { --now; }
  } in_flight(at_once_, most_at_once_);
  std::this_thread::yield();  // let a run of another thread begin meanwhile, as a JVM's would
  std::lock_guard lock(mutex_);
  core::RecordedRun r;
  if (unrun_after_ >= 0 && runs_ >= unrun_after_) {
    r.spec = spec;
    return r;
  }
  r.id = ++runs_;
  r.spec = spec;
  bool ended = false;
  for (size_t i = 0; i < spec.tests.size(); ++i) {
    core::TestResult res;
    res.test = spec.tests[i];
    if (!ended && suite_.exiting.count(res.test)) {
      ended = true;
      r.report.infra_reason = "System.exit(3) in " + res.test;
      r.report.exit_code = 3;
    }
    res.outcome = ended ? core::Outcome::infra : outcome(spec.tests, i, true);
    if (auto d = suite_.duration_ms.find(res.test); d != suite_.duration_ms.end() && !ended) res.duration_ms = d->second;
    if (suite_.thread_creators.contains(res.test) && !ended) res.threads_created = 1;
    if (core::is_failure(res.outcome)) {
      res.exception_type = "java.lang.AssertionError";
      res.message = "simulated failure";
      res.signature = "java.lang.AssertionError at " + res.test;
    }
    r.report.results.push_back(std::move(res));
  }
  made_.push_back(r);
  return r;
}

util::Result<std::vector<core::RecordedRun>> FakeRunLog::run_all(const std::vector<core::RunSpec>& specs) {
  std::vector<core::RecordedRun> out;
  for (const auto& s : specs) {
    auto r = run(s);
    if (!r) return std::unexpected(r.error());
    out.push_back(std::move(*r));
  }
  return out;
}

}  // namespace flakescan::test_support
