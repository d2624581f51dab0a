#include "app/http_client.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

namespace flakescan::app {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using net::ip::tcp;

util::Result<Url> Url::parse(const std::string& text) {
  std::string rest = text;
  if (rest.starts_with("http://")) rest = rest.substr(7);
  else if (rest.find("://") != std::string::npos) return util::fail(util::Errc::invalid_argument, "only http:// daemon URLs are supported: " + text);
  Url url;
  size_t slash = rest.find('/');
  std::string hostport = rest.substr(0, slash);
  if (slash != std::string::npos) url.base_path = rest.substr(slash);
  while (url.base_path.ends_with('/')) url.base_path.pop_back();
  size_t colon = hostport.rfind(':');
  if (colon == std::string::npos) {
    url.host = hostport;
    url.port = "80";
  } else {
    url.host = hostport.substr(0, colon);
    url.port = hostport.substr(colon + 1);
  }
  if (url.host.empty() || url.port.empty()) return util::fail(util::Errc::invalid_argument, "not a daemon URL: " + text);
  return url;
}

namespace {

struct Connection {
  net::io_context io;
  beast::tcp_stream stream{io};
};

util::Result<bool> connect(Connection& c, const Url& url, std::chrono::seconds timeout) {
  beast::error_code ec;
  tcp::resolver resolver(c.io);
  auto results = resolver.resolve(url.host, url.port, ec);
  if (ec) return util::fail(util::Errc::disconnected, "cannot resolve " + url.host + ": " + ec.message());
  c.stream.expires_after(timeout);
  c.stream.connect(results, ec);
  if (ec) return util::fail(util::Errc::disconnected, "no daemon answers at " + url.str() + ": " + ec.message());
  return true;
}

http::request<http::string_body> make_request(const std::string& method, const Url& url, const std::string& path,
                                              const std::string& body, const std::string& token,
                                              const std::string& content_type = "application/json") {
  http::request<http::string_body> req{http::string_to_verb(method), url.base_path + path, 11};
  req.set(http::field::host, url.host);
  req.set(http::field::user_agent, "flakescan-cli");
  if (!token.empty()) req.set(http::field::authorization, "Bearer " + token);
  if (!body.empty()) {
    req.set(http::field::content_type, content_type);
    req.body() = body;
  }
  req.prepare_payload();
  return req;
}

}  // namespace

util::Result<HttpResponse> HttpClient::request(const std::string& method, const std::string& path, const std::string& body,
                                               std::chrono::seconds timeout, const std::string& content_type) {
  Connection c;
  if (auto r = connect(c, url_, timeout); !r) return std::unexpected(r.error());
  beast::error_code ec;
  auto req = make_request(method, url_, path, body, token_, content_type);
  c.stream.expires_after(timeout);
  http::write(c.stream, req, ec);
  if (ec) return util::fail(util::Errc::disconnected, "sending to the daemon: " + ec.message());
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(512u << 20);
  http::read(c.stream, buffer, parser, ec);
  if (ec == beast::error::timeout) return util::fail(util::Errc::timeout, "the daemon did not answer within " + std::to_string(timeout.count()) + " s");
  if (ec) return util::fail(util::Errc::disconnected, "reading the daemon's answer: " + ec.message());
  auto res = parser.release();
  return HttpResponse{int(res.result_int()), std::string(res[http::field::content_type]), std::move(res.body()),
                      std::string(res[http::field::location])};
}

util::Result<bool> HttpClient::events(const std::string& path,
                                      const std::function<bool(const std::string&, const std::string&)>& on_event) {
  Connection c;
  if (auto r = connect(c, url_, std::chrono::seconds(10)); !r) return std::unexpected(r.error());
  beast::error_code ec;
  auto req = make_request("GET", url_, path, {}, token_);
  req.set(http::field::accept, "text/event-stream");
  http::write(c.stream, req, ec);
  if (ec) return util::fail(util::Errc::disconnected, "sending to the daemon: " + ec.message());
  beast::flat_buffer buffer;
  http::response_parser<http::buffer_body> parser;
  parser.body_limit(boost::none);
  c.stream.expires_never();
  http::read_header(c.stream, buffer, parser, ec);
  if (ec) return util::fail(util::Errc::disconnected, "reading the event stream: " + ec.message());
  if (parser.get().result_int() != 200) return util::fail(util::Errc::not_found, "the daemon refused the event stream");

  std::string pending, type, data;
  char chunk[4096];
  while (!parser.is_done()) {
    parser.get().body().data = chunk;
    parser.get().body().size = sizeof chunk;
    http::read_some(c.stream, buffer, parser, ec);  // whatever has come: events must not wait for a full chunk
    if (ec == http::error::need_buffer) ec = {};
    if (ec == http::error::end_of_stream || ec == net::error::eof) break;
    if (ec) return util::fail(util::Errc::disconnected, "the event stream broke: " + ec.message());
    pending.append(chunk, sizeof chunk - parser.get().body().size);
    size_t nl;
    while ((nl = pending.find('\n')) != std::string::npos) {
      std::string line = pending.substr(0, nl);
      pending.erase(0, nl + 1);
      if (line.empty()) {
        if (!type.empty() || !data.empty()) {
          if (!on_event(type.empty() ? "message" : type, data)) return true;
        }
        type.clear();
        data.clear();
      } else if (line.starts_with("event: ")) {
        type = line.substr(7);
      } else if (line.starts_with("data: ")) {
        data += line.substr(6);
      }
    }
  }
  return true;
}

std::string problem_detail(const HttpResponse& response) {
  auto j = nlohmann::json::parse(response.body, nullptr, false);
  if (j.is_object() && j.contains("detail") && j["detail"].is_string()) return j["detail"];
  return response.body.empty() ? "HTTP " + std::to_string(response.status) : response.body;
}

}  // namespace flakescan::app
