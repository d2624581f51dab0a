// Technique `shuffle` end to end on the local JVM: real runs of examples/jvm-shuffle on the
// plain JDK and on the shuffling JDK (prepared once into the build tree's cache), for three
// planted implementation-dependent tests (HashMap iteration in main code, fixed by a
// LinkedHashMap; HashMap.toString in test code, fixed by comparing maps; getDeclaredFields in
// main code, which no small fix repairs), a not-flaky twin, and a test that fails on the plain
// JDK. The lines and fix kinds come from the example's expectations.json.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "backend/local_jvm/local_jvm_executor.hpp"
#include "backend/local_jvm/local_tools.hpp"
#include "integration/event_order/local_run_log.hpp"
#include "shuffle/shuffle.hpp"
#include "support/classpath_file.hpp"

namespace fs = std::filesystem;
using namespace flakescan;

namespace {

const std::string example_dir = std::string(FLAKESCAN_SOURCE_DIR) + "/examples/jvm-shuffle";
const std::string renderer = "example.shuffle.ReportRendererTest#summaryListsStatusesInFirstSeenOrder";
const std::string renderer_twin = "example.shuffle.ReportRendererTest#summaryCountsEveryStatus";
const std::string headers = "example.shuffle.HeadersTest#printsHeaders";
const std::string csv = "example.shuffle.CsvWriterTest#exportsColumnsInDeclarationOrder";
const std::string fails_clean = "example.shuffle.clean.FailsCleanTest#expectsTheReverseOfThePlainOrder";
const std::string registration = "example.shuffle.clean.RegistryTest#listsPluginsInRegistrationOrder";
const std::string by_name = "example.shuffle.clean.RegistryTest#listsPluginsByName";

nlohmann::json expectation(const std::string& test) {
  std::ifstream in(example_dir + "/expectations.json");
  for (const auto& e : nlohmann::json::parse(in))
    if (e["test"] == test) return e;
  FAIL("no expectation for " << test);
  return {};
}

// "example/shuffle/app/ReportRenderer.java:21" -> "(ReportRenderer.java:21)", how a frame ends.
std::string frame_suffix(const nlohmann::json& e) {
  const std::string site = e["site"];
  return "(" + fs::path(site).filename().string() + ")";
}

std::string detail(const core::Verdict& v, const std::string& key) {
  auto it = v.evidence.details.find(key);
  return it == v.evidence.details.end() ? "" : it->second;
}

const core::Verdict& verdict_of(const std::vector<core::Verdict>& verdicts, const std::string& test) {
  for (const auto& v : verdicts)
    if (v.test == test) return v;
  FAIL("no verdict for " << test);
  return verdicts.front();
}

bool passed(const core::RecordedRun& r) { return r.report.outcome_at(0) == core::Outcome::pass; }
bool failed(const core::RecordedRun& r) { return core::is_failure(r.report.outcome_at(0)); }

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ":") + p;
  return out;
}

int shell(const std::string& command) {
  INFO(command);
  return std::system(command.c_str());
}

struct Scan {
  backend::LocalJvmConfig config;
  std::unique_ptr<backend::LocalJvmExecutor> executor;
  std::unique_ptr<test_support::LocalRunLog> log;
  core::TechniqueInput input;
  std::vector<core::Verdict> verdicts;
};

// One scan for every test case: the technique is the expensive part (about 60 JVMs).
Scan& scan() {
  static Scan* s = [] {
    auto* s = new Scan;
    auto& c = s->config;
    c.runner_jar = fs::path(FLAKESCAN_BINARY_DIR) / "lib" / "flakescan-runner.jar";
    c.platform_jars = backend::default_platform_jars("/usr/share/java");
    c.classpath = test_support::classpath_file(fs::path(FLAKESCAN_BINARY_DIR) / "examples" / "jvm-shuffle.scan");
    c.classpath.push_back(SHUFFLE_CLEAN_JAR);
    c.work_dir = fs::temp_directory_path() / ("flakescan-shuffle-it-" + std::to_string(::getpid()));
    c.shuffling_jdk_jar = fs::path(FLAKESCAN_BINARY_DIR) / "lib" / "flakescan-shuffling-jdk.jar";
    c.asm_jars = backend::default_asm_jars("/usr/share/java");
    c.shuffling_jdk_cache = SHUFFLING_JDK_CACHE;
    s->executor = std::make_unique<backend::LocalJvmExecutor>(c);
    s->log = std::make_unique<test_support::LocalRunLog>(*s->executor, 2);
    s->input.tests = {renderer, renderer_twin, headers, csv, fails_clean, registration, by_name};
    s->input.tools = std::make_shared<backend::LocalTools>();  // javac for the fixes it verifies
    s->input.classpath = s->executor->process_classpath();
    s->input.project_dir = FLAKESCAN_SOURCE_DIR;
    s->input.source_roots = {example_dir + "/src/main/java", example_dir + "/src/test/java",
                             std::string(FLAKESCAN_SOURCE_DIR) + "/tests/fixtures/shuffle_clean"};
    s->input.seed = 1;
    auto verdicts = shuffle::detect_implementation_dependent(s->input, *s->log, {});
    if (!verdicts) FAIL("shuffle failed: " << verdicts.error().message);
    s->verdicts = std::move(*verdicts);
    return s;
  }();
  return *s;
}

}  // namespace

