#include <catch2/catch.hpp>

#include "report/verdict_file.hpp"
#include "report_fixture.hpp"

using namespace flakescan;
using namespace flakescan::report;

TEST_CASE("the mixed fixture parses with every field the reports use", "[report][verdict_file]") {
  auto f = load_verdict_file((testing::fixture_dir() / "verdicts_mixed.json").string());
  REQUIRE(f);
  CHECK(f->scan.id == "scan-0042");
  CHECK(f->scan.techniques == std::vector<std::string>{"rerun", "order", "nio"});
  CHECK(f->scan.seed == 7);
  REQUIRE(f->entries.size() == 12);
  const auto& first = f->entries[0];
  CHECK(first.verdict.verdict == core::VerdictKind::flaky);
  CHECK(first.verdict.category == core::Category::concurrency);
  CHECK(first.verdict.runs.failed == 3);
  REQUIRE(first.failing_run);
  CHECK(first.failing_run->stack.find("CounterTest.java:20") != std::string::npos);
  CHECK(first.verdict.evidence.failing_run == 12);
  // class and method are derived from the id when absent.
  CHECK(f->entries[1].class_name == "com.example.cache.CacheTest");
  CHECK(f->entries[1].method == "startsEmpty");
  CHECK(f->entries[1].verdict.evidence.reproducer.size() == 2);
  CHECK(f->entries[6].class_name == "com.example.CounterTest$Nested");
}

TEST_CASE("malformed verdict files are refused with a reason", "[report][verdict_file]") {
  CHECK(parse_verdict_file("{not json").error().code == util::Errc::malformed);
  CHECK(parse_verdict_file("[]").error().code == util::Errc::malformed);
  CHECK(parse_verdict_file(R"({"schema_version": 2, "scan": {}, "verdicts": []})").error().code == util::Errc::unsupported);
  const std::string scan = R"("scan": {"id": "s", "state": "completed", "techniques": []})";
  auto no_runs = parse_verdict_file(R"({"schema_version": 1, )" + scan +
                                    R"(, "verdicts": [{"test": "a.B#c", "verdict": "flaky", "evidence": {}}]})");
  REQUIRE_FALSE(no_runs);
  CHECK(no_runs.error().message.find("runs") != std::string::npos);
  auto bad_id = parse_verdict_file(R"({"schema_version": 1, )" + scan +
                                   R"(, "verdicts": [{"test": "nohash", "verdict": "flaky", "runs": {"total": 1, "passed": 1, "failed": 0}}]})");
  REQUIRE_FALSE(bad_id);
  CHECK(bad_id.error().message.find("nohash") != std::string::npos);
  auto bad_kind = parse_verdict_file(R"({"schema_version": 1, )" + scan +
                                     R"(, "verdicts": [{"test": "a.B#c", "verdict": "maybe", "runs": {"total": 1, "passed": 1, "failed": 0}}]})");
  REQUIRE_FALSE(bad_kind);
  CHECK(bad_kind.error().message.find("maybe") != std::string::npos);
  CHECK(load_verdict_file("/nonexistent/verdicts.json").error().code == util::Errc::not_found);
}

TEST_CASE("serialising and parsing again keeps the file", "[report][verdict_file]") {
  auto f = load_verdict_file((testing::fixture_dir() / "verdicts_mixed.json").string());
  REQUIRE(f);
  const std::string once = serialize_verdict_file(*f);
  auto again = parse_verdict_file(once);
  REQUIRE(again);
  CHECK(serialize_verdict_file(*again) == once);
  CHECK(again->entries.size() == f->entries.size());
}

TEST_CASE("merging scans of two test tasks unites techniques and merges the same test", "[report][verdict_file]") {
  auto a = load_verdict_file((testing::fixture_dir() / "verdicts_mixed.json").string());
  auto b = load_verdict_file((testing::fixture_dir() / "verdicts_clean.json").string());
  REQUIRE(a);
  REQUIRE(b);
  auto m = merge_verdict_files({*b, *a});
  CHECK(m.scan.id == "scan-0001");
  CHECK(m.scan.techniques == std::vector<std::string>{"rerun", "order", "nio"});
  CHECK(m.entries.size() == a->entries.size());  // b's two tests are also in a
  auto it = std::find_if(m.entries.begin(), m.entries.end(),
                         [](const Entry& e) { return e.verdict.test == "com.example.cache.CacheTest#startsEmpty"; });
  REQUIRE(it != m.entries.end());
  CHECK(it->verdict.verdict == core::VerdictKind::flaky);  // flaky beats not_flaky
  CHECK(it->verdict.runs.total == 9);
  REQUIRE(it->failing_run);
  CHECK(it->failing_run->id == 21);
}

TEST_CASE("every finding and category survives reading and writing the verdict file", "[report][verdict_file]") {
  auto f = load_verdict_file((testing::fixture_dir() / "verdicts_mixed.json").string());
  REQUIRE(f);
  const auto& v = f->entries[1].verdict;
  REQUIRE(v.findings.size() == 3);
  CHECK(v.findings[1].technique == "nio");
  CHECK(v.findings[1].category == core::Category::nio);
  CHECK(v.findings[1].evidence.reproducer.size() == 2);
  CHECK_FALSE(v.findings[2].not_deciding.empty());
  CHECK(core::categories_of(v) == std::vector<core::Category>{core::Category::order_dependent, core::Category::nio});
  auto again = parse_verdict_file(serialize_verdict_file(*f));
  REQUIRE(again);
  const auto& w = again->entries[1].verdict;
  REQUIRE(w.findings.size() == 3);
  CHECK(w.findings[2].not_deciding == v.findings[2].not_deciding);
  CHECK(core::categories_of(w) == core::categories_of(v));
  // A single-technique verdict is written with itself as its one finding.
  CHECK(again->entries[0].verdict.findings.size() == 1);
}

TEST_CASE("a verdict file that says not_flaky over observed failures is read honestly", "[report][verdict_file]") {
  auto f = load_verdict_file((testing::fixture_dir() / "verdicts_mixed.json").string());
  REQUIRE(f);
  for (const auto& e : f->entries) {
    INFO(e.verdict.test);
    if (e.verdict.runs.failed > 0) CHECK(e.verdict.verdict != core::VerdictKind::not_flaky);
    if (e.verdict.test == "com.example.cache.CacheTest#storesValue") CHECK(e.verdict.verdict == core::VerdictKind::failing);
  }
}
