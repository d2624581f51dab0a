#include "backend/local_jvm/local_jvm_executor.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <optional>
#include <sstream>

#include "backend/local_jvm/run_log.hpp"
#include "backend/local_jvm/runner_results.hpp"
#include "jdwp/launch.hpp"
#include "threads/progress_text.hpp"
#include "threads/schedule_record.hpp"
#include "util/log.hpp"
#include "util/process.hpp"

namespace flakescan::backend {

namespace fs = std::filesystem;

namespace {

std::string join(const std::vector<std::string>& parts, char sep) {
  std::string out;
  for (const auto& p : parts) {
    if (!out.empty()) out += sep;
    out += p;
  }
  return out;
}

util::Result<std::string> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::string{};  // the runner never got to create it
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// With suspend=y the agent suspends every thread only just before it sends VMStart. A
// VirtualMachine.Resume that reaches it earlier finds nothing to resume, and the run then
// stays suspended until its deadline (seen once in 24 loaded passes of the own-suite drill). So
// `drive` gets the VM once VMStart has come, as run_debugged promises: suspended before main.
util::Result<void> vm_started(core::Vm& vm, core::Deadline deadline) {
  auto first = vm.next_event(deadline);
  if (!first) return std::unexpected(first.error());
  if (first->kind != core::EventKind::vm_start)
    return util::fail(util::Errc::malformed, std::string("the JVM's first debugger event was ") +
                                                 core::event_kind_name(first->kind) + ", not VMStart");
  return {};
}

// The runner's tests file: one id per line, and a line "|" before an entry that begins a new
// run of its class (RunSpec::class_run_starts).
std::vector<std::string> runner_test_lines(const core::RunSpec& spec) {
  std::vector<std::string> lines;
  lines.reserve(spec.tests.size() + spec.class_run_starts.size());
  auto start = spec.class_run_starts.begin();
  for (std::size_t i = 0; i < spec.tests.size(); ++i) {
    while (start != spec.class_run_starts.end() && *start < i) ++start;
    if (start != spec.class_run_starts.end() && *start == i && i > 0) lines.push_back("|");
    lines.push_back(spec.tests[i]);
  }
  return lines;
}

util::Result<bool> write_lines(const fs::path& path, const std::vector<std::string>& lines) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  for (const auto& l : lines) out << l << '\n';
  out.close();
  if (!out) return util::fail(util::Errc::io, "cannot write " + path.string());
  return true;
}

}  // namespace

std::vector<std::string> default_platform_jars(const fs::path& java_lib) {
  std::vector<std::string> out;
  for (const char* jar : {"junit-platform-launcher.jar", "junit-platform-engine.jar", "junit-platform-commons.jar",
                          "junit-jupiter-engine.jar", "junit-jupiter-api.jar", "junit-jupiter-params.jar",
                          "junit-vintage-engine.jar", "junit4.jar", "hamcrest-core.jar", "opentest4j.jar",
                          "apiguardian-api.jar"})
    out.push_back((java_lib / jar).string());
  return out;
}

std::vector<std::string> default_asm_jars(const fs::path& java_lib) {
  return {(java_lib / "asm.jar").string(), (java_lib / "asm-tree.jar").string(), (java_lib / "asm-commons.jar").string()};
}

bool has_debugger_agent(const std::vector<std::string>& jvm_args) {
  return std::any_of(jvm_args.begin(), jvm_args.end(), [](const std::string& a) {
    return a.starts_with("-agentlib:jdwp") || a.starts_with("-Xrunjdwp") || a.starts_with("-Xdebug");
  });
}

