#include "support/daemon/daemon_process.hpp"

#include <chrono>
#include <csignal>
#include <fstream>
#include <stdexcept>
#include <thread>
#include <unistd.h>

namespace flakescan::testing {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

fs::path build_path(const std::string& relative) { return fs::path(FLAKESCAN_BINARY_DIR) / relative; }

std::string jvm_basic_classpath() {
  std::string cp = build_path("examples/jvm-basic.jar").string();
  for (const char* jar : {"junit4.jar", "hamcrest-core.jar", "junit-jupiter-api.jar", "opentest4j.jar", "apiguardian-api.jar"})
    cp += ":/usr/share/java/" + std::string(jar);
  return cp;
}

fs::path fresh_dir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("flakescan-test-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

DaemonProcess::DaemonProcess(fs::path data_dir, std::vector<std::string> extra_args, fs::path cwd)
    : data_dir_(std::move(data_dir)) {
  fs::create_directories(data_dir_);
  fs::path port_file = data_dir_ / "port";
  fs::remove(port_file);
  std::vector<std::string> argv{build_path("daemon/app/flakescand").string(), "--listen", "127.0.0.1:0",
                                "--data-dir", cwd.empty() ? data_dir_.string() : fs::relative(data_dir_, cwd).string(),
                                "--port-file", port_file.string()};
  argv.insert(argv.end(), extra_args.begin(), extra_args.end());
  auto child = util::Child::spawn({.argv = argv,
                                   .extra_env = {"FLAKESCAN_LOG=info"},
                                   .working_dir = cwd.string(),
                                   .stdout_path = (data_dir_ / "daemon.log").string()});
  if (!child) throw std::runtime_error("cannot start flakescand: " + child.error().message);
  child_ = std::make_unique<util::Child>(std::move(*child));
  for (int i = 0; i < 1000 && !fs::exists(port_file); ++i) std::this_thread::sleep_for(20ms);
  std::string port;
  std::ifstream(port_file) >> port;
  if (port.empty()) throw std::runtime_error("flakescand did not write its port; see " + (data_dir_ / "daemon.log").string());
  app::Url url;
  url.port = port;
  client_ = std::make_unique<app::HttpClient>(url);
}

DaemonProcess::~DaemonProcess() {
  if (child_) terminate();
}

void DaemonProcess::kill_hard() {
  ::kill(child_->pid(), SIGKILL);
  auto status = child_->wait(std::chrono::steady_clock::now() + 10s);
  (void)status;
  child_.reset();
}

int DaemonProcess::terminate() {
  if (!child_) return -1;
  ::kill(child_->pid(), SIGTERM);
  auto status = child_->wait(std::chrono::steady_clock::now() + 30s);
  child_.reset();
  if (!status) return -1;
  return status->exited ? status->code : 128 + status->signal;
}

nlohmann::json DaemonProcess::get_json(const std::string& path) {
  auto r = client_->request("GET", path);
  if (!r) throw std::runtime_error("GET " + path + ": " + r.error().message);
  auto j = nlohmann::json::parse(r->body, nullptr, false);
  if (j.is_discarded()) throw std::runtime_error("GET " + path + " answered non-JSON: " + r->body);
  return j;
}

nlohmann::json DaemonProcess::run_scan(const nlohmann::json& body, int timeout_seconds) {
  auto r = client_->request("POST", "/v1/scans", body.dump());
  if (!r || r->status != 202) throw std::runtime_error("scan refused: " + (r ? r->body : r.error().message));
  std::string id = nlohmann::json::parse(r->body)["id"];
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  while (std::chrono::steady_clock::now() < until) {
    auto status = get_json("/v1/scans/" + id);
    std::string state = status["state"];
    if (state != "queued" && state != "running") return status;
    std::this_thread::sleep_for(200ms);
  }
  throw std::runtime_error("scan " + id + " did not finish within " + std::to_string(timeout_seconds) + " s");
}

}  // namespace flakescan::testing
