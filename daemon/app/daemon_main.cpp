// flakescand: the daemon. Serves the /v1 API and the dashboard (/) on loopback, runs scans
// against real JVMs (and devices), and keeps every run in its store (SQLite, or a PostgreSQL shared by many daemons).
#include <csignal>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <CLI/CLI.hpp>

#include "api/dashboard_routes.hpp"
#include "api/crawl_routes.hpp"
#include "api/history_routes.hpp"
#include "api/router.hpp"
#include "api/server.hpp"
#include "app/command_line.hpp"
#include "app/heartbeat.hpp"
#include "app/paths.hpp"
#include "backend/adb/config_json.hpp"
#include "backend/local_jvm/local_jvm_executor.hpp"
#include "backend/local_jvm/local_tools.hpp"
#include "ui_crawl/crawl_manager.hpp"
#include "scan/scan_manager.hpp"
#include "store/store.hpp"
#include "tarpit/archive_analysis.hpp"
#include "util/log.hpp"
#include "util/version.hpp"

namespace fs = std::filesystem;
using namespace flakescan;

namespace {

struct Options {
  std::string listen = "127.0.0.1:7711";
  fs::path data_dir = app::default_data_dir();
  std::string store;                     // an SQLite file or a postgresql:// URI
  std::string daemon_id;                 // default HOST:DATA_DIR
  fs::path port_file;
  fs::path runner_jar;
  fs::path java_lib = "/usr/share/java";
  std::string java = "java";
  std::string token;
  int max_concurrent_scans = 1;
  api::ServerConfig server;               // the limits that protect the daemon from its clients
  bool class_data_sharing = true;        // runner JVMs start from a CDS archive (data_dir/cds)
  bool prestart = true;                  // plain runs take a runner JVM started ahead (SpareJvms)
  int spares = 0;                        // how many wait at most; 0: the executor's default
  std::vector<std::string> adb_servers;  // GET /v1/devices and explorations; default 127.0.0.1:5037
  int exit_when_idle = 0;                // seconds; 0: run until a signal
};

// --exit-when-idle: calls `stop` once `idle()` has held for `seconds` in a row (checked twice a
// second). The CLI starts its daemon so: any number of CLIs share it, none stops it under another.
class IdleWatch {
 public:
  IdleWatch(boost::asio::io_context& io, int seconds, std::function<bool()> idle, std::function<void()> stop)
      : timer_(io), limit_(std::chrono::seconds(seconds)), idle_(std::move(idle)), stop_(std::move(stop)) {}
  void start() {
    since_ = std::chrono::steady_clock::now();
    arm();
  }

