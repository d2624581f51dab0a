#pragma once
// Request -> response, as plain functions that never touch a socket (STYLE.md). The server
// calls route() on a worker thread, because handlers may block (store, replays). A response
// is either a complete body or, for /events, a request to stream a scan's event log.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "scan/scan_manager.hpp"

namespace flakescan::api {

struct Request {
  std::string method;  // "GET", "POST", ...
  std::string target;  // path and query, as received
  std::string body;
  std::string content_type;
  std::string last_event_id;
};

struct Response {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::map<std::string, std::string> headers;
  std::shared_ptr<scan::EventLog> stream;  // set: serve text/event-stream from this log
  std::uint64_t stream_after = 0;
};

// An extra route served by a module outside the scan machinery (devices, ui-traces):
// exact method and path; the handler returns the JSON body text or an error.
struct ExtraRoute {
  std::string method;
  std::string path;
  size_t body_limit = 1 << 20;
  std::function<util::Result<std::string>(const Request&)> handler;
};

class Router {
 public:
  Router(scan::ScanManager& scans, std::vector<ExtraRoute> extra);
  Response route(const Request& request) const;
  // The body limit for a target (the server applies it while reading).
  size_t body_limit(const std::string& method, const std::string& target) const;

 private:
  scan::ScanManager& scans_;
  std::vector<ExtraRoute> extra_;
};

Response error_response(const util::Error& error, const std::string& instance);

}  // namespace flakescan::api
