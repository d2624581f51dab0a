#include "adb_protocol/server_client.hpp"

#include <ctime>

#include "adb_protocol/shell_v2.hpp"

namespace flakescan::adb_protocol {

using util::Errc;
using util::fail;

util::Result<Connection> Client::connect(Deadline deadline, const CancelFlag* cancel) const {
  return Connection::open(server_, deadline, cancel);
}

namespace {

// A host service answered with one length-prefixed frame (host:version, host:devices-l), on a
// connection of its own.
util::Result<std::string> host_frame(const ServerAddress& server, const std::string& service, Deadline deadline) {
  auto c = Connection::open(server, deadline, nullptr);
  if (!c) return std::unexpected(c.error());
  if (auto r = c->request(service, deadline); !r) return std::unexpected(r.error());
  return c->read_frame(deadline);
}

}  // namespace

util::Result<int> Client::version(Deadline deadline) const {
  auto payload = host_frame(server_, "host:version", deadline);
  if (!payload) return std::unexpected(payload.error());
  return parse_version(*payload);
}

util::Result<std::vector<DeviceEntry>> Client::devices(Deadline deadline) const {
  auto payload = host_frame(server_, "host:devices-l", deadline);
  if (!payload) return std::unexpected(payload.error());
  return parse_device_list(*payload);
}

util::Result<Connection> Client::track_devices(Deadline deadline) const {
  auto c = connect(deadline);
  if (!c) return c;
  if (auto r = c->request("host:track-devices", deadline); !r) return std::unexpected(r.error());
  return c;
}

util::Result<Connection> Client::transport(std::string_view serial, Deadline deadline, const CancelFlag* cancel) const {
  if (serial.empty()) return fail(Errc::invalid_argument, "empty device serial");
  auto c = connect(deadline, cancel);
  if (!c) return c;
  if (auto r = c->request("host:transport:" + std::string(serial), deadline, cancel); !r)
    return std::unexpected(r.error());
  return c;
}

namespace {

// Reads to EOF (or cut) collecting output.
void read_raw(Connection& c, ShellResult& result, Deadline deadline, const CancelFlag* cancel, const OutputSink& sink) {
  while (true) {
    if (!c.buffer().empty()) {
      if (sink) sink(c.buffer());
      result.out += c.buffer();
      c.buffer().clear();
    }
    auto r = c.read_some(deadline, cancel);
    if (!r) {
      // v1 has no end marker: EOF is the normal end.
      if (r.error().code != Errc::disconnected) result.cut = r.error();
      return;
    }
  }
}

void read_v2(Connection& c, ShellResult& result, Deadline deadline, const CancelFlag* cancel, const OutputSink& sink) {
  while (true) {
    auto packet = decode_shell_packet(std::span<const char>(c.buffer().data(), c.buffer().size()));
    if (packet) {
      c.consume(packet->consumed);
      auto& p = packet->packet;
      if (p.id == ShellPacketId::stdout_data) {
        if (sink) sink(p.data);
        result.out += p.data;
      } else if (p.id == ShellPacketId::stderr_data) {
        result.err += p.data;
      } else if (p.id == ShellPacketId::exit) {
        result.exit_code = std::uint8_t(p.data[0]);
        return;
      }
      continue;
    }
    if (packet.error().code != Errc::need_more) {
      result.cut = packet.error();
      return;
    }
    auto r = c.read_some(deadline, cancel);
    if (!r) {
      result.cut = r.error().code == Errc::disconnected
                       ? util::Error{Errc::disconnected, "shell stream ended without an exit status (device gone?)"}
                       : r.error();
      return;
    }
  }
}

}  // namespace

util::Result<ShellResult> Client::shell(std::string_view serial, std::string_view command, Deadline deadline,
                                        const CancelFlag* cancel, const OutputSink& sink) const {
  auto c = transport(serial, deadline, cancel);
  if (!c) return std::unexpected(c.error());
  auto r = c->request("shell,v2,raw:" + std::string(command), deadline, cancel);
  if (!r) {
    // Devices older than Android 7 refuse the v2 service; anything else is a real failure.
    if (r.error().code != Errc::unsupported) return std::unexpected(r.error());
    return shell_v1(serial, command, deadline, cancel, sink);
  }
  ShellResult result;
  result.v2 = true;
  read_v2(*c, result, deadline, cancel, sink);
  return result;
}

util::Result<ShellResult> Client::shell_v1(std::string_view serial, std::string_view command, Deadline deadline,
                                           const CancelFlag* cancel, const OutputSink& sink) const {
  auto c = transport(serial, deadline, cancel);
  if (!c) return std::unexpected(c.error());
  if (auto r = c->request("shell:" + std::string(command), deadline, cancel); !r) return std::unexpected(r.error());
  ShellResult result;
  read_raw(*c, result, deadline, cancel, sink);
  return result;
}

util::Result<std::string> Client::exec(std::string_view serial, std::string_view command, std::string_view input,
                                       Deadline deadline, const CancelFlag* cancel) const {
  auto c = transport(serial, deadline, cancel);
  if (!c) return std::unexpected(c.error());
  if (auto r = c->request("exec:" + std::string(command), deadline, cancel); !r) return std::unexpected(r.error());
  if (!input.empty())
    if (auto w = c->write(input, deadline, cancel); !w) return std::unexpected(w.error());
  ShellResult result;
  read_raw(*c, result, deadline, cancel, {});
  if (result.cut) return std::unexpected(*result.cut);
  return std::move(result.out);
}

util::Result<SyncStat> Client::stat(std::string_view serial, std::string_view remote_path, Deadline deadline) const {
  auto c = transport(serial, deadline);
  if (!c) return std::unexpected(c.error());
  if (auto r = c->request("sync:", deadline); !r) return std::unexpected(r.error());
  auto req = encode_sync_request("STAT", remote_path);
  if (!req) return std::unexpected(req.error());
  if (auto w = c->write(*req, deadline); !w) return std::unexpected(w.error());
  if (auto f = c->fill(16, deadline); !f) return std::unexpected(f.error());
  auto st = decode_sync_stat(std::span<const char>(c->buffer().data(), c->buffer().size()));
  if (!st) return st;
  c->consume(16);
  (void)c->write(*encode_sync_request("QUIT", ""), deadline);
  return st;
}

util::Result<void> Client::push(std::string_view serial, std::string_view data, std::string_view remote_path,
                                std::uint32_t mode, Deadline deadline, const CancelFlag* cancel) const {
  auto c = transport(serial, deadline, cancel);
  if (!c) return std::unexpected(c.error());
  if (auto r = c->request("sync:", deadline, cancel); !r) return r;
  auto send = encode_sync_request("SEND", std::string(remote_path) + "," + std::to_string(mode | 0100000));
  if (!send) return std::unexpected(send.error());
  if (auto w = c->write(*send, deadline, cancel); !w) return w;
  for (std::size_t off = 0; off < data.size(); off += max_sync_data) {
    auto chunk = encode_sync_request("DATA", data.substr(off, max_sync_data));
    if (auto w = c->write(*chunk, deadline, cancel); !w) return w;
  }
  if (auto w = c->write(encode_sync_done(std::uint32_t(std::time(nullptr))), deadline, cancel); !w) return w;
  while (true) {
    auto st = decode_sync_status(std::span<const char>(c->buffer().data(), c->buffer().size()));
    if (st) {
      c->consume(st->consumed);
      (void)c->write(*encode_sync_request("QUIT", ""), deadline, cancel);
      if (st->okay) return {};
      return fail(Errc::io, "push to " + std::string(remote_path) + " failed: " + st->message);
    }
    if (st.error().code != Errc::need_more) return std::unexpected(st.error());
    if (auto r = c->read_some(deadline, cancel); !r) return std::unexpected(r.error());
  }
}

util::Result<Connection> Client::track_jdwp(std::string_view serial, Deadline deadline) const {
  auto c = transport(serial, deadline);
  if (!c) return c;
  if (auto r = c->request("track-jdwp", deadline); !r) return std::unexpected(r.error());
  return c;
}

util::Result<std::vector<int>> Client::jdwp_pids(std::string_view serial, Deadline deadline) const {
  auto c = track_jdwp(serial, deadline);
  if (!c) return std::unexpected(c.error());
  auto payload = c->read_frame(deadline);
  if (!payload) return std::unexpected(payload.error());
  return parse_pid_list(*payload);
}

util::Result<Connection> Client::jdwp(std::string_view serial, int pid, Deadline deadline) const {
  if (pid <= 0) return fail(Errc::invalid_argument, "bad pid");
  auto c = transport(serial, deadline);
  if (!c) return c;
  if (auto r = c->request("jdwp:" + std::to_string(pid), deadline); !r) return std::unexpected(r.error());
  return c;
}

}  // namespace flakescan::adb_protocol
