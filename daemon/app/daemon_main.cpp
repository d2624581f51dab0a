// flakescand: the daemon. Serves the /v1 API on loopback, runs scans against real JVMs
// (and devices), and keeps every run in its SQLite store.
#include <csignal>
#include <cstdio>
#include <fstream>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include "api/exploration_routes.hpp"
#include "api/history_routes.hpp"
#include "api/router.hpp"
#include "api/server.hpp"
#include "app/paths.hpp"
#include "backend/adb/config_json.hpp"
#include "backend/local_jvm/local_jvm_executor.hpp"
#include "ui_exploration/exploration_manager.hpp"
#include "scan/scan_manager.hpp"
#include "store/store.hpp"
#include "tarpit/api.hpp"
#include "util/log.hpp"

namespace fs = std::filesystem;
using namespace flakescan;

namespace {

struct Options {
  std::string listen = "127.0.0.1:7711";
  fs::path data_dir = app::default_data_dir();
  fs::path db;
  fs::path port_file;
  fs::path runner_jar;
  fs::path java_lib = "/usr/share/java";
  std::string java = "java";
  std::string token;
  int max_concurrent_scans = 1;
  bool class_data_sharing = true;        // runner JVMs start from a CDS archive (data_dir/cds)
  std::vector<std::string> adb_servers;  // GET /v1/devices and explorations; default 127.0.0.1:5037
};

const char* usage_text =
    "usage: flakescand [--listen HOST:PORT] [--data-dir DIR] [--db FILE] [--port-file FILE]\n"
    "                  [--runner-jar JAR] [--java-lib DIR] [--java PATH] [--token TOKEN]\n"
    "                  [--max-concurrent-scans N] [--adb-server HOST:PORT]... [--class-data-sharing on|off]\n\n"
    "  --listen      address to serve the API on (default 127.0.0.1:7711; port 0 picks a free port)\n"
    "  --data-dir    store and scan files (default $FLAKESCAN_HOME or ~/.local/share/flakescan)\n"
    "  --port-file   write the bound port to this file once listening\n"
    "  --adb-server  adb server whose devices GET /v1/devices lists and explorations use by default\n"
    "                (repeatable; default 127.0.0.1:5037)\n"
    "  --class-data-sharing  runner JVMs start from a class data archive of the JUnit Platform\n"
    "                kept under DATA_DIR/cds (default on; off: plain JVM starts)\n"
    "  --token       bearer token required on every request (required off loopback;\n"
    "                also read from FLAKESCAN_TOKEN)\n"
    "Logging: FLAKESCAN_LOG=info (or debug, or info,api=debug).\n";

int parse(int argc, char** argv, Options& o) {
  if (const char* t = std::getenv("FLAKESCAN_TOKEN")) o.token = t;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    if (a == "--help" || a == "-h") {
      std::fputs(usage_text, stdout);
      return 0;
    }
    const char* v = value();
    if (!v) {
      std::fprintf(stderr, "flakescand: %s needs a value\n\n%s", a.c_str(), usage_text);
      return 2;
    }
    if (a == "--listen") o.listen = v;
    else if (a == "--data-dir") o.data_dir = v;
    else if (a == "--db") o.db = v;
    else if (a == "--port-file") o.port_file = v;
    else if (a == "--runner-jar") o.runner_jar = v;
    else if (a == "--java-lib") o.java_lib = v;
    else if (a == "--java") o.java = v;
    else if (a == "--token") o.token = v;
    else if (a == "--max-concurrent-scans") o.max_concurrent_scans = std::atoi(v);
    else if (a == "--adb-server") o.adb_servers.push_back(v);
    else if (a == "--class-data-sharing" && (std::string(v) == "on" || std::string(v) == "off"))
      o.class_data_sharing = std::string(v) == "on";
    else {
      std::fprintf(stderr, "flakescand: unknown option %s\n\n%s", a.c_str(), usage_text);
      return 2;
    }
  }
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  util::configure_logging_from_env();
  Options options;
  if (int rc = parse(argc, argv, options); rc >= 0) return rc;
  auto log = util::logger("daemon");

  size_t colon = options.listen.rfind(':');
  if (colon == std::string::npos) {
    std::fprintf(stderr, "flakescand: --listen wants HOST:PORT, got '%s'\n", options.listen.c_str());
    return 2;
  }
  api::ServerConfig server_config;
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
  if (options.db.empty()) options.db = options.data_dir / "flakescan.db";

