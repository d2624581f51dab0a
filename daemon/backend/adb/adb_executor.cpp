#include "backend/adb/adb_executor.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "backend/adb/apk.hpp"
#include "backend/adb/runner_order.hpp"
#include "backend/adb/shell_command.hpp"
#include "core/signature.hpp"
#include "util/log.hpp"

namespace flakescan::backend::adb {

using util::Errc;
using util::fail;
using Ms = std::chrono::milliseconds;

namespace {

bool is_assertion(std::string_view type) {
  for (std::string_view suffix : {"AssertionError", "AssertionFailedError", "ComparisonFailure", "AssertionFailedWithCauseError"})
    if (type.ends_with(suffix)) return true;
  return false;
}

// "java.lang.NullPointerException: Attempt to ..." -> (type, message)
std::pair<std::string, std::string> exception_of(std::string_view stack) {
  std::string_view first = stack.substr(0, stack.find('\n'));
  auto colon = first.find(": ");
  if (colon == std::string_view::npos) return {std::string(first), {}};
  return {std::string(first.substr(0, colon)), std::string(first.substr(colon + 2))};
}

std::string read_file(const std::string& path, util::Error* err) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *err = {Errc::not_found, "cannot read " + path};
    return {};
  }
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

double ms_since(wire::Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(wire::Clock::now() - start).count();
}

}  // namespace

util::Result<void> check_method_ids(const core::RunSpec& spec) {
  for (const auto& t : spec.tests)
    if (auto id = core::TestId::parse(t); !id || id->is_class())
      return fail(Errc::invalid_argument, "run specs hold method ids: '" + t + "'");
  return {};
}

std::vector<std::string> executed_tests(const InstrumentationOutput& output) {
  std::vector<std::string> out;
  for (const auto& t : output.tests)
    if (t.method != "null" && t.method != "initializationError") out.push_back(t.id());
  return out;
}

std::vector<core::TestResult> map_results(const std::vector<std::string>& tests, const InstrumentationOutput& output,
                                          const std::optional<util::Error>& cut) {
  std::map<std::string, const InstrumentedTest*> by_id;
  std::map<std::string, const InstrumentedTest*> class_level;  // initializationError / ignored class
  for (const auto& t : output.tests) {
    if (t.method == "initializationError" || t.method == "null") class_level[t.class_name] = &t;
    auto& slot = by_id[t.id()];
    if (!slot || t.ended()) slot = &t;
  }
  std::string reason = cut ? util::describe(*cut) : output.failure_reason();
  bool clean_end = !cut && output.finished() && !output.process_crashed() && output.failed.empty();

  std::vector<core::TestResult> out;
  for (const auto& id : tests) {
    core::TestResult r;
    r.test = id;
    auto hash = id.find('#');
    std::string cls = id.substr(0, hash);
    auto it = by_id.find(id);
    const InstrumentedTest* t = it == by_id.end() ? nullptr : it->second;
    if (!t) {
      auto c = class_level.find(cls);
      if (c != class_level.end() && c->second->ended()) {
        if (*c->second->code == int(StatusCode::ignored)) {
          r.outcome = core::Outcome::skipped;
          r.message = "class ignored";
        } else {
          r.outcome = core::Outcome::not_found;
          r.message = exception_of(c->second->stack).second;
        }
      } else if (clean_end) {
        r.outcome = core::Outcome::not_found;
        r.message = "the runner did not report this test";
      } else {
        r.outcome = core::Outcome::infra;
        r.message = "not reached: " + reason;
      }
      out.push_back(std::move(r));
      continue;
    }
    if (!t->ended()) {
      r.outcome = core::Outcome::infra;
      r.message = "test was running when the instrumentation ended: " + reason;
      out.push_back(std::move(r));
      continue;
    }
    r.duration_ms = t->ended_ms - t->started_ms;
    switch (StatusCode(*t->code)) {
      case StatusCode::ok: r.outcome = core::Outcome::pass; break;
      case StatusCode::ignored:
        r.outcome = core::Outcome::skipped;
        r.message = "ignored";
        break;
      case StatusCode::assumption_failure:
        r.outcome = core::Outcome::skipped;
        r.message = "assumption failed: " + exception_of(t->stack).second;
        break;
      default: {
        auto [type, message] = exception_of(t->stack);
        r.exception_type = type;
        r.message = message;
        r.stack = t->stack;
        bool crashed = t->stream.find("Process crashed") != std::string::npos;
        r.outcome = !crashed && is_assertion(type) ? core::Outcome::fail : core::Outcome::error;
        if (crashed) r.message = "process crashed: " + r.message;
        r.signature = core::failure_signature(r.exception_type, r.stack, id);
      }
    }
    out.push_back(std::move(r));
  }
  return out;
}

