#pragma once
// Request -> response, as plain functions that never touch a socket. The server
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
  std::string stream_key;                  // what the per-scan stream limit counts: the scan id
};

// An extra route served by a module outside the scan machinery (devices, ui-traces,
// explorations): one method on one path. `handler` answers 200 with the JSON body text it
// returns; `respond`, when set, is used instead and gives the whole response (status,
// Location). `prefix` routes serve the paths below `path` ("/v1/explorations/{id}"), not
// `path` itself; the handler reads the rest from Request::target. A path that some route
// serves with other methods only is a 405.
struct ExtraRoute {
  std::string method;
  std::string path;
  size_t body_limit = 1 << 20;
  std::function<util::Result<std::string>(const Request&)> handler;
  std::function<util::Result<Response>(const Request&)> respond = {};
  bool prefix = false;

  bool serves(const std::string& request_path) const;
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