std::vector<std::string> runner_jvm_args(const std::vector<std::string>& requested, bool huge_pages) {
  auto names = [&](std::string_view what) {
    return std::any_of(requested.begin(), requested.end(), [&](const std::string& a) { return a.find(what) != std::string::npos; });
  };
  std::vector<std::string> out;
  if (!names("Tiered")) {
    out.push_back("-XX:TieredStopAtLevel=1");
    if (!names("Inline") && !names("C1Max")) out.insert(out.end(), {"-XX:C1MaxInlineSize=15", "-XX:C1MaxTrivialSize=3"});
  }
  if (huge_pages && !names("HugePages") && !names("LargePages")) out.push_back("-XX:+UseTransparentHugePages");
  out.insert(out.end(), requested.begin(), requested.end());
  return out;
}

bool transparent_huge_pages_offered(const fs::path& enabled_file) {
  std::ifstream in(enabled_file);
  std::string line;
  if (!std::getline(in, line)) return false;
  // "always [madvise] never": the bracketed word is the mode in force.
  return line.find("[always]") != std::string::npos || line.find("[madvise]") != std::string::npos;
}

std::vector<std::string> threads_agent_args(const fs::path& agent_jar, const core::ScheduleSpec& spec, const fs::path& decisions_file,
                                            const fs::path& progress_file) {
  std::vector<std::string> out{"-javaagent:" + agent_jar.string(), "-Dflakescan.threads.strategy=" + spec.strategy,
                               "-Dflakescan.threads.seed=" + std::to_string(spec.seed),
                               "-Dflakescan.threads.depth=" + std::to_string(spec.depth),
                               "-Dflakescan.threads.steps=" + std::to_string(spec.steps),
                               std::string("-Dflakescan.threads.virtual_time=") + (spec.virtual_time ? "true" : "false")};
  // The step limit and the classes to rewrite only when asked for: the agent has the same defaults.
  if (spec.max_steps != core::ScheduleSpec{}.max_steps) out.push_back("-Dflakescan.threads.max_steps=" + std::to_string(spec.max_steps));
  if (!spec.include.empty()) {
    std::string prefixes;
    for (const auto& p : spec.include) prefixes += (prefixes.empty() ? "" : ",") + p;
    out.push_back("-Dflakescan.threads.include=" + prefixes);
  }
  if (!decisions_file.empty()) out.push_back("-Dflakescan.threads.replay=" + decisions_file.string());
  if (!progress_file.empty()) out.push_back("-Dflakescan.threads.progress=" + progress_file.string());
  return out;
}

std::vector<std::string> missing_classpath_entries(const std::vector<std::string>& classpath) {
  std::vector<std::string> missing;
  for (const auto& entry : classpath) {
    std::string path = entry;
    if (path.ends_with("/*")) path.resize(path.size() - 2);
    std::error_code ec;
    if (path.empty() || !fs::exists(path, ec)) missing.push_back(entry);
  }
  return missing;
}

util::Result<void> check_classpath(const std::vector<std::string>& classpath) {
  auto missing = missing_classpath_entries(classpath);
  if (missing.empty()) return {};
  std::string list;
  for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
  return util::fail(util::Errc::invalid_argument, "'classpath' has entries that do not exist: " + list);
}

LocalJvmExecutor::LocalJvmExecutor(LocalJvmConfig config) : config_(std::move(config)) {
  if (config_.parallelism < 1) config_.parallelism = 1;
  for (const auto& entry : config_.classpath) {
    std::error_code ec;
    (fs::is_directory(entry, ec) ? dirs_ : jars_).push_back(entry);
  }
  dirs_last_ = dirs_.empty();
  archived_ = jars_;
  archived_.push_back(config_.runner_jar.string());
  archived_.insert(archived_.end(), config_.platform_jars.begin(), config_.platform_jars.end());
  cds_ = std::make_unique<CdsArchive>(config_.cds_dir, config_.java, config_.jvm_args, archived_,
                                      [this](const fs::path& dump_to) { return warm_up(config_.java, archived_, dump_to); });
  shuffling_ = std::make_unique<ShufflingJdk>(ShufflingJdkConfig{
      .java = config_.java,
      .prepare_jar = config_.shuffling_jdk_jar,
      .asm_jars = config_.asm_jars,
      .cache_dir = config_.shuffling_jdk_cache.empty() ? default_shuffling_jdk_cache() : config_.shuffling_jdk_cache});
  // A debugger agent in the scan's JVM options would be in every spare too: one that suspends
  // the JVM keeps a spare from ever getting ready, and one with a fixed port lets only one JVM
  // start at a time. Such scans start each run's JVM when the run begins.
  if (config_.prestart && has_debugger_agent(config_.jvm_args)) {
    config_.prestart = false;
    util::logger("backend")->info("no prestarted runner JVMs: the scan's JVM options load a debugger agent (JDWP)");
  }
  if (config_.prestart) spares_ = std::make_unique<SpareJvms>(config_.spares > 0 ? config_.spares : config_.parallelism + 1);
}