AdbExecutor::AdbExecutor(AdbBackendConfig config, std::shared_ptr<DeviceRegistry> registry)
    : config_(std::move(config)), registry_(std::move(registry)) {}

AdbExecutor::~AdbExecutor() = default;

int AdbExecutor::parallelism() const { return std::max(1, registry_->ready_count()); }

util::Result<void> install_apk(const Lease& lease, const std::string& apk_path, const std::string& apk_bytes,
                               wire::Deadline deadline, const core::CancelFlag& cancel) {
  auto pkg = apk_package(apk_bytes);
  if (!pkg) return std::unexpected(pkg.error());
  std::string remote = "/data/local/tmp/flakescan-" + *pkg + ".apk";
  if (auto r = lease.client().push(lease.serial(), apk_bytes, remote, 0644, deadline, &cancel); !r)
    return fail(r.error().code, "push of " + apk_path + " to " + lease.serial() + " failed: " + r.error().message);
  auto cmd = install_command(remote);
  if (!cmd) return std::unexpected(cmd.error());
  auto res = lease.client().shell(lease.serial(), *cmd, deadline, &cancel);
  if (auto rm = remove_file_command(remote)) (void)lease.client().shell(lease.serial(), *rm, deadline, &cancel);
  if (!res) return std::unexpected(res.error());
  if (res->cut) return std::unexpected(*res->cut);
  std::string text = res->out + res->err;
  if (text.find("Success") == std::string::npos) {
    auto f = text.find("Failure");
    std::string why = f == std::string::npos ? text : text.substr(f, text.find('\n', f) - f);
    return fail(Errc::process, "install of " + apk_path + " on " + lease.serial() + " failed: " + why);
  }
  return {};
}

util::Result<void> AdbExecutor::prepare(const Lease& lease, wire::Deadline deadline, const core::CancelFlag& cancel) {
  std::string key = lease.key() + "#" + std::to_string(lease.generation());
  bool need_install;
  {
    std::lock_guard lock(mutex_);
    need_install = !config_.skip_install && !installed_.count(key);
  }
  if (need_install) {
    auto install_deadline = std::min(deadline, wire::after(config_.install_timeout));
    if (!config_.app_apk.empty())
      if (auto r = install_apk(lease, config_.app_apk, app_bytes_, install_deadline, cancel); !r) return r;
    if (auto r = install_apk(lease, config_.test_apk, test_bytes_, install_deadline, cancel); !r) return r;
    std::lock_guard lock(mutex_);
    installed_.insert(key);
  }
  if (config_.clear_state && !config_.app_package.empty()) {
    auto cmd = clear_command(config_.app_package);
    if (!cmd) return std::unexpected(cmd.error());
    auto res = lease.client().shell(lease.serial(), *cmd, deadline, &cancel);
    if (!res) return std::unexpected(res.error());
    if (res->cut) return std::unexpected(*res->cut);
  }
  return {};
}

