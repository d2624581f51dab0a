#pragma once
// The local-JVM backend: every run is a fresh `java` process running flakescan's runner jar
// with the project's test classpath. The process gets a deadline; at the deadline, on
// cancel, or when the daemon dies, its whole process group is killed, and whatever the
// runner did not report becomes an infra outcome that says how the JVM ended.
// Thread-safe: runs may be started from several threads at once (each has its own files).
#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backend/local_jvm/cds_archive.hpp"
#include "backend/local_jvm/shuffling_jdk.hpp"
#include "backend/local_jvm/spare_jvms.hpp"
#include "core/test_executor.hpp"
#include "util/process.hpp"

namespace flakescan::backend {

struct LocalJvmConfig {
  std::string java = "java";                 // the java launcher
  std::filesystem::path runner_jar;          // flakescan-runner.jar
  std::vector<std::string> platform_jars;    // JUnit Platform launcher + engines (Debian's)
  std::vector<std::string> classpath;        // the project's test runtime classpath
  std::vector<std::string> jvm_args;         // extra JVM options
  std::filesystem::path work_dir;            // per-scan folder for tests lists, results, logs
  std::filesystem::path test_dir;            // the test JVMs' working directory; empty: the daemon's
  int parallelism = 2;
  int discover_timeout_ms = 60000;
  std::filesystem::path cds_dir;             // class data archives of runner JVMs; empty: none
  // Shuffled runs (RunSpec::shuffle): the program that prepares the shuffling JDK and the ASM
  // jars it needs; an empty jar refuses such runs. The cache is shared by every daemon.
  std::filesystem::path shuffling_jdk_jar;
  std::vector<std::string> asm_jars;
  std::filesystem::path shuffling_jdk_cache;  // empty: default_shuffling_jdk_cache()
  // Scheduled runs (RunSpec::schedule, technique threads): the threads agent; empty refuses them.
  std::filesystem::path threads_agent_jar;
  // Plain runs (no shuffle, schedule, classpath_prepend, debugger) take a runner JVM started
  // ahead with the same command line, which waited without touching the project (SpareJvms);
  // false: every run starts its own JVM.
  bool prestart = true;
  // How many wait at most; below 1: parallelism + 1. One more than the runs at once gives each
  // spare more than one run's time to get ready (about 0.25 s of CPU against a 0.1 s run).
  int spares = 0;
  // Start the spares beside the discovery JVM when their command line is known then (the scan
  // will make plain runs soon: rerun, order, ...); false: only once a plain run asks.
  bool prime_spares = false;
};

// Debian's JUnit Platform jars under `java_lib` (/usr/share/java), in the order the runner needs.
std::vector<std::string> default_platform_jars(const std::filesystem::path& java_lib);
// Debian's ASM jars under `java_lib` (package libasm-java), for the shuffling JDK's Prepare.
std::vector<std::string> default_asm_jars(const std::filesystem::path& java_lib);

// The options runner JVMs start with: C1 only (-XX:TieredStopAtLevel=1), inlining methods of
// at most 15 bytes of bytecode (3 for trivial ones) instead of C1's 35 and 6, unless
// `requested` (a scan's jvm_args) names a tiered-compilation or inlining option of its own;
// transparent huge pages for the heap (-XX:+UseTransparentHugePages) when `huge_pages` (the
// kernel offers them) unless `requested` names a huge- or large-page option; then `requested`.
// Test JVMs live for seconds: C2 compiles code that the tests are done with by then, and a
// 2,000-test round took half the CPU without it; C1's compiler thread was still a quarter of
// a suite scan's CPU, and smaller inlining cut a round's CPU by 5 to 14 % with no longer wall
// time; a fresh JVM's heap is all first touches, and on a virtual machine each 4 KiB page
// fault is dear (huge pages: a third of the faults, 16 % less CPU for a round;
// docs/benchmarks.md, suite_scan). All of them change how fast code runs, not what it does.
std::vector<std::string> runner_jvm_args(const std::vector<std::string>& requested, bool huge_pages = false);
// Whether the kernel's transparent huge pages are on for a process that asks for them
// ("[always]" or "[madvise]" in `enabled_file`); false when the file is missing.
bool transparent_huge_pages_offered(
    const std::filesystem::path& enabled_file = "/sys/kernel/mm/transparent_hugepage/enabled");

// Whether JVM options load the JDWP debugger agent (-agentlib:jdwp, -Xrunjdwp, -Xdebug): such
// scans get no prestarted runner JVMs (each would carry the agent).
bool has_debugger_agent(const std::vector<std::string>& jvm_args);

// What a scheduled run (RunSpec::schedule) adds to the java command line: the threads agent
// and its -Dflakescan.threads.* properties (docs/threads.md). `decisions_file`: where the
// replay's decisions were written (strategy replay); `progress_file`: where the agent writes how
// far the schedule got (threads/progress_text.hpp), read when the run is killed at its deadline.
std::vector<std::string> threads_agent_args(const std::filesystem::path& agent_jar, const core::ScheduleSpec& spec,
                                            const std::filesystem::path& decisions_file,
                                            const std::filesystem::path& progress_file = {});

// Entries of a classpath that do not exist ("dir/*" wildcards are checked as dirs).
std::vector<std::string> missing_classpath_entries(const std::vector<std::string>& classpath);
// What the local backend checks of a scan before it is queued: every classpath entry exists.
// Error: invalid_argument "'classpath' has entries that do not exist: ...".
util::Result<void> check_classpath(const std::vector<std::string>& classpath);

class LocalJvmExecutor final : public core::TestExecutor {
 public:
  explicit LocalJvmExecutor(LocalJvmConfig config);
  ~LocalJvmExecutor() override;  // kills the spare JVMs