LocalJvmExecutor::~LocalJvmExecutor() {
  if (spares_) spares_->stop();
  cds_->finish_making();  // its warm-up JVM uses config_ and archived_
}

std::vector<pid_t> LocalJvmExecutor::spare_pids() const { return spares_ ? spares_->pids() : std::vector<pid_t>{}; }

bool LocalJvmExecutor::warm_up(const std::string& java, const std::vector<std::string>& jars, const fs::path& dump_to) const {
  std::error_code ec;
  fs::create_directories(config_.work_dir, ec);
  const fs::path base = config_.work_dir / "warmup";
  std::vector<std::string> argv{java};
  argv.insert(argv.end(), config_.jvm_args.begin(), config_.jvm_args.end());
  argv.insert(argv.end(), {"-XX:ArchiveClassesAtExit=" + dump_to.string(), "-cp", join(jars, ':'), "io.flakescan.runner.Main",
                           "warmup", "--results", base.string() + ".results"});
  auto child = util::Child::spawn({.argv = argv, .working_dir = config_.test_dir.string(), .stdout_path = base.string() + ".log"});
  if (!child) return false;
  auto status = child->wait(std::chrono::steady_clock::now() + std::chrono::seconds(60));
  return status && status->success();
}

std::vector<std::string> LocalJvmExecutor::process_classpath(const std::vector<std::string>& prepend) const {
  // The project's classpath comes first so that its own JUnit versions win; the runner and
  // Debian's platform jars fill in what it lacks. Its class directories go last once the
  // discovery JVM found that no file of theirs is also in a jar (so every lookup finds what
  // it found before), because a class data archive covers only the jars a classpath starts with.
  std::vector<std::string> cp = prepend;
  const bool dirs_last = dirs_last_;
  const auto& project = dirs_last ? jars_ : config_.classpath;
  cp.insert(cp.end(), project.begin(), project.end());
  cp.push_back(config_.runner_jar.string());
  cp.insert(cp.end(), config_.platform_jars.begin(), config_.platform_jars.end());
  if (dirs_last) cp.insert(cp.end(), dirs_.begin(), dirs_.end());
  return cp;
}

CdsArchive& LocalJvmExecutor::archive_for(const Shuffled* shuffle) const {
  if (!shuffle) return *cds_;
  // The image has a class data archive of its own JDK classes; the runner's archive is made on
  // top of it, so it is made by the image's java (once, on the first shuffled run).
  std::lock_guard lock(shuffled_cds_mutex_);
  if (!shuffled_cds_) {
    const std::string java = shuffle->jdk.java;
    shuffled_cds_ = std::make_unique<CdsArchive>(config_.cds_dir, java, config_.jvm_args, archived_,
                                                 [this, java](const fs::path& dump_to) { return warm_up(java, archived_, dump_to); });
  }
  return *shuffled_cds_;
}

