// The shuffling JDK (daemon/shuffling_jdk, docs/shuffle.md) made from this machine's JDK: each
// API family keeps the plain JDK's order until start(), changes it under every seed, keeps
// its semantics; specified orders never change; sites, modes and the sites filter behave as
// documented; the image has class data sharing and passes the verifier.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <set>

#include "shuffling_jdk_fixture.hpp"

using namespace flakescan::test_support;
namespace fs = std::filesystem;

namespace {

// Every family the shuffling JDK patches: each must have probes, so none can go missing quietly.
const std::vector<std::string> families_patched = {
    "HashMap", "HashSet", "Hashtable", "Properties", "IdentityHashMap", "WeakHashMap",
    "ConcurrentHashMap", "PriorityQueue", "PriorityBlockingQueue", "Class", "File"};

bool specified(const std::string& probe) { return probe.rfind("specified/", 0) == 0; }

std::string family(const std::string& probe) { return probe.substr(0, probe.find('.')); }

// A run that got to its end with every semantic check holding.
void require_whole(const FamiliesRun& r) {
  INFO(r.ran.output.substr(0, 4000));
  REQUIRE(r.ran.exit_code == 0);
  REQUIRE(r.done);
  REQUIRE(r.probes.size() >= 120);
  REQUIRE(r.checks.size() >= 50);
  for (const auto& [name, verdict] : r.checks) {
    INFO("check " << name);
    CHECK(verdict == "ok");
  }
}

// The key of the one site a probe's call made (its drain() holds exactly one record).
std::string key_of(const FamiliesRun& r, const std::string& probe) {
  const auto& drained = r.drains.at(probe);
  REQUIRE(drained.is_array());
  REQUIRE(drained.size() == 1);
  return drained[0].at("key").get<std::string>();
}

}  // namespace

TEST_CASE("Prepare writes the patched classes, an image and prepared.json", "[shuffling_jdk][integration]") {
  const auto& p = prepared();
  CHECK(p.info.at("java_home").get<std::string>() == fs::path(p.plain_java).parent_path().parent_path().string());
  CHECK_FALSE(p.info.at("java_version").get<std::string>().empty());
  CHECK(p.info.at("image") == "image/bin/java");
  CHECK(p.info.at("patch_dir") == "patch");
  CHECK(p.info.at("seconds").get<double>() > 0);
  const auto& patched = p.info.at("patched");
  REQUIRE(patched.size() >= 60);
  std::set<std::string> ids;
  for (const auto& id : patched) {
    const std::string text = id.get<std::string>();
    ids.insert(text);
    const std::string cls = text.substr(0, text.find('('));
    const std::string file = cls.substr(0, cls.rfind('.'));
    std::string path = file;
    std::replace(path.begin(), path.end(), '.', '/');
    INFO(text);
    CHECK(fs::is_regular_file(p.dir / "patch" / (path + ".class")));
  }
  for (const char* id : {"java.util.HashMap$KeySet.iterator()Ljava/util/Iterator;",
                         "java.util.HashMap.keysToArray([Ljava/lang/Object;)[Ljava/lang/Object;",
                         "java.util.concurrent.ConcurrentHashMap.toString()Ljava/lang/String;",
                         "java.lang.Class.getDeclaredMethods()[Ljava/lang/reflect/Method;",
                         "java.io.File.listFiles(Ljava/io/FileFilter;)[Ljava/io/File;"}) {
    CHECK(ids.count(id) == 1);
  }
  CHECK(fs::is_regular_file(p.dir / "patch" / "java" / "util" / "FlakescanShuffle.class"));
  CHECK_FALSE(fs::exists(p.dir / "work"));
}

TEST_CASE("the image starts with class data sharing", "[shuffling_jdk][integration]") {
  // -Xshare:on makes the JVM fail at start when it has no usable archive.
  Ran ran = run({prepared().image_java, "-Xshare:on", "-version"});
  INFO(ran.output);
  CHECK(ran.exit_code == 0);
  CHECK(ran.output.find("sharing") != std::string::npos);
}

