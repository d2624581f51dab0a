#include "backend/adb/device_registry.hpp"

#include <algorithm>

#include "util/log.hpp"

namespace flakescan::backend::adb {

using util::Errc;
using util::fail;

namespace {
std::string key_of(const wire::ServerAddress& server, const std::string& serial) { return server.str() + "/" + serial; }
}

Lease::Lease(DeviceRegistry* owner, std::string key, std::string serial, wire::Client client, std::uint64_t generation)
    : owner_(owner), key_(std::move(key)), serial_(std::move(serial)), client_(std::move(client)), generation_(generation) {}

Lease::Lease(Lease&& other) noexcept
    : owner_(std::exchange(other.owner_, nullptr)), key_(std::move(other.key_)), serial_(std::move(other.serial_)),
      client_(std::move(other.client_)), generation_(other.generation_) {}

Lease::~Lease() {
  if (owner_) owner_->release(key_);
}

bool Lease::lost() const { return owner_ ? owner_->lost(key_, generation_) : true; }

DeviceRegistry::DeviceRegistry(std::vector<wire::ServerAddress> servers)
    : servers_(std::move(servers)), tracked_(servers_.size(), false) {
  if (servers_.empty()) servers_.push_back({});
  tracked_.resize(servers_.size(), false);
}

DeviceRegistry::~DeviceRegistry() { stop(); }

void DeviceRegistry::start() {
  std::lock_guard lock(mutex_);
  if (!threads_.empty()) return;
  stop_ = false;
  for (std::size_t i = 0; i < servers_.size(); ++i) threads_.emplace_back([this, i] { track(i); });
}

void DeviceRegistry::stop() {
  stop_ = true;
  changed_.notify_all();
  std::vector<std::thread> threads;
  {
    std::lock_guard lock(mutex_);
    threads.swap(threads_);
  }
  for (auto& t : threads) t.join();
}

bool DeviceRegistry::wait_until_tracked(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] {
    return std::all_of(tracked_.begin(), tracked_.end(), [](bool b) { return b; });
  });
}

void DeviceRegistry::track(std::size_t server) {
  auto log = util::logger("adb");
  wire::Client client(servers_[server]);
  auto backoff = std::chrono::milliseconds(100);
  while (!stop_) {
    auto conn = client.track_devices(wire::after(std::chrono::seconds(5)));
    if (!conn) {
      log->debug("track-devices on {}: {}", servers_[server].str(), util::describe(conn.error()));
      server_lost(server, conn.error().message);
    } else {
      backoff = std::chrono::milliseconds(100);
      while (!stop_) {
        auto payload = conn->read_frame(wire::Clock::time_point::max(), &stop_);
        if (!payload) {
          if (payload.error().code != Errc::cancelled) {
            log->info("adb server {} tracking ended: {}", servers_[server].str(), util::describe(payload.error()));
            server_lost(server, "adb server connection lost: " + payload.error().message);
          }
          break;
        }
        auto list = wire::parse_device_list(*payload);
        if (!list) {
          log->warn("adb server {} sent a malformed device list: {}", servers_[server].str(), list.error().message);
          continue;  // one bad update never ends tracking
        }
        // track-devices sends the short format: ask host:devices-l once for model/product.
        if (auto detailed = client.devices(wire::after(std::chrono::milliseconds(2000)))) {
          for (auto& d : *list)
            for (const auto& l : *detailed)
              if (l.serial == d.serial) d.model = l.model, d.product = l.product, d.transport_id = l.transport_id;
        }
        update(server, *list);
      }
    }
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, backoff, [&] { return stop_.load(); });
    backoff = std::min(backoff * 2, std::chrono::milliseconds(2000));
  }
}

