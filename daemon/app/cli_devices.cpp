// `flakescan devices`: the Android devices and emulators the adb server(s) see, with their
// states (device, offline, unauthorized, ...). Asks the adb servers directly (host:devices-l),
// so it works without a daemon; GET /v1/devices on the daemon shows the same list plus
// which devices are busy with runs.
#include <cstdio>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "adb/client.hpp"
#include "app/cli_commands.hpp"
#include "app/cli_options.hpp"

namespace flakescan::app {

namespace {

const char* devices_usage =
    "usage: flakescan devices [--adb HOST:PORT]... [--json]\n\n"
    "  --adb HOST:PORT   an adb server to ask; may repeat (default $ANDROID_ADB_SERVER_PORT on\n"
    "                    127.0.0.1, else 127.0.0.1:5037). Remote adb servers and device farms\n"
    "                    that expose adb are listed the same way.\n"
    "  --json            machine-readable output (the body GET /v1/devices returns)\n\n"
    "Exit status: 0 when every server answered, 1 when one could not be reached, 2 on usage errors.\n";

}  // namespace

int cli_devices(const Args& args) {
  auto opts = parse_options(args, {"adb"}, {"json", "help"});
  if (!opts) {
    std::fprintf(stderr, "flakescan devices: %s\n\n%s", opts.error().message.c_str(), devices_usage);
    return 2;
  }
  if (opts->has("help")) {
    std::fputs(devices_usage, stdout);
    return 0;
  }
  std::vector<adb::ServerAddress> servers;
  if (auto it = opts->values.find("adb"); it != opts->values.end()) {
    for (const auto& s : it->second) {
      auto addr = adb::ServerAddress::parse(s);
      if (!addr) {
        std::fprintf(stderr, "flakescan devices: %s\n", addr.error().message.c_str());
        return 2;
      }
      servers.push_back(*addr);
    }
  } else {
    adb::ServerAddress def;
    if (const char* port = std::getenv("ANDROID_ADB_SERVER_PORT")) {
      auto addr = adb::ServerAddress::parse(std::string(":") + port);
      if (addr) def = *addr;
    }
    servers.push_back(def);
  }
  int status = 0;
  nlohmann::json list = nlohmann::json::array();
  if (!opts->has("json")) std::printf("%-22s %-24s %-14s %s\n", "SERVER", "SERIAL", "STATE", "MODEL");
  for (const auto& server : servers) {
    adb::Client client(server);
    auto devices = client.devices(adb::after(std::chrono::milliseconds(5000)));
    if (!devices) {
      std::fprintf(stderr, "flakescan devices: %s: %s\n", server.str().c_str(), util::describe(devices.error()).c_str());
      status = 1;
      continue;
    }
    for (const auto& d : *devices) {
      std::string state = d.state_text.empty() ? std::string(adb::device_state_name(d.state)) : d.state_text;
      list.push_back({{"server", server.str()}, {"serial", d.serial}, {"state", state}, {"model", d.model},
                      {"product", d.product}, {"busy", false}, {"runs", 0}});
      if (!opts->has("json"))
        std::printf("%-22s %-24s %-14s %s\n", server.str().c_str(), d.serial.c_str(), state.c_str(), d.model.c_str());
    }
  }
  if (opts->has("json")) std::printf("%s\n", nlohmann::json{{"devices", list}}.dump(2).c_str());
  return status;
}

}  // namespace flakescan::app