std::vector<std::string> LocalJvmExecutor::command(const std::string& mode, const fs::path& tests_file,
                                                   const fs::path& results_file, const std::vector<std::string>& prepend,
                                                   const Shuffled* shuffle, const Scheduled* schedule,
                                                   bool wait_for_archive) const {
  // The archive holds the jars in front of the directories: a classpath with anything before
  // them (a patched class, RunSpec::classpath_prepend) or with directories among them runs
  // without; so does a JDK started with --patch-module (HotSpot turns class data sharing off).
  std::vector<std::string> argv{shuffle ? shuffle->jdk.java : config_.java};
  argv.insert(argv.end(), config_.jvm_args.begin(), config_.jvm_args.end());
  if (prepend.empty() && dirs_last_ && !schedule && (!shuffle || shuffle->jdk.image)) {
    auto& archive = archive_for(shuffle);
    auto cds = wait_for_archive || shuffle ? std::optional(archive.for_run()) : archive.if_ready();
    if (cds) argv.insert(argv.end(), cds->jvm_args.begin(), cds->jvm_args.end());
    else archive.start_making();
  }
  if (shuffle) {
    // The runner reads these and starts shuffling once the tests are about to run (ShuffleControl).
    argv.insert(argv.end(), shuffle->jdk.jvm_args.begin(), shuffle->jdk.jvm_args.end());
    argv.push_back("-Dflakescan.shuffle.seed=" + std::to_string(shuffle->spec.seed));
    argv.push_back("-Dflakescan.shuffle.mode=" + shuffle->spec.mode);
    if (!shuffle->sites_file.empty()) argv.push_back("-Dflakescan.shuffle.sites=" + shuffle->sites_file.string());
  }
  if (schedule) {
    // The runner sees flakescan.threads.strategy and brackets each entry with the agent's
    // Control.begin/end (docs/threads.md).
    auto agent = threads_agent_args(config_.threads_agent_jar, schedule->spec, schedule->decisions_file, schedule->progress_file);
    argv.insert(argv.end(), agent.begin(), agent.end());
  }
  argv.insert(argv.end(), {"-cp", join(process_classpath(prepend), ':'), "io.flakescan.runner.Main", mode, "--tests-file",
                           tests_file.string(), "--results", results_file.string()});
  return argv;
}

std::vector<std::string> LocalJvmExecutor::process_classpath() const { return process_classpath({}); }

util::Result<core::TestExecutor::Discovery> LocalJvmExecutor::discover(const std::vector<core::TestId>& ids,
                                                                       const core::CancelFlag& cancel) {
  std::error_code ec;
  fs::create_directories(config_.work_dir, ec);
  fs::path base = config_.work_dir / "discover";
  // The runs' class data archive is made over the jars alone, which discovery does not change:
  // its warm-up JVM runs beside the discovery JVM, which does not wait for it, and so may the
  // first plain runs (run_on_spare).
  cds_->start_making();
  // When the archive is there already and no class directory waits for discovery's word on
  // its place, the spares' command line is known now: they get ready beside the discovery JVM.
  if (spares_ && config_.prime_spares && dirs_last_ && cds_->if_ready())
    spares_->prime(launch_key(command("wait", {}, {}), config_.test_dir.string()), [this] { return start_spare(); });
  std::vector<std::string> lines;
  for (const auto& id : ids) lines.push_back(id.str());
  if (auto w = write_lines(base.string() + ".tests", lines); !w) return std::unexpected(w.error());
  auto child = util::Child::spawn({.argv = command("discover", base.string() + ".tests", base.string() + ".results", {}, nullptr,
                                                   nullptr, /*wait_for_archive=*/false),
                                   .working_dir = config_.test_dir.string(),
                                   .stdout_path = base.string() + ".log"});
  if (!child) return std::unexpected(child.error());
  auto status = child->wait(std::chrono::steady_clock::now() + std::chrono::milliseconds(config_.discover_timeout_ms), &cancel);
  if (!status) return std::unexpected(status.error());
  if (status->cancelled) return util::fail(util::Errc::cancelled, "discovery cancelled");
  auto text = read_file(base.string() + ".results");
  if (!text) return std::unexpected(text.error());
  auto parsed = parse_discover_stream(*text);
  if (!parsed) return std::unexpected(parsed.error());
  if (!parsed->done) {
    auto log = read_file(base.string() + ".log");
    std::string tail = log ? log->substr(log->size() > 2000 ? log->size() - 2000 : 0) : "";
    return util::fail(util::Errc::process, "test discovery failed: the JVM " + status->describe() +
                                               (tail.empty() ? "" : "; its output ends with:\n" + tail));
  }
  junit4_direct_ = parsed->junit4_direct;
  if (!dirs_.empty()) {
    dirs_last_ = parsed->classpath_checked && parsed->shadowed.empty();
    if (!parsed->shadowed.empty())
      util::logger("backend")->info("class directories stay in place (no class data archive): {}", parsed->shadowed);
  }
  return parsed->discovery;
}