  util::Result<Discovery> discover(const std::vector<core::TestId>& ids, const core::CancelFlag& cancel) override;
  util::Result<core::RunReport> run(const core::RunSpec& spec, const core::CancelFlag& cancel) override;
  // The same runner command under the JDWP agent (jdwp::launch, suspended before main).
  util::Result<core::RunReport> run_debugged(const core::RunSpec& spec, const core::CancelFlag& cancel,
                                             const DriveFn& drive) override;
  int parallelism() const override { return config_.parallelism; }

  // The full java command line for a runner invocation (also used to start JVMs under JDWP),
  // with the class data archive's options when the classpath allows one (made first if
  // there is none yet). `prepend`: entries put in front of the project's classpath
  // (RunSpec::classpath_prepend).
  // `shuffle`: the run is made on the shuffling JDK with these options (RunSpec::shuffle).
  struct Shuffled {
    ShufflingJava jdk;
    core::ShuffleSpec spec;
    std::filesystem::path sites_file;  // the spec's sites, one per line; empty: every site
  };
  // `schedule`: the run is made under the threads agent (RunSpec::schedule); it runs without
  // the class data archive, like any run that is not a plain one.
  struct Scheduled {
    core::ScheduleSpec spec;
    std::filesystem::path decisions_file;  // strategy replay: the decisions, as JSON; else empty
    std::filesystem::path progress_file;   // where the agent writes how far the schedule got
  };
  // `wait_for_archive` false: while the class data archive is being made, the JVM starts
  // without it instead of waiting (the discovery JVM, a plain run with no spare).
  std::vector<std::string> command(const std::string& mode, const std::filesystem::path& tests_file,
                                   const std::filesystem::path& results_file, const std::vector<std::string>& prepend = {},
                                   const Shuffled* shuffle = nullptr, const Scheduled* schedule = nullptr,
                                   bool wait_for_archive = true) const;
  // The test JVM's whole classpath: the project's, the runner jar, the platform jars (the
  // project's class directories after them once discovery found that safe).
  std::vector<std::string> process_classpath() const override;
  std::vector<std::string> process_classpath(const std::vector<std::string>& prepend) const;

  // The spare JVMs waiting now (empty without prestart): for tests and leak checks.
  std::vector<pid_t> spare_pids() const;

 private:
  struct RunFiles {
    std::filesystem::path tests, results, log, sites;  // the runner's input, its results stream, its output, a shuffle's sites
    std::filesystem::path decisions;                   // a replayed schedule's decisions
    std::filesystem::path progress;                    // a scheduled run's progress (the threads agent's)
  };
  RunFiles next_run_files();
  // The JVM (`java`) that dumps the class data archive over `jars` (CdsArchive::Maker).
  bool warm_up(const std::string& java, const std::vector<std::string>& jars, const std::filesystem::path& dump_to) const;
  // What a run with RunSpec::shuffle starts with; an error when there is no shuffling JDK.
  util::Result<Shuffled> shuffled_launch(const core::ShuffleSpec& spec, const RunFiles& files);
  CdsArchive& archive_for(const Shuffled* shuffle) const;
  // What a run with RunSpec::schedule starts with; an error when there is no threads agent.
  util::Result<Scheduled> scheduled_launch(const core::ScheduleSpec& spec, const RunFiles& files) const;
  // What a spare is started with and keyed by (SpareJvms): the `wait` command line.
  util::Result<SpareJvm> start_spare();
  static std::string launch_key(const std::vector<std::string>& argv, const std::string& working_dir);
  // A plain run on a spare; nullopt when there was none or it could not be told (it died):
  // the run then starts its own JVM.
  std::optional<util::Result<core::RunReport>> run_on_spare(const core::RunSpec& spec, const core::CancelFlag& cancel);
  // Everything after the JVM ended, the same for plain and debugged runs.
  util::Result<core::RunReport> finish_run(const core::RunSpec& spec, const RunFiles& files,
                                           const util::ExitStatus& status, std::chrono::steady_clock::time_point started);

  LocalJvmConfig config_;
  std::vector<std::string> jars_, dirs_;  // the project's classpath: its jars (and other files), its directories
  std::atomic<bool> junit4_direct_{false};  // the last run (before any: discovery) skipped the Platform: spares warm JUnit 4 alone
  std::atomic<bool> dirs_last_{false};    // the directories go after the jars (discovery found no file in both)
  std::atomic<long> next_file_{0};
  std::unique_ptr<CdsArchive> cds_;
  std::unique_ptr<ShufflingJdk> shuffling_;
  mutable std::mutex shuffled_cds_mutex_;
  mutable std::unique_ptr<CdsArchive> shuffled_cds_;  // the image's own archive, made on first use
  std::vector<std::string> archived_;                 // the jars the archives are made over
  std::unique_ptr<SpareJvms> spares_;                 // last: its keeper calls start_spare(); null without prestart
};

}  // namespace flakescan::backend