util::Result<DeviceRun> AdbExecutor::instrument(const Lease& lease, const std::vector<std::string>& tests, bool debug,
                                                wire::Deadline deadline, const core::CancelFlag& cancel, bool list_only) {
  InstrumentArgs args{config_.test_package, config_.runner, tests, config_.instrumentation_args, debug};
  if (list_only) args.extra.push_back({"log", "true"});
  auto cmd = instrument_command(args);
  if (!cmd) return std::unexpected(cmd.error());
  DeviceRun run;
  run.device = lease.key();
  InstrumentationParser parser;
  auto start = wire::Clock::now();
  auto res = lease.client().shell(lease.serial(), *cmd, deadline, &cancel, [&](std::string_view chunk) {
    parser.feed(chunk, ms_since(start));
    run.raw.append(chunk);
  });
  if (!res) {
    // The transport could not even be opened: the device is gone or not usable now.
    run.cut = res.error();
    run.device_lost = true;
    run.output = parser.finish(ms_since(start));
    return run;
  }
  run.output = parser.finish(ms_since(start));
  run.cut = res->cut;
  if (run.cut && run.cut->code == Errc::timeout) {
    // Stop the hung instrumentation so the device is usable for the next run.
    if (auto stop = force_stop_command(config_.test_package))
      (void)lease.client().shell(lease.serial(), *stop, wire::after(Ms(10000)));
  }
  bool stream_broken = run.cut && run.cut->code != Errc::timeout && run.cut->code != Errc::cancelled;
  if (!res->v2 && !run.cut && !run.output.finished()) {
    // shell: (v1) ends with a plain EOF whether the runner finished or the cable was pulled;
    // give the device tracker a moment to report a vanished device before trusting the EOF.
    for (int i = 0; i < 20 && !lease.lost(); ++i) std::this_thread::sleep_for(Ms(50));
  }
  run.device_lost = lease.lost() || stream_broken;
  return run;
}

void AdbExecutor::keep_log(const core::RunSpec& spec, const std::string& device, const std::string& raw,
                           core::RunReport& report) {
  if (config_.log_dir.empty()) return;
  int n;
  {
    std::lock_guard lock(mutex_);
    n = ++log_counter_;
  }
  std::filesystem::create_directories(config_.log_dir);
  std::string safe = device;
  for (char& c : safe) if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.') c = '_';
  auto path = config_.log_dir + "/run-" + std::to_string(n) + "-" + safe + ".txt";
  std::ofstream out(path, std::ios::binary);
  out << "# technique=" << spec.technique << " seed=" << spec.seed << " device=" << device << "\n" << raw;
  report.log_path = path;
}

std::vector<std::vector<std::string>> AdbExecutor::plan(const std::vector<std::string>& tests, int round) {
  if (round >= 2) return RunnerOrder::singletons(tests);
  std::lock_guard lock(mutex_);
  return order_.segments(tests);
}

void AdbExecutor::learn_order(const InstrumentationOutput& output) {
  auto executed = executed_tests(output);
  std::lock_guard lock(mutex_);
  order_.learn(executed);
}

util::Result<AdbExecutor::LeasedRun> AdbExecutor::run_on(const Lease& lease, const core::RunSpec& spec,
                                                        wire::Deadline deadline, const core::CancelFlag& cancel) {
  auto log = util::logger("adb");
  LeasedRun out;
  for (int round = 0;; ++round) {
    out = {};
    auto segments = plan(spec.tests, round);
    bool reordered = false;
    for (const auto& segment : segments) {
      if (cancel || wire::Clock::now() >= deadline) {
        for (const auto& t : segment)
          out.report.results.push_back({t, core::Outcome::infra, cancel ? "cancelled" : "run deadline passed"});
        if (!cancel) out.report.timed_out = true;
        continue;
      }
      auto dr = instrument(lease, segment, false, deadline, cancel);
      if (!dr) return std::unexpected(dr.error());
      out.raw += "# instrumentation " + std::to_string(++out.instrumentations) + ": " + std::to_string(segment.size()) +
                 " tests\n" + dr->raw;
      if (dr->device_lost && !cancel) {
        out.lost = "device " + lease.serial() + " went away mid-run" + (dr->cut ? " (" + dr->cut->message + ")" : "");
        return out;
      }
      learn_order(dr->output);
      if (!RunnerOrder::ran_as_listed(segment, executed_tests(dr->output))) {
        reordered = true;
        break;
      }
      for (auto& r : map_results(segment, dr->output, dr->cut)) out.report.results.push_back(std::move(r));
      if (dr->cut && dr->cut->code == Errc::timeout) {
        out.report.timed_out = true;
        out.report.infra_reason = "run deadline of " + std::to_string(spec.timeout_ms) + " ms passed on " + lease.serial();
      } else if (dr->cut && dr->cut->code == Errc::cancelled) {
        out.report.infra_reason = "cancelled";
      } else if (auto why = dr->output.failure_reason(); !why.empty() && out.report.infra_reason.empty()) {
        out.report.infra_reason = why;
      }
    }
    if (!reordered) return out;
    // The runner did not keep the requested order: what ran is not what the technique asked
    // for, so it is not reported. It has taught us the runner's order; run again by that.
    log->info("{}: the runner reordered a run of {} tests; running it again in {}", lease.serial(), spec.tests.size(),
              round + 1 >= 2 ? "one instrumentation per test" : "instrumentations it keeps in order");
  }
}

