// Technique `repair` end to end on the local JVM: real runs of examples/jvm-repair (the
// order technique finds the victims, repair makes its own captures, restores, cleaner and
// verification runs), then the offered patch is applied with git to a copy of the source.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/classpath_file.hpp"
#include "backend/local_jvm/local_jvm_executor.hpp"
#include "backend/local_jvm/local_tools.hpp"
#include "core/deciding.hpp"
#include "integration/event_order/local_run_log.hpp"
#include "order/order_and_nio.hpp"
#include "repair/repair.hpp"

namespace fs = std::filesystem;
using namespace flakescan;

namespace {

// Line 1 of the example's .scan file: its classpath (the class directory first).
std::vector<std::string> example_classpath() {
  return test_support::classpath_file(fs::path(FLAKESCAN_BINARY_DIR) / "examples" / "jvm-repair.scan");
}

const core::Verdict* repair_verdict(const std::vector<core::Verdict>& verdicts, const std::string& test) {
  for (const auto& v : verdicts)
    if (v.test == test && v.technique == "repair") return &v;
  return nullptr;
}

std::string detail(const core::Verdict& v, const std::string& key) {
  auto it = v.evidence.details.find(key);
  return it == v.evidence.details.end() ? "" : it->second;
}

// A local JVM backend over `classpath`, with a work folder of its own named after `name`.
backend::LocalJvmConfig repair_config(std::vector<std::string> classpath, const std::string& name) {
  backend::LocalJvmConfig c;
  c.runner_jar = fs::path(FLAKESCAN_BINARY_DIR) / "lib" / "flakescan-runner.jar";
  c.platform_jars = backend::default_platform_jars("/usr/share/java");
  c.classpath = std::move(classpath);
  c.work_dir = fs::temp_directory_path() / ("flakescan-" + name + "-it-" + std::to_string(::getpid()));
  return c;
}

}  // namespace

