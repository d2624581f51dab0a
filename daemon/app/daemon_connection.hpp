#pragma once
// The CLI's way to a daemon: the one named by --daemon (or FLAKESCAN_DAEMON), else the one at
// the default address, else a flakescand started here (embedded default). A daemon started
// here is shared: other CLIs (another build, a parallel Gradle task) find it at the default
// address and use it too, so no CLI stops it; it stops by itself once nobody has used it for
// `daemon_idle_seconds` (flakescand --exit-when-idle), or never with --keep-daemon.
#include <memory>
#include <optional>
#include <string>

#include "app/http_client.hpp"
#include "util/process.hpp"

namespace flakescan::app {

inline constexpr const char* default_daemon_url = "http://127.0.0.1:7711";
inline constexpr int daemon_idle_seconds = 10;

class DaemonConnection {
 public:
  // `explicit_url` empty: use FLAKESCAN_DAEMON or the default, starting a daemon if needed.
  static util::Result<std::unique_ptr<DaemonConnection>> open(const std::string& explicit_url, bool keep_daemon,
                                                              bool quiet);
  ~DaemonConnection();

  HttpClient& client() { return client_; }
  bool started_here() const { return child_.has_value(); }

 private:
  explicit DaemonConnection(HttpClient client) : client_(std::move(client)) {}
  HttpClient client_;
  std::optional<util::Child> child_;
};

}  // namespace flakescan::app