util::Result<core::RunReport> AdbExecutor::run(const core::RunSpec& spec, const core::CancelFlag& cancel) {
  if (!spec.classpath_prepend.empty())
    return util::fail(util::Errc::unsupported, "a device runs the installed test APK: it cannot put classes in front of it");
  if (spec.shuffle)
    return util::fail(util::Errc::unsupported,
                      "a device's framework classes (ART's boot image) cannot be swapped for shuffling ones from here: "
                      "technique shuffle runs on the local JVM backend");
  if (spec.schedule)
    return util::fail(util::Errc::unsupported,
                      "a device's test process cannot be started under the threads agent (a JVM agent; ART has none): "
                      "technique threads runs on the local JVM backend");
  auto log = util::logger("adb");
  auto start = wire::Clock::now();
  auto deadline = start + Ms(spec.timeout_ms);
  if (auto ok = check_method_ids(spec); !ok) return std::unexpected(ok.error());

  core::RunReport report;
  auto all_infra = [&](const std::string& why) {
    report.results.clear();
    for (const auto& t : spec.tests) report.results.push_back({t, core::Outcome::infra, why});
    report.infra_reason = why;
    report.exit_code = -1;
    report.wall_ms = ms_since(start);
  };

  std::set<std::string> exclude;
  std::string last_loss;
  int attempts = 0;
  while (attempts < std::max(1, config_.max_attempts)) {
    auto lease = lease_device(exclude, deadline, cancel);
    if (!lease) {
      if (lease.error().code == Errc::process) return std::unexpected(lease.error());  // nothing could install
      all_infra(last_loss.empty() ? "no device: " + lease.error().message
                                  : last_loss + "; no other device: " + lease.error().message);
      return report;
    }
    if (auto p = prepare(*lease, deadline, cancel); !p) {
      if (cancel) { all_infra("cancelled"); return report; }
      if (lease->lost() || p.error().code == Errc::disconnected) {
        last_loss = "device " + lease->serial() + " went away while preparing";
        exclude.insert(lease->key());
        ++attempts;
        continue;
      }
      note_install_failure(*lease, p.error());
      continue;
    }
    ++attempts;
    auto done = run_on(*lease, spec, deadline, cancel);
    if (!done) return std::unexpected(done.error());
    if (!done->lost.empty()) {
      last_loss = done->lost;
      log->info("{}; retrying the run elsewhere", last_loss);
      exclude.insert(lease->key());
      continue;
    }
    report = std::move(done->report);
    report.exit_code = report.infra_reason.empty() ? 0 : -1;
    report.wall_ms = ms_since(start);
    keep_log(spec, lease->key(), done->raw, report);
    return report;
  }
  all_infra(last_loss + " (gave up after " + std::to_string(attempts) + " attempts)");
  return report;
}

util::Result<Lease> AdbExecutor::lease_device(const std::set<std::string>& exclude, wire::Deadline deadline,
                                              const core::CancelFlag& cancel) {
  std::set<std::string> skip = exclude;
  {
    std::lock_guard lock(mutex_);
    skip.insert(install_failed_.begin(), install_failed_.end());
  }
  auto wait = std::min(config_.device_wait, std::chrono::duration_cast<Ms>(deadline - wire::Clock::now()));
  auto lease = registry_->acquire(skip, std::max(wait, Ms(0)), &cancel);
  if (lease) return lease;
  std::lock_guard lock(mutex_);
  if (lease.error().code != Errc::cancelled && !install_errors_.empty() && exclude.empty() && installed_.empty()) {
    std::string all;
    for (auto& [d, e] : install_errors_) all += (all.empty() ? "" : "; ") + e;
    return fail(Errc::process, "could not install on any device: " + all);
  }
  return std::unexpected(lease.error());
}

