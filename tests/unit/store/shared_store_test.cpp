// Many daemons, one store: several Store objects (each its own connection, as each daemon has)
// on one location, writing at once, on both engines. Nothing lost, nothing twice.
#include <catch2/catch.hpp>

#include <atomic>
#include <set>
#include <thread>

#include "store/store.hpp"
#include "unit/store/engines.hpp"

using namespace flakescan;

namespace {

constexpr int daemons = 4;

store::ScanRecord scan_of(const std::string& id, const std::string& daemon) {
  return {.id = id, .state = "running", .request = "{}", .backend = "local", .techniques = {"rerun"}, .seed = 1,
          .daemon = daemon};
}

core::RunReport report_of(int n) {
  core::RunReport report;
  report.results.push_back({.test = "p.A#t" + std::to_string(n), .outcome = core::Outcome::pass, .message = "run " + std::to_string(n)});
  report.results.push_back({.test = "p.A#u", .outcome = n % 3 == 0 ? core::Outcome::fail : core::Outcome::pass});
  return report;
}

// Opens `daemons` stores on `location` at once (their migrations race), one per thread.
std::vector<std::unique_ptr<store::Store>> open_at_once(const std::string& location) {
  std::vector<util::Result<std::unique_ptr<store::Store>>> opened;
  for (int d = 0; d < daemons; ++d) opened.emplace_back(util::fail(util::Errc::internal, "not run"));
  std::vector<std::thread> threads;
  for (int d = 0; d < daemons; ++d) threads.emplace_back([&, d] { opened[d] = store::Store::open(location); });
  for (auto& t : threads) t.join();
  std::vector<std::unique_ptr<store::Store>> out;
  for (auto& o : opened) {
    INFO((o ? std::string() : o.error().message));
    REQUIRE(o);
    out.push_back(std::move(*o));
  }
  return out;
}

}  // namespace

TEST_CASE("four daemons open one new store at once, and it is migrated once", "[store][shared]") {
  auto engine = GENERATE(store_test::store_engines());
  CAPTURE(engine);
  auto stores = open_at_once(store_test::fresh_location(engine, "open_at_once"));
  REQUIRE(stores[0]->create_scan(scan_of("s", "d0")));
  for (auto& s : stores) CHECK(s->scan("s")->daemon == "d0");
}

TEST_CASE("four daemons record runs at once: every run kept once, each readable by every daemon", "[store][shared]") {
  auto engine = GENERATE(store_test::store_engines());
  CAPTURE(engine);
  auto stores = open_at_once(store_test::fresh_location(engine, "runs_at_once"));
  constexpr int runs_each = 40;
  for (int d = 0; d < daemons; ++d) REQUIRE(stores[d]->create_scan(scan_of("scan" + std::to_string(d), "d" + std::to_string(d))));
  std::vector<std::vector<std::int64_t>> ids(daemons);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int d = 0; d < daemons; ++d)
    threads.emplace_back([&, d] {
      for (int n = 0; n < runs_each; ++n) {
        core::RunSpec spec{.tests = {"p.A#t" + std::to_string(n), "p.A#u"}, .technique = "rerun", .purpose = "d" + std::to_string(d)};
        auto id = stores[d]->record_run("scan" + std::to_string(d), spec, report_of(n));
        if (id) ids[d].push_back(*id);
        else ++failures;
      }
    });
  for (auto& t : threads) t.join();
  CHECK(failures == 0);
  std::set<std::int64_t> distinct;
  for (const auto& each : ids) distinct.insert(each.begin(), each.end());
  CHECK(distinct.size() == std::size_t(daemons * runs_each));
  // Every daemon reads every other daemon's runs, each with its own results in order.
  for (int reader = 0; reader < daemons; ++reader)
    for (int d = 0; d < daemons; ++d) {
      auto runs = stores[reader]->runs_of_scan("scan" + std::to_string(d));
      REQUIRE(runs);
      REQUIRE(runs->size() == std::size_t(runs_each));
      for (int n = 0; n < runs_each; ++n) {
        const auto& run = (*runs)[n];
        CHECK(run.spec.purpose == "d" + std::to_string(d));
        REQUIRE(run.report.results.size() == 2);
        CHECK(run.report.results[0].message == "run " + std::to_string(n));
      }
      CHECK(stores[reader]->scan("scan" + std::to_string(d))->runs_done == runs_each);
    }
}

TEST_CASE("two daemons importing one CI run at once end with one import of it", "[store][shared]") {
  auto engine = GENERATE(store_test::store_engines());
  CAPTURE(engine);
  auto stores = open_at_once(store_test::fresh_location(engine, "imports_at_once"));
  std::vector<store::CiResultRow> results;
  for (int i = 0; i < 30; ++i) results.push_back({.test = "p.B#t" + std::to_string(i), .outcome = i == 7 ? "fail" : "pass"});
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int d = 0; d < daemons; ++d)
    threads.emplace_back([&, d] {
      for (int n = 0; n < 10; ++n) {
        store::CiImportRecord import{.source = "ci-run-" + std::to_string(n % 3), .commit = "c" + std::to_string(n % 3)};
        if (!stores[d]->import_ci_results(import, results)) ++failures;
      }
    });
  for (auto& t : threads) t.join();
  CHECK(failures == 0);
  CHECK(stores[0]->ci_import_count().value() == 3);  // three sources, however often each came
  auto suspects = stores[1]->ci_suspects(10).value();
  CHECK(suspects.empty());  // one result per test per import: nothing counted twice
}

TEST_CASE("text PostgreSQL refuses is stored readable, and valid text unchanged", "[store][shared]") {
  auto engine = GENERATE(store_test::store_engines());
  CAPTURE(engine);
  auto s = store::Store::open(store_test::fresh_location(engine, "odd_text")).value();
  REQUIRE(s->create_scan(scan_of("s", "d")));
  core::RunReport report;
  std::string odd = std::string("bad \xff byte, NUL \0 here", 22) + ", emoji \xf0\x9f\x90\x9b";
  report.results.push_back({.test = "p.A#t", .outcome = core::Outcome::fail, .message = odd, .stack = "caf\xc3\xa9"});
  auto id = s->record_run("s", {.tests = {"p.A#t"}}, report);
  REQUIRE(id);  // a run is never lost to a byte of its output
  auto run = s->run(*id).value();
  CHECK(run.report.results[0].stack == "caf\xc3\xa9");
  if (engine == "postgresql")
    CHECK(run.report.results[0].message == "bad \xef\xbf\xbd byte, NUL  here, emoji \xf0\x9f\x90\x9b");
  else
    CHECK(run.report.results[0].message == odd);
}
