#pragma once
// Test support: a real flakescand started on port 0 with its own data folder, and a client
// for it. Used by the integration tests that drive the daemon over real HTTP.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/http_client.hpp"
#include "util/process.hpp"

namespace flakescan::testing {

// Paths of things the build made, from the defines the test targets get.
std::filesystem::path build_path(const std::string& relative);
// The classpath of the jvm-basic example (its jar plus Debian's JUnit jars).
std::string jvm_basic_classpath();
// A fresh, empty folder under the system temp dir.
std::filesystem::path fresh_dir(const std::string& name);

class DaemonProcess {
 public:
  // Starts flakescand with --listen 127.0.0.1:0 on `data_dir` (plus `extra_args`, e.g.
  // {"--adb-server", fake.address()}) and waits for its port. With `cwd`, the daemon starts
  // there and is given `data_dir` relative to it, as a user typing a short path would.
  explicit DaemonProcess(std::filesystem::path data_dir, std::vector<std::string> extra_args = {},
                         std::filesystem::path cwd = {});
  ~DaemonProcess();

  app::HttpClient& client() { return *client_; }
  std::string url() const { return client_->url().str(); }
  pid_t pid() const { return child_->pid(); }
  const std::filesystem::path& data_dir() const { return data_dir_; }
  void kill_hard();          // SIGKILL, as a crash would
  int terminate();           // SIGTERM, then wait; returns the exit code

  nlohmann::json get_json(const std::string& path);
  // Submits a scan and waits until it finishes; returns the final status.
  nlohmann::json run_scan(const nlohmann::json& body, int timeout_seconds = 600);

 private:
  std::filesystem::path data_dir_;
  std::unique_ptr<util::Child> child_;
  std::unique_ptr<app::HttpClient> client_;
};

}  // namespace flakescan::testing
