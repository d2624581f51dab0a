#include "support/tarpit/generator.hpp"

#include <fstream>

#include <nlohmann/json.hpp>

#include "support/tarpit/trace_builder.hpp"

namespace flakescan::tarpit::testing {

namespace {

// splitmix64: the same sequence on every platform, unlike std:: distributions.
struct Rng {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t n) { return n ? next() % n : 0; }
  double unit() { return double(next() >> 11) / double(1ull << 53); }
};

const char* const widget_classes[] = {"android.widget.TextView", "android.widget.Button", "android.widget.ImageView",
                                      "android.widget.EditText", "android.widget.CheckBox", "android.widget.Switch"};

struct Template {
  std::string activity;
  NodeSpec tree;
};

Template make_template(Rng& rng, const std::string& activity, const std::string& tag, int min_nodes, int max_nodes) {
  Template t;
  t.activity = activity;
  t.tree.cls = "com.android.internal.policy.DecorView";
  NodeSpec content;
  content.cls = "android.widget.LinearLayout";
  content.id = "com.example:id/content_" + tag;  // makes every template unique
  content.bounds = {0, 80, 1080, 1920};
  const int nodes = min_nodes + int(rng.below(std::uint64_t(max_nodes - min_nodes + 1)));
  int made = 2;
  int row = 0;
  while (made < nodes) {
    NodeSpec w;
    const int top = 100 + (row % 20) * 90;
    w.bounds = {20, top, 1060, top + 80};
    if (nodes - made >= 4 && rng.below(4) == 0) {
      w.cls = "android.widget.LinearLayout";
      w.id = "com.example:id/row" + std::to_string(row);
      ++made;
      for (int k = 0; k < 2 && made < nodes; ++k, ++made) {
        NodeSpec leaf;
        leaf.cls = widget_classes[rng.below(6)];
        leaf.id = "com.example:id/cell" + std::to_string(k);
        leaf.text = "cell " + std::to_string(k);
        leaf.bounds = {20 + 520 * k, top, 540 + 520 * k, top + 80};
        w.children.push_back(leaf);
      }
    } else {
      w.cls = widget_classes[rng.below(6)];
      w.id = rng.below(5) == 0 ? std::string("-1") : "com.example:id/w" + std::to_string(rng.below(30));
      w.text = "item " + std::to_string(row);
      ++made;
    }
    content.children.push_back(std::move(w));
    ++row;
  }
  t.tree.children.push_back(std::move(content));
  return t;
}

// Leaves of the tree, as child-index paths, to pick an element to act on.
void collect_paths(const NodeSpec& n, std::vector<int>& path, std::vector<std::vector<int>>& out) {
  if (!path.empty()) out.push_back(path);
  for (std::size_t k = 0; k < n.children.size(); ++k) {
    path.push_back(int(k));
    collect_paths(n.children[k], path, out);
    path.pop_back();
  }
}

NodeSpec& at_path(NodeSpec& root, const std::vector<int>& path) {
  NodeSpec* n = &root;
  for (int k : path) n = &n->children[std::size_t(k)];
  return *n;
}

NodeSpec instance(Rng& rng, const Template& t, double variant_probability) {
  NodeSpec s = t.tree;
  auto& content = s.children[0];
  // Text changes and invisible or off-screen decorations do not change the abstract screen.
  if (!content.children.empty()) content.children[0].text = "clock " + std::to_string(rng.below(1000));
  if (rng.below(3) == 0) {
    NodeSpec hidden;
    hidden.cls = "android.widget.ProgressBar";
    hidden.id = "com.example:id/spinner";
    hidden.hidden = true;
    content.children.push_back(hidden);
  }
  if (rng.below(3) == 0) {
    NodeSpec off;
    off.cls = "android.widget.TextView";
    off.id = "com.example:id/offscreen";
    off.bounds = {0, 2000, 1080, 2100};
    content.children.push_back(off);
  }
  if (rng.unit() < variant_probability) {
    const int extra = 1 + int(rng.below(3));
    for (int k = 0; k < extra; ++k) {
      NodeSpec bar;
      bar.cls = "com.google.android.material.snackbar.Snackbar";
      bar.id = "com.example:id/snackbar";
      bar.bounds = {0, 1700, 1080, 1900};
      content.children.push_back(bar);
    }
  }
  return s;
}

}  // namespace