TEST_CASE("until start, every family comes out in the plain JDK's order", "[shuffling_jdk][integration]") {
  FamiliesRun plain = families(plain_java());
  FamiliesRun clean = families(image_java());
  require_whole(plain);
  require_whole(clean);
  REQUIRE(clean.probes.size() == plain.probes.size());
  std::set<std::string> seen;
  for (const auto& [name, phases] : plain.probes) {
    INFO(name);
    REQUIRE(clean.probes.count(name) == 1);
    const ProbeOrder& expected = phases.at("plain");
    const ProbeOrder& got = clean.probes.at(name).at("plain");
    CHECK(got.scope == expected.scope);
    // 2 or more distinct elements: then every shuffled call shows another order.
    const auto items = elements(got.order);
    CHECK(items.size() >= 2);
    CHECK(std::set<std::string>(items.begin(), items.end()).size() == items.size());
    // Identity hashes, HotSpot's method order and a fresh folder's order differ between JVMs.
    if (expected.scope == "jdk") CHECK(got.order == expected.order);
    CHECK(elements(got.order) == elements(expected.order));
    seen.insert(family(name));
  }
  for (const auto& f : families_patched) CHECK(seen.count(f) == 1);
}

TEST_CASE("under seeds 1, 2 and 3 every unspecified order changes and no specified one does", "[shuffling_jdk][integration]") {
  for (const char* seed : {"1", "2", "3"}) {
    FamiliesRun r = families(image_java(), {"--seed", seed});
    require_whole(r);
    for (const auto& [name, phases] : r.probes) {
      INFO("seed " << seed << ", probe " << name);
      const std::string& plain = phases.at("plain").order;
      const std::string& shuffled = phases.at("shuffled").order;
      CHECK(phases.at("stopped").order == plain);  // stop() restores the plain JDK
      CHECK(elements(shuffled) == elements(plain));
      if (specified(name)) {
        CHECK(shuffled == plain);
        CHECK(r.drains.at(name) == nlohmann::json::array());
      } else {
        CHECK(shuffled != plain);  // 2 or more elements: a shuffled call always changes the order
        REQUIRE(r.drains.at(name).size() >= 1);
        CHECK(r.drains.at(name)[0].at("shuffled").get<int>() >= 1);
      }
    }
  }
}

TEST_CASE("mode one gives a site one permutation per size, and shuffles every family", "[shuffling_jdk][integration]") {
  FamiliesRun r = families(image_java(), {"--seed", "7", "--mode", "one"});
  require_whole(r);
  CHECK(r.checks.at("one-mode/same-site-same-size") == "ok");
  for (const auto& [name, phases] : r.probes) {
    INFO(name);
    if (specified(name)) {
      CHECK(phases.at("shuffled").order == phases.at("plain").order);
    } else {
      CHECK(phases.at("shuffled").order != phases.at("plain").order);
    }
  }
}

TEST_CASE("a seed gives the same orders in every JVM, image or --patch-module", "[shuffling_jdk][integration]") {
  FamiliesRun image = families(image_java(), {"--seed", "2"});
  FamiliesRun patched = families(patched_java(), {"--seed", "2"});
  require_whole(image);
  require_whole(patched);
  int compared = 0;
  for (const auto& [name, phases] : image.probes) {
    if (phases.at("plain").scope != "jdk") continue;
    INFO(name);
    CHECK(patched.probes.at(name).at("shuffled").order == phases.at("shuffled").order);
    ++compared;
  }
  CHECK(compared >= 100);
}