// One test case, one process, one scan (about 60 JVMs): ctest runs each test case as a
// process of its own, and the scan is what costs.
TEST_CASE("shuffle on the local JVM: found, located, replayed, fixed, refused, and the clean-run rule", "[shuffle][integration]") {
  SECTION("an ID test passes clean, fails under a seed, and names the line and the API") {
    auto& s = scan();
    const auto& v = verdict_of(s.verdicts, renderer);
    INFO(v.evidence.reason);
    CHECK(v.verdict == core::VerdictKind::flaky);
    CHECK(v.category == core::Category::implementation_dependent);
    REQUIRE(v.evidence.passing_run);
    REQUIRE(v.evidence.failing_run);
    const auto* clean = s.log->find(*v.evidence.passing_run);
    const auto* shuffled = s.log->find(*v.evidence.failing_run);
    REQUIRE(clean);
    REQUIRE(shuffled);
    CHECK_FALSE(clean->spec.shuffle);  // the passing run is on the plain JDK
    CHECK(passed(*clean));
    REQUIRE(shuffled->spec.shuffle);
    CHECK(failed(*shuffled));
    CHECK(std::to_string(shuffled->spec.shuffle->seed) == detail(v, "seed"));
    CHECK(detail(v, "failing_seeds").find(detail(v, "seed")) != std::string::npos);
    CHECK(detail(v, "mode") == "full");

    const auto e = expectation(renderer);
    CHECK(detail(v, "api").rfind("HashMap", 0) == 0);
    CHECK(detail(v, "user_frame").ends_with(frame_suffix(e)));
    CHECK(detail(v, "located").rfind("one site", 0) == 0);  // "one site", or "one site: the only one ..." when no search was needed
    // The frames run from the site down to the test method, and stop at the test machinery.
    const std::string frames = detail(v, "frames");
    CHECK(frames.rfind("example.shuffle.app.ReportRenderer.summary(ReportRenderer.java:", 0) == 0);
    CHECK(frames.substr(frames.rfind('\n') + 1).rfind("example.shuffle.ReportRendererTest.summaryListsStatusesInFirstSeenOrder(", 0) == 0);
    CHECK(frames.find("org.junit") == std::string::npos);
    CHECK(v.evidence.reason.find(detail(v, "api") + " at " + detail(v, "user_frame")) != std::string::npos);
  }
  SECTION("the seed in the verdict replays the failure") {
    auto& s = scan();
    const auto& v = verdict_of(s.verdicts, headers);
    REQUIRE(v.verdict == core::VerdictKind::flaky);
    auto replay = shuffle::replay_shuffle(headers, v.evidence.details, *s.log);
    REQUIRE(replay);
    REQUIRE(replay->spec.shuffle);
    CHECK(std::to_string(replay->spec.shuffle->seed) == detail(v, "seed"));
    CHECK(failed(*replay));
    // A site in test code: the frame is the test method's own line.
    CHECK(detail(v, "user_frame").ends_with(frame_suffix(expectation(headers))));
    CHECK(detail(v, "user_frame").find("HeadersTest.printsHeaders") != std::string::npos);
  }
  SECTION("a verified fix applies with git apply and compiles") {
    auto& s = scan();
    for (const auto& test : std::vector<std::string>{renderer, headers}) {
      const auto& v = verdict_of(s.verdicts, test);
      INFO(test << ": " << detail(v, "fix_refused"));
      const std::string patch = detail(v, "patch");
      REQUIRE_FALSE(patch.empty());
      const std::string kind = detail(v, "fix_kind");
      const std::string expected = expectation(test)["fix"];
      CHECK(kind == (expected == "linked" ? "linked_allocation" : expected == "sorted" ? "sorted_copy" : expected));
      // The verifying run passed, under a seed that had failed.
      const auto* run = s.log->find(std::stoll(detail(v, "verified_by_run")));
      REQUIRE(run);
      CHECK(passed(*run));

      // The user's tools: git apply on a copy of the file, then javac against the classpath.
      const fs::path copy = s.config.work_dir / ("apply-" + test.substr(test.find('#') + 1));
      const std::string file = detail(v, "patch_file");
      fs::create_directories((copy / file).parent_path());
      fs::copy_file(fs::path(FLAKESCAN_SOURCE_DIR) / file, copy / file, fs::copy_options::overwrite_existing);
      std::ofstream(copy / "fix.patch") << patch;
      REQUIRE(shell("cd '" + copy.string() + "' && git apply fix.patch") == 0);
      CHECK(shell("javac -nowarn -d '" + (copy / "classes").string() + "' -cp '" + joined(s.input.classpath) + "' '" +
                  (copy / file).string() + "'") == 0);
    }
  }
  SECTION("a test no small fix repairs is located, and its fix refused") {
    auto& s = scan();
    const auto& v = verdict_of(s.verdicts, csv);
    CHECK(v.verdict == core::VerdictKind::flaky);
    CHECK(v.category == core::Category::implementation_dependent);
    CHECK(detail(v, "api").rfind("Class.getDeclaredFields", 0) == 0);
    CHECK(detail(v, "user_frame").ends_with(frame_suffix(expectation(csv))));
    CHECK(detail(v, "patch").empty());
    CHECK_FALSE(detail(v, "fix_refused").empty());
  }
  SECTION("a fix that repairs the test but breaks another is refused; one that breaks none is kept") {
    auto& s = scan();
    const auto& v = verdict_of(s.verdicts, registration);
    INFO(v.evidence.reason << "\n" << detail(v, "fix_refused"));
    REQUIRE(v.category == core::Category::implementation_dependent);
    CHECK(detail(v, "user_frame").find("Registry.names(Registry.java:") != std::string::npos);
    // The LinkedHashMap in Registry makes this test pass under every seed, but
    // listsPluginsByName then fails on the plain JDK: the run of the others with the patch
    // showed it, and the one without it showed it passing.
    bool refused_linked = false;
    for (const auto& r : s.log->recorded()) {
      // The others that passed their clean run: not the one failing clean.
      if (r.spec.purpose != "shuffle: a fix of " + registration + " against the other 5 test(s), patched") continue;
      CHECK(std::find(r.spec.tests.begin(), r.spec.tests.end(), fails_clean) == r.spec.tests.end());
      for (const auto& t : r.report.results)
        if (t.test == by_name && core::is_failure(t.outcome)) refused_linked = true;
    }
    CHECK(refused_linked);
    CHECK(detail(v, "fix_kind") == "sorted_copy");  // the sort in names() repairs both
    CHECK(detail(v, "patch").find("LinkedHashMap") == std::string::npos);
  }
  SECTION("the twin is not flaky, and a test failing clean is not shuffled") {
    auto& s = scan();
    const auto& twin = verdict_of(s.verdicts, renderer_twin);
    INFO(twin.evidence.reason);
    CHECK(twin.verdict == core::VerdictKind::not_flaky);
    CHECK(twin.runs.total >= 4);  // clean + 3 seeds
    CHECK(std::stoi(detail(twin, "sites_seen")) >= 1);  // it did read an unspecified order

    const auto& clean = verdict_of(s.verdicts, fails_clean);
    INFO(clean.evidence.reason);
    CHECK(clean.verdict == core::VerdictKind::failing);
    CHECK(clean.category != core::Category::implementation_dependent);
    CHECK(clean.evidence.reason.find("not implementation-dependent") != std::string::npos);
    for (const auto& r : s.log->recorded())
      if (r.spec.tests == std::vector<std::string>{fails_clean}) CHECK_FALSE(r.spec.shuffle);
  }
}
