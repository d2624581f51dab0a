#pragma once
// The devices every configured adb server sees, tracked live, and who is using them.
//
// Policy: one tracker thread per adb server keeps a `host:track-devices` connection open
// and replaces that server's device list on every update (reconnecting with a backoff when
// the server goes away; its devices are then shown offline with the reason). A device is
// identified by (server, serial); each time it (re)appears in state `device` it gets a new
// generation number, so a run holding a lease can tell that its device vanished or was
// re-plugged meanwhile. Runs take a Lease: at most one lease per device at a time. All
// state sits behind one mutex; a condition variable wakes runs waiting for a free device.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "adb_protocol/server_client.hpp"
#include "adb_protocol/host_protocol.hpp"
#include "util/error.hpp"

namespace flakescan::backend::adb {

namespace wire = flakescan::adb_protocol;

// What GET /v1/devices and `flakescan devices` show: plain data.
struct DeviceInfo {
  std::string server;       // "127.0.0.1:5037"
  std::string serial;
  std::string state;        // device, offline, unauthorized, ..., or "gone" once it vanished
  std::string model, product;
  bool busy = false;        // a run holds it
  int runs = 0;             // runs started on it by this daemon
};

class DeviceRegistry;

// Exclusive use of one device for one run. Releases on destruction.
class Lease {
 public:
  Lease(Lease&&) noexcept;
  Lease& operator=(Lease&&) = delete;
  ~Lease();
  const std::string& serial() const { return serial_; }
  const std::string& key() const { return key_; }
  const wire::Client& client() const { return client_; }
  // True once the device left state `device` or reappeared as a new generation.
  bool lost() const;
  std::uint64_t generation() const { return generation_; }

 private:
  friend class DeviceRegistry;
  Lease(DeviceRegistry* owner, std::string key, std::string serial, wire::Client client, std::uint64_t generation);
  DeviceRegistry* owner_;
  std::string key_, serial_;
  wire::Client client_;
  std::uint64_t generation_;
};

class DeviceRegistry {
 public:
  explicit DeviceRegistry(std::vector<wire::ServerAddress> servers);
  ~DeviceRegistry();
  DeviceRegistry(const DeviceRegistry&) = delete;
  DeviceRegistry& operator=(const DeviceRegistry&) = delete;

  // Starts the tracker threads (idempotent). Until the first update arrives the registry
  // is empty; wait_until_tracked() waits for it.
  void start();
  void stop();
  bool wait_until_tracked(std::chrono::milliseconds timeout);

  std::vector<DeviceInfo> snapshot() const;
  const std::vector<wire::ServerAddress>& servers() const { return servers_; }
  int ready_count() const;

  // Waits until a device in state `device` that nobody holds and that is not in `exclude`
  // (keys) is free, then leases it. Busy candidates are waited for up to `wait` (timeout);
  // when no usable device exists at all, a device plugged in within 2 s is still taken,
  // else not_found. cancelled on cancel.
  util::Result<Lease> acquire(const std::set<std::string>& exclude, std::chrono::milliseconds wait,
                              const std::atomic<bool>* cancel = nullptr);

  // Replaces one server's device list (what the tracker does on each update; public for tests).
  void update(std::size_t server, const std::vector<wire::DeviceEntry>& devices);
  void server_lost(std::size_t server, const std::string& reason);

 private:
  friend class Lease;
  struct Entry {
    std::size_t server = 0;
    wire::DeviceEntry device;
    std::string state;          // shown state
    bool present = true;
    bool busy = false;
    int runs = 0;
    std::uint64_t generation = 0;
  };
  void track(std::size_t server);
  void release(const std::string& key);
  bool lost(const std::string& key, std::uint64_t generation) const;

  std::vector<wire::ServerAddress> servers_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, Entry> entries_;  // key "server/serial"
  std::vector<bool> tracked_;              // got a first update from server i
  std::uint64_t next_generation_ = 1;
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
};

}  // namespace flakescan::backend::adb
