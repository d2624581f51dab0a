// CdsArchive: which JVM options a run gets, and when an archive is published.
#include <catch2/catch.hpp>

#include <filesystem>
#include <atomic>
#include <chrono>
#include <fstream>
#include <future>
#include <thread>
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

// A Maker that writes an archive (or fails) and counts its calls.
struct FakeWarmUp {
  int calls = 0;
  bool succeed = true;
  CdsArchive::Maker maker() {
    return [this](const fs::path& dump_to) {
      ++calls;
      if (succeed) std::ofstream(dump_to) << "archive bytes";
      return succeed;
    };
  }
};

// A Maker that writes an archive once the test releases it; the test can wait until it runs.
struct HeldWarmUp {
  std::promise<void> let_go;
  std::shared_future<void> released = let_go.get_future().share();
  std::atomic<bool> making{false};
  CdsArchive::Maker maker() {
    return [this](const fs::path& dump_to) {
      making = true;
      released.wait();
      std::ofstream(dump_to) << "archive bytes";
      return true;
    };
  }
  void wait_until_making() const {
    while (!making) std::this_thread::yield();
  }
  void release() { let_go.set_value(); }
};

TEST_CASE("cds: disabled without a folder", "[cds]") {
  FakeWarmUp warm;
  CdsArchive cds({}, "java", {}, {"a.jar"}, warm.maker());
  CHECK(cds.for_run().jvm_args.empty());
  CHECK(warm.calls == 0);
}

TEST_CASE("cds: the first run has the warm-up JVM make the archive, then every run uses it", "[cds]") {
  auto dir = fresh("publish");
  FakeWarmUp warm;
  CdsArchive cds(dir, "java", {}, {"a.jar"}, warm.maker());
  for (int i = 0; i < 3; ++i) {
    auto use = cds.for_run();
    REQUIRE(use.jvm_args.size() == 1);
    CHECK(use.jvm_args[0] == "-XX:SharedArchiveFile=" + cds.path().string());
  }
  CHECK(warm.calls == 1);
  CHECK(fs::is_regular_file(cds.path()));
  int files = 0;  // the temporary dump was renamed, not copied
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++files;
  CHECK(files == 1);
  fs::remove_all(dir);
}

TEST_CASE("cds: runs that start while the archive is made wait for it", "[cds]") {
  auto dir = fresh("wait");
  std::atomic<int> calls{0};
  CdsArchive cds(dir, "java", {}, {"a.jar"}, [&](const fs::path& dump_to) {
    ++calls;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the warm-up JVM's time, so that the others come meanwhile
    std::ofstream(dump_to) << "archive bytes";
    return true;
  });
  std::vector<std::vector<std::string>> args(4);
  std::vector<std::thread> threads;
  for (auto& a : args) threads.emplace_back([&] { a = cds.for_run().jvm_args; });
  for (auto& t : threads) t.join();
  CHECK(calls == 1);
  for (const auto& a : args) CHECK(a == std::vector<std::string>{"-XX:SharedArchiveFile=" + cds.path().string()});
  fs::remove_all(dir);
}

TEST_CASE("cds: a failed warm-up publishes nothing; two failures give up", "[cds]") {
  auto dir = fresh("give-up");
  FakeWarmUp warm;
  warm.succeed = false;
  CdsArchive cds(dir, "java", {}, {"a.jar"}, warm.maker());
  for (int i = 0; i < 4; ++i) CHECK(cds.for_run().jvm_args.empty());
  CHECK(warm.calls == 2);
  CHECK_FALSE(fs::exists(cds.path()));
  CHECK(fs::is_empty(dir));  // no temporary dump left behind
  // A warm-up that says it succeeded but wrote nothing is a failure too.
  auto dir2 = fresh("empty-dump");
  CdsArchive quiet(dir2, "java", {}, {"a.jar"}, [](const fs::path&) { return true; });
  CHECK(quiet.for_run().jvm_args.empty());
  fs::remove_all(dir);
  fs::remove_all(dir2);
}

