// `flakescan verdicts --group G`: the merged verdict file of a sharded scan (every shard's
// verdicts, GET /v1/groups/{group}/verdicts), for a CI matrix's merge job. It is a verdict file
// like the one `flakescan scan` writes, so `flakescan report --verdicts` turns it into the
// report, SARIF and quarantine list.
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli_commands.hpp"
#include "core/shard.hpp"

namespace flakescan::app {

namespace {

using nlohmann::json;

struct VerdictsOptions {
  std::string group;
  std::string out;
  bool allow_incomplete = false;
};

void print_summary(const json& file) {
  const auto& g = file["group"];
  std::fprintf(stderr, "group %s: %zu of %d shards%s\n", g["name"].get<std::string>().c_str(), g["shards"].size(),
               g["count"].get<int>(), g["complete"].get<bool>() ? ", all completed" : "");
  for (const auto& s : g["shards"])
    std::fprintf(stderr, "  shard %s: scan %s %s, %d runs, %d verdicts (daemon %s)\n", s["shard"].get<std::string>().c_str(),
                 s["scan"].get<std::string>().c_str(), s["state"].get<std::string>().c_str(), s["runs"].get<int>(),
                 s["verdicts"].get<int>(), s["daemon"].get<std::string>().c_str());
  for (const auto& m : g["missing"]) std::fprintf(stderr, "  shard %s: missing\n", m.get<std::string>().c_str());
  std::map<std::string, int> kinds;
  for (const auto& v : file["verdicts"]) ++kinds[v.value("verdict", "?")];
  std::string counts;
  for (const auto& [kind, n] : kinds) counts += (counts.empty() ? "" : ", ") + std::to_string(n) + " " + kind;
  std::fprintf(stderr, "%zu verdicts%s%s\n", file["verdicts"].size(), counts.empty() ? "" : ": ", counts.c_str());
}

int run_verdicts(const VerdictsOptions& o, const CommonOptions& common) {
  auto conn = open_daemon("verdicts", common);
  if (!conn) return 1;
  auto r = conn->client().request("GET", "/v1/groups/" + o.group + "/verdicts");
  if (!r) {
    std::fprintf(stderr, "flakescan verdicts: could not run: %s\n", r.error().message.c_str());
    return 1;
  }
  if (r->status != 200) {
    std::fprintf(stderr, "flakescan verdicts: the daemon refused (HTTP %d): %s\n", r->status, problem_detail(*r).c_str());
    return r->status == 400 ? 2 : 1;
  }
  json file = json::parse(r->body, nullptr, false);
  if (!file.is_object() || !file.contains("group")) {
    std::fprintf(stderr, "flakescan verdicts: the daemon's answer is not a group verdict file\n");
    return 1;
  }
  if (!common.quiet) print_summary(file);
  std::string text = file.dump(2) + "\n";
  if (o.out.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
  } else {
    std::ofstream out(o.out, std::ios::binary);
    out << text;
    if (!out) {
      std::fprintf(stderr, "flakescan verdicts: cannot write %s\n", o.out.c_str());
      return 1;
    }
  }
  bool complete = file["group"]["complete"].get<bool>();
  if (!complete && !o.allow_incomplete) {
    std::fprintf(stderr, "flakescan verdicts: group %s is incomplete (a shard is missing or did not complete)\n", o.group.c_str());
    return 3;
  }
  return 0;
}

}  // namespace

CommandDef verdicts_command() {
  return {
      .name = "verdicts",
      .summary = "merge the verdicts of a sharded scan's group (flakescan scan --shard I/N --group G)",
      .reach = Reach::daemon,
      .json_help = "the output is always the JSON verdict file",
      .quiet_help = "no summary on stderr",
      .define =
          [](CLI::App& cmd) {
            auto o = std::make_shared<VerdictsOptions>();
            cmd.description("Merges the verdicts of every shard of a group, as one scan would have decided from the same\n"
                            "runs, into one verdict file (for `flakescan report --verdicts`). The daemon must use the store\n"
                            "the shards' daemons wrote to (flakescand --store postgresql://...).");
            cmd.add_option("--group", o->group, "the group the shards were run under (required)")->type_name("G")->required();
            cmd.add_option("--out", o->out, "write the verdict file to FILE instead of stdout")->type_name("FILE");
            cmd.add_flag("--allow-incomplete", o->allow_incomplete, "exit 0 even when a shard is missing or did not complete");
            cmd.footer("Exit status: 0 merged (every shard completed), 1 could not ask, 2 usage error, 3 merged but a\n"
                       "shard is missing or did not complete.");
            return Command{.check = [o](const CommonOptions&) -> std::string {
                             if (auto ok = core::check_group(o->group); !ok) return ok.error().message;
                             return {};
                           },
                           .run = [o](const CommonOptions& common) { return run_verdicts(*o, common); }};
          },
  };
}

}  // namespace flakescan::app
