#include "app/job_client.hpp"

#include <chrono>
#include <cstdio>
#include <thread>

namespace flakescan::app {

using nlohmann::json;

std::optional<std::string> submit_job(HttpClient& client, const std::string& command, const std::string& collection,
                                      const std::string& body, const std::string& noun) {
  auto submitted = client.request("POST", collection, body);
  if (!submitted) {
    std::fprintf(stderr, "flakescan %s: could not run: %s\n", command.c_str(), submitted.error().message.c_str());
    return std::nullopt;
  }
  if (submitted->status != 202) {
    std::fprintf(stderr, "flakescan %s: the daemon refused the %s (HTTP %d): %s\n", command.c_str(), noun.c_str(),
                 submitted->status, problem_detail(*submitted).c_str());
    return std::nullopt;
  }
  auto answer = json::parse(submitted->body, nullptr, false);
  if (!answer.is_object() || !answer["id"].is_string()) {
    std::fprintf(stderr, "flakescan %s: the daemon's answer has no %s id: %s\n", command.c_str(), noun.c_str(),
                 submitted->body.c_str());
    return std::nullopt;
  }
  return answer["id"].get<std::string>();
}

std::optional<json> follow_job(HttpClient& client, const JobFollow& f) {
  if (!f.events_path.empty()) {
    auto streamed = client.events(f.events_path, [&](const std::string& type, const std::string& data) {
      if (f.on_event) f.on_event(type, json::parse(data, nullptr, false));
      return true;
    });
    if (!streamed && !f.quiet)
      std::fprintf(stderr, "flakescan: progress stream lost (%s); waiting for the result\n", streamed.error().message.c_str());
  }
  for (;;) {
    auto r = client.request("GET", f.status_path);
    if (!r || r->status != 200) {
      std::fprintf(stderr, "flakescan %s: lost the daemon: %s\n", f.command.c_str(),
                   r ? problem_detail(*r).c_str() : r.error().message.c_str());
      return std::nullopt;
    }
    json status = json::parse(r->body, nullptr, false);
    if (!status.is_object()) {
      std::fprintf(stderr, "flakescan %s: the daemon's status is not JSON: %s\n", f.command.c_str(), r->body.c_str());
      return std::nullopt;
    }
    if (!f.running(status)) return status;
    if (f.on_poll) f.on_poll(status);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
}

}  // namespace flakescan::app