void AdbExecutor::note_install_failure(const Lease& lease, const util::Error& error) {
  util::logger("adb")->warn("{}", error.message);
  std::lock_guard lock(mutex_);
  install_failed_.insert(lease.key());
  install_errors_[lease.key()] = error.message;
}

#ifndef FLAKESCAN_ADB_JDWP
util::Result<core::RunReport> AdbExecutor::run_debugged(const core::RunSpec&, const core::CancelFlag&, const DriveFn&) {
  return fail(Errc::unsupported, "built without the JDWP engine: no debugger on devices");
}
#endif

util::Result<core::TestExecutor::Discovery> AdbExecutor::discover(const std::vector<core::TestId>& ids,
                                                                  const core::CancelFlag& cancel) {
  Discovery out;
  if (ids.empty()) return out;
  auto lease = registry_->acquire({}, config_.device_wait, &cancel);
  if (!lease) return std::unexpected(lease.error());
  auto deadline = wire::after(Ms(300000));
  if (auto p = prepare(*lease, deadline, cancel); !p) return std::unexpected(p.error());
  std::vector<std::string> names;
  for (const auto& id : ids) names.push_back(id.str());
  // `-e log true`: AndroidJUnitRunner reports every matching test, in the order it would run
  // them, without running them.
  auto dr = instrument(*lease, names, false, deadline, cancel, true);
  if (!dr) return std::unexpected(dr.error());
  if (dr->device_lost || dr->cut) return fail(Errc::disconnected, "device lost during test discovery");
  if (!dr->output.failed.empty()) return fail(Errc::process, dr->output.failure_reason());
  learn_order(dr->output);
  std::set<std::string> seen;
  for (const auto& id : ids) {
    bool found = false;
    for (const auto& t : dr->output.tests) {
      if (t.method == "null" || t.method == "initializationError") continue;
      bool match = id.is_class() ? t.class_name == id.class_name : t.id() == id.str();
      if (!match) continue;
      found = true;
      if (seen.insert(t.id()).second) out.tests.push_back(t.id());
    }
    if (!found) out.missing.push_back({id.str(), "the test runner on " + lease->serial() + " does not know it"});
  }
  return out;
}

util::Result<std::unique_ptr<AdbExecutor>> make_adb_executor(AdbBackendConfig config,
                                                            std::shared_ptr<DeviceRegistry> registry) {
  if (config.servers.empty()) config.servers.push_back({});
  if (auto r = check_runner(config.runner); !r) return std::unexpected(r.error());
  for (const auto& [k, v] : config.instrumentation_args)
    if (auto r = check_arg(k, v); !r) return std::unexpected(r.error());
  std::string app_bytes, test_bytes;
  util::Error err{};
  if (!config.skip_install || config.test_package.empty()) {
    if (config.test_apk.empty()) return fail(Errc::invalid_argument, "backend adb needs test_apk");
    test_bytes = read_file(config.test_apk, &err);
    if (!err.message.empty()) return std::unexpected(err);
    auto pkg = apk_package(test_bytes);
    if (!pkg) return fail(pkg.error().code, config.test_apk + ": " + pkg.error().message);
    if (config.test_package.empty()) config.test_package = *pkg;
  }
  if (!config.app_apk.empty()) {
    app_bytes = read_file(config.app_apk, &err);
    if (!err.message.empty()) return std::unexpected(err);
    auto pkg = apk_package(app_bytes);
    if (!pkg) return fail(pkg.error().code, config.app_apk + ": " + pkg.error().message);
    if (config.app_package.empty()) config.app_package = *pkg;
  }
  if (auto r = check_package(config.test_package); !r) return std::unexpected(r.error());
  if (!config.app_package.empty())
    if (auto r = check_package(config.app_package); !r) return std::unexpected(r.error());
  if (config.clear_state && config.app_package.empty())
    return fail(Errc::invalid_argument, "clear_state needs the app package (app_apk or app_package)");
  if (!registry) {
    registry = std::make_shared<DeviceRegistry>(config.servers);
    registry->start();
    registry->wait_until_tracked(Ms(5000));
  }
  auto exec = std::make_unique<AdbExecutor>(std::move(config), std::move(registry));
  exec->app_bytes_ = std::move(app_bytes);
  exec->test_bytes_ = std::move(test_bytes);
  return exec;
}

}  // namespace flakescan::backend::adb
