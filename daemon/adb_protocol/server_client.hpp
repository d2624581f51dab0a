#pragma once
// One-method-per-service client of an adb server (host protocol + the device services
// flakescan uses). Every method opens its own connection (the adb server serves one
// service per connection), takes a deadline, and closes the connection when done, except
// the streaming ones, which hand the open Connection to the caller. Thread-safe: holds no
// mutable state.
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "adb_protocol/connection.hpp"
#include "adb_protocol/host_protocol.hpp"
#include "adb_protocol/sync_protocol.hpp"
#include "util/error.hpp"

namespace flakescan::adb_protocol {

struct ShellResult {
  std::string out;
  std::string err;                 // shell v2 only; v1 mixes both streams into `out`
  std::optional<int> exit_code;    // shell v2 only
  bool v2 = false;
  std::optional<util::Error> cut;  // the stream ended early: timeout, cancelled, disconnected
};

// Called with each chunk of stdout as it arrives (e.g. to follow `am instrument -r`).
using OutputSink = std::function<void(std::string_view)>;

class Client {
 public:
  explicit Client(ServerAddress server = {}) : server_(std::move(server)) {}
  const ServerAddress& server() const { return server_; }

  util::Result<int> version(Deadline deadline) const;                           // host:version
  util::Result<std::vector<DeviceEntry>> devices(Deadline deadline) const;      // host:devices-l
  // host:track-devices: returns the connection after OKAY; read updates with read_frame().
  util::Result<Connection> track_devices(Deadline deadline) const;

  // A connection switched to one device (host:transport:SERIAL), ready for a service.
  util::Result<Connection> transport(std::string_view serial, Deadline deadline,
                                     const CancelFlag* cancel = nullptr) const;

  // Runs `command` with shell v2 ("shell,v2,raw:"); when the device refuses v2 it falls back
  // to "shell:" (no exit code, streams mixed). An error only when the command could not be
  // started; a stream cut short is a ShellResult with `cut` set.
  util::Result<ShellResult> shell(std::string_view serial, std::string_view command, Deadline deadline,
                                  const CancelFlag* cancel = nullptr, const OutputSink& sink = {}) const;
  util::Result<ShellResult> shell_v1(std::string_view serial, std::string_view command, Deadline deadline,
                                     const CancelFlag* cancel = nullptr, const OutputSink& sink = {}) const;
  // "exec:": raw bytes both ways, no exit code; `input` is written first, then output read to EOF.
  util::Result<std::string> exec(std::string_view serial, std::string_view command, std::string_view input,
                                 Deadline deadline, const CancelFlag* cancel = nullptr) const;

  util::Result<SyncStat> stat(std::string_view serial, std::string_view remote_path, Deadline deadline) const;
  // Sync push of `data` to `remote_path` with unix `mode` (e.g. 0644).
  util::Result<void> push(std::string_view serial, std::string_view data, std::string_view remote_path,
                          std::uint32_t mode, Deadline deadline, const CancelFlag* cancel = nullptr) const;

  // The pids of debuggable processes now (first update of "track-jdwp").
  util::Result<std::vector<int>> jdwp_pids(std::string_view serial, Deadline deadline) const;
  // "track-jdwp": returns the connection after OKAY; read pid lists with read_frame().
  util::Result<Connection> track_jdwp(std::string_view serial, Deadline deadline) const;
  // "jdwp:PID": a connection that carries the JDWP stream of that process from here on.
  util::Result<Connection> jdwp(std::string_view serial, int pid, Deadline deadline) const;

 private:
  util::Result<Connection> connect(Deadline deadline, const CancelFlag* cancel = nullptr) const;
  ServerAddress server_;
};

}  // namespace flakescan::adb_protocol