 private:
  void arm() {
    timer_.expires_after(std::chrono::milliseconds(500));
    timer_.async_wait([this](const boost::system::error_code& ec) {
      if (ec) return;
      auto now = std::chrono::steady_clock::now();
      if (!idle_()) since_ = now;
      if (now - since_ >= limit_) return stop_();
      arm();
    });
  }
  boost::asio::steady_timer timer_;
  std::chrono::steady_clock::duration limit_;
  std::chrono::steady_clock::time_point since_;
  std::function<bool()> idle_;
  std::function<void()> stop_;
};

// The same parser as `flakescan` (app/command_line.hpp): help, wording and exit codes.
std::optional<int> parse(int argc, char** argv, Options& o) {
  CLI::App app("flakescand: the flakescan daemon. Serves the /v1 API, runs scans against real JVMs and devices,\n"
               "and keeps every run in its store (SQLite, or a PostgreSQL shared by many daemons). Logging: FLAKESCAN_LOG=info (or debug, or info,api=debug).",
               "flakescand");
  app.add_option("--listen", o.listen, "address to serve the API on (default 127.0.0.1:7711; port 0 picks a free port)")
      ->type_name("HOST:PORT");
  app.add_option("--data-dir", o.data_dir, "store and scan files (default $FLAKESCAN_HOME or ~/.local/share/flakescan)")
      ->type_name("DIR");
  app.add_option("--store,--db", o.store,
                 "the store: an SQLite file, or postgresql://USER@HOST:PORT/DB for one history shared by many daemons "
                 "(default $FLAKESCAN_STORE, else DATA_DIR/flakescan.db)")
      ->type_name("FILE|URI");
  app.add_option("--daemon-id", o.daemon_id,
                 "this daemon's name in a shared store; its unfinished scans are its own to mark interrupted when it "
                 "starts again (default HOST:DATA_DIR)")
      ->type_name("NAME");
  app.add_option("--port-file", o.port_file, "write the bound port to this file once listening")->type_name("FILE");
  app.add_option("--runner-jar", o.runner_jar, "the test runner jar (default $FLAKESCAN_RUNNER_JAR, else found beside flakescand)")
      ->type_name("JAR");
  app.add_option("--java-lib", o.java_lib, "where the JUnit jars are (default /usr/share/java)")->type_name("DIR");
  app.add_option("--java", o.java, "the java executable for runner JVMs (default java)")->type_name("PATH");
  app.add_option("--token", o.token,
                 "token required on every request (required off loopback): Authorization: Bearer TOKEN, or a browser's "
                 "Basic password")
      ->envname("FLAKESCAN_TOKEN")
      ->type_name("TOKEN");
  app.add_option("--max-concurrent-scans", o.max_concurrent_scans, "scans that run at the same time (default 1)")->type_name("N");
  app.add_option("--max-connections", o.server.max_connections,
                 "open connections; past it a new one is answered 503 and closed (default " +
                     std::to_string(o.server.max_connections) + ")")
      ->type_name("N")
      ->check(CLI::PositiveNumber);
  app.add_option("--max-event-streams-per-scan", o.server.max_event_streams_per_scan,
                 "event-stream clients (GET /v1/scans/ID/events) on one scan; past it 503 (default " +
                     std::to_string(o.server.max_event_streams_per_scan) + ")")
      ->type_name("N")
      ->check(CLI::PositiveNumber);
  app.add_option("--header-timeout", o.server.header_timeout_seconds,
                 "seconds a client has to send a whole request header, idle keep-alive time included; then it is "
                 "closed (default " + std::to_string(o.server.header_timeout_seconds) + ")")
      ->type_name("SECONDS")
      ->check(CLI::PositiveNumber);
  app.add_option("--io-timeout", o.server.read_timeout_seconds,
                 "seconds a client has to send a request body, or to take a response or an event-stream chunk; "
                 "then it is dropped (default " + std::to_string(o.server.read_timeout_seconds) + ")")
      ->type_name("SECONDS")
      ->check(CLI::PositiveNumber);
  app.add_option("--adb-server", o.adb_servers,
                 "adb server whose devices GET /v1/devices lists and explorations use by default "
                 "(repeatable; default 127.0.0.1:5037)")
      ->type_name("HOST:PORT")
      ->allow_extra_args(false);
  std::string cds = o.class_data_sharing ? "on" : "off";
  app.add_option("--class-data-sharing", cds,
                 "on: runner JVMs start from a class data archive of the JUnit Platform kept under DATA_DIR/cds "
                 "(default); off: plain JVM starts")
      ->type_name("MODE")
      ->check(CLI::IsMember({"on", "off"}));
  std::string prestart = o.prestart ? "on" : "off";
  app.add_option("--prestart", prestart,
                 "on: a scan keeps up to 'parallelism' + 1 runner JVMs started ahead, each waiting without loading the "
                 "project until one plain run takes it (default); off: every run starts its JVM when it begins")
      ->type_name("MODE")
      ->check(CLI::IsMember({"on", "off"}));
  app.add_option("--spares", o.spares,
                 "with --prestart on: how many runner JVMs a scan keeps started ahead at most (default 0: the scan's "
                 "parallelism + 1)")
      ->type_name("N")
      ->check(CLI::Range(0, 64));
  app.add_option("--exit-when-idle", o.exit_when_idle,
                 "stop after this many seconds without a client connection, a queued or running scan, or a running "
                 "exploration (default 0: run until SIGINT or SIGTERM; the CLI starts its daemon with 10)")
      ->type_name("SECONDS")
      ->check(CLI::NonNegativeNumber);
  app.set_version_flag("--version", util::version_line("flakescand"), "print the version and the commit, and exit");
  app.footer("Exit status: 0 after SIGINT or SIGTERM, 1 when it could not start, 2 on usage errors.");
  auto done = app::parse_single(app, app::Args(argv + 1, argv + argc), std::cout, std::cerr);
  o.class_data_sharing = cds == "on";
  o.prestart = prestart == "on";
  return done;
}

// Fills in what the command line left out: the listen address split, the runner jar, an
// absolute data folder, the store and the daemon's name. An exit status when it cannot start.
std::optional<int> complete_options(Options& options, api::ServerConfig& server_config) {
  size_t colon = options.listen.rfind(':');
  if (colon == std::string::npos) {
    std::fprintf(stderr, "flakescand: --listen wants HOST:PORT, got '%s'\n", options.listen.c_str());
    return 2;
  }
  server_config = options.server;
  server_config.host = options.listen.substr(0, colon);
  server_config.port = static_cast<unsigned short>(std::atoi(options.listen.c_str() + colon + 1));
  server_config.token = options.token;

  if (options.runner_jar.empty()) {
    auto found = app::find_runner_jar();
    if (!found) {
      std::fprintf(stderr, "flakescand: cannot find flakescan-runner.jar (set --runner-jar or FLAKESCAN_RUNNER_JAR)\n");
      return 1;
    }
    options.runner_jar = *found;
  }
  // Absolute: the test JVMs run in each scan's working directory, and write their results
  // under the data folder (a relative --data-dir named a folder there, not here).
  {
    std::error_code ec;
    if (auto absolute = fs::absolute(options.data_dir, ec); !ec) options.data_dir = absolute.lexically_normal();
  }
  if (options.store.empty())
    if (const char* env = std::getenv("FLAKESCAN_STORE"); env && *env) options.store = env;
  if (options.store.empty()) options.store = (options.data_dir / "flakescan.db").string();
  if (options.daemon_id.empty()) options.daemon_id = app::default_daemon_id(options.data_dir);
  return std::nullopt;
}

// Opens the store and takes over from an earlier run: this daemon's unfinished scans, and
// those of daemons gone silent, are marked interrupted. Null (the error printed) when it cannot.
std::unique_ptr<store::Store> open_store(const Options& options) {
  auto log = util::logger("daemon");
  auto store = store::Store::open(options.store);
  if (!store) {
    std::fprintf(stderr, "flakescand: %s\n", util::describe(store.error()).c_str());
    return nullptr;
  }
  // Beat first: a daemon that starts must not look stale to itself.
  if (auto beat = (*store)->heartbeat(options.daemon_id); !beat) {
    std::fprintf(stderr, "flakescand: %s\n", util::describe(beat.error()).c_str());
    return nullptr;
  }
  if (auto n = (*store)->interrupt_unfinished(options.daemon_id); n && *n > 0)
    log->warn("{} scans were unfinished when the daemon last stopped; marked interrupted", *n);
  if (auto n = (*store)->interrupt_abandoned(app::Heartbeat::stale_seconds); n && *n > 0)
    log->warn("{} scans of daemons silent for {} s marked interrupted", *n, app::Heartbeat::stale_seconds);
  return std::move(*store);
}

// The backends a scan can run on: JVMs on this machine ("local") and devices over adb.
scan::ScanManagerConfig scan_config_for(const Options& options) {
  scan::ScanManagerConfig scan_config;
  scan_config.data_dir = options.data_dir;
  scan_config.daemon_id = options.daemon_id;
  scan_config.max_concurrent_scans = options.max_concurrent_scans;
  scan_config.backends["local"] = [options](const scan::ScanRequest& request, const fs::path& work_dir)
      -> util::Result<std::unique_ptr<core::TestExecutor>> {
    backend::LocalJvmConfig c;
    c.java = options.java;
    c.runner_jar = options.runner_jar;
    c.platform_jars = backend::default_platform_jars(options.java_lib);
    c.classpath = request.classpath;
    c.jvm_args = backend::runner_jvm_args(request.jvm_args, backend::transparent_huge_pages_offered());
    c.test_dir = request.working_dir;
    c.work_dir = work_dir;
    c.parallelism = request.parallelism > 0 ? request.parallelism : int(std::max(1u, std::thread::hardware_concurrency()));
    if (options.class_data_sharing) c.cds_dir = options.data_dir / "cds";
    c.prestart = options.prestart;
    c.spares = options.spares;
    // Techniques whose runs are mostly plain ones (a spare serves only those): their spares may
    // start before the first run asks.
    for (const auto& t : request.techniques)
      if (t == "rerun" || t == "order" || t == "nio" || t == "suite" || t == "noise") c.prime_spares = true;
    // Technique shuffle: the shuffling JDK is prepared once per JDK on this machine, in a cache
    // every daemon shares (backend/local_jvm/shuffling_jdk.hpp).
    if (auto jar = app::find_shuffling_jdk_jar()) c.shuffling_jdk_jar = *jar;
    c.asm_jars = backend::default_asm_jars(options.java_lib);
    // Technique threads: the agent that controls the test's threads; without it such runs are refused.
    if (auto jar = app::find_threads_agent_jar()) c.threads_agent_jar = *jar;
    return std::make_unique<backend::LocalJvmExecutor>(std::move(c));
  };
  scan_config.tools = std::make_shared<backend::LocalTools>();  // javac and stress-ng for the techniques
  scan_config.checks["local"] = [](const scan::ScanRequest& request) { return backend::check_classpath(request.classpath); };
  scan_config.backends["adb"] = [](const scan::ScanRequest& request, const fs::path& work_dir) {
    return backend::adb::make_adb_executor_from_json(request.adb, work_dir.string());
  };
  return scan_config;
}

// The --adb-server addresses (default 127.0.0.1:5037); nullopt (the error printed) when one is wrong.
std::optional<std::vector<backend::adb::wire::ServerAddress>> adb_servers_of(const Options& options) {
  std::vector<backend::adb::wire::ServerAddress> adb_servers;
  for (const auto& text : options.adb_servers.empty() ? std::vector<std::string>{"127.0.0.1:5037"} : options.adb_servers) {
    auto address = backend::adb::wire::ServerAddress::parse(text);
    if (!address) {
      std::fprintf(stderr, "flakescand: --adb-server %s: %s\n", text.c_str(), address.error().message.c_str());
      return std::nullopt;
    }
    adb_servers.push_back(*address);
  }
  return adb_servers;
}

// The routes the router does not hold itself: devices, UI traces, crawls, history, dashboard.
std::vector<api::ExtraRoute> extra_routes_for(const std::vector<backend::adb::wire::ServerAddress>& adb_servers,
                                              ui_crawl::CrawlManager& explorations, store::Store& store,
                                              scan::ScanManager& scans) {
  std::vector<api::ExtraRoute> extra_routes;
  extra_routes.push_back({"GET", "/v1/devices", 1 << 10, [adb_servers](const api::Request&) -> util::Result<std::string> {
    // The registry tracks devices from its first use on: wait (bounded) for every server's first
    // answer, so that a daemon just started (`flakescan devices` starts one) does not list nothing.
    auto registry = backend::adb::shared_registry(adb_servers);
    registry->wait_until_tracked(std::chrono::seconds(5));
    return backend::adb::devices_json(registry->snapshot()).dump();
  }});
  extra_routes.push_back({"POST", "/v1/ui-traces", size_t(256) << 20, [](const api::Request& request) -> util::Result<std::string> {
    std::string mode;
    if (auto q = request.target.find("mode="); q != std::string::npos) mode = request.target.substr(q + 5, request.target.find('&', q) - q - 5);
    auto options = tarpit::options_for_mode_name(mode);
    if (!options) return std::unexpected(options.error());
    return tarpit::analyze_trace_archive(request.body, *options);
  }});
  for (auto& route : api::crawl_routes(explorations)) extra_routes.push_back(std::move(route));
  for (auto& route : api::history_routes(store)) extra_routes.push_back(std::move(route));
  for (auto& route : api::dashboard_routes(scans, store)) extra_routes.push_back(std::move(route));
  return extra_routes;
}

// Serves the API until SIGINT, SIGTERM or --exit-when-idle; the exit status.
int serve(const Options& options, const api::ServerConfig& server_config, api::Router& router, store::Store& store,
          scan::ScanManager& scans, ui_crawl::CrawlManager& explorations) {
  auto log = util::logger("daemon");
  boost::asio::io_context io;
  api::Server server(io, router, server_config);
  auto port = server.start();
  if (!port) {
    std::fprintf(stderr, "flakescand: %s\n", util::describe(port.error()).c_str());
    return 1;
  }
  std::printf("flakescand listening on http://%s:%u (store %s)\n", server_config.host.c_str(), unsigned(*port),
              store.describe().c_str());
  std::fflush(stdout);
  if (!options.port_file.empty()) {
    fs::path tmp = options.port_file.string() + ".tmp";
    std::ofstream(tmp) << *port << "\n";
    fs::rename(tmp, options.port_file);
  }

  std::thread stopper;
  auto stop = [&](const std::string& why) {
    if (stopper.joinable()) return;
    log->info("{}: stopping (no new connections, cancelling running scans and explorations)", why);
    server.stop_accepting();
    // Cancelling joins scan threads, which wait for their JVMs to die: off the io thread.
    stopper = std::thread([&] {
      scans.shutdown();
      explorations.shutdown();
      io.stop();
    });
  };
  boost::asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const boost::system::error_code& ec, int signal) {
    if (!ec) stop("signal " + std::to_string(signal));
  });
  // Idle: no connection open now and no request answered since the last look (a CLI's health
  // probe comes and goes within one look; the scan it then sends must still find the daemon).
  // A bare connection that sends nothing, as a port probe, is no use of it.
  std::uint64_t answered_seen = 0;
  IdleWatch idle_watch(
      io, options.exit_when_idle,
      [&] {
        const auto answered = server.requests_answered();
        const bool none_new = answered == answered_seen;
        answered_seen = answered;
        return none_new && server.open_connections() == 0 && !scans.busy() && !explorations.busy();
      },
      [&] { stop("idle for " + std::to_string(options.exit_when_idle) + " s"); });
  if (options.exit_when_idle > 0) idle_watch.start();
  io.run();
  if (stopper.joinable()) stopper.join();
  server.join_workers();
  log->info("stopped");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  util::configure_logging_from_env();
  Options options;
  if (auto done = parse(argc, argv, options)) return *done;
  api::ServerConfig server_config;
  if (auto status = complete_options(options, server_config)) return *status;

  auto store = open_store(options);
  if (!store) return 1;
  app::Heartbeat heartbeat(*store, options.daemon_id);
  scan::ScanManager scans(*store, scan_config_for(options));
  auto adb_servers = adb_servers_of(options);
  if (!adb_servers) return 2;
  ui_crawl::CrawlManager explorations({.data_dir = options.data_dir, .default_servers = *adb_servers});
  api::Router router(scans, extra_routes_for(*adb_servers, explorations, *store, scans));
  return serve(options, server_config, router, *store, scans, explorations);
}
