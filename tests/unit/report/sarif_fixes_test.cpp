// SARIF fixes (§3.55) from the verified patch of `repair`, on tests/fixtures/report/verdicts_repair.json.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "report_fixture.hpp"

using namespace flakescan;
using namespace flakescan::report;
using nlohmann::json;

namespace {

json repair_sarif() {
  const auto project = testing::fixture_dir() / "repair-project";
  SourceLocator locator({project / "examples/jvm-repair/src/test/java"});
  auto file = load_verdict_file((testing::fixture_dir() / "verdicts_repair.json").string());
  REQUIRE(file);
  return json::parse(render_sarif(locate_all(*file, locator, project, "0.1.0")));
}

const json& result_for(const json& log, const std::string& test) {
  for (const auto& r : log["runs"][0]["results"])
    if (r["partialFingerprints"]["flakescanTest/v1"] == test) return r;
  FAIL("no result for " << test);
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("a verified repair is a SARIF fix inserting the cleaner at the start of the test", "[report][sarif][repair]") {
  const json log = repair_sarif();
  const json& victim = result_for(log, "example.repair.RegistryVictimTest#startsEmpty");
  REQUIRE(victim.contains("fixes"));
  REQUIRE(victim["fixes"].size() == 1);
  const json& fix = victim["fixes"][0];
  CHECK(fix["description"]["text"] ==
        "Insert example.repair.app.Registry.clearAll(); at the start of the test (it resets "
        "example.repair.app.Registry.NAMES); verified by run 42.");
  REQUIRE(fix["artifactChanges"].size() == 1);
  const json& change = fix["artifactChanges"][0];
  const std::string path = "examples/jvm-repair/src/test/java/example/repair/RegistryVictimTest.java";
  CHECK(change["artifactLocation"] == json({{"uri", path}, {"uriBaseId", "%SRCROOT%"}}));
  // The fix names the file the result's location names.
  CHECK(victim["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == path);
  REQUIRE(change["replacements"].size() == 1);
  CHECK(change["replacements"][0] ==
        json({{"deletedRegion", {{"startLine", 11}, {"startColumn", 1}, {"endLine", 11}, {"endColumn", 1}}},
              {"insertedContent", {{"text", "        example.repair.app.Registry.clearAll();\n"}}}}));
  // Line 11 is the test's first statement.
  CHECK(victim["locations"][0]["physicalLocation"]["region"]["startLine"] == 10);
}

TEST_CASE("no patch, or one that does not parse: no fixes", "[report][sarif][repair]") {
  const json log = repair_sarif();
  CHECK_FALSE(result_for(log, "example.repair.TicketCounterTest#firstTicketIsOne").contains("fixes"));

  Report r;
  LocatedEntry le;
  le.entry.verdict.test = "a.B#c";
  le.entry.verdict.verdict = core::VerdictKind::flaky;
  le.entry.verdict.category = core::Category::order_dependent;
  core::Finding f;
  f.technique = "repair";
  f.verdict = core::VerdictKind::flaky;
  f.evidence.details["patch"] = "--- a/B.java\n+++ b/B.java\n@@ -1,3 +1,4 @@\n only one line\n";
  le.entry.verdict.findings = {f};
  r.entries.push_back(le);
  CHECK_FALSE(json::parse(render_sarif(r))["runs"][0]["results"][0].contains("fixes"));
}

TEST_CASE("a fix says where the repair put the statement", "[report][sarif][repair]") {
  Report r;
  LocatedEntry le;
  le.entry.verdict.test = "a.BTest#c";
  le.entry.verdict.verdict = core::VerdictKind::flaky;
  le.entry.verdict.category = core::Category::order_dependent;
  core::Finding f;
  f.technique = "repair";
  f.verdict = core::VerdictKind::flaky;
  f.evidence.details["cleaner"] = "a.Factory.getInstance().reset();";
  f.evidence.details["patch_placement"] = "in an instance initializer of its class (before field initializers and @Before)";
  f.evidence.details["patch"] =
      "--- a/BTest.java\n+++ b/BTest.java\n@@ -1,2 +1,5 @@\n class BTest {\n+    {\n+        a.Factory.getInstance().reset();\n+    }\n }\n";
  le.entry.verdict.findings = {f};
  r.entries.push_back(le);
  const json result = json::parse(render_sarif(r))["runs"][0]["results"][0];
  REQUIRE(result.contains("fixes"));
  CHECK(result["fixes"][0]["description"]["text"] ==
        "Insert a.Factory.getInstance().reset(); in an instance initializer of its class (before field initializers and @Before).");
}