TEST_CASE("repair finds the polluted field, a verified cleaner patch, and says when no reset method exists", "[repair]") {
  auto c = repair_config(example_classpath(), "repair");
  REQUIRE(c.classpath.size() > 2);
  backend::LocalJvmExecutor executor(c);
  test_support::LocalRunLog log(executor, 2);

  const std::string collection = "example.repair.StaticCollectionVictimTest#registersOnlyBob";
  const std::string property = "example.repair.SystemPropertyVictimTest#usesStandardMode";
  const std::string counter = "example.repair.TicketCounterVictimTest#getsTicketOne";
  const std::string brittle = "example.repair.RegionBrittleTest#pricesInEuros";
  core::TechniqueInput input;
  input.tests = {"example.repair.StaticCollectionPolluterTest#registersAlice", collection,
                 "example.repair.SystemPropertyPolluterTest#switchesToBeta", property,
                 "example.repair.TicketCounterPolluterTest#takesATicket", counter,
                 "example.repair.RegionStateSetterTest#selectsEurope", brittle};
  input.classpath = executor.process_classpath();
  input.tools = std::make_shared<backend::LocalTools>();  // javac for the patches it verifies
  input.project_dir = FLAKESCAN_SOURCE_DIR;
  input.source_roots = {std::string(FLAKESCAN_SOURCE_DIR) + "/examples/jvm-repair/src/test/java"};
  auto verdicts = repair::repair_tests(input, log);
  REQUIRE(verdicts);

  {  // a static collection: the field, Registry.clearAll(), a patch that was compiled and verified
    const auto* v = repair_verdict(*verdicts, collection);
    REQUIRE(v);
    INFO(detail(*v, "repair"));
    CHECK(v->category == core::Category::order_dependent);
    CHECK(detail(*v, "polluted_field") == "example.repair.app.Registry.NAMES");
    CHECK(detail(*v, "cleaner") == "example.repair.app.Registry.clearAll();");
    const std::string patch = detail(*v, "patch");
    REQUIRE_FALSE(patch.empty());
    CHECK(detail(*v, "patch_file") == "examples/jvm-repair/src/test/java/example/repair/StaticCollectionVictimTest.java");
    // The verifying run is a real run in which the victim passed at the end of its failing order.
    const auto* run = log.find(std::stoll(detail(*v, "verified_by_run")));
    REQUIRE(run);
    CHECK(run->spec.technique == core::intervention_technique);
    CHECK(run->spec.tests == v->evidence.reproducer);
    CHECK(run->report.outcome_at(run->spec.tests.size() - 1) == core::Outcome::pass);
    REQUIRE_FALSE(run->spec.classpath_prepend.empty());
    // The patch applies to the real file, as a user's `git apply` reads it.
    fs::path copy = c.work_dir / "apply";
    fs::create_directories(copy / fs::path(detail(*v, "patch_file")).parent_path());
    fs::copy_file(fs::path(FLAKESCAN_SOURCE_DIR) / detail(*v, "patch_file"), copy / detail(*v, "patch_file"),
                  fs::copy_options::overwrite_existing);
    std::ofstream(copy / "repair.patch") << patch;
    std::string cmd = "cd '" + copy.string() + "' && git apply --check repair.patch && git apply repair.patch";
    CHECK(std::system(cmd.c_str()) == 0);
    std::ifstream patched(copy / detail(*v, "patch_file"));
    std::string text((std::istreambuf_iterator<char>(patched)), std::istreambuf_iterator<char>());
    CHECK(text.find("example.repair.app.Registry.clearAll();") != std::string::npos);
  }
  {  // a system property: System.props, cleaned with System.clearProperty and the polluter's key
    const auto* v = repair_verdict(*verdicts, property);
    REQUIRE(v);
    INFO(detail(*v, "repair"));
    CHECK(detail(*v, "polluted_field") == "java.lang.System.props");
    CHECK(detail(*v, "cleaner") == "java.lang.System.clearProperty(\"flags.mode\");");
    CHECK_FALSE(detail(*v, "verified_by_run").empty());
  }
  {  // a counter nothing resets: the field is named, no patch is offered, and the verdict says why
    const auto* v = repair_verdict(*verdicts, counter);
    REQUIRE(v);
    INFO(detail(*v, "repair"));
    CHECK(detail(*v, "polluted_field") == "example.repair.app.TicketCounter.issued");
    CHECK(detail(*v, "patch").empty());
    CHECK(detail(*v, "repair").find("no reset method") != std::string::npos);
  }
  {  // a brittle test: the field its state-setter sets, set here with the setter's literal
    const auto* v = repair_verdict(*verdicts, brittle);
    REQUIRE(v);
    INFO(detail(*v, "repair"));
    CHECK(v->evidence.role == "brittle");
    CHECK(detail(*v, "polluted_field") == "example.repair.app.Region.current");
    CHECK(detail(*v, "cleaner") == "example.repair.app.Region.select(\"eu\");");
    REQUIRE_FALSE(detail(*v, "verified_by_run").empty());
    const auto* run = log.find(std::stoll(detail(*v, "verified_by_run")));
    REQUIRE(run);
    CHECK(run->spec.tests == std::vector<std::string>{brittle});  // it passes alone with the patch
    CHECK(run->report.outcome_at(0) == core::Outcome::pass);
  }
  {  // runs that changed the program are never taken as evidence about the order
    int interventions = 0;
    for (const auto& r : log.recorded()) interventions += r.spec.technique == core::intervention_technique;
    CHECK(interventions >= 6);
    for (const auto& v : *verdicts) {
      if (v.technique != "repair") continue;
      auto checked = core::check_deciding(v, log.recorded());
      for (const auto& f : core::findings_of(checked)) CHECK(f.not_deciding.empty());
    }
  }
  fs::remove_all(c.work_dir);
}

TEST_CASE("repair of a NIO test: the field its first run leaves behind, and a patch verified in t, t", "[repair][nio]") {
  auto c = repair_config(example_classpath(), "repair-nio");
  backend::LocalJvmExecutor executor(c);
  test_support::LocalRunLog log(executor, 2);

  // registersOnlyBob registers "bob" and expects exactly [bob]: its second run in one JVM fails.
  const std::string victim = "example.repair.StaticCollectionVictimTest#registersOnlyBob";
  core::TechniqueInput input;
  input.tests = {victim};
  input.classpath = executor.process_classpath();
  input.tools = std::make_shared<backend::LocalTools>();  // javac for the patches it verifies
  input.project_dir = FLAKESCAN_SOURCE_DIR;
  auto nio = order::detect_nio(input, log, order::NioMode::isolated_method);
  REQUIRE(nio);
  REQUIRE(nio->size() == 1);
  REQUIRE(nio->front().category == core::Category::nio);
  input.earlier = *nio;
  auto verdicts = repair::repair_tests(input, log);
  REQUIRE(verdicts);
  const auto* v = repair_verdict(*verdicts, victim);
  REQUIRE(v);
  INFO(detail(*v, "repair"));
  CHECK(v->category == core::Category::nio);
  CHECK(v->evidence.reproducer == std::vector<std::string>{victim, victim});
  CHECK(detail(*v, "polluted_field") == "example.repair.app.Registry.NAMES");
  CHECK(detail(*v, "cleaner") == "example.repair.app.Registry.clearAll();");
  REQUIRE_FALSE(detail(*v, "verified_by_run").empty());
  const auto* run = log.find(std::stoll(detail(*v, "verified_by_run")));
  REQUIRE(run);
  CHECK(run->spec.tests == std::vector<std::string>{victim, victim});
  CHECK(run->report.outcome_at(1) == core::Outcome::pass);
  fs::remove_all(c.work_dir);
}

