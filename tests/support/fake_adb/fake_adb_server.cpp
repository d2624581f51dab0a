#include "support/fake_adb/fake_adb_server.hpp"

#include <poll.h>

#include <algorithm>
#include <cstdio>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

namespace flakescan::test {

namespace asio = boost::asio;
using asio::ip::tcp;

struct FakeAdbServer::Impl {
  asio::io_context ctx;
  tcp::acceptor acceptor{ctx};
};

struct FakeAdbServer::Conn {
  explicit Conn(tcp::socket s) : socket(std::move(s)) {}
  tcp::socket socket;
  std::string serial;  // device this connection was switched to
  std::mutex write_mutex;

  bool write(const std::string& bytes) {
    std::lock_guard lock(write_mutex);
    boost::system::error_code ec;
    asio::write(socket, asio::buffer(bytes), ec);
    return !ec;
  }
  std::optional<std::string> read(std::size_t n) {
    std::string out(n, '\0');
    boost::system::error_code ec;
    asio::read(socket, asio::buffer(out), ec);
    if (ec) return std::nullopt;
    return out;
  }
  std::optional<std::string> request() {
    auto len = read(4);
    if (!len) return std::nullopt;
    std::size_t n = 0;
    if (std::sscanf(len->c_str(), "%4zx", &n) != 1) return std::nullopt;
    return read(n);
  }
  // True when the peer closed its end (used while a reply "hangs").
  bool peer_closed() {
    pollfd p{socket.native_handle(), POLLIN, 0};
    if (::poll(&p, 1, 20) <= 0) return false;
    char c;
    return ::recv(socket.native_handle(), &c, 1, MSG_PEEK) <= 0;
  }
  void shutdown() {
    boost::system::error_code ignore;
    socket.shutdown(tcp::socket::shutdown_both, ignore);
  }
};

namespace {

std::string hex4(std::size_t n) {
  char buf[5];
  std::snprintf(buf, sizeof buf, "%04zx", n);
  return buf;
}
std::string frame(const std::string& s) { return hex4(s.size()) + s; }
std::string fail_reply(const std::string& msg) { return "FAIL" + frame(msg); }

std::string le32(std::uint32_t v) {
  std::string s;
  for (int i = 0; i < 4; ++i, v >>= 8) s.push_back(char(v & 0xFF));
  return s;
}
std::uint32_t get_le32(const std::string& s, std::size_t at = 0) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | std::uint8_t(s[at + i]);
  return v;
}
std::string packet(char id, const std::string& data) { return std::string(1, id) + le32(std::uint32_t(data.size())) + data; }

std::string unquote(std::string s) {
  if (s.size() >= 2 && s.front() == '\'' && s.back() == '\'') s = s.substr(1, s.size() - 2);
  return s;
}

}  // namespace

FakeAdbServer::FakeAdbServer() : impl_(std::make_unique<Impl>()) {
  tcp::endpoint ep(asio::ip::make_address("127.0.0.1"), 0);
  impl_->acceptor.open(ep.protocol());
  impl_->acceptor.set_option(tcp::acceptor::reuse_address(true));
  impl_->acceptor.bind(ep);
  impl_->acceptor.listen();
  port_ = impl_->acceptor.local_endpoint().port();
  threads_.emplace_back([this] { accept_loop(); });
}

FakeAdbServer::~FakeAdbServer() { stop(); }

void FakeAdbServer::stop() {
  if (stopping_.exchange(true)) return;
  boost::system::error_code ignore;
  {
    // A blocking accept() does not wake when its socket is closed: connect once to wake it.
    tcp::socket poke(impl_->ctx);
    poke.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port_), ignore);
  }
  while (true) {
    std::vector<std::thread> threads;
    {
      std::lock_guard lock(mutex_);
      for (auto& w : conns_)
        if (auto c = w.lock()) c->shutdown();
      threads.swap(threads_);
      ++version_;
    }
    changed_.notify_all();
    if (threads.empty()) break;
    for (auto& t : threads) t.join();
  }
  impl_->acceptor.close(ignore);
}

void FakeAdbServer::accept_loop() {
  while (!stopping_) {
    boost::system::error_code ec;
    tcp::socket s(impl_->ctx);
    impl_->acceptor.accept(s, ec);
    if (ec || stopping_) return;
    auto conn = std::make_shared<Conn>(std::move(s));
    std::lock_guard lock(mutex_);
    conns_.push_back(conn);
    threads_.emplace_back([this, conn] { serve(conn); });
  }
}

