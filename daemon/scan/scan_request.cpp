#include "scan/scan_request.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/class_prefix.hpp"

namespace flakescan::scan {

namespace {

using nlohmann::json;
using util::Errc;

util::Error bad(const std::string& field, const std::string& what) {
  return util::Error{Errc::invalid_argument, "'" + field + "' " + what};
}

util::Result<std::vector<std::string>> string_list(const json& v, const std::string& field, char split = 0) {
  std::vector<std::string> out;
  if (v.is_string() && split) {
    std::string s = v.get<std::string>();
    size_t start = 0;
    while (start <= s.size()) {
      size_t end = s.find(split, start);
      if (end == std::string::npos) end = s.size();
      if (end > start) out.push_back(s.substr(start, end - start));
      start = end + 1;
    }
    return out;
  }
  if (!v.is_array()) return std::unexpected(bad(field, split ? "must be a string or an array of strings" : "must be an array of strings"));
  for (const auto& e : v) {
    if (!e.is_string()) return std::unexpected(bad(field, "must contain only strings"));
    out.push_back(e.get<std::string>());
  }
  return out;
}

util::Result<int> integer(const json& v, const std::string& field, int min, int max) {
  if (!v.is_number_integer()) return std::unexpected(bad(field, "must be an integer"));
  auto n = v.get<std::int64_t>();
  if (n < min || n > max)
    return std::unexpected(bad(field, "must be between " + std::to_string(min) + " and " + std::to_string(max)));
  return int(n);
}

}  // namespace

namespace {

// Each parser below reads one group of fields into `r`; parse_scan_request calls them in a fixed
// order, so a body with several mistakes is always answered with the same first one.

util::Result<void> check_field_names(const json& body) {
  static const std::set<std::string> fields{"backend", "classpath", "tests", "techniques", "runs", "isolation", "seed", "strategy",
                                            "timeout_seconds", "budget", "parallelism", "jvm_args", "working_dir",
                                            "sources", "adb", "shuffle", "threads", "shard", "group", "new_since"};
  for (const auto& [key, value] : body.items())
    if (!fields.contains(key)) return util::fail(Errc::invalid_argument, "unknown field '" + key + "'");
  return {};
}

// backend, tests, and what the backend needs (classpath or adb).
util::Result<void> parse_target(const json& body, ScanRequest& r) {
  if (body.contains("backend")) {
    if (!body["backend"].is_string()) return std::unexpected(bad("backend", "must be a string"));
    r.backend = body["backend"];
    if (r.backend != "local" && r.backend != "adb")
      return std::unexpected(bad("backend", "must be \"local\" or \"adb\""));
  }
  if (!body.contains("tests")) return util::fail(Errc::invalid_argument, "'tests' is required");
  auto tests = string_list(body["tests"], "tests", ',');
  if (!tests) return std::unexpected(tests.error());
  if (tests->empty()) return std::unexpected(bad("tests", "must name at least one test"));
  if (tests->size() > 100000) return util::fail(Errc::too_large, "'tests' names more than 100000 tests");
  for (const auto& t : *tests) {
    auto id = core::TestId::parse(t);
    if (!id) return std::unexpected(bad("tests", id.error().message));
    if (std::find(r.tests.begin(), r.tests.end(), *id) == r.tests.end()) r.tests.push_back(*id);
  }
  if (r.backend == "local") {
    if (!body.contains("classpath")) return util::fail(Errc::invalid_argument, "'classpath' is required for the local backend");
    auto cp = string_list(body["classpath"], "classpath", ':');
    if (!cp) return std::unexpected(cp.error());
    if (cp->empty()) return std::unexpected(bad("classpath", "must not be empty"));
    r.classpath = std::move(*cp);
  } else {
    if (!body.contains("adb") || !body["adb"].is_object())
      return util::fail(Errc::invalid_argument, "'adb' settings are required for the adb backend");
    r.adb = body["adb"];
  }
  return {};
}

util::Result<void> parse_techniques(const json& body, const std::vector<std::string>& known_techniques, ScanRequest& r) {
  if (!body.contains("techniques")) return {};
  auto t = string_list(body["techniques"], "techniques", ',');
  if (!t) return std::unexpected(t.error());
  if (t->empty()) return std::unexpected(bad("techniques", "must name at least one technique"));
  for (const auto& name : *t) {
    if (std::find(known_techniques.begin(), known_techniques.end(), name) == known_techniques.end()) {
      std::string known;
      for (const auto& k : known_techniques) known += (known.empty() ? "" : ", ") + k;
      return std::unexpected(bad("techniques", "names an unknown technique '" + name + "' (known: " + known + ")"));
    }
  }
  r.techniques.clear();
  for (const auto& name : *t)
    if (std::find(r.techniques.begin(), r.techniques.end(), name) == r.techniques.end()) r.techniques.push_back(name);
  return {};
}

// runs, isolation, seed, strategy, timeout_seconds.
util::Result<void> parse_run_settings(const json& body, ScanRequest& r) {
  if (body.contains("runs")) {
    auto n = integer(body["runs"], "runs", 1, 10000);
    if (!n) return std::unexpected(n.error());
    r.budget.runs_per_test = *n;
  }
  if (body.contains("isolation")) {
    const auto& v = body["isolation"];
    if (!v.is_string() || (v != "fresh_jvm" && v != "shared_jvm"))
      return std::unexpected(bad("isolation", "must be \"fresh_jvm\" or \"shared_jvm\""));
    r.fresh_jvm_per_run = v == "fresh_jvm";
  }
  if (body.contains("seed")) {
    if (!body["seed"].is_number_unsigned()) return std::unexpected(bad("seed", "must be a non-negative integer"));
    r.seed = body["seed"].get<std::uint64_t>();
  }
  if (body.contains("strategy")) {
    const auto& v = body["strategy"];
    auto s = v.is_string() ? core::parse_strategy(v.get<std::string>()) : std::nullopt;
    if (!s) return std::unexpected(bad("strategy", "must be \"flakescanner\", \"maxdiff\" or \"both\""));
    r.strategy = *s;
  }
  if (body.contains("timeout_seconds")) {
    auto n = integer(body["timeout_seconds"], "timeout_seconds", 1, 86400);
    if (!n) return std::unexpected(n.error());
    r.timeout_seconds = *n;
  }
  return {};
}

// shard, group, new_since: which share of the tests this scan runs.
util::Result<void> parse_selection(const json& body, ScanRequest& r) {
  if (body.contains("shard")) {
    if (!body["shard"].is_string()) return std::unexpected(bad("shard", "must be a string \"I/N\""));
    auto shard = core::parse_shard(body["shard"].get<std::string>());
    if (!shard) return std::unexpected(shard.error());
    r.shard = *shard;
  }
  if (body.contains("group")) {
    if (!body["group"].is_string()) return std::unexpected(bad("group", "must be a string"));
    auto group = core::check_group(body["group"].get<std::string>());
    if (!group) return std::unexpected(group.error());
    r.group = *group;
  }
  if (body.contains("new_since")) {
    const auto& v = body["new_since"];
    if (!v.is_string() || v.get<std::string>().empty() || v.get<std::string>().size() > 255)
      return std::unexpected(bad("new_since", "must be a branch name (1-255 characters)"));
    r.new_since = v.get<std::string>();
  }
  if (r.shard && r.group.empty())
    return util::fail(Errc::invalid_argument, "a sharded scan needs a 'group' naming all its shards (e.g. the CI run id)");
  if (!r.group.empty() && !r.shard) r.shard = core::Shard{1, 1};
  return {};
}

// parallelism, jvm_args, working_dir, sources: how the test processes are started.
util::Result<void> parse_process_settings(const json& body, ScanRequest& r) {
  if (body.contains("parallelism")) {
    auto n = integer(body["parallelism"], "parallelism", 1, 256);
    if (!n) return std::unexpected(n.error());
    r.parallelism = *n;
  }
  if (body.contains("jvm_args")) {
    auto a = string_list(body["jvm_args"], "jvm_args");
    if (!a) return std::unexpected(a.error());
    r.jvm_args = std::move(*a);
  }
  if (body.contains("working_dir")) {
    // Tests open files relative to it ("src/test/resources/...") as they do under Maven and
    // Gradle; a mistake here would turn every such test into a failing one, so it must exist.
    const auto& w = body["working_dir"];
    if (!w.is_string()) return std::unexpected(bad("working_dir", "must be a string"));
    std::string dir = w;
    std::error_code ec;
    if (dir.empty() || dir.front() != '/') return std::unexpected(bad("working_dir", "must be an absolute path"));
    if (!std::filesystem::is_directory(dir, ec)) return std::unexpected(bad("working_dir", "is not a directory: " + dir));
    r.working_dir = std::move(dir);
  }
  if (body.contains("sources")) {
    // repair: where the tests' sources are, so a patch names the real file.
    auto a = string_list(body["sources"], "sources");
    if (!a) return std::unexpected(a.error());
    for (const auto& dir : *a) {
      std::error_code ec;
      if (dir.empty() || dir.front() != '/') return std::unexpected(bad("sources", "must hold absolute paths: " + dir));
      if (!std::filesystem::is_directory(dir, ec)) return std::unexpected(bad("sources", "is not a directory: " + dir));
    }
    r.sources = std::move(*a);
  }
  return {};
}

// technique shuffle: {"seeds": 1..100, "mode": "full" | "one"}; suite: {"rounds": 0..100}
util::Result<void> parse_shuffle(const json& body, ScanRequest& r) {
  if (!body.contains("shuffle")) return {};
  const auto& s = body["shuffle"];
  if (!s.is_object()) return std::unexpected(bad("shuffle", "must be an object"));
  for (const auto& [key, value] : s.items()) {
    if (key == "seeds") {
      auto n = integer(value, "shuffle.seeds", 1, 100);
      if (!n) return std::unexpected(n.error());
      r.shuffle_seeds = *n;
    } else if (key == "rounds") {
      auto n = integer(value, "shuffle.rounds", 0, 100);
      if (!n) return std::unexpected(n.error());
      r.shuffle_rounds = *n;
    } else if (key == "mode") {
      if (!value.is_string() || (value != "full" && value != "one"))
        return std::unexpected(bad("shuffle.mode", "must be \"full\" (a new order for every call) or \"one\" (one per call site)"));
      r.shuffle_mode = value;
    } else {
      return util::fail(Errc::invalid_argument, "unknown field 'shuffle." + key + "'");
    }
  }
  return {};
}

// technique threads: {"strategy": "pct" | "pos" | "random", "schedules": 1..10000,
// "depth": 1..20, "virtual_time": true | false, "max_steps": 1..100000000,
// "include": ["class-name prefix", ...] (1..100 of them)}
// threads.include: class-name prefixes ("org.apache.derby.", "com.acme.Cache"), which the
// agent gets comma-separated: dotted Java identifiers, a trailing dot allowed.
util::Result<std::vector<std::string>> class_prefixes(const json& value) {
  const std::string why = "must be a list of 1 to 100 class-name prefixes such as \"org.example.\"";
  if (!value.is_array() || value.empty() || value.size() > 100) return std::unexpected(bad("threads.include", why));
  std::vector<std::string> out;
  for (const auto& v : value) {
    if (!v.is_string() || !core::is_class_prefix(v.get<std::string>())) return std::unexpected(bad("threads.include", why));
    out.push_back(v.get<std::string>());
  }
  return out;
}

util::Result<void> parse_threads(const json& body, ScanRequest& r) {
  if (!body.contains("threads")) return {};
  const auto& t = body["threads"];
  if (!t.is_object()) return std::unexpected(bad("threads", "must be an object"));
  for (const auto& [key, value] : t.items()) {
    if (key == "strategy") {
      if (!value.is_string() || (value != "pct" && value != "pos" && value != "random"))
        return std::unexpected(bad("threads.strategy", "must be \"pct\" (PCT with a bug depth), \"pos\" (partial order sampling) or \"random\""));
      r.threads.strategy = value;
    } else if (key == "schedules") {
      auto n = integer(value, "threads.schedules", 1, 10000);
      if (!n) return std::unexpected(n.error());
      r.threads.schedules = *n;
    } else if (key == "depth") {
      auto n = integer(value, "threads.depth", 1, 20);
      if (!n) return std::unexpected(n.error());
      r.threads.depth = *n;
    } else if (key == "virtual_time") {
      if (!value.is_boolean()) return std::unexpected(bad("threads.virtual_time", "must be true or false"));
      r.threads.virtual_time = value.get<bool>();
    } else if (key == "max_steps") {
      auto n = integer(value, "threads.max_steps", 1, 100000000);
      if (!n) return std::unexpected(n.error());
      r.threads.max_steps = *n;
    } else if (key == "include") {
      auto prefixes = class_prefixes(value);
      if (!prefixes) return std::unexpected(prefixes.error());
      r.threads.include = std::move(*prefixes);
    } else {
      return util::fail(Errc::invalid_argument, "unknown field 'threads." + key + "'");
    }
  }
  return {};
}

util::Result<void> parse_budget(const json& body, ScanRequest& r) {
  if (!body.contains("budget")) return {};
  const auto& b = body["budget"];
  if (!b.is_object()) return std::unexpected(bad("budget", "must be an object"));
  for (const auto& [key, value] : b.items()) {
    int* slot = key == "max_runs" ? &r.budget.max_runs
              : key == "max_seconds" ? &r.budget.max_seconds
              : key == "max_orders" ? &r.budget.max_orders
              : key == "max_runs_per_test" ? &r.budget.max_runs_per_test
              : key == "max_seconds_per_test" ? &r.budget.max_seconds_per_test : nullptr;
    if (!slot) return util::fail(Errc::invalid_argument, "unknown field 'budget." + key + "'");
    auto n = integer(value, "budget." + key, 1, 10000000);
    if (!n) return std::unexpected(n.error());
    *slot = *n;
  }
  return {};
}

}  // namespace

util::Result<ScanRequest> parse_scan_request(const json& body, const std::vector<std::string>& known_techniques) {
  if (!body.is_object()) return util::fail(Errc::invalid_argument, "the request body must be a JSON object");
  if (auto ok = check_field_names(body); !ok) return std::unexpected(ok.error());
  ScanRequest r;
  if (auto ok = parse_target(body, r); !ok) return std::unexpected(ok.error());
  if (auto ok = parse_techniques(body, known_techniques, r); !ok) return std::unexpected(ok.error());
  for (auto parse : {parse_run_settings, parse_selection, parse_process_settings, parse_shuffle, parse_threads, parse_budget})
    if (auto ok = parse(body, r); !ok) return std::unexpected(ok.error());
  return r;
}

nlohmann::json ScanRequest::to_json() const {
  json tests_json = json::array();
  for (const auto& t : tests) tests_json.push_back(t.str());
  json j{{"backend", backend},
         {"tests", tests_json},
         {"techniques", techniques},
         {"runs", budget.runs_per_test},
         {"isolation", fresh_jvm_per_run ? "fresh_jvm" : "shared_jvm"},
         {"seed", seed},
         {"timeout_seconds", timeout_seconds},
         {"strategy", core::strategy_name(strategy)},
         {"budget", {{"max_runs", budget.max_runs}, {"max_seconds", budget.max_seconds},
                     {"max_runs_per_test", budget.max_runs_per_test}, {"max_seconds_per_test", budget.max_seconds_per_test}}},
         {"jvm_args", jvm_args},
         {"shuffle", {{"seeds", shuffle_seeds}, {"mode", shuffle_mode}, {"rounds", shuffle_rounds}}},
         {"threads", {{"strategy", threads.strategy}, {"schedules", threads.schedules}, {"depth", threads.depth},
                      {"virtual_time", threads.virtual_time}, {"max_steps", threads.max_steps}}}};
  if (!threads.include.empty()) j["threads"]["include"] = threads.include;
  if (backend == "local") j["classpath"] = classpath;
  if (budget.max_orders > 0) j["budget"]["max_orders"] = budget.max_orders;  // 0: the default for the tests
  if (parallelism > 0) j["parallelism"] = parallelism;
  if (shard) j["shard"] = shard->str();
  if (!group.empty()) j["group"] = group;
  if (!new_since.empty()) j["new_since"] = new_since;
  if (!working_dir.empty()) j["working_dir"] = working_dir;
  if (!sources.empty()) j["sources"] = sources;
  if (!adb.is_null()) j["adb"] = adb;
  return j;
}

util::Result<ReplayRequest> parse_replay_request(const nlohmann::json& body) {
  if (!body.is_object() || !body.contains("test") || !body["test"].is_string())
    return util::fail(util::Errc::invalid_argument, "'test' (pkg.Class#method) is required");
  for (const auto& [key, value] : body.items())
    if (key != "test" && key != "runs") return util::fail(util::Errc::invalid_argument, "unknown field '" + key + "'");
  ReplayRequest r;
  r.test = body["test"];
  if (body.contains("runs")) {
    if (!body["runs"].is_number_integer() || body["runs"] < 1 || body["runs"] > 100)
      return util::fail(util::Errc::invalid_argument, "'runs' must be an integer between 1 and 100");
    r.runs = body["runs"];
  }
  return r;
}

std::string budget_warning(const ScanRequest& request, std::size_t tests) {
  const auto& r = request.techniques;
  if (tests == 0 || !request.fresh_jvm_per_run || std::find(r.begin(), r.end(), "rerun") == r.end()) return {};
  const long long per_test = std::max(1, request.budget.runs_per_test);
  const long long wanted = per_test * static_cast<long long>(tests);
  const long long cap = std::max(1, request.budget.max_runs);
  if (wanted <= cap) return {};
  const long long fewest = cap / static_cast<long long>(tests);
  std::string each = fewest == 0 ? "some tests get no run"
                     : cap % static_cast<long long>(tests) == 0
                         ? "each test gets " + std::to_string(fewest)
                         : "each test gets " + std::to_string(fewest) + " or " + std::to_string(fewest + 1);
  return "rerun asks for " + std::to_string(wanted) + " runs (" + std::to_string(tests) + " tests x " +
         std::to_string(per_test) + "), more than the scan's run budget of " + std::to_string(cap) + " (--max-runs): " +
         each + "; the verdicts say how many were made";
}

nlohmann::json ReplayRequest::to_json() const { return {{"test", test}, {"runs", runs}}; }

}  // namespace flakescan::scan
