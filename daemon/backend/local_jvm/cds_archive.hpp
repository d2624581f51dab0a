#pragma once
// Class data sharing for the runner's JVMs. Starting the JUnit Platform (launcher, Jupiter and
// Vintage engines) is most of what a run costs on top of the test itself; a dynamic CDS
// archive of those classes (JDK 13+: -XX:ArchiveClassesAtExit / -XX:SharedArchiveFile) cuts
// a runner JVM's start by about a third (docs/benchmarks.md, rerun_overhead).
//
// Policy: one archive per (java, JVM options, classpath with each jar's size and mtime),
// kept in a folder shared by the daemon's scans. The first run without an archive dumps one
// at its exit into a temporary file, published by rename only when that JVM exited by itself;
// runs started meanwhile go without. Class loading from the archive does not change what
// the tests see (static initialisers still run); a stale or unusable archive is ignored by
// the JVM (-Xshare:auto), and a dump that fails anyway is given up after two attempts.
//
// Two kinds of JVM must never dump, because HotSpot ends them with status 1 (so their runs
// would be lost as infrastructure failures):
// - a classpath holding a non-empty directory, as every Gradle or Maven project has
//   (build/classes/java/test): "Cannot have non-empty directory in paths", at exit, after
//   the tests ran. Such a classpath gets no dynamic archive at all (the JDK's own base
//   archive still applies), since the runtime classpath must match the dumped one;
// - a JVM started with the JDWP agent: "CDS dumping does not support native JVMTI agent".
//   A debugged run uses an archive that exists but never writes one.
// Thread-safe.
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

namespace flakescan::backend {

class CdsArchive {
 public:
  // dir empty: disabled (every run gets no extra options).
  CdsArchive(std::filesystem::path dir, const std::string& java, const std::vector<std::string>& jvm_args,
             const std::vector<std::string>& classpath);

  struct Use {
    std::vector<std::string> jvm_args;  // to put before -cp
    std::filesystem::path dumping;      // not empty: this run dumps the archive here
  };
  // `debugged`: the JVM gets the JDWP agent (it may use an archive, never dump one).
  Use for_run(bool debugged = false);
  // After the run's JVM ended; `exited`: it exited by itself (not killed).
  void finished(const Use& use, bool exited);

  const std::filesystem::path& path() const { return archive_; }
  // Empty when an archive can be dumped for this classpath; else why not (for the log).
  const std::string& not_dumpable() const { return not_dumpable_; }

 private:
  std::filesystem::path dir_, archive_;
  std::string not_dumpable_;
  std::mutex mutex_;
  bool dumping_ = false;
  int failed_dumps_ = 0;
  long dumps_ = 0;
};

}  // namespace flakescan::backend