TEST_CASE("drain() names each site with its api, path through the JDK and frames", "[shuffling_jdk][integration]") {
  FamiliesRun r = families(image_java(), {"--seed", "1"});
  require_whole(r);
  const std::regex frame(R"(io\.flakescan\.shufflingcheck\.Probes\.lambda\$addAll\$\d+\(Probes\.java:\d+\))");

  const auto& record = r.drains.at("HashSet.valueOf").at(0);
  CHECK(r.drains.at("HashSet.valueOf").size() == 1);
  CHECK(record.at("api") == "HashMap.keySet iteration");
  CHECK(record.at("via") == nlohmann::json({"java.util.HashSet.iterator", "java.util.AbstractCollection.toString",
                                            "java.lang.String.valueOf"}));
  const auto& frames = record.at("frames");
  REQUIRE(frames.size() >= 2);
  CHECK(frames.size() <= 12);
  CHECK(std::regex_match(frames[0].get<std::string>(), frame));
  CHECK(record.at("key") == "HashMap.keySet iteration at " + frames[0].get<std::string>());
  bool main_frame = false;
  for (const auto& f : frames) main_frame |= f.get<std::string>().rfind("io.flakescan.shufflingcheck.Families.main(Families.java:", 0) == 0;
  CHECK(main_frame);
  CHECK(record.at("seen") == 1);
  CHECK(record.at("shuffled") == 1);
  CHECK(record.at("size") == 10);

  const auto& stream = r.drains.at("HashMap.keySet.stream").at(0);
  CHECK(stream.at("api") == "HashMap.keySet spliterator");
  CHECK(stream.at("via") == nlohmann::json({"java.util.Collection.stream"}));
  CHECK(r.drains.at("ConcurrentHashMap.toString").at(0).at("api") == "ConcurrentHashMap toString");
  CHECK(r.drains.at("Class.getDeclaredFields").at(0).at("api") == "Class.getDeclaredFields");
  CHECK(r.drains.at("File.listFiles(FileFilter)").at(0).at("api") == "File.listFiles(FileFilter)");

  // Each probe's call is a site of its own; the test machinery is never one.
  std::set<std::string> keys;
  std::size_t unspecified = 0;
  for (const auto& [name, drained] : r.drains) {
    if (!specified(name)) ++unspecified;
    for (const auto& rec : drained) {
      const std::string key = rec.at("key").get<std::string>();
      INFO(key);
      CHECK(key == rec.at("api").get<std::string>() + " at " + rec.at("frames").at(0).get<std::string>());
      CHECK(key.find("io.flakescan.runner.") == std::string::npos);
      keys.insert(key);
    }
  }
  CHECK(keys.size() >= unspecified);
  CHECK(r.checks.at("machinery-excluded") == "ok");
}

TEST_CASE("a sites file limits shuffling to its keys, each permuted as in a run of all sites", "[shuffling_jdk][integration]") {
  FamiliesRun all = families(image_java(), {"--seed", "1"});
  require_whole(all);
  const std::set<std::string> chosen = {"HashSet.iterator", "Class.getDeclaredFields", "ConcurrentHashMap.forEach"};
  TempDir dir;
  const fs::path sites = dir.path() / "sites.txt";
  {
    std::ofstream out(sites);
    for (const auto& probe : chosen) out << key_of(all, probe) << "\n";
  }
  FamiliesRun some = families(image_java(), {"--seed", "1", "--sites", sites.string()});
  require_whole(some);
  for (const auto& [name, phases] : some.probes) {
    INFO(name);
    if (chosen.count(name)) {
      CHECK(phases.at("shuffled").order == all.probes.at(name).at("shuffled").order);
      CHECK(some.drains.at(name).at(0).at("shuffled") == 1);
    } else {
      CHECK(phases.at("shuffled").order == phases.at("plain").order);
      if (!specified(name)) {  // seen, not shuffled
        REQUIRE(some.drains.at(name).size() >= 1);
        CHECK(some.drains.at(name).at(0).at("seen").get<int>() >= 1);
        CHECK(some.drains.at(name).at(0).at("shuffled") == 0);
      }
    }
  }
}

