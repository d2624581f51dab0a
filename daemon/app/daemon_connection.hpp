#pragma once
// The CLI's way to a daemon: the one named by --daemon (or FLAKESCAN_DAEMON), else the one at
// the default address, else a flakescand started here (embedded default) that is stopped
// with SIGTERM when the command ends, unless asked to keep it.
#include <memory>
#include <optional>
#include <string>

#include "app/http_client.hpp"
#include "util/process.hpp"

namespace flakescan::app {

inline constexpr const char* default_daemon_url = "http://127.0.0.1:7711";

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
  bool keep_ = false;
};

}  // namespace flakescan::app
