#pragma once
// Class data sharing for the runner's JVMs. Starting the JUnit Platform (launcher, Jupiter and
// Vintage engines) is most of what a run costs on top of the test itself; a dynamic CDS
// archive of those classes (JDK 13+: -XX:ArchiveClassesAtExit / -XX:SharedArchiveFile) halves
// a runner JVM's start (docs/benchmarks.md, rerun_overhead).
//
// Policy: one archive per (java, JVM options, the jars it is made over, each with its size
// and mtime), kept in a folder shared by the daemon's scans. The archive is made by a warm-up
// JVM of its own (`make`, given a temporary path to dump to: the runner's `warmup` mode with
// only those jars on its classpath) and published by rename when that JVM succeeded. A runner
// JVM that uses it must have a classpath that starts with exactly those jars; class
// directories may follow. That is why the dump is not made by a test run: HotSpot refuses to
// dump with a non-empty directory on the classpath ("Cannot have non-empty directory in
// paths", exit 1 after the tests ran), as every Gradle or Maven project has, but maps an
// archive for a classpath whose directories come after the archived jars; and a JVM under
// the JDWP agent cannot dump at all.
//
// The first caller of for_run() that finds no archive makes it while later callers wait (about
// a second, once per jar set); start_making() has that done on a thread of its own, so that the
// archive is made while the caller does something else, and if_ready() lets a caller that need
// not wait go on without it meanwhile (the executor: its discovery JVM and its first plain runs). A warm-up that fails is given up after two attempts, and runs go on
// without an archive. Class loading from the archive does not change what the tests see
// (static initialisers still run); a stale or unusable archive is ignored by the JVM
// (-Xshare:auto). Thread-safe.
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace flakescan::backend {

class CdsArchive {
 public:
  // Runs the warm-up JVM that dumps the archive to `dump_to`; true when it succeeded.
  using Maker = std::function<bool(const std::filesystem::path& dump_to)>;

  // dir empty: disabled (every run gets no extra options).
  CdsArchive(std::filesystem::path dir, const std::string& java, const std::vector<std::string>& jvm_args,
             const std::vector<std::string>& jars, Maker make);

  struct Use {
    std::vector<std::string> jvm_args;  // to put before -cp
  };
  // The options of a runner JVM whose classpath starts with the jars; makes the archive first
  // when there is none yet.
  Use for_run();

  // The options now, without waiting: the archive's when it is there; none (for good) when it
  // is disabled or its warm-up failed twice; nullopt while it is being made or not made yet
  // (start_making() then makes it). For a JVM that may as well start without it.
  std::optional<Use> if_ready();

  // Makes the archive on a thread of its own when there is none yet (once); for_run() then
  // waits only for what is left of it. finish_making() waits for that thread, as the
  // destructor does: call it before whatever the maker uses goes away.
  void start_making();
  void finish_making();
  ~CdsArchive() { finish_making(); }

  const std::filesystem::path& path() const { return archive_; }

 private:
  std::filesystem::path dir_, archive_;
  Maker make_;
  std::mutex mutex_;
  int failed_ = 0;
  long attempts_ = 0;
  std::mutex start_mutex_;
  std::thread maker_;  // start_making()'s
};

}  // namespace flakescan::backend
