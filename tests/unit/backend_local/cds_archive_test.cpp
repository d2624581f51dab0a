// CdsArchive: which JVM options a run gets, and when an archive is published.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "backend/local_jvm/cds_archive.hpp"

namespace fs = std::filesystem;
using flakescan::backend::CdsArchive;

namespace {

fs::path fresh(const std::string& name) {
  auto dir = fs::temp_directory_path() / ("flakescan-cds-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;
}

}  // namespace

TEST_CASE("cds: disabled without a folder", "[cds]") {
  CdsArchive cds({}, "java", {}, {"a.jar"});
  auto use = cds.for_run();
  CHECK(use.jvm_args.empty());
  CHECK(use.dumping.empty());
}

TEST_CASE("cds: one run dumps, the others wait for the archive, then all use it", "[cds]") {
  auto dir = fresh("publish");
  CdsArchive cds(dir, "java", {}, {"a.jar"});
  auto dumper = cds.for_run();
  REQUIRE(dumper.jvm_args.size() == 1);
  CHECK(dumper.jvm_args[0] == "-XX:ArchiveClassesAtExit=" + dumper.dumping.string());
  auto meanwhile = cds.for_run();
  CHECK(meanwhile.jvm_args.empty());  // one dump at a time
  std::ofstream(dumper.dumping) << "archive bytes";
  cds.finished(dumper, true);
  CHECK(fs::is_regular_file(cds.path()));
  CHECK_FALSE(fs::exists(dumper.dumping));
  auto later = cds.for_run();
  REQUIRE(later.jvm_args.size() == 1);
  CHECK(later.jvm_args[0] == "-XX:SharedArchiveFile=" + cds.path().string());
  CHECK(later.dumping.empty());
  fs::remove_all(dir);
}

TEST_CASE("cds: a killed dumper publishes nothing; two failures give up", "[cds]") {
  auto dir = fresh("give-up");
  CdsArchive cds(dir, "java", {}, {"a.jar"});
  auto first = cds.for_run();
  std::ofstream(first.dumping) << "half an archive";
  cds.finished(first, false);  // killed: not published, removed
  CHECK_FALSE(fs::exists(cds.path()));
  CHECK_FALSE(fs::exists(first.dumping));
  auto second = cds.for_run();
  REQUIRE_FALSE(second.dumping.empty());
  cds.finished(second, true);  // exited but wrote nothing (the JVM could not archive)
  CHECK_FALSE(fs::exists(cds.path()));
  auto third = cds.for_run();
  CHECK(third.jvm_args.empty());
  fs::remove_all(dir);
}

TEST_CASE("cds: the archive's name follows java, options and the classpath's jars", "[cds]") {
  auto dir = fresh("key");
  fs::create_directories(dir);
  auto jar = dir / "lib.jar";
  std::ofstream(jar) << "v1";
  auto name = [&](const std::string& java, std::vector<std::string> args) {
    return CdsArchive(dir, java, args, {jar.string()}).path().filename().string();
  };
  auto base = name("java", {});
  CHECK(base == name("java", {}));
  CHECK(base != name("/opt/jdk/bin/java", {}));
  CHECK(base != name("java", {"-Xmx1g"}));
  std::ofstream(jar) << "version two";  // size (and mtime) change
  CHECK(base != name("java", {}));
  fs::remove_all(dir);
}

TEST_CASE("cds: a classpath with a class directory never dumps (HotSpot would exit 1)", "[cds]") {
  auto dir = fresh("classdir");
  auto classes = dir / "build/classes/java/test";
  fs::create_directories(classes / "demo");
  std::ofstream(classes / "demo/ATest.class") << "class bytes";
  auto empty = dir / "build/resources/test";
  fs::create_directories(empty);
  CdsArchive with_classes(dir / "cds", "java", {}, {classes.string(), "a.jar"});
  CHECK_FALSE(with_classes.not_dumpable().empty());
  for (int i = 0; i < 3; ++i) {
    auto use = with_classes.for_run();
    CHECK(use.jvm_args.empty());
    CHECK(use.dumping.empty());
  }
  // An empty directory is fine for HotSpot: it archives around it.
  CdsArchive with_empty(dir / "cds", "java", {}, {empty.string(), "a.jar"});
  CHECK(with_empty.not_dumpable().empty());
  CHECK_FALSE(with_empty.for_run().dumping.empty());
  fs::remove_all(dir);
}

TEST_CASE("cds: a debugged JVM uses an archive but never dumps one (the JDWP agent forbids it)", "[cds]") {
  auto dir = fresh("debugged");
  CdsArchive cds(dir, "java", {}, {"a.jar"});
  auto debugged = cds.for_run(/*debugged=*/true);
  CHECK(debugged.jvm_args.empty());
  CHECK(debugged.dumping.empty());
  auto dumper = cds.for_run();
  REQUIRE_FALSE(dumper.dumping.empty());
  std::ofstream(dumper.dumping) << "archive bytes";
  cds.finished(dumper, true);
  auto later = cds.for_run(/*debugged=*/true);
  REQUIRE(later.jvm_args.size() == 1);
  CHECK(later.jvm_args[0] == "-XX:SharedArchiveFile=" + cds.path().string());
  fs::remove_all(dir);
}
