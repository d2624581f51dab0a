#include "adb_protocol/connection.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <optional>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>

#include "adb_protocol/host_protocol.hpp"

namespace flakescan::adb_protocol {

namespace asio = boost::asio;
using asio::ip::tcp;
using util::Errc;
using util::fail;

struct Connection::Impl {
  asio::io_context ctx;
  tcp::socket socket{ctx};

  // Starts an async operation and drives the context until it completes, the deadline
  // passes or the cancel flag flips.
  template <class Start>
  util::Result<std::size_t> drive(Start&& start, Deadline deadline, const CancelFlag* cancel) {
    bool done = false;
    boost::system::error_code ec;
    std::size_t n = 0;
    start([&](boost::system::error_code e, std::size_t k) { done = true; ec = e; n = k; });
    ctx.restart();
    std::optional<Errc> stopped;
    while (!done) {
      auto now = Clock::now();
      if (!stopped && (now >= deadline || (cancel && cancel->load()))) {
        stopped = now >= deadline ? Errc::timeout : Errc::cancelled;
        boost::system::error_code ignore;
        socket.cancel(ignore);
        socket.close(ignore);
      }
      auto slice = stopped ? std::chrono::milliseconds(50)
                           : std::min<Clock::duration>(deadline - now, std::chrono::milliseconds(50));
      ctx.run_one_for(slice);
    }
    if (stopped) return fail(*stopped, *stopped == Errc::timeout ? "adb: deadline passed" : "adb: cancelled");
    if (ec == asio::error::eof || ec == asio::error::connection_reset || ec == asio::error::broken_pipe)
      return fail(Errc::disconnected, "adb: connection closed by peer");
    if (ec) return fail(Errc::io, "adb: " + ec.message());
    return n;
  }
};

Connection::Connection(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Connection::Connection(Connection&&) noexcept = default;
Connection& Connection::operator=(Connection&&) noexcept = default;
Connection::~Connection() = default;

util::Result<ServerAddress> ServerAddress::parse(std::string_view text) {
  ServerAddress out;
  std::string_view host = text, port;
  if (text.starts_with('[')) {
    auto close = text.find(']');
    if (close == std::string_view::npos) return fail(Errc::invalid_argument, "bad adb server address: " + std::string(text));
    host = text.substr(1, close - 1);
    std::string_view rest = text.substr(close + 1);
    if (!rest.empty()) {
      if (rest[0] != ':') return fail(Errc::invalid_argument, "bad adb server address: " + std::string(text));
      port = rest.substr(1);
    }
  } else if (auto colon = text.rfind(':'); colon != std::string_view::npos) {
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
  }
  if (!host.empty()) out.host = std::string(host);
  for (char c : out.host) {
    bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == ':' || c == '_';
    if (!ok) return fail(Errc::invalid_argument, "bad adb server host: " + std::string(text));
  }
  if (!port.empty()) {
    unsigned p = 0;
    auto [ptr, ec] = std::from_chars(port.data(), port.data() + port.size(), p);
    if (ec != std::errc{} || ptr != port.data() + port.size() || p == 0 || p > 65535)
      return fail(Errc::invalid_argument, "bad adb server port: " + std::string(text));
    out.port = std::uint16_t(p);
  }
  return out;
}

util::Result<Connection> Connection::open(const ServerAddress& server, Deadline deadline, const CancelFlag* cancel) {
  auto impl = std::make_unique<Impl>();
  boost::system::error_code ec;
  tcp::resolver resolver(impl->ctx);
  auto endpoints = resolver.resolve(server.host, std::to_string(server.port), ec);
  if (ec) return fail(Errc::io, "adb server " + server.str() + ": " + ec.message());
  auto* raw = impl.get();
  auto connected = raw->drive(
      [&](auto handler) {
        asio::async_connect(raw->socket, endpoints,
                            [handler](boost::system::error_code e, const tcp::endpoint&) mutable { handler(e, 0); });
      },
      deadline, cancel);
  if (!connected) {
    auto err = connected.error();
    if (err.code == Errc::io || err.code == Errc::disconnected) err.code = Errc::disconnected;
    err.message = "cannot reach adb server " + server.str() + ": " + err.message;
    return std::unexpected(err);
  }
  raw->socket.set_option(tcp::no_delay(true), ec);
  return Connection(std::move(impl));
}

util::Result<void> Connection::write(std::string_view bytes, Deadline deadline, const CancelFlag* cancel) {
  if (!impl_ || !impl_->socket.is_open()) return fail(Errc::disconnected, "adb: connection closed");
  auto r = impl_->drive([&](auto handler) { asio::async_write(impl_->socket, asio::buffer(bytes.data(), bytes.size()), handler); },
                        deadline, cancel);
  if (!r) return std::unexpected(r.error());
  return {};
}

util::Result<std::size_t> Connection::read_some(Deadline deadline, const CancelFlag* cancel) {
  if (!impl_ || !impl_->socket.is_open()) return fail(Errc::disconnected, "adb: connection closed");
  std::array<char, 16384> chunk;
  auto r = impl_->drive([&](auto handler) { impl_->socket.async_read_some(asio::buffer(chunk), handler); },
                        deadline, cancel);
  if (!r) return r;
  buffer_.append(chunk.data(), *r);
  return *r;
}

util::Result<void> Connection::fill(std::size_t need, Deadline deadline, const CancelFlag* cancel) {
  while (buffer_.size() < need) {
    auto r = read_some(deadline, cancel);
    if (!r) return std::unexpected(r.error());
  }
  return {};
}

util::Error server_failure(std::string_view message) {
  std::string text = "adb server: " + std::string(message);
  if (message.find("not found") != std::string_view::npos || message.find("no devices") != std::string_view::npos)
    return {Errc::not_found, text};
  if (message.find("unauthorized") != std::string_view::npos || message.find("offline") != std::string_view::npos ||
      message.find("authorizing") != std::string_view::npos)
    return {Errc::conflict, text};
  return {Errc::unsupported, text};
}

util::Result<void> Connection::request(std::string_view service, Deadline deadline, const CancelFlag* cancel) {
  auto wire = encode_request(service);
  if (!wire) return std::unexpected(wire.error());
  if (auto w = write(*wire, deadline, cancel); !w) return w;
  while (true) {
    auto status = decode_status(std::span<const char>(buffer_.data(), buffer_.size()));
    if (status) {
      consume(status->consumed);
      if (status->okay) return {};
      return std::unexpected(server_failure(status->message));
    }
    if (status.error().code != Errc::need_more) return std::unexpected(status.error());
    auto r = read_some(deadline, cancel);
    if (!r) {
      if (r.error().code == Errc::disconnected && !buffer_.empty())
        return fail(Errc::malformed, "adb server closed the connection inside a status reply");
      return std::unexpected(r.error());
    }
  }
}

util::Result<std::string> Connection::read_frame(Deadline deadline, const CancelFlag* cancel) {
  while (true) {
    auto frame = decode_frame(std::span<const char>(buffer_.data(), buffer_.size()));
    if (frame) {
      consume(frame->consumed);
      return std::move(frame->payload);
    }
    if (frame.error().code != Errc::need_more) return std::unexpected(frame.error());
    auto r = read_some(deadline, cancel);
    if (!r) return std::unexpected(r.error());
  }
}

util::Result<int> Connection::release_native_handle(std::string* leftover) {
  if (!impl_ || !impl_->socket.is_open()) return fail(Errc::disconnected, "adb: connection closed");
  boost::system::error_code ec;
  int fd = impl_->socket.release(ec);
  if (ec) return fail(Errc::io, "adb: cannot release socket: " + ec.message());
  if (leftover) *leftover = std::move(buffer_);
  buffer_.clear();
  return fd;
}

void Connection::close() {
  if (!impl_) return;
  boost::system::error_code ignore;
  impl_->socket.shutdown(tcp::socket::shutdown_both, ignore);
  impl_->socket.close(ignore);
}

}  // namespace flakescan::adb_protocol