TEST_CASE("a sites file naming nothing shuffles nothing", "[shuffling_jdk][integration]") {
  TempDir dir;
  const fs::path empty = dir.path() / "empty.txt";
  const fs::path elsewhere = dir.path() / "elsewhere.txt";
  std::ofstream(empty) << "";
  std::ofstream(elsewhere) << "\nHashMap.keySet iteration at nowhere.Nothing.none(Nothing.java:1)\n";
  for (const auto& sites : {empty, elsewhere}) {
    FamiliesRun r = families(image_java(), {"--seed", "1", "--sites", sites.string()});
    require_whole(r);
    int recorded = 0;
    for (const auto& [name, phases] : r.probes) {
      INFO(sites.filename() << ", " << name);
      CHECK(phases.at("shuffled").order == phases.at("plain").order);
      for (const auto& rec : r.drains.at(name)) {
        CHECK(rec.at("shuffled") == 0);
        ++recorded;
      }
    }
    CHECK(recorded >= 100);  // still seen and recorded
  }
}

TEST_CASE("the patched classes and the helper pass the bytecode verifier", "[shuffling_jdk][integration]") {
  // The JVM does not verify java.base unless asked to; java.lang.Class it never verifies.
  const auto& p = prepared();
  std::vector<std::string> argv = {p.image_java, "-Xshare:off", "-XX:+UnlockDiagnosticVMOptions",
                                   "-XX:+BytecodeVerificationLocal", "-Xlog:verification=info", "-cp", FAMILIES_JAR,
                                   "io.flakescan.shufflingcheck.Families", "--load"};
  std::set<std::string> classes;
  for (const auto& id : p.info.at("patched")) {
    const std::string text = id.get<std::string>();
    const std::string method = text.substr(0, text.find('('));
    classes.insert(method.substr(0, method.rfind('.')));
  }
  for (const auto& f : fs::directory_iterator(p.dir / "patch" / "java" / "util")) {
    const std::string name = f.path().filename().string();
    if (name.rfind("Flakescan", 0) == 0) classes.insert("java.util." + name.substr(0, name.size() - 6));
  }
  REQUIRE(classes.size() >= 30);
  argv.insert(argv.end(), classes.begin(), classes.end());
  Ran ran = run(argv);
  INFO(ran.output.substr(ran.output.size() > 3000 ? ran.output.size() - 3000 : 0));
  CHECK(ran.exit_code == 0);
  CHECK(ran.output.find("loaded " + std::to_string(classes.size())) != std::string::npos);
  for (const auto& c : classes) {
    if (c == "java.lang.Class") continue;
    INFO(c);
    CHECK(ran.output.find("End class verification for: " + c + "\n") != std::string::npos);
  }
}

TEST_CASE("Prepare without an image leaves a patch folder for --patch-module", "[shuffling_jdk][integration]") {
  TempDir dir;
  Ran ran = run({prepared().plain_java, "-cp", std::string(SHUFFLING_JDK_JAR) + ":" + ASM_JAR,
                 "io.flakescan.shufflingjdk.Prepare", "--out", dir.path().string(), "--no-image"});
  INFO(ran.output);
  REQUIRE(ran.exit_code == 0);
  std::ifstream in(dir.path() / "prepared.json");
  auto info = nlohmann::json::parse(in);
  CHECK(info.at("image").is_null());
  CHECK(info.at("patched") == prepared().info.at("patched"));
  CHECK_FALSE(fs::exists(dir.path() / "image"));
}

TEST_CASE("Prepare refuses a shuffling JDK and bad arguments, in one line", "[shuffling_jdk][integration]") {
  TempDir dir;
  const std::string cp = std::string(SHUFFLING_JDK_JAR) + ":" + ASM_JAR;
  Ran again = run({prepared().image_java, "-cp", cp, "io.flakescan.shufflingjdk.Prepare", "--out", dir.path().string()});
  INFO(again.output);
  CHECK(again.exit_code == 1);
  CHECK(again.output.find("is a shuffling JDK already") != std::string::npos);
  CHECK(std::count(again.output.begin(), again.output.end(), '\n') == 1);
  CHECK_FALSE(fs::exists(dir.path() / "prepared.json"));
  Ran bad = run({prepared().plain_java, "-cp", cp, "io.flakescan.shufflingjdk.Prepare", "--outt"});
  CHECK(bad.exit_code == 2);
}