void FakeAdbServer::add_device(FakeDevice device) {
  {
    std::lock_guard lock(mutex_);
    devices_.push_back(std::move(device));
    ++version_;
  }
  changed_.notify_all();
}

void FakeAdbServer::set_state(const std::string& serial, const std::string& state) {
  {
    std::lock_guard lock(mutex_);
    for (auto& d : devices_) if (d.serial == serial) d.state = state;
    ++version_;
  }
  changed_.notify_all();
}

void FakeAdbServer::unplug(const std::string& serial) {
  {
    std::lock_guard lock(mutex_);
    std::erase_if(devices_, [&](const FakeDevice& d) { return d.serial == serial; });
    for (auto& w : conns_)
      if (auto c = w.lock(); c && c->serial == serial) c->shutdown();
    ++version_;
  }
  changed_.notify_all();
}

void FakeAdbServer::on_shell(ShellHandler handler) {
  std::lock_guard lock(mutex_);
  handler_ = std::move(handler);
}

void FakeAdbServer::add_jdwp(const std::string& serial, int pid, std::uint16_t port) {
  std::lock_guard lock(mutex_);
  for (auto& d : devices_)
    if (d.serial == serial) d.jdwp[pid] = port;
}

void FakeAdbServer::remove_jdwp(const std::string& serial, int pid) {
  std::lock_guard lock(mutex_);
  for (auto& d : devices_)
    if (d.serial == serial) d.jdwp.erase(pid);
}

void FakeAdbServer::set_malformed(bool malformed) {
  std::lock_guard lock(mutex_);
  malformed_ = malformed;
}

void FakeAdbServer::set_install_failure(const std::string& serial, const std::string& pm_output) {
  std::lock_guard lock(mutex_);
  install_failure_[serial] = pm_output;
}

std::vector<std::string> FakeAdbServer::commands(const std::string& serial) const {
  std::lock_guard lock(mutex_);
  auto it = commands_.find(serial);
  return it == commands_.end() ? std::vector<std::string>{} : it->second;
}

std::vector<std::string> FakeAdbServer::services() const {
  std::lock_guard lock(mutex_);
  return services_;
}

std::map<std::string, std::string> FakeAdbServer::files(const std::string& serial) const {
  std::lock_guard lock(mutex_);
  auto it = files_.find(serial);
  return it == files_.end() ? std::map<std::string, std::string>{} : it->second;
}

std::set<std::string> FakeAdbServer::installed(const std::string& serial) const {
  std::lock_guard lock(mutex_);
  auto it = installed_.find(serial);
  return it == installed_.end() ? std::set<std::string>{} : it->second;
}

int FakeAdbServer::max_parallel_instrumentations() const {
  std::lock_guard lock(mutex_);
  return max_total_;
}

int FakeAdbServer::max_instrumentations_per_device() const {
  std::lock_guard lock(mutex_);
  return max_per_device_;
}

bool FakeAdbServer::present(const std::string& serial) const {
  std::lock_guard lock(mutex_);
  return std::any_of(devices_.begin(), devices_.end(), [&](const FakeDevice& d) { return d.serial == serial; });
}

std::string FakeAdbServer::device_list(bool long_format) const {
  std::string out;
  for (const auto& d : devices_) {
    if (long_format) {
      std::string serial = d.serial;
      serial.resize(std::max<std::size_t>(serial.size(), 22), ' ');
      out += serial + " " + d.state;
      if (d.state == "device") out += " product:sdk model:" + d.model + " device:emu64";
      out += " transport_id:1\n";
    } else {
      out += d.serial + "\t" + d.state + "\n";
    }
  }
  return out;
}

void FakeAdbServer::serve(std::shared_ptr<Conn> conn) {
  auto request = conn->request();
  if (!request) return;
  {
    std::lock_guard lock(mutex_);
    services_.push_back(*request);
  }
  host_service(*conn, *request);
  conn->shutdown();
}

