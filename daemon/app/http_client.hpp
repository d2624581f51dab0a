#pragma once
// A small blocking HTTP/1.1 client for the CLI: one connection per request, plain http only
// (the daemon listens on loopback), with a deadline on every exchange.
#include <chrono>
#include <functional>
#include <string>

#include "util/error.hpp"

namespace flakescan::app {

struct Url {
  std::string host = "127.0.0.1";
  std::string port = "7711";
  std::string base_path;  // prefix before /v1, usually empty

  static util::Result<Url> parse(const std::string& text);  // http://host:port[/prefix]
  std::string str() const { return "http://" + host + ":" + port + base_path; }
};

struct HttpResponse {
  int status = 0;
  std::string content_type;
  std::string body;
  std::string location;
};

class HttpClient {
 public:
  explicit HttpClient(Url url, std::string token = {}) : url_(std::move(url)), token_(std::move(token)) {}

  util::Result<HttpResponse> request(const std::string& method, const std::string& path, const std::string& body = {},
                                     std::chrono::seconds timeout = std::chrono::seconds(60),
                                     const std::string& content_type = "application/json");
  // Reads a text/event-stream until the server closes it; on_event(type, data) returning
  // false stops early.
  util::Result<bool> events(const std::string& path,
                            const std::function<bool(const std::string& type, const std::string& data)>& on_event);

  const Url& url() const { return url_; }

 private:
  Url url_;
  std::string token_;
};

// The detail of a problem+json body, or the body itself.
std::string problem_detail(const HttpResponse& response);

}  // namespace flakescan::app