LocalJvmExecutor::RunFiles LocalJvmExecutor::next_run_files() {
  std::error_code ec;
  fs::create_directories(config_.work_dir, ec);
  fs::path base = config_.work_dir / ("run-" + std::to_string(next_file_++));
  return {base.string() + ".tests", base.string() + ".results", base.string() + ".log", base.string() + ".sites",
          base.string() + ".decisions", base.string() + ".progress"};
}

util::Result<core::RunReport> LocalJvmExecutor::finish_run(const core::RunSpec& spec, const RunFiles& files,
                                                           const util::ExitStatus& status,
                                                           std::chrono::steady_clock::time_point started) {
  static auto log = util::logger("backend");
  core::RunReport report;
  report.log_path = files.log.string();
  report.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  report.exit_code = status.exited ? status.code : -1;
  report.signal = status.exited ? 0 : status.signal;
  report.timed_out = status.timed_out;
  if (status.cancelled) return util::fail(util::Errc::cancelled, "run cancelled");

  if (auto trimmed = trim_run_log(files.log); !trimmed) log->warn("{}", trimmed.error().message);
  auto text = read_file(files.results);
  if (!text) return std::unexpected(text.error());
  auto stream = parse_run_stream(*text, spec.tests.size());
  if (!stream) return std::unexpected(stream.error());
  // The JVMs started ahead from now on warm what this run needed (start_spare).
  if (stream->junit4_direct) junit4_direct_ = *stream->junit4_direct;
  std::string end = status.timed_out ? "was killed at the " + std::to_string(spec.timeout_ms / 1000) + " s deadline"
                                     : status.describe();
  // A scheduled run killed at its deadline wrote no record: how far its schedule got instead.
  if (spec.schedule && status.timed_out)
    if (auto progress = read_file(files.progress))
      if (auto said = threads::describe_progress(*progress); !said.empty()) end += " (" + said + ")";
  if (!status.success()) report.infra_reason = "the JVM " + end;
  assemble_report(*stream, spec.tests, end, report);
  log->debug("run {} ({} tests) {} in {:.0f} ms", files.log.filename().string(), spec.tests.size(), end, report.wall_ms);
  return report;
}

util::Result<LocalJvmExecutor::Shuffled> LocalJvmExecutor::shuffled_launch(const core::ShuffleSpec& spec, const RunFiles& files) {
  auto jdk = shuffling_->get();
  if (!jdk) return std::unexpected(jdk.error());
  Shuffled out{.jdk = *jdk, .spec = spec};
  if (!spec.sites.empty()) {
    if (auto w = write_lines(files.sites, spec.sites); !w) return std::unexpected(w.error());
    out.sites_file = files.sites;
  }
  return out;
}

util::Result<LocalJvmExecutor::Scheduled> LocalJvmExecutor::scheduled_launch(const core::ScheduleSpec& spec,
                                                                             const RunFiles& files) const {
  std::error_code ec;
  if (config_.threads_agent_jar.empty() || !fs::exists(config_.threads_agent_jar, ec))
    return util::fail(util::Errc::unsupported,
                      "the threads agent (flakescan-threads-agent.jar) was not found beside flakescand or in "
                      "$FLAKESCAN_THREADS_AGENT_JAR: technique threads cannot control the test's threads");
  Scheduled out{.spec = spec, .progress_file = files.progress};
  if (spec.strategy == "replay") {
    if (auto w = write_lines(files.decisions, {threads::decisions_text(spec.replay_decisions)}); !w) return std::unexpected(w.error());
    out.decisions_file = files.decisions;
  }
  return out;
}