TEST_CASE("repair: a reset that takes the polluter's name, the JVM's default zone as argument, two linked fields", "[repair]") {
  auto c = repair_config({(fs::path(FLAKESCAN_BINARY_DIR) / "tests" / "fixtures" / "jvm-repair-more.jar").string(),
                          "/usr/share/java/junit4.jar", "/usr/share/java/hamcrest-core.jar"},
                         "repair-more");
  backend::LocalJvmExecutor executor(c);
  test_support::LocalRunLog log(executor, 2);

  const std::string workers = "fixture.repair.WorkersVictimTest#runsOnlyDaily";
  const std::string stamps = "fixture.repair.StampsVictimTest#stampsInTheDefaultZone";
  const std::string bus = "fixture.repair.BusVictimTest#auditHearsEveryEvent";
  core::TechniqueInput input;
  input.tests = {"fixture.repair.WorkersPolluterTest#startsNightly", workers, "fixture.repair.StampsPolluterTest#stampsInAnotherZone",
                 stamps, "fixture.repair.BusPolluterTest#pagesOnIncident", bus};
  input.classpath = executor.process_classpath();
  input.tools = std::make_shared<backend::LocalTools>();  // javac for the patches it verifies
  input.project_dir = FLAKESCAN_SOURCE_DIR;
  input.source_roots = {std::string(FLAKESCAN_SOURCE_DIR) + "/tests/fixtures/jvm-repair-more/src"};
  auto verdicts = repair::repair_tests(input, log);
  REQUIRE(verdicts);
  auto verified = [&](const core::Verdict& v) {
    REQUIRE_FALSE(detail(v, "verified_by_run").empty());
    const auto* run = log.find(std::stoll(detail(v, "verified_by_run")));
    REQUIRE(run);
    CHECK(run->spec.tests == v.evidence.reproducer);
    CHECK(run->report.outcome_at(run->spec.tests.size() - 1) == core::Outcome::pass);
  };
  {  // shutdown(String) removes the entry only through a private helper; its argument is the polluter's
    const auto* v = repair_verdict(*verdicts, workers);
    REQUIRE(v);
    INFO(detail(*v, "repair"));
    CHECK(detail(*v, "polluted_field") == "fixture.repair.app.Workers.POOLS");
    CHECK(detail(*v, "cleaner") == "fixture.repair.app.Workers.shutdown(\"nightly\");");
    verified(*v);
  }
  {  // the formatter kept the zone that was the default while the polluter ran
    const auto* v = repair_verdict(*verdicts, stamps);
    REQUIRE(v);
    INFO(detail(*v, "repair"));
    CHECK(detail(*v, "polluted_field") == "fixture.repair.app.Stamps.FORMAT");
    CHECK(detail(*v, "cleaner") == "fixture.repair.app.Stamps.FORMAT.setTimeZone(java.util.TimeZone.getDefault());");
    verified(*v);
  }
  {  // the bus and its audit listener: restored one by one they come apart, restored together they pass
    const auto* v = repair_verdict(*verdicts, bus);
    REQUIRE(v);
    INFO(detail(*v, "repair"));
    CHECK(detail(*v, "polluted_field") == "fixture.repair.app.Bus.AUDIT, fixture.repair.app.Bus.EVENTS");
    CHECK(detail(*v, "cleaner") == "fixture.repair.app.Bus.EVENTS.unregister(\"pager\");");
    verified(*v);
  }
  fs::remove_all(c.work_dir);
}
