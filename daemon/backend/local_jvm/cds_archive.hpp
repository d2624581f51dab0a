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
// the JVM (-Xshare:auto), and a classpath the JVM cannot archive (e.g. non-empty class
// folders) is given up after two attempts. Thread-safe.
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
  Use for_run();
  // After the run's JVM ended; `exited`: it exited by itself (not killed).
  void finished(const Use& use, bool exited);

  const std::filesystem::path& path() const { return archive_; }

 private:
  std::filesystem::path dir_, archive_;
  std::mutex mutex_;
  bool dumping_ = false;
  int failed_dumps_ = 0;
  long dumps_ = 0;
};

}  // namespace flakescan::backend