GeneratedTrace generate_trace(const GeneratorConfig& config, std::string name) {
  Rng rng{config.seed};
  GeneratedTrace out;
  out.trace.name = std::move(name);
  out.trace.format = "toller";
  std::vector<Template> app;
  for (int a = 0; a < config.activities; ++a)
    for (int t = 0; t < config.templates_per_activity; ++t)
      app.push_back(make_template(rng, "com.example.app.Activity" + std::to_string(a),
                                  "a" + std::to_string(a) + "_t" + std::to_string(t), config.min_nodes,
                                  config.max_nodes));
  std::int64_t now = config.start_ms;
  auto advance = [&] {
    now += config.mean_interval_ms / 2 + std::int64_t(rng.below(std::uint64_t(config.mean_interval_ms) + 1));
    for (const auto& g : config.gaps)
      if (now >= config.start_ms + g.at_ms && now < config.start_ms + g.at_ms + g.length_ms)
        now = config.start_ms + g.at_ms + g.length_ms;
  };
  int tarpit_no = 0;
  bool first = true;
  for (const auto& phase : config.phases) {
    std::vector<Template> pool;
    if (phase.kind == Phase::explore) {
      pool = app;
    } else {
      ++tarpit_no;
      const std::string kind = phase.kind == Phase::local ? "local" : "partition";
      const std::string activity = phase.kind == Phase::local ? "com.example.app.LoopDialog" + std::to_string(tarpit_no)
                                                              : "com.example.app.Area" + std::to_string(tarpit_no);
      for (int k = 0; k < phase.screens; ++k)
        pool.push_back(make_template(rng, activity, kind + std::to_string(tarpit_no) + "_" + std::to_string(k),
                                     config.min_nodes, config.max_nodes));
      // The destructive action: a click, on the last screen before the phase, on a button
      // that names the tarpit.
      if (!out.trace.screens.empty()) {
        auto& last = out.trace.screens.back();
        auto spec = to_spec(out.trace, last);
        NodeSpec button;
        button.cls = "android.widget.Button";
        button.id = "com.example:id/enter_" + kind + "_" + std::to_string(tarpit_no);
        button.text = "Open " + kind;
        button.bounds = {100, 1500, 980, 1600};
        button.source = true;
        for (auto& c : spec.children) c.source = false;
        std::vector<std::vector<int>> paths;
        std::vector<int> path;
        collect_paths(spec, path, paths);
        for (auto& p : paths) at_path(spec, p).source = false;
        spec.children.push_back(button);
        const auto ts = last.time_ms;
        const auto activity_name = out.trace.pool.at(last.activity);
        out.trace.screens.pop_back();
        out.trace.timeline.pop_back();
        add_screen(out.trace, ts, activity_name, spec, ActionType::click);
        PlantedTarpit p;
        p.kind = phase.kind;
        p.action_ms = ts;
        p.element_id = button.id;
        out.planted.push_back(p);
      }
    }
    const std::int64_t phase_end = now + phase.duration_ms;
    bool phase_first = true;
    while (now < phase_end) {
      if (!first) advance();
      first = false;
      if (now >= phase_end && !phase_first) break;
      const auto& t = pool[rng.below(pool.size())];
      auto spec = instance(rng, t, config.variant_probability);
      std::vector<std::vector<int>> paths;
      std::vector<int> path;
      collect_paths(spec, path, paths);
      at_path(spec, paths[rng.below(paths.size())]).source = true;
      const auto action = rng.below(10) == 0 ? ActionType::back : ActionType::click;
      if (action == ActionType::back)
        for (auto& p : paths) at_path(spec, p).source = false;
      add_screen(out.trace, now, t.activity, spec, action);
      if (phase.kind != Phase::explore) {
        if (phase_first && !out.planted.empty()) out.planted.back().begin_ms = now;
        if (!out.planted.empty()) out.planted.back().end_ms = now;
      }
      phase_first = false;
    }
  }
  return out;
}

