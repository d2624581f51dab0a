#pragma once
// A scripted fake adb server for tests: listens on 127.0.0.1 port 0 and speaks the host
// protocol (host:version, host:devices[-l], host:track-devices, host:transport:SERIAL) and
// the device services flakescan uses (shell,v2,raw:, shell:, exec:, sync: STAT/SEND/QUIT,
// track-jdwp, jdwp:PID). Device behaviour is scripted: a handler answers shell commands
// (with recorded real outputs, streamed in chunks), and the test can unplug a device,
// change its state, make replies hang or come back malformed.
//
// Policy: one thread per client connection (tests open a handful); all state behind one
// mutex; unplug() and stop() shut down the sockets of the affected connections so blocked
// peers see the connection end, as they would with a real adb server when a USB cable is
// pulled. jdwp:PID is proxied byte for byte to a local TCP port (a real JVM's JDWP agent).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace flakescan::test {

struct FakeReply {
  std::string out;
  std::string err;
  int exit_code = 0;
  std::size_t chunk = 4096;                       // stream `out` in chunks of this size
  std::chrono::milliseconds chunk_delay{0};        // pause between chunks
  bool hang = false;                              // after `out`, never finish
  std::optional<std::size_t> unplug_after;        // unplug the device after this many bytes
  std::function<void()> before;                   // runs before the first byte (e.g. a barrier)
  std::function<std::string()> produce;          // when set, runs after `before`; its result replaces `out`
};

struct FakeDevice {
  std::string serial;
  std::string state = "device";  // device, offline, unauthorized
  std::string model = "sdk_gphone64_x86_64";
  bool shell_v2 = true;          // false: an old device, v2 requests FAIL
  std::map<int, std::uint16_t> jdwp;  // pid -> local port to proxy to
};

// Returns a reply, or nullopt to let the built-in behaviour answer (pm install, rm, pm clear,
// am force-stop, pidof: answered like a device; anything else: empty output, exit 0).
using ShellHandler = std::function<std::optional<FakeReply>(const std::string& serial, const std::string& command)>;

class FakeAdbServer {
 public:
  FakeAdbServer();
  ~FakeAdbServer();
  FakeAdbServer(const FakeAdbServer&) = delete;
  FakeAdbServer& operator=(const FakeAdbServer&) = delete;

  std::uint16_t port() const { return port_; }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

  void add_device(FakeDevice device);
  void set_state(const std::string& serial, const std::string& state);
  void unplug(const std::string& serial);
  void on_shell(ShellHandler handler);
  // Makes `pid` a debuggable process of the device whose jdwp:PID is proxied to port.
  void add_jdwp(const std::string& serial, int pid, std::uint16_t port);
  void remove_jdwp(const std::string& serial, int pid);  // the process ended
  // Every host-service reply becomes bytes that are neither OKAY nor FAIL.
  void set_malformed(bool malformed);
  // Installing fails with this pm output (e.g. "Failure [INSTALL_FAILED_OLDER_SDK]").
  void set_install_failure(const std::string& serial, const std::string& pm_output);

  std::vector<std::string> commands(const std::string& serial) const;   // shell commands received
  std::vector<std::string> services() const;                            // every service request
  std::map<std::string, std::string> files(const std::string& serial) const;
  std::set<std::string> installed(const std::string& serial) const;     // packages
  int max_parallel_instrumentations() const;   // across devices, at the same time
  int max_instrumentations_per_device() const; // on one device at the same time

  void stop();

 private:
  struct Conn;
  void accept_loop();
  void serve(std::shared_ptr<Conn> conn);
  bool host_service(Conn& c, const std::string& request);
  void device_service(Conn& c, const std::string& serial, const std::string& request);
  void run_shell(Conn& c, const std::string& serial, const std::string& command, int mode);
  void run_sync(Conn& c, const std::string& serial);
  void proxy(Conn& c, std::uint16_t port);
  FakeReply builtin(const std::string& serial, const std::string& command);
  std::string device_list(bool long_format) const;  // needs mutex_ held
  bool present(const std::string& serial) const;

  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::uint16_t port_ = 0;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::uint64_t version_ = 0;  // bumps on every device-list change
  std::vector<FakeDevice> devices_;
  ShellHandler handler_;
  bool malformed_ = false;
  std::map<std::string, std::string> install_failure_;
  std::map<std::string, std::vector<std::string>> commands_;
  std::vector<std::string> services_;
  std::map<std::string, std::map<std::string, std::string>> files_;
  std::map<std::string, std::set<std::string>> installed_;
  std::map<std::string, int> running_;
  int running_total_ = 0, max_total_ = 0, max_per_device_ = 0;
  std::atomic<bool> stopping_{false};
  std::vector<std::thread> threads_;
  std::vector<std::weak_ptr<Conn>> conns_;
};

}  // namespace flakescan::test