bool FakeAdbServer::host_service(Conn& c, const std::string& request) {
  bool malformed;
  {
    std::lock_guard lock(mutex_);
    malformed = malformed_;
  }
  if (malformed) {
    c.write("HTTP/1.1 400 Bad Request\r\n\r\n");
    return false;
  }
  if (request == "host:version") return c.write("OKAY" + frame("0029"));
  if (request == "host:devices" || request == "host:devices-l") {
    std::lock_guard lock(mutex_);
    return c.write("OKAY" + frame(device_list(request == "host:devices-l")));
  }
  if (request == "host:track-devices") {
    std::unique_lock lock(mutex_);
    std::uint64_t seen = version_;
    std::string list = device_list(false);
    lock.unlock();
    if (!c.write("OKAY" + frame(list))) return false;
    lock.lock();
    while (!stopping_) {
      changed_.wait_for(lock, std::chrono::milliseconds(50), [&] { return version_ != seen || stopping_; });
      if (stopping_) break;
      if (version_ != seen) {
        seen = version_;
        list = device_list(false);
        lock.unlock();
        if (!c.write(frame(list))) return false;
        lock.lock();
      } else {
        lock.unlock();
        bool closed = c.peer_closed();
        lock.lock();
        if (closed) break;
      }
    }
    return true;
  }
  if (request.starts_with("host:transport:")) {
    std::string serial = request.substr(15);
    std::string state;
    {
      std::lock_guard lock(mutex_);
      for (const auto& d : devices_) if (d.serial == serial) state = d.state;
    }
    if (state.empty()) return c.write(fail_reply("device '" + serial + "' not found"));
    if (state == "unauthorized")
      return c.write(fail_reply("device unauthorized.\nThis adb server's $ADB_VENDOR_KEYS is not set\n"
                                "Try 'adb kill-server' if that seems wrong.\nOtherwise check for a confirmation dialog on your device."));
    if (state != "device") return c.write(fail_reply("device offline"));
    {
      std::lock_guard lock(mutex_);
      c.serial = serial;
    }
    if (!c.write("OKAY")) return false;
    auto service = c.request();
    if (!service) return false;
    {
      std::lock_guard lock(mutex_);
      services_.push_back(serial + ":" + *service);
    }
    device_service(c, serial, *service);
    return true;
  }
  return c.write(fail_reply("unknown host service"));
}

void FakeAdbServer::device_service(Conn& c, const std::string& serial, const std::string& service) {
  bool v2 = true;
  std::map<int, std::uint16_t> jdwp;
  {
    std::lock_guard lock(mutex_);
    for (const auto& d : devices_)
      if (d.serial == serial) v2 = d.shell_v2, jdwp = d.jdwp;
  }
  if (service.starts_with("shell,v2,raw:")) {
    if (!v2) { c.write(fail_reply("closed")); return; }
    run_shell(c, serial, service.substr(13), 0);
  } else if (service.starts_with("shell:")) {
    run_shell(c, serial, service.substr(6), 1);
  } else if (service.starts_with("exec:")) {
    run_shell(c, serial, service.substr(5), 2);
  } else if (service == "sync:") {
    run_sync(c, serial);
  } else if (service == "track-jdwp") {
    std::string pids;
    for (auto& [pid, port] : jdwp) pids += std::to_string(pid) + "\n";
    if (!c.write("OKAY" + frame(pids))) return;
    while (!stopping_ && !c.peer_closed() && present(serial)) {}
  } else if (service.starts_with("jdwp:")) {
    int pid = std::atoi(service.c_str() + 5);
    auto it = jdwp.find(pid);
    if (it == jdwp.end()) { c.write(fail_reply("no such process")); return; }
    proxy(c, it->second);
  } else {
    c.write(fail_reply("closed"));
  }
}

FakeReply FakeAdbServer::builtin(const std::string& serial, const std::string& command) {
  FakeReply r;
  std::lock_guard lock(mutex_);
  if (command.starts_with("pm install ")) {
    std::string path = unquote(command.substr(command.rfind(' ') + 1));
    if (auto f = install_failure_.find(serial); f != install_failure_.end()) {
      r.out = f->second + "\n";
      r.exit_code = 1;
    } else if (files_[serial].count(path) && files_[serial][path].starts_with("PK\3\4")) {
      installed_[serial].insert(path);
      r.out = "Success\n";
    } else {
      r.out = "Failure [INSTALL_FAILED_INVALID_APK: no such file]\n";
      r.exit_code = 1;
    }
  } else if (command.starts_with("rm -f ")) {
    files_[serial].erase(unquote(command.substr(6)));
  } else if (command.starts_with("pm clear ")) {
    r.out = "Success\n";
  }
  return r;
}