void DeviceRegistry::update(std::size_t server, const std::vector<wire::DeviceEntry>& devices) {
  {
    std::lock_guard lock(mutex_);
    std::set<std::string> seen;
    for (const auto& d : devices) {
      std::string key = key_of(servers_[server], d.serial);
      seen.insert(key);
      auto [it, inserted] = entries_.try_emplace(key);
      Entry& e = it->second;
      bool was_ready = !inserted && e.present && e.device.state == wire::DeviceState::device;
      e.server = server;
      // track-devices sends the short format: keep model/product learned earlier.
      std::string model = e.device.model, product = e.device.product;
      e.device = d;
      if (e.device.model.empty()) e.device.model = model;
      if (e.device.product.empty()) e.device.product = product;
      e.present = true;
      e.state = d.state_text.empty() ? std::string(wire::device_state_name(d.state)) : d.state_text;
      if (d.state == wire::DeviceState::device && !was_ready) e.generation = next_generation_++;
    }
    for (auto& [key, e] : entries_) {
      if (e.server != server || seen.count(key)) continue;
      if (e.present) e.state = "gone";
      e.present = false;
    }
    if (server < tracked_.size()) tracked_[server] = true;
  }
  changed_.notify_all();
}

void DeviceRegistry::server_lost(std::size_t server, const std::string& reason) {
  {
    std::lock_guard lock(mutex_);
    for (auto& [key, e] : entries_) {
      if (e.server != server || !e.present) continue;
      e.present = false;
      e.state = "offline (" + reason + ")";
    }
    if (server < tracked_.size()) tracked_[server] = true;
  }
  changed_.notify_all();
}

std::vector<DeviceInfo> DeviceRegistry::snapshot() const {
  std::lock_guard lock(mutex_);
  std::vector<DeviceInfo> out;
  for (const auto& [key, e] : entries_)
    out.push_back({servers_[e.server].str(), e.device.serial, e.state, e.device.model, e.device.product, e.busy, e.runs});
  return out;
}

int DeviceRegistry::ready_count() const {
  std::lock_guard lock(mutex_);
  int n = 0;
  for (const auto& [key, e] : entries_) n += e.present && e.device.state == wire::DeviceState::device;
  return n;
}

util::Result<Lease> DeviceRegistry::acquire(const std::set<std::string>& exclude, std::chrono::milliseconds wait,
                                            const std::atomic<bool>* cancel) {
  auto deadline = std::chrono::steady_clock::now() + wait;
  auto grace = std::chrono::steady_clock::now() + std::chrono::milliseconds(2000);
  std::unique_lock lock(mutex_);
  while (true) {
    if (cancel && cancel->load()) return fail(Errc::cancelled, "cancelled while waiting for a device");
    Entry* best = nullptr;
    const std::string* best_key = nullptr;
    bool any_candidate = false;
    for (auto& [key, e] : entries_) {
      if (!e.present || e.device.state != wire::DeviceState::device || exclude.count(key)) continue;
      any_candidate = true;
      if (e.busy) continue;
      if (!best || e.runs < best->runs) best = &e, best_key = &key;
    }
    if (best) {
      best->busy = true;
      best->runs++;
      return Lease(this, *best_key, best->device.serial, wire::Client(servers_[best->server]), best->generation);
    }
    auto now = std::chrono::steady_clock::now();
    bool all_tracked = std::all_of(tracked_.begin(), tracked_.end(), [](bool b) { return b; });
    // Nothing to wait for (no usable device at all): give plugging-in a short grace only.
    if (!any_candidate && all_tracked && now >= std::min(deadline, grace))
      return fail(Errc::not_found, "no usable device (state `device`) on " + std::to_string(servers_.size()) + " adb server(s)");
    if (now >= deadline) {
      if (!any_candidate) return fail(Errc::not_found, "no usable device appeared in time");
      return fail(Errc::timeout, "every usable device stayed busy");
    }
    changed_.wait_until(lock, std::min(deadline, now + std::chrono::milliseconds(100)));
  }
}

void DeviceRegistry::release(const std::string& key) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = entries_.find(key); it != entries_.end()) it->second.busy = false;
  }
  changed_.notify_all();
}

bool DeviceRegistry::lost(const std::string& key, std::uint64_t generation) const {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(key);
  if (it == entries_.end()) return true;
  const Entry& e = it->second;
  return !e.present || e.device.state != wire::DeviceState::device || e.generation != generation;
}

}  // namespace flakescan::backend::adb
