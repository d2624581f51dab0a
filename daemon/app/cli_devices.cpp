// `flakescan devices`: the Android devices and emulators the adb server(s) see, with their
// states (device, offline, unauthorized, ...). By default it asks the daemon (GET
// /v1/devices: its configured adb servers, which devices are busy with runs); with --adb it
// asks those adb servers directly (host:devices-l), without a daemon.
#include <cstdio>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "adb_protocol/server_client.hpp"
#include "app/cli_commands.hpp"

namespace flakescan::app {

namespace {

using nlohmann::json;

struct DevicesOptions {
  std::vector<std::string> adb;
  std::vector<adb_protocol::ServerAddress> servers;  // parsed by check()
};

void print_table(const json& devices) {
  std::printf("%-22s %-24s %-14s %-20s %s\n", "SERVER", "SERIAL", "STATE", "MODEL", "BUSY");
  for (const auto& d : devices) {
    std::printf("%-22s %-24s %-14s %-20s %s\n", d.value("server", "").c_str(), d.value("serial", "").c_str(),
                d.value("state", "").c_str(), d.value("model", "").c_str(), d.value("busy", false) ? "yes" : "no");
  }
}

// Straight from the adb servers: 1 when one of them could not be asked.
int from_adb(const DevicesOptions& o, const CommonOptions& common) {
  int status = 0;
  json list = json::array();
  for (const auto& server : o.servers) {
    adb_protocol::Client client(server);
    auto devices = client.devices(adb_protocol::after(std::chrono::milliseconds(5000)));
    if (!devices) {
      std::fprintf(stderr, "flakescan devices: %s: %s\n", server.str().c_str(), util::describe(devices.error()).c_str());
      status = 1;
      continue;
    }
    for (const auto& d : *devices) {
      std::string state = d.state_text.empty() ? std::string(adb_protocol::device_state_name(d.state)) : d.state_text;
      list.push_back({{"server", server.str()}, {"serial", d.serial}, {"state", state}, {"model", d.model},
                      {"product", d.product}, {"busy", false}, {"runs", 0}});
    }
  }
  if (common.json) std::printf("%s\n", json{{"devices", list}}.dump(2).c_str());
  else print_table(list);
  return status;
}

int from_daemon(const CommonOptions& common) {
  auto conn = open_daemon("devices", common);
  if (!conn) return 1;
  auto r = conn->client().request("GET", "/v1/devices");
  if (!r) {
    std::fprintf(stderr, "flakescan devices: could not run: %s\n", r.error().message.c_str());
    return 1;
  }
  json body = r->status == 200 ? json::parse(r->body, nullptr, false) : json();
  if (!body.is_object() || !body["devices"].is_array()) {
    std::fprintf(stderr, "flakescan devices: the daemon refused (HTTP %d): %s\n", r->status, problem_detail(*r).c_str());
    return 1;
  }
  if (common.json) std::printf("%s\n", body.dump(2).c_str());
  else print_table(body["devices"]);
  return 0;
}

}  // namespace

CommandDef devices_command() {
  return {
      .name = "devices",
      .summary = "list the Android devices and emulators the adb server(s) see, with their states",
      .reach = Reach::daemon,
      .json_help = "print {\"devices\": [...]} (the body of GET /v1/devices) instead of the table",
      .quiet_help = "no status lines on stderr (a daemon started here)",
      .define =
          [](CLI::App& cmd) {
            auto o = std::make_shared<DevicesOptions>();
            cmd.description(
                "Lists devices with their adb states (device, offline, unauthorized, ...). By default asks the\n"
                "daemon, which lists what its adb servers (flakescand --adb-server, default 127.0.0.1:5037) see\n"
                "and which devices are busy with runs. With --adb it asks those adb servers itself, without a\n"
                "daemon (--daemon and --keep-daemon are then not used).\n"
                "  flakescan devices [--json]\n"
                "  flakescan devices --adb HOST:PORT [--adb HOST:PORT ...] [--json]");
            cmd.add_option("--adb", o->adb,
                           "ask this adb server directly; may repeat. Remote adb servers and device farms that expose "
                           "adb are listed the same way.")
                ->type_name("HOST:PORT")
                ->allow_extra_args(false);
            cmd.footer("Exit status: 0 when the daemon (or every adb server) answered, 1 when one could not be asked,\n"
                       "2 on usage errors.");
            return Command{.check = [o](const CommonOptions&) -> std::string {
                             o->servers.clear();
                             for (const auto& text : o->adb) {
                               auto address = adb_protocol::ServerAddress::parse(text);
                               if (!address) return "--adb " + text + ": " + address.error().message;
                               o->servers.push_back(*address);
                             }
                             return {};
                           },
                           .run = [o](const CommonOptions& common) {
                             return o->servers.empty() ? from_daemon(common) : from_adb(*o, common);
                           }};
          },
  };
}

}  // namespace flakescan::app