TEST_CASE("cds: the archive's name follows java, options and the jars", "[cds]") {
  auto dir = fresh("key");
  fs::create_directories(dir);
  auto jar = dir / "lib.jar";
  std::ofstream(jar) << "v1";
  auto name = [&](const std::string& java, std::vector<std::string> args) {
    return CdsArchive(dir, java, args, {jar.string()}, nullptr).path().filename().string();
  };
  auto base = name("java", {});
  CHECK(base == name("java", {}));
  CHECK(base != name("/opt/jdk/bin/java", {}));
  CHECK(base != name("java", {"-Xmx1g"}));
  std::ofstream(jar) << "version two";  // size (and mtime) change
  CHECK(base != name("java", {}));
  fs::remove_all(dir);
}

TEST_CASE("cds: start_making makes the archive on a thread of its own; a run then waits only for the rest", "[cds]") {
  auto dir = fresh("start");
  std::atomic<int> calls{0};
  std::promise<void> release;
  auto released = release.get_future().share();
  CdsArchive cds(dir, "java", {}, {"a.jar"}, [&](const fs::path& dump_to) {
    ++calls;
    released.wait();  // the warm-up JVM still running
    std::ofstream(dump_to) << "archive bytes";
    return true;
  });
  cds.start_making();  // returns while the maker is still at work
  cds.start_making();  // once
  auto run = std::async(std::launch::async, [&] { return cds.for_run().jvm_args; });
  CHECK(run.wait_for(std::chrono::milliseconds(50)) == std::future_status::timeout);  // it waits for the archive
  release.set_value();
  CHECK(run.get() == std::vector<std::string>{"-XX:SharedArchiveFile=" + cds.path().string()});
  cds.finish_making();
  CHECK(calls == 1);
  fs::remove_all(dir);
}

TEST_CASE("cds: start_making without a folder does nothing", "[cds]") {
  FakeWarmUp warm;
  CdsArchive cds({}, "java", {}, {"a.jar"}, warm.maker());
  cds.start_making();
  cds.finish_making();
  CHECK(warm.calls == 0);
}

TEST_CASE("cds: if_ready never waits: nothing while the archive is made, its options after, none for good once given up", "[cds]") {
  auto dir = fresh("ready");
  HeldWarmUp warm;
  CdsArchive cds(dir, "java", {}, {"a.jar"}, warm.maker());
  CHECK_FALSE(cds.if_ready());  // not made yet
  cds.start_making();
  warm.wait_until_making();
  CHECK_FALSE(cds.if_ready());  // being made: no answer, and no wait
  warm.release();
  cds.finish_making();
  auto use = cds.if_ready();
  REQUIRE(use);
  CHECK(use->jvm_args == std::vector<std::string>{"-XX:SharedArchiveFile=" + cds.path().string()});

  FakeWarmUp failing{.succeed = false};
  CdsArchive broken(fresh("ready-broken"), "java", {}, {"a.jar"}, failing.maker());
  (void)broken.for_run();
  (void)broken.for_run();
  auto none = broken.if_ready();  // two failed warm-ups: runs go without, for good
  REQUIRE(none);
  CHECK(none->jvm_args.empty());
  CHECK(CdsArchive({}, "java", {}, {"a.jar"}, failing.maker()).if_ready().has_value());  // disabled
}

TEST_CASE("cds: if_ready gives an archive as soon as it is published, while the warm-up's caller still holds on", "[cds]") {
  // Another daemon sharing the folder publishes the archive while ours is still being made (the
  // same window as our own rename before for_run() lets go): runs need not wait for ours.
  auto dir = fresh("ready-published");
  HeldWarmUp warm;
  CdsArchive cds(dir, "java", {}, {"a.jar"}, warm.maker());
  cds.start_making();
  warm.wait_until_making();
  CHECK_FALSE(cds.if_ready());
  std::ofstream(cds.path()) << "the other daemon's archive";
  auto use = cds.if_ready();
  warm.release();
  cds.finish_making();
  REQUIRE(use);
  CHECK(use->jvm_args == std::vector<std::string>{"-XX:SharedArchiveFile=" + cds.path().string()});
}
