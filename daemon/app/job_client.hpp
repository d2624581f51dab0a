#pragma once
// The CLI's one client loop for the jobs the daemon runs (a scan, an exploration): submit, then
// follow to the end. The job's event stream is consumed while it lasts (it ends when the job
// does); the status is then read once, and polled every 500 ms only while it still says the job
// runs (a stream that was lost, or a job without one).
#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "app/http_client.hpp"

namespace flakescan::app {

// POST `collection` with `body` (JSON). The new job's id; nullopt when the daemon could not be
// reached or refused (the reason printed as "flakescan COMMAND: ...").
std::optional<std::string> submit_job(HttpClient& client, const std::string& command, const std::string& collection,
                                      const std::string& body, const std::string& noun);

struct JobFollow {
  std::string command;      // "scan": messages read "flakescan scan: ..."
  std::string status_path;  // GET: the job's status
  std::string events_path;  // its text/event-stream; empty when it has none
  std::function<void(const std::string& type, const nlohmann::json& data)> on_event;
  std::function<void(const nlohmann::json& status)> on_poll;  // each status that still runs
  std::function<bool(const nlohmann::json& status)> running;
  bool quiet = false;       // no note when the stream is lost
};

// The job's final status; nullopt when the daemon stopped answering (printed).
std::optional<nlohmann::json> follow_job(HttpClient& client, const JobFollow& follow);

}  // namespace flakescan::app
