// Inline SVG pictures of the evidence (html_pictures.hpp). Layout is in SVG user units; the
// style sheet scales every picture down to the width of a phone (svg.picture).
#include "report/html_pictures.hpp"

#include <algorithm>
#include <charconv>

#include "report/html.hpp"
#include "report/html_svg.hpp"
#include "report/html_thread_schedules.hpp"
#include "report/text.hpp"

namespace flakescan::report::html {

namespace {

using svg::fail_colour, svg::infra_colour, svg::line_colour, svg::moved_colour, svg::muted_colour, svg::pass_colour,
    svg::race_colour, svg::text_colour, svg::num, svg::text, svg::rect;

std::optional<int> parse_int(const std::string& text) {
  int v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

std::string detail(const core::Evidence& e, const std::string& key) {
  auto it = e.details.find(key);
  return it == e.details.end() ? std::string() : it->second;
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto comma = text.find(',', start);
    std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    if (!item.empty()) out.push_back(item);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

bool contains(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

// Cut to about `chars` characters (12 px sans-serif is about 6.8 units a character).
std::string fit(const std::string& text, std::size_t chars) { return cut_utf8(text, chars); }

std::string run_name(const std::optional<std::int64_t>& run) { return run ? " (run " + num(*run) + ")" : ""; }

// ---- schedule -------------------------------------------------------------------------------

enum class RowKind { statement, gap, slot_passing, slot_failing, end };

struct Row {
  RowKind kind;
  int line = 0;
  std::string note;
  bool racing = false;
};

// The rows both panels share, top to bottom: the statements the details name, gaps where
// lines lie between them, slot A (where the passing schedule runs the message: before the
// racing statement) and slot B (where the failing one runs it).
std::vector<Row> schedule_rows(const ScheduleFacts& f) {
  struct Mark {
    int line;
    std::string note;
    bool racing;
  };
  std::vector<Mark> marks = {{f.posted_line, "message posted", false}, {f.racing_line, "racing statement", true}};
  if (f.delayed_to) marks.push_back({*f.delayed_to, "", false});
  if (f.upper_bound && f.upper_bound != f.delayed_to) marks.push_back({*f.upper_bound, "test waits for it", false});
  std::stable_sort(marks.begin(), marks.end(), [](const Mark& a, const Mark& b) { return a.line < b.line; });
  std::vector<Mark> merged;
  for (auto& m : marks) {
    if (!merged.empty() && merged.back().line == m.line) {
      if (!m.note.empty()) merged.back().note += (merged.back().note.empty() ? "" : ", ") + m.note;
      merged.back().racing |= m.racing;
      continue;
    }
    merged.push_back(m);
  }
  std::vector<Row> rows;
  std::optional<int> previous;
  bool slot_a = false, slot_b = false;
  for (const auto& m : merged) {
    if (previous && m.line > *previous + 1) rows.push_back({RowKind::gap});
    if (m.line == f.racing_line && !slot_a) rows.push_back({RowKind::slot_passing}), slot_a = true;
    if (f.delayed_to && m.line == *f.delayed_to && !slot_b) rows.push_back({RowKind::slot_failing}), slot_b = true;
    rows.push_back({RowKind::statement, m.line, m.note, m.racing});
    previous = m.line;
  }
  if (!slot_a) rows.push_back({RowKind::slot_passing});
  rows.push_back({RowKind::gap});
  if (!slot_b) rows.push_back({RowKind::slot_failing});
  rows.push_back({RowKind::end});
  return rows;
}

std::string schedule_panel(const ScheduleFacts& f, const std::vector<Row>& rows, bool failing, const std::string& id) {
  constexpr int top = 40, row_h = 30, axis_x = 20, box_x = 38, box_w = 300, width = box_x + box_w + 44;
  const int height = top + int(rows.size()) * row_h + 8;
  const std::string who = f.thread.empty() ? "an async thread" : "thread '" + f.thread + "'";
  const std::string where = f.delayed_to ? "just before line " + num(*f.delayed_to) : "the end of the test";
  std::string title = std::string(failing ? "Failing" : "Passing") + " schedule" + run_name(failing ? f.failing_run : f.passing_run);
  std::string desc = "Main-thread timeline of the " + std::string(failing ? "failing" : "passing") + " schedule. The message " +
                     who + " posts during line " + num(f.posted_line) + " runs " +
                     (failing ? "late, delayed to " + where + ", after the racing statement on line " + num(f.racing_line) +
                                    ": the test fails."
                              : "before the racing statement on line " + num(f.racing_line) + ": the test passes.");
  std::string out = svg::open(id, width, height, title, desc);
  out += "<defs><marker id=\"" + id + "-arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
         "orient=\"auto-start-reverse\"><path d=\"M0 0 L10 5 L0 10 z\" fill=\"" + std::string(moved_colour) + "\"/></marker></defs>";
  out += text(0, 16, title, "font-size=\"14\" font-weight=\"700\"");
  out += text(0, 32, failing ? "test fails" : "test passes",
              "font-weight=\"600\" fill=\"" + std::string(failing ? fail_colour : pass_colour) + "\"");
  out += "<line x1=\"" + num(axis_x) + "\" y1=\"" + num(top) + "\" x2=\"" + num(axis_x) + "\" y2=\"" + num(height - 10) +
         "\" stroke=\"" + std::string(line_colour) + "\" stroke-width=\"3\"/>";
  int slot_a_y = 0, slot_b_y = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    const int y = top + int(i) * row_h;  // row top
    const int mid = y + row_h / 2;
    switch (r.kind) {
      case RowKind::statement: {
        if (r.racing)
          out += rect(box_x - 4, y + 3, box_w + 4, row_h - 6,
                      "rx=\"4\" fill=\"#fff1e5\" stroke=\"" + std::string(race_colour) + "\" stroke-width=\"2\"");
        out += "<circle cx=\"" + num(axis_x) + "\" cy=\"" + num(mid) + "\" r=\"4\" fill=\"" + std::string(text_colour) + "\"/>";
        std::string label = "line " + num(r.line) + (r.note.empty() ? "" : " · " + r.note);
        out += text(box_x + 2, mid + 4, fit(label, 42), r.racing ? "font-weight=\"700\" fill=\"" + std::string(race_colour) + "\"" : "");
        break;
      }
      case RowKind::gap:
        out += text(axis_x + 10, mid + 4, "⋮", "fill=\"" + std::string(muted_colour) + "\"");
        break;
      case RowKind::end:
        out += "<circle cx=\"" + num(axis_x) + "\" cy=\"" + num(mid) + "\" r=\"4\" fill=\"" + std::string(muted_colour) + "\"/>";
        out += text(box_x + 2, mid + 4, "end of test", "fill=\"" + std::string(muted_colour) + "\"");
        break;
      case RowKind::slot_passing:
      case RowKind::slot_failing: {
        const bool runs_here = (r.kind == RowKind::slot_failing) == failing;
        (r.kind == RowKind::slot_passing ? slot_a_y : slot_b_y) = mid;
        if (runs_here) {
          out += rect(box_x, y + 4, box_w, row_h - 8,
                      "rx=\"4\" fill=\"#fbefff\" stroke=\"" + std::string(moved_colour) + "\" stroke-width=\"2\"");
          out += text(box_x + 8, mid + 4, fit("▶ message from " + (f.thread.empty() ? std::string("async thread") : "'" + f.thread + "'"), 40),
                      "font-weight=\"600\" fill=\"" + std::string(moved_colour) + "\"");
        } else if (failing) {
          out += rect(box_x, y + 4, box_w, row_h - 8,
                      "rx=\"4\" fill=\"none\" stroke=\"" + std::string(muted_colour) + "\" stroke-dasharray=\"4 3\"");
          out += text(box_x + 8, mid + 4, "passing schedule ran it here", "fill=\"" + std::string(muted_colour) + "\"");
        }
        break;
      }
    }
  }
  if (failing && slot_a_y && slot_b_y) {
    const int x = box_x + box_w, bend = x + 18, label_x = x + 30, label_y = (slot_a_y + slot_b_y) / 2;
    out += "<path d=\"M" + num(x) + " " + num(slot_a_y) + " C" + num(bend) + " " + num(slot_a_y) + " " + num(bend) + " " +
           num(slot_b_y) + " " + num(x + 2) + " " + num(slot_b_y) + "\" fill=\"none\" stroke=\"" + std::string(moved_colour) +
           "\" stroke-width=\"2\" marker-end=\"url(#" + id + "-arrow)\"/>";
    out += text(label_x, label_y, "moved",
                "font-weight=\"600\" fill=\"" + std::string(moved_colour) + "\" transform=\"rotate(90 " + num(label_x) + " " +
                    num(label_y) + ")\" text-anchor=\"middle\"");
  }
  return out + "</svg>";
}

// ---- orders -----------------------------------------------------------------------------------

struct OrderItem {
  std::string test;
  std::string tag;        // "fails", "polluter", ...; empty for an unmarked test
  std::string_view colour;
  int hidden = 0;         // > 0: a row standing for this many unmarked tests
};

std::vector<OrderItem> order_items(const OrderFacts& f, const std::vector<std::string>& order, bool failing) {
  std::vector<OrderItem> items;
  const bool nio = f.role == "nio";
  int seen_self = 0;
  for (const auto& t : order) {
    OrderItem item{t, "", muted_colour, 0};
    if (t == f.test) {
      ++seen_self;
      const bool last = seen_self == int(std::count(order.begin(), order.end(), f.test));
      if (nio && !last) item.tag = "run " + num(seen_self) + " · passes", item.colour = pass_colour;
      else if (nio) item.tag = "run " + num(seen_self) + (failing ? " · fails" : " · passes"), item.colour = failing ? fail_colour : pass_colour;
      else item.tag = failing ? "fails" : "passes", item.colour = failing ? fail_colour : pass_colour;
    } else if (contains(f.cleaners, t)) {
      item.tag = "cleaner", item.colour = "#0969da";
    } else if (contains(f.setters, t)) {
      item.tag = f.role == "brittle" ? "state-setter" : "polluter", item.colour = race_colour;
    }
    items.push_back(std::move(item));
  }
  // Long orders: unmarked stretches of more than two tests become one row.
  if (items.size() <= 12) return items;
  std::vector<OrderItem> out;
  for (std::size_t i = 0; i < items.size();) {
    if (!items[i].tag.empty()) {
      out.push_back(items[i++]);
      continue;
    }
    std::size_t j = i;
    while (j < items.size() && items[j].tag.empty()) ++j;
    if (j - i <= 2) {
      for (; i < j; ++i) out.push_back(items[i]);
    } else {
      out.push_back({"", "", muted_colour, int(j - i)});
      i = j;
    }
  }
  return out;
}

std::string order_panel(const OrderFacts& f, const std::string& heading, const std::vector<std::string>& order, bool failing,
                        const std::optional<std::int64_t>& run, const std::string& id) {
  constexpr int width = 380, top = 40, row_h = 44;
  auto items = order_items(f, order, failing);
  const int height = top + int(items.size()) * row_h + 6;
  std::string title = heading + run_name(run);
  std::string desc = title + ": ";
  for (std::size_t i = 0; i < order.size(); ++i) desc += (i ? ", then " : "") + order[i];
  desc += std::string(". ") + (failing ? "In this order " + f.test + " fails." : "In this order " + f.test + " passes.");
  for (const auto& item : items)
    if (!item.tag.empty() && item.test != f.test) desc += " " + item.test + " is a " + item.tag + ".";
  std::string out = svg::open(id, width, height, title, desc);
  out += text(0, 16, fit(title, 46), "font-size=\"14\" font-weight=\"700\"");
  out += text(0, 32, failing ? "test fails" : "test passes",
              "font-weight=\"600\" fill=\"" + std::string(failing ? fail_colour : pass_colour) + "\"");
  int position = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const auto& item = items[i];
    const int y = top + int(i) * row_h;
    if (item.hidden) {
      position += item.hidden;
      out += text(36, y + 26, "… " + num(item.hidden) + " other tests", "fill=\"" + std::string(muted_colour) + "\"");
      continue;
    }
    ++position;
    const bool marked = !item.tag.empty();
    out += "<g><title>" + escape(num(position) + ". " + item.test + (marked ? " (" + item.tag + ")" : "")) + "</title>";
    out += rect(28, y + 3, width - 30, row_h - 6,
                "rx=\"4\" fill=\"" + std::string(marked ? "#ffffff" : "#f6f8fa") + "\" stroke=\"" + std::string(item.colour) +
                    "\" stroke-width=\"" + (marked ? "2" : "1") + "\"");
    out += text(4, y + 26, num(position), "fill=\"" + std::string(muted_colour) + "\"");
    const std::string name = short_test_name(item.test);
    const auto hash = name.find('#');
    const std::size_t room = marked ? 34 : 46;
    out += text(36, y + 19, fit(name.substr(0, hash), room), marked ? "font-weight=\"600\"" : "");
    if (hash != std::string::npos) out += text(36, y + 34, fit(name.substr(hash), 46), "fill=\"" + std::string(muted_colour) + "\"");
    if (marked) out += text(width - 8, y + 19, item.tag, "text-anchor=\"end\" font-weight=\"700\" fill=\"" + std::string(item.colour) + "\"");
    out += "</g>";
  }
  return out + "</svg>";
}

// ---- run strip --------------------------------------------------------------------------------

constexpr int strip_cell = 20, strip_per_row = 25, strip_max = 500;

std::string strip_cell_svg(int x, int y, const std::string& outcome, const std::string& tooltip) {
  std::string out = "<g><title>" + escape(tooltip) + "</title>";
  const int s = strip_cell - 4;
  if (outcome == "pass") {
    out += rect(x, y, s, s, "rx=\"2\" fill=\"" + std::string(pass_colour) + "\"");
  } else if (outcome == "fail" || outcome == "error") {
    out += rect(x, y, s, s, "rx=\"2\" fill=\"" + std::string(fail_colour) + "\"");
    out += "<path d=\"M" + num(x + 4) + " " + num(y + 4) + " L" + num(x + s - 4) + " " + num(y + s - 4) + " M" + num(x + s - 4) +
           " " + num(y + 4) + " L" + num(x + 4) + " " + num(y + s - 4) + "\" stroke=\"#fff\" stroke-width=\"2\"/>";
  } else {
    // skipped, not_found, infra: say nothing about flakiness; hollow grey with a slash.
    out += rect(x + 1, y + 1, s - 2, s - 2, "rx=\"2\" fill=\"#fff\" stroke=\"" + std::string(infra_colour) + "\" stroke-width=\"1.5\"");
    out += "<path d=\"M" + num(x + 3) + " " + num(y + s - 3) + " L" + num(x + s - 3) + " " + num(y + 3) + "\" stroke=\"" +
           std::string(infra_colour) + "\" stroke-width=\"1.5\"/>";
  }
  return out + "</g>";
}

}  // namespace

std::string short_test_name(const std::string& test) {
  auto hash = test.find('#');
  std::string cls = test.substr(0, hash);
  auto dot = cls.rfind('.');
  if (dot != std::string::npos) cls = cls.substr(dot + 1);
  return hash == std::string::npos ? cls : cls + test.substr(hash);
}

std::optional<ScheduleFacts> schedule_facts(const core::Evidence& e) {
  auto posted = parse_int(detail(e, "lower_bound_line"));
  auto racing = parse_int(detail(e, "racing_line"));
  const std::string to = detail(e, "delayed_to_statement");
  if (!posted || !racing || to.empty()) return std::nullopt;
  ScheduleFacts f;
  f.posted_line = *posted;
  f.racing_line = *racing;
  if (to != "end") {
    f.delayed_to = parse_int(to);
    if (!f.delayed_to) return std::nullopt;
  }
  f.upper_bound = parse_int(detail(e, "upper_bound_line"));
  f.event = detail(e, "event");
  f.thread = detail(e, "event_thread");
  f.passing_run = e.passing_run;
  f.failing_run = e.failing_run;
  return f;
}

std::optional<OrderFacts> order_facts(const std::string& test, const core::Evidence& e) {
  if (e.reproducer.empty()) return std::nullopt;
  OrderFacts f;
  f.test = test;
  f.role = e.role.empty() ? (std::count(e.reproducer.begin(), e.reproducer.end(), test) > 1 ? "nio" : "victim") : e.role;
  f.failing_order = e.reproducer;
  f.passing_order = e.passing_order;
  f.cleaners = split_list(detail(e, "cleaners"));
  f.setters = split_list(detail(e, f.role == "brittle" ? "state_setters" : "polluters"));
  if (f.setters.empty())
    for (const auto& t : e.related)
      if (!contains(f.cleaners, t)) f.setters.push_back(t);
  f.passing_run = e.passing_run;
  f.failing_run = e.failing_run;
  return f;
}

std::string schedule_picture(const ScheduleFacts& f, const std::string& id) {
  auto rows = schedule_rows(f);
  const std::string where = f.delayed_to ? "just before line " + num(*f.delayed_to) : "the end of the test";
  std::string out = "<figure class=\"schedule\"><div class=\"pair\">";
  out += schedule_panel(f, rows, false, id + "-pass");
  out += schedule_panel(f, rows, true, id + "-fail");
  out += "</div><figcaption>Concurrency: the message that " +
         escape(f.thread.empty() ? std::string("an async thread") : "thread '" + f.thread + "'") +
         " posts to the main thread during line " + num(f.posted_line) + " (event <code>" + escape(f.event) +
         "</code>). The test passes when the message runs before line " + num(f.racing_line) +
         ", the racing statement (orange), and fails when it is delayed to " + escape(where) +
         " (purple: where the message runs; dashed: where the passing schedule ran it).</figcaption></figure>";
  return out;
}

std::string order_picture(const OrderFacts& f, const std::string& id) {
  const bool nio = f.role == "nio";
  std::string out = "<figure class=\"orders\"><div class=\"pair\">";
  out += order_panel(f, nio ? "Failing: twice in one JVM" : "Failing order", f.failing_order, true, f.failing_run, id + "-fail");
  if (!f.passing_order.empty())
    out += order_panel(f, nio ? "Passing: once" : "Passing order", f.passing_order, false, f.passing_run, id + "-pass");
  if (!f.cleaners.empty() && !f.setters.empty()) {
    // The cleaner search ran exactly this order (polluters, one cleaner, the victim) and the victim passed.
    std::vector<std::string> cleaned = f.setters;
    cleaned.push_back(f.cleaners.front());
    cleaned.push_back(f.test);
    out += order_panel(f, "Passing with a cleaner", cleaned, false, std::nullopt, id + "-clean");
  }
  out += "</div><figcaption>";
  if (nio) {
    out += "Not idempotent: the test passes on its first run in a JVM and fails when it runs again in the same JVM "
           "(state left by its own first run).";
  } else if (f.role == "brittle") {
    out += "Brittle: the test fails when it runs first (or alone) and passes after a state-setter (orange) "
           "prepares the state it needs.";
  } else {
    out += "Victim: the test passes alone and fails after a polluter (orange) leaves state behind";
    out += f.cleaners.empty() ? "." : "; a cleaner (blue) run between them resets that state and it passes.";
  }
  out += " Each box is one test of the run, in the order it ran; hover a box for the full test id.</figcaption></figure>";
  return out;
}

std::string run_strip_picture(const std::vector<StripRun>& strip, const core::RunCounts& counts, const std::string& id) {
  std::vector<StripRun> cells = strip;
  const bool from_counts = cells.empty();
  if (from_counts) {
    for (int i = 0; i < counts.passed; ++i) cells.push_back({0, "pass", ""});
    for (int i = 0; i < counts.failed; ++i) cells.push_back({0, "fail", ""});
    for (int i = 0; i < counts.skipped + counts.infra; ++i) cells.push_back({0, "infra", ""});
  }
  if (cells.empty()) return {};
  int passed = 0, failed = 0, other = 0;
  for (const auto& c : cells) {
    if (c.outcome == "pass") ++passed;
    else if (c.outcome == "fail" || c.outcome == "error") ++failed;
    else ++other;
  }
  const int total = int(cells.size());
  const int shown = std::min(total, strip_max);
  const int rows = (shown + strip_per_row - 1) / strip_per_row;
  const int width = strip_per_row * strip_cell + 4, top = 4;
  const int height = top + rows * strip_cell + (shown < total ? 20 : 4);
  std::string counts_text = num(passed) + " passed, " + num(failed) + " failed" + (other ? ", " + num(other) + " without an outcome" : "");
  std::string title = (from_counts ? "Runs by outcome: " : "Every run in order: ") + counts_text;
  std::string desc = std::string(from_counts ? "The verdict file holds counts only: runs are grouped by outcome, not in the order they ran. "
                                             : "One square per run that reached the test, left to right in the order the runs were recorded. ") +
                     "Green squares passed, red squares with a cross failed, hollow grey squares gave no outcome (skipped or cut short). " +
                     counts_text + ".";
  std::string out = "<figure class=\"strip\">" + svg::open(id, width, height, title, desc);
  for (int i = 0; i < shown; ++i) {
    const auto& c = cells[i];
    const int x = 2 + (i % strip_per_row) * strip_cell, y = top + (i / strip_per_row) * strip_cell;
    std::string tooltip = from_counts ? c.outcome : "run " + num(c.run) + ": " + c.outcome + (c.technique.empty() ? "" : " (" + c.technique + ")");
    out += strip_cell_svg(x, y, c.outcome, tooltip);
  }
  if (shown < total) out += text(2, height - 4, "… and " + num(total - shown) + " more runs", "fill=\"" + std::string(muted_colour) + "\"");
  out += "</svg><figcaption>" + escape(title) + ". " +
         (from_counts ? "This verdict file has no per-run strip (evidence.run_strip), so the runs are grouped by outcome."
                      : "Left to right in the order the runs were recorded; hover a square for its run id and technique.") +
         "</figcaption></figure>";
  return out;
}

std::string evidence_pictures(const Entry& entry, const std::string& id) {
  const core::Verdict& v = entry.verdict;
  std::string out;
  int n = 0;
  bool drew_schedule = false;
  std::vector<std::string> drawn_orders;
  for (const auto& f : core::findings_of(v)) {
    if (f.verdict != core::VerdictKind::flaky || !f.not_deciding.empty()) continue;
    if (f.category == core::Category::concurrency && !drew_schedule) {
      if (auto facts = schedule_facts(f.evidence)) {
        out += "<h4>" + escape("Schedule" + std::string(f.technique.empty() ? "" : " (" + f.technique + ")")) + "</h4>";
        out += schedule_picture(*facts, id + "-" + num(++n));
        drew_schedule = true;
      } else if (auto threads = thread_facts(f.evidence)) {
        out += "<h4>" + escape("Schedules" + std::string(f.technique.empty() ? "" : " (" + f.technique + ")")) + "</h4>";
        out += thread_schedule_picture(*threads, id + "-" + num(++n));
        drew_schedule = true;
      }
    } else if (f.category == core::Category::order_dependent || f.category == core::Category::nio) {
      auto facts = order_facts(v.test, f.evidence);
      if (!facts) continue;
      std::string key;
      for (const auto& t : facts->failing_order) key += t + "\n";
      if (contains(drawn_orders, key)) continue;
      drawn_orders.push_back(key);
      out += "<h4>" + escape(f.category == core::Category::nio ? "Runs in one JVM (" + f.technique + ")" : "Orders (" + f.technique + ")") + "</h4>";
      out += order_picture(*facts, id + "-" + num(++n));
    }
  }
  std::string strip = run_strip_picture(entry.run_strip, v.runs, id + "-" + num(++n));
  if (!strip.empty()) out += "<h4>Every run</h4>" + strip;
  return out;
}

}  // namespace flakescan::report::html