std::string LocalJvmExecutor::launch_key(const std::vector<std::string>& argv, const std::string& working_dir) {
  // The command line ends with "--tests-file F --results R": the run's own files, not the JVM's.
  std::string key = working_dir;
  for (std::size_t i = 0; i + 4 < argv.size(); ++i) key += '\n' + argv[i];
  return key;
}

util::Result<SpareJvm> LocalJvmExecutor::start_spare() {
  auto files = next_run_files();
  auto argv = command("wait", files.tests, files.results);
  auto key = launch_key(argv, config_.test_dir.string());
  // How it gets ready is not part of its key: warmed either way, it is the JVM the run would
  // have started. It warms what the last run needed (discovery's answer before the first run):
  // JUnit 4 alone when that run's tests skipped the Platform. Runs of one kind tend to follow
  // each other (a suite scan's rounds need the Platform, the isolation of its JUnit 4
  // suspects does not), and a JVM warmed the other way still runs anything, only less warm.
  if (junit4_direct_) argv.insert(argv.end(), {"--warm", "junit4"});
  auto child = util::Child::spawn(
      {.argv = argv, .working_dir = config_.test_dir.string(), .stdout_path = files.log.string(), .stdin_pipe = true});
  if (!child) return std::unexpected(child.error());
  return SpareJvm{.child = std::move(*child), .key = std::move(key),
                  .tests = files.tests, .results = files.results, .log = files.log};
}

std::optional<util::Result<core::RunReport>> LocalJvmExecutor::run_on_spare(const core::RunSpec& spec,
                                                                            const core::CancelFlag& cancel) {
  static auto log = util::logger("backend");
  if (!spares_ || spec.shuffle || spec.schedule || !spec.classpath_prepend.empty()) return std::nullopt;
  // While the class data archive is being made, spares would wait for it (their command line
  // names it): the run starts its own JVM without it instead, and the spares come after.
  if (dirs_last_ && !cds_->if_ready()) {
    cds_->start_making();
    return std::nullopt;
  }
  const auto asked = std::chrono::steady_clock::now();
  const auto key = launch_key(command("wait", {}, {}), config_.test_dir.string());
  // A spare that dies between being taken and reading its instruction never opened its results
  // file (the runner opens it after "run"): the run goes to the next spare, then to a JVM of its own.
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto spare = spares_->take(key, [this] { return start_spare(); });
    if (!spare) return std::nullopt;
    RunFiles files{.tests = spare->tests, .results = spare->results, .log = spare->log};
    if (auto w = write_lines(files.tests, runner_test_lines(spec)); !w) return util::Result<core::RunReport>(std::unexpected(w.error()));
    auto told = spare->child.write_stdin("run\n");
    spare->child.close_stdin();
    const auto started = std::chrono::steady_clock::now();
    if (!told) {
      log->info("spare runner JVM {} died while waiting; the run goes to another JVM", spare->child.pid());
      continue;
    }
    auto status = spare->child.wait(started + std::chrono::milliseconds(spec.timeout_ms), &cancel);
    if (!status) return util::Result<core::RunReport>(std::unexpected(status.error()));
    std::error_code ec;
    if (!status->timed_out && !status->cancelled && !fs::exists(files.results, ec)) {
      log->info("spare runner JVM {} {} before it read its instruction; the run goes to another JVM", spare->child.pid(),
                status->describe());
      continue;
    }
    const auto exited = std::chrono::steady_clock::now();
    auto report = finish_run(spec, files, *status, started);
    if (report) {
      report->prestarted = true;
      report->steps.launch_ms = std::chrono::duration<double, std::milli>(started - asked).count();
      report->steps.jvm_ms = std::chrono::duration<double, std::milli>(exited - started).count();
      report->steps.results_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - exited).count();
    }
    return report;
  }
  return std::nullopt;
}