  auto store = store::Store::open(options.db);
  if (!store) {
    std::fprintf(stderr, "flakescand: %s\n", util::describe(store.error()).c_str());
    return 1;
  }
  if (auto n = (*store)->interrupt_unfinished(); n && *n > 0)
    log->warn("{} scans were unfinished when the daemon last stopped; marked interrupted", *n);

  scan::ScanManagerConfig scan_config;
  scan_config.data_dir = options.data_dir;
  scan_config.max_concurrent_scans = options.max_concurrent_scans;
  scan_config.backends["local"] = [options](const scan::ScanRequest& request, const fs::path& work_dir)
      -> util::Result<std::unique_ptr<core::TestExecutor>> {
    backend::LocalJvmConfig c;
    c.java = options.java;
    c.runner_jar = options.runner_jar;
    c.platform_jars = backend::default_platform_jars(options.java_lib);
    c.classpath = request.classpath;
    c.jvm_args = request.jvm_args;
    c.work_dir = work_dir;
    c.parallelism = request.parallelism > 0 ? request.parallelism : int(std::max(1u, std::thread::hardware_concurrency()));
    if (options.class_data_sharing) c.cds_dir = options.data_dir / "cds";
    return std::make_unique<backend::LocalJvmExecutor>(std::move(c));
  };
  scan_config.backends["adb"] = [](const scan::ScanRequest& request, const fs::path& work_dir) {
    return backend::adb::make_adb_executor_from_json(request.adb, work_dir.string());
  };
  scan::ScanManager scans(**store, std::move(scan_config));

  std::vector<backend::adb::wire::ServerAddress> adb_servers;
  for (const auto& text : options.adb_servers.empty() ? std::vector<std::string>{"127.0.0.1:5037"} : options.adb_servers) {
    auto address = backend::adb::wire::ServerAddress::parse(text);
    if (!address) {
      std::fprintf(stderr, "flakescand: --adb-server %s: %s\n", text.c_str(), address.error().message.c_str());
      return 2;
    }
    adb_servers.push_back(*address);
  }
  std::vector<api::ExtraRoute> extra_routes;
  extra_routes.push_back({"GET", "/v1/devices", 1 << 10, [adb_servers](const api::Request&) -> util::Result<std::string> {
    // The registry tracks devices live from its first use on; the first answer may still be empty.
    return backend::adb::devices_json(backend::adb::shared_registry(adb_servers)->snapshot()).dump();
  }});
  extra_routes.push_back({"POST", "/v1/ui-traces", size_t(256) << 20, [](const api::Request& request) -> util::Result<std::string> {
    std::string mode;
    if (auto q = request.target.find("mode="); q != std::string::npos) mode = request.target.substr(q + 5, request.target.find('&', q) - q - 5);
    auto options = tarpit::options_for_mode_name(mode);
    if (!options) return std::unexpected(options.error());
    return tarpit::analyze_trace_archive(request.body, *options);
  }});
  ui_exploration::ExplorationManager explorations({.data_dir = options.data_dir, .default_servers = adb_servers});
  for (auto& route : api::exploration_routes(explorations)) extra_routes.push_back(std::move(route));
  for (auto& route : api::history_routes(**store)) extra_routes.push_back(std::move(route));
  api::Router router(scans, std::move(extra_routes));
  boost::asio::io_context io;
  api::Server server(io, router, server_config);
  auto port = server.start();
  if (!port) {
    std::fprintf(stderr, "flakescand: %s\n", util::describe(port.error()).c_str());
    return 1;
  }
  std::printf("flakescand listening on http://%s:%u (store %s)\n", server_config.host.c_str(), unsigned(*port),
              options.db.c_str());
  std::fflush(stdout);
  if (!options.port_file.empty()) {
    fs::path tmp = options.port_file.string() + ".tmp";
    std::ofstream(tmp) << *port << "\n";
    fs::rename(tmp, options.port_file);
  }

  std::thread stopper;
  boost::asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const boost::system::error_code& ec, int signal) {
    if (ec) return;
    log->info("signal {}: stopping (no new connections, cancelling running scans and explorations)", signal);
    server.stop_accepting();
    // Cancelling joins scan threads, which wait for their JVMs to die: off the io thread.
    stopper = std::thread([&] {
      scans.shutdown();
      explorations.shutdown();
      io.stop();
    });
  });
  io.run();
  if (stopper.joinable()) stopper.join();
  server.join_workers();
  log->info("stopped");
  return 0;
}