void FakeAdbServer::run_shell(Conn& c, const std::string& serial, const std::string& command, int mode) {
  ShellHandler handler;
  {
    std::lock_guard lock(mutex_);
    commands_[serial].push_back(command);
    handler = handler_;
  }
  std::optional<FakeReply> scripted = handler ? handler(serial, command) : std::nullopt;
  FakeReply reply = scripted ? std::move(*scripted) : builtin(serial, command);
  if (!c.write("OKAY")) return;
  bool instrument = command.starts_with("am instrument");
  if (instrument) {
    std::lock_guard lock(mutex_);
    max_per_device_ = std::max(max_per_device_, ++running_[serial]);
    max_total_ = std::max(max_total_, ++running_total_);
  }
  if (reply.before) reply.before();
  std::string out = reply.produce ? reply.produce() : reply.out;
  if (mode == 1) {  // a pty turns \n into \r\n
    std::string crlf;
    for (char ch : out) {
      if (ch == '\n') crlf += '\r';
      crlf += ch;
    }
    out = crlf;
  }
  bool alive = true;
  std::size_t sent = 0;
  while (alive && sent < out.size()) {
    std::size_t n = std::min(reply.chunk ? reply.chunk : out.size(), out.size() - sent);
    if (reply.unplug_after && sent + n > *reply.unplug_after) n = *reply.unplug_after - sent;
    if (n > 0) alive = c.write(mode == 0 ? packet(1, out.substr(sent, n)) : out.substr(sent, n));
    sent += n;
    if (reply.unplug_after && sent >= *reply.unplug_after) {
      unplug(serial);
      alive = false;
    }
    if (alive && reply.chunk_delay.count() > 0) std::this_thread::sleep_for(reply.chunk_delay);
    if (!present(serial)) alive = false;
  }
  if (alive && reply.hang) {
    while (!stopping_ && present(serial) && !c.peer_closed()) {}  // peer_closed() waits 20 ms
    alive = false;
  }
  if (alive && mode == 0) {
    if (!reply.err.empty()) c.write(packet(2, reply.err));
    c.write(packet(3, std::string(1, char(reply.exit_code))));
  } else if (alive && mode == 1 && !reply.err.empty()) {
    c.write(reply.err);
  }
  if (instrument) {
    std::lock_guard lock(mutex_);
    --running_[serial];
    --running_total_;
  }
}

void FakeAdbServer::run_sync(Conn& c, const std::string& serial) {
  if (!c.write("OKAY")) return;
  while (true) {
    auto header = c.read(8);
    if (!header) return;
    std::string id = header->substr(0, 4);
    std::uint32_t len = get_le32(*header, 4);
    if (id == "QUIT") return;
    if (id == "STAT") {
      auto path = c.read(len);
      if (!path) return;
      std::lock_guard lock(mutex_);
      auto& files = files_[serial];
      auto it = files.find(*path);
      std::string reply = "STAT";
      if (it == files.end()) reply += le32(0) + le32(0) + le32(0);
      else reply += le32(0100644) + le32(std::uint32_t(it->second.size())) + le32(1700000000);
      c.write(reply);
      continue;
    }
    if (id == "SEND") {
      auto spec = c.read(len);
      if (!spec) return;
      std::string path = spec->substr(0, spec->rfind(','));
      std::string data;
      while (true) {
        auto h = c.read(8);
        if (!h) return;
        std::string kind = h->substr(0, 4);
        std::uint32_t n = get_le32(*h, 4);
        if (kind == "DONE") break;
        if (kind != "DATA" || n > 64 * 1024) {
          c.write("FAIL" + le32(18) + "invalid data chunk");
          return;
        }
        auto chunk = c.read(n);
        if (!chunk) return;
        data += *chunk;
      }
      {
        std::lock_guard lock(mutex_);
        files_[serial][path] = std::move(data);
      }
      c.write("OKAY" + le32(0));
      continue;
    }
    c.write("FAIL" + le32(15) + "unknown request");
    return;
  }
}

void FakeAdbServer::proxy(Conn& c, std::uint16_t port) {
  boost::system::error_code ec;
  tcp::socket upstream(impl_->ctx);
  upstream.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port), ec);
  if (ec) { c.write(fail_reply("cannot connect to process")); return; }
  if (!c.write("OKAY")) return;
  int a = c.socket.native_handle(), b = upstream.native_handle();
  char buf[16384];
  while (!stopping_) {
    pollfd fds[2] = {{a, POLLIN, 0}, {b, POLLIN, 0}};
    if (::poll(fds, 2, 50) < 0) break;
    bool done = false;
    for (int i = 0; i < 2 && !done; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t n = ::recv(fds[i].fd, buf, sizeof buf, 0);
      if (n <= 0) { done = true; break; }
      int to = i == 0 ? b : a;
      for (ssize_t off = 0; off < n;) {
        ssize_t w = ::send(to, buf + off, std::size_t(n - off), MSG_NOSIGNAL);
        if (w <= 0) { done = true; break; }
        off += w;
      }
    }
    if (done) break;
  }
  upstream.close(ec);
}

}  // namespace flakescan::test