util::Result<core::RunReport> LocalJvmExecutor::run(const core::RunSpec& spec, const core::CancelFlag& cancel) {
  if (auto on_spare = run_on_spare(spec, cancel)) return std::move(*on_spare);
  const auto asked = std::chrono::steady_clock::now();
  auto files = next_run_files();
  if (auto w = write_lines(files.tests, runner_test_lines(spec)); !w) return std::unexpected(w.error());
  std::optional<Shuffled> shuffle;
  if (spec.shuffle) {
    auto launch = shuffled_launch(*spec.shuffle, files);
    if (!launch) return std::unexpected(launch.error());
    shuffle = std::move(*launch);
  }
  std::optional<Scheduled> schedule;
  if (spec.schedule) {
    auto launch = scheduled_launch(*spec.schedule, files);
    if (!launch) return std::unexpected(launch.error());
    schedule = std::move(*launch);
  }
  auto started = std::chrono::steady_clock::now();
  auto child = util::Child::spawn({.argv = command("run", files.tests, files.results, spec.classpath_prepend,
                                                   shuffle ? &*shuffle : nullptr, schedule ? &*schedule : nullptr,
                                                   /*wait_for_archive=*/false),
                                   .working_dir = config_.test_dir.string(),
                                   .stdout_path = files.log.string()});
  if (!child) return std::unexpected(child.error());
  const auto spawned = std::chrono::steady_clock::now();
  auto status = child->wait(started + std::chrono::milliseconds(spec.timeout_ms), &cancel);
  if (!status) return std::unexpected(status.error());
  const auto exited = std::chrono::steady_clock::now();
  auto report = finish_run(spec, files, *status, started);
  if (report && shuffle) report->runtime = shuffle->jdk.description;
  if (report) {
    report->steps.launch_ms = std::chrono::duration<double, std::milli>(spawned - asked).count();
    report->steps.jvm_ms = std::chrono::duration<double, std::milli>(exited - spawned).count();
    report->steps.results_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - exited).count();
  }
  return report;
}

util::Result<core::RunReport> LocalJvmExecutor::run_debugged(const core::RunSpec& spec, const core::CancelFlag& cancel,
                                                             const DriveFn& drive) {
  if (spec.shuffle) return util::fail(util::Errc::unsupported, "a shuffled run cannot be made under the debugger");
  if (spec.schedule)
    return util::fail(util::Errc::unsupported,
                      "a scheduled run (technique threads) cannot be made under the debugger: both would stop its threads");
  auto files = next_run_files();
  if (auto w = write_lines(files.tests, runner_test_lines(spec)); !w) return std::unexpected(w.error());
  auto started = std::chrono::steady_clock::now();
  auto launched = jdwp::launch({.argv = command("run", files.tests, files.results, spec.classpath_prepend),
                                 .working_dir = config_.test_dir.string(),
                                 .stdout_path = files.log.string()},
                               jdwp::LaunchOptions{.suspend = true});
  if (!launched) return std::unexpected(launched.error());
  auto driven = vm_started(*launched->vm, started + std::chrono::milliseconds(spec.timeout_ms));
  if (driven) driven = drive(*launched->vm);
  if (!driven) {
    launched->child.kill_group();
    (void)launched->child.wait(std::chrono::steady_clock::now() + std::chrono::seconds(5));
    return std::unexpected(driven.error());
  }
  if (launched->vm->alive()) (void)launched->vm->detach(core::deadline_in(std::chrono::seconds(5)));
  auto status = launched->child.wait(started + std::chrono::milliseconds(spec.timeout_ms), &cancel);
  launched->vm.reset();
  if (!status) return std::unexpected(status.error());
  return finish_run(spec, files, *status, started);
}

}  // namespace flakescan::backend
