// Locating the call site of an implementation-dependent test (shuffle/site_location.hpp) over
// a scripted run log: a probe run "fails" when the sites it shuffles include the ones that the
// script says decide the test. Also the frame parser, the user frame, and the seeds.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "shuffle/shuffle.hpp"
#include "shuffle/site_location.hpp"

using namespace flakescan;
using namespace flakescan::shuffle;

namespace {

// Fails a run exactly when every key of `deciding` is among the sites it shuffles.
class ScriptedLog final : public core::RunLog {
 public:
  explicit ScriptedLog(std::set<std::string> deciding) : deciding_(std::move(deciding)) {}
  util::Result<core::RecordedRun> run(const core::RunSpec& spec) override {
    specs.push_back(spec);
    core::RecordedRun r;
    r.id = std::int64_t(specs.size());
    r.spec = spec;
    const auto& sites = spec.shuffle->sites;
    const bool fails = std::all_of(deciding_.begin(), deciding_.end(),
                                   [&](const std::string& k) { return std::find(sites.begin(), sites.end(), k) != sites.end(); });
    core::TestResult t;
    t.test = spec.tests.front();
    t.outcome = fails ? core::Outcome::fail : core::Outcome::pass;
    r.report.results.push_back(t);
    return r;
  }
  util::Result<std::vector<core::RecordedRun>> run_all(const std::vector<core::RunSpec>& specs_in) override {
    std::vector<core::RecordedRun> out;
    for (const auto& s : specs_in) out.push_back(*run(s));
    return out;
  }
  int parallelism() const override { return 1; }
  bool cancelled() const override { return false; }
  void plan(int) override {}
  std::vector<core::RunSpec> specs;

 private:
  std::set<std::string> deciding_;
};

std::vector<core::ShuffledSite> sites(int n) {
  std::vector<core::ShuffledSite> out;
  for (int i = 0; i < n; ++i)
    out.push_back({.key = "HashMap.keySet iteration at p.C.m" + std::to_string(i) + "(C.java:" + std::to_string(10 + i) + ")",
                   .api = "HashMap.keySet iteration"});
  return out;
}

}  // namespace

TEST_CASE("locate_sites: one deciding site among eight, every probe under the failing seed and mode", "[shuffle][locate]") {
  const auto all = sites(8);
  ScriptedLog log({all[5].key});
  auto located = locate_sites("p.T#m", {.seed = 77, .mode = "one"}, all, log, 24);
  REQUIRE(located);
  REQUIRE(located->sites.size() == 1);
  CHECK(located->sites[0].key == all[5].key);
  CHECK(located->complete);
  CHECK(located->runs == int(log.specs.size()));
  CHECK(located->runs <= 8);
  REQUIRE(located->run > 0);
  CHECK(log.specs[located->run - 1].shuffle->sites == std::vector<std::string>{all[5].key});  // that run failed with it alone
  for (const auto& s : log.specs) {
    CHECK(s.shuffle->seed == 77);
    CHECK(s.shuffle->mode == "one");
    CHECK(s.tests == std::vector<std::string>{"p.T#m"});
  }
}

TEST_CASE("locate_sites: two sites needed together are both reported", "[shuffle][locate]") {
  const auto all = sites(6);
  ScriptedLog log({all[1].key, all[4].key});
  auto located = locate_sites("p.T#m", {.seed = 3}, all, log, 24);
  REQUIRE(located);
  std::set<std::string> keys;
  for (const auto& s : located->sites) keys.insert(s.key);
  CHECK(keys == std::set<std::string>{all[1].key, all[4].key});
}

TEST_CASE("locate_sites: a single site needs no run; a spent budget says so and keeps a failing set", "[shuffle][locate]") {
  ScriptedLog none({});
  auto one = locate_sites("p.T#m", {.seed = 1}, sites(1), none, 24);
  REQUIRE(one);
  CHECK(one->sites.size() == 1);
  CHECK(one->runs == 0);
  CHECK(none.specs.empty());

  const auto all = sites(16);
  ScriptedLog log({all[9].key});
  auto cut = locate_sites("p.T#m", {.seed = 1}, all, log, 2);
  REQUIRE(cut);
  CHECK_FALSE(cut->complete);
  CHECK(cut->stopped.find("budget of 2 runs") != std::string::npos);
  CHECK(cut->runs == 2);
  CHECK(std::any_of(cut->sites.begin(), cut->sites.end(), [&](const auto& s) { return s.key == all[9].key; }));
}

TEST_CASE("parse_frame reads the shuffling JDK's frames", "[shuffle][locate]") {
  auto f = parse_frame("example.app.Outer$Inner.render(Outer.java:41)");
  REQUIRE(f);
  CHECK(f->class_name == "example.app.Outer$Inner");
  CHECK(f->method == "render");
  CHECK(f->file == "Outer.java");
  CHECK(f->line == 41);
  auto unknown = parse_frame("p.C.m(Unknown Source)");
  REQUIRE(unknown);
  CHECK(unknown->line == 0);
  CHECK(unknown->file.empty());
  CHECK_FALSE(parse_frame(""));
  CHECK_FALSE(parse_frame("no frame"));
  CHECK_FALSE(parse_frame("m(C.java:1)"));
}

TEST_CASE("user_frame: the first frame whose class has a source file, with a line", "[shuffle][locate]") {
  core::ShuffledSite site{.key = "k",
                          .api = "HashMap.entrySet iteration",
                          .frames = {"lib.Json.write(Json.java:10)", "p.Gen$1.call(Unknown Source)", "p.Report.render(Report.java:41)",
                                     "p.ReportTest.renders(ReportTest.java:12)"}};
  auto sources = [](const std::string& c) -> std::optional<std::string> {
    if (c == "p.Report" || c == "p.ReportTest" || c == "p.Gen$1") return "src/" + c + ".java";
    return std::nullopt;
  };
  auto u = user_frame(site, sources);
  REQUIRE(u);
  CHECK(u->text == "p.Report.render(Report.java:41)");
  CHECK(u->source_path == "src/p.Report.java");
  CHECK_FALSE(user_frame(site, [](const std::string&) { return std::optional<std::string>(); }));
}

TEST_CASE("shuffle_seeds: deterministic per scan seed, distinct, never 0", "[shuffle]") {
  auto a = shuffle_seeds(1, 5);
  CHECK(a == shuffle_seeds(1, 5));
  CHECK(a != shuffle_seeds(2, 5));
  CHECK(std::set<std::uint64_t>(a.begin(), a.end()).size() == 5);
  for (auto s : a) CHECK(s != 0);
  CHECK(std::vector<std::uint64_t>(a.begin(), a.begin() + 3) == shuffle_seeds(1, 3));  // more seeds extend the list
}
