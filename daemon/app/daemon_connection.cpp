#include "app/daemon_connection.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>
#include <unistd.h>

#include "app/paths.hpp"

namespace flakescan::app {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

std::string token_from_env() {
  const char* t = std::getenv("FLAKESCAN_TOKEN");
  return t ? t : "";
}

enum class Probe { answers, refuses_token, silent };

Probe probe(HttpClient& client) {
  auto r = client.request("GET", "/v1/health", {}, 3s);
  if (!r) return Probe::silent;
  if (r->status == 200) return Probe::answers;
  if (r->status == 401 || r->status == 403) return Probe::refuses_token;
  return Probe::silent;
}

bool answers(HttpClient& client) { return probe(client) == Probe::answers; }

// A daemon that wants a token this command did not give, or another one: said as such, since
// "no daemon answers" would send the user looking for a daemon that is running.
util::Error token_error(const Url& url) {
  bool given = !token_from_env().empty();
  return util::Error{util::Errc::invalid_argument,
                     "the flakescan daemon at " + url.str() +
                         (given ? " refused the token in FLAKESCAN_TOKEN: it is not the daemon's --token"
                                : " needs a token: set FLAKESCAN_TOKEN to the daemon's --token")};
}

}  // namespace

util::Result<std::unique_ptr<DaemonConnection>> DaemonConnection::open(const std::string& explicit_url, bool keep_daemon,
                                                                       bool quiet) {
  std::string url_text = explicit_url;
  if (url_text.empty())
    if (const char* env = std::getenv("FLAKESCAN_DAEMON"); env && *env) url_text = env;
  bool named = !url_text.empty();
  auto url = Url::parse(named ? url_text : default_daemon_url);
  if (!url) return std::unexpected(url.error());
  HttpClient client(*url, token_from_env());
  auto first = probe(client);
  if (first == Probe::answers) return std::unique_ptr<DaemonConnection>(new DaemonConnection(client));
  if (first == Probe::refuses_token) return std::unexpected(token_error(*url));
  if (named) return util::fail(util::Errc::disconnected, "no flakescan daemon answers at " + url->str());

  auto daemon = find_sibling("flakescand");
  if (!daemon) return util::fail(util::Errc::not_found, "no daemon answers at " + url->str() + " and flakescand was not found beside flakescan");
  fs::path dir = fs::temp_directory_path() / ("flakescan-cli-" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::path port_file = dir / "port";
  fs::path log_file = dir / "flakescand.log";
  // The default port if it is free, so that later commands find this daemon; any port if not.
  std::string listen = "127.0.0.1:" + url->port;
  std::vector<std::string> lifetime;
  if (!keep_daemon) lifetime = {"--exit-when-idle", std::to_string(daemon_idle_seconds)};
  for (int attempt = 0; attempt < 2; ++attempt) {
    fs::remove(port_file);
    std::vector<std::string> argv{daemon->string(), "--listen", listen, "--port-file", port_file.string()};
    argv.insert(argv.end(), lifetime.begin(), lifetime.end());
    // Not tied to this process: other CLIs may be using it when this one ends.
    auto child = util::Child::spawn({.argv = argv, .stdout_path = log_file.string(), .die_with_parent = false});
    if (!child) return std::unexpected(child.error());
    auto until = std::chrono::steady_clock::now() + 20s;
    while (std::chrono::steady_clock::now() < until && !fs::exists(port_file)) {
      std::this_thread::sleep_for(20ms);
      if (child->has_exited()) break;
    }
    std::string port;
    if (fs::exists(port_file)) std::ifstream(port_file) >> port;
    if (!port.empty()) {
      Url started = *url;
      started.host = "127.0.0.1";
      started.port = port;
      std::unique_ptr<DaemonConnection> conn(new DaemonConnection(HttpClient(started, token_from_env())));
      conn->child_ = std::move(*child);
      if (!quiet) {
        std::fprintf(stderr, "flakescan: started flakescand on %s (log %s)\n", started.str().c_str(), log_file.c_str());
        if (keep_daemon) std::fprintf(stderr, "flakescan: it keeps running after this command (--keep-daemon)\n");
        else std::fprintf(stderr, "flakescan: it stops by itself after %d s without clients\n", daemon_idle_seconds);
      }
      return conn;
    }
    // The default port is taken: by a daemon another CLI started a moment ago (use it), or by
    // something else (start one on any port).
    if (!child->has_exited()) (void)child->wait(std::chrono::steady_clock::now() + 5s);
    if (answers(client)) return std::unique_ptr<DaemonConnection>(new DaemonConnection(client));
    listen = "127.0.0.1:0";
  }
  std::ifstream log(log_file);
  std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  return util::fail(util::Errc::process, "flakescand did not start; its output:\n" + text);
}

// The daemon outlives this command: it stops by itself when idle (or never, with --keep-daemon).
DaemonConnection::~DaemonConnection() {
  if (child_) child_->release();
}

}  // namespace flakescan::app