GeneratorConfig one_hour_config(std::size_t screens, std::uint64_t seed) {
  GeneratorConfig c;
  c.seed = seed;
  c.mean_interval_ms = std::max<std::int64_t>(1, 3'600'000 / std::int64_t(screens));
  c.phases = {Phase{Phase::explore, 3'600'000 - c.mean_interval_ms, 0}};
  return c;
}

namespace {

using nlohmann::json;

std::string bounds_text(const Bounds& b) {
  return "[" + std::to_string(b.left) + "," + std::to_string(b.top) + "][" + std::to_string(b.right) + "," +
         std::to_string(b.bottom) + "]";
}

json toller_node(const NodeSpec& n, int& hash) {
  json j;
  j["class"] = n.cls;
  j["ucls"] = n.cls.starts_with("android.widget.") ? n.cls : std::string("android.view.View");
  if (n.id != "-1") j["id"] = n.id;
  j["idn"] = n.id == "-1" ? -1 : 2131230000 + (hash % 1000);
  j["hash"] = ++hash;
  j["bound"] = bounds_text(n.bounds);
  j["en"] = true;
  if (!n.text.empty()) j["text"] = n.text;
  j["vis"] = n.hidden ? 8 : 0;
  if (n.source) j["is_source"] = true;
  if (!n.children.empty()) {
    j["ch"] = json::array();
    for (const auto& c : n.children) j["ch"].push_back(toller_node(c, hash));
  }
  return j;
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

void xml_node(const NodeSpec& n, int index, std::string& out, std::vector<int>& path, std::vector<int>& target) {
  out += "<node index=\"" + std::to_string(index) + "\" text=\"" + xml_escape(n.text) + "\" resource-id=\"" +
         (n.id == "-1" ? std::string() : xml_escape(n.id)) + "\" class=\"" + xml_escape(n.cls) +
         "\" package=\"com.example\" content-desc=\"\" checkable=\"false\" checked=\"false\" clickable=\"true\" "
         "enabled=\"true\" focusable=\"true\" focused=\"false\" scrollable=\"false\" long-clickable=\"false\" "
         "password=\"false\" selected=\"false\" visible-to-user=\"" +
         (n.hidden ? "false" : "true") + "\" bounds=\"" + bounds_text(n.bounds) + "\"";
  if (n.source) target = path;
  if (n.children.empty()) {
    out += " />";
    return;
  }
  out += ">";
  for (std::size_t k = 0; k < n.children.size(); ++k) {
    path.push_back(int(k));
    xml_node(n.children[k], int(k), out, path, target);
    path.pop_back();
  }
  out += "</node>";
}

}  // namespace

std::vector<std::pair<std::string, std::string>> toller_files(const Trace& trace) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& s : trace.screens) {
    int hash = 0;
    json root = toller_node(to_spec(trace, s), hash);
    root["act_id"] = trace.pool.at(s.activity);
    root["focus"] = s.focus;
    root["ua_type"] = s.action == ActionType::back ? 100 : s.action == ActionType::long_click ? 1 : 0;
    root.erase("vis");
    files.emplace_back(std::to_string(s.time_ms) + ".json", root.dump());
  }
  return files;
}

std::vector<std::pair<std::string, std::string>> recorded_files(const Trace& trace) {
  std::vector<std::pair<std::string, std::string>> files;
  std::string actions;
  for (const auto& s : trace.screens) {
    std::string xml = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">";
    std::vector<int> path{0}, target;
    xml_node(to_spec(trace, s), 0, xml, path, target);
    xml += "</hierarchy>";
    const auto file = "screens/" + std::to_string(s.time_ms) + ".xml";
    json line;
    line["ts"] = s.time_ms;
    line["screen"] = file;
    line["activity"] = trace.pool.at(s.activity);
    line["action"] = std::string(action_type_name(s.action));
    if (!target.empty()) line["target"] = target;
    actions += line.dump() + "\n";
    files.emplace_back(file, std::move(xml));
  }
  files.emplace_back("actions.jsonl", std::move(actions));
  return files;
}

void write_files(const std::filesystem::path& dir, const std::vector<std::pair<std::string, std::string>>& files) {
  for (const auto& [name, data] : files) {
    auto path = dir / name;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << data;
  }
}

}  // namespace flakescan::tarpit::testing
