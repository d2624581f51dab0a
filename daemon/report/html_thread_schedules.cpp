// Drawing a `threads` finding (html_thread_schedules.hpp). Layout is in SVG user units; a
// schedule panel is at most about 540 units wide, so that two stand side by side in the
// report's column (the style sheet stacks them on a phone), and grows one row per step.
#include <algorithm>

#include "report/html.hpp"
#include "report/html_svg.hpp"
#include "report/html_thread_schedules.hpp"
#include "report/text.hpp"

namespace flakescan::report::html {

namespace {

using svg::num, svg::text, svg::rect;

constexpr int lane_left = 34, step_row_h = 18, steps_top = 66, panel_room = 540;

std::string thread_run_label(const std::optional<std::int64_t>& run) { return run ? " (run " + num(*run) + ")" : ""; }

// What a box says: a short name for the op (the tooltip has the full one).
std::string op_label(const std::string& op) {
  static const std::pair<const char*, const char*> names[] = {
      {"monitor_enter", "enter"},  {"monitor_exit", "exit"},   {"field_read", "read"},  {"field_write", "write"},
      {"thread_start", "start"},   {"thread_join", "join"},    {"thread_end", "end"},   {"notify_all", "notifyAll"},
      {"try_lock", "tryLock"},     {"blocking_call", "blocking"}, {"call_read", "read()"},  {"call_write", "write()"}};
  for (auto [from, to] : names)
    if (op == from) return to;
  return op;
}

// At most `chars` bytes, cut at a UTF-8 boundary and ended with "…" when cut (one glyph, not
// three dots: a box has room for about 20).
std::string fit_box(const std::string& label, std::size_t chars) {
  if (label.size() <= chars) return label;
  std::size_t keep = chars - 1;
  while (keep > 0 && (static_cast<unsigned char>(label[keep]) & 0xC0) == 0x80) --keep;
  return label.substr(0, keep) + "…";
}

enum class OpKind { sync, thread, data };

OpKind op_kind(const std::string& op) {
  for (const char* s : {"monitor_enter", "monitor_exit", "wait", "notify", "notify_all", "park", "unpark", "lock", "unlock", "try_lock"})
    if (op == s) return OpKind::sync;
  for (const char* s : {"thread_start", "thread_join", "thread_end", "sleep", "yield", "blocking_call"})
    if (op == s) return OpKind::thread;
  return OpKind::data;
}

std::string thread_label(const ThreadSchedule& s, int thread) {
  const std::string name = std::size_t(thread) < s.thread_names.size() ? s.thread_names[thread] : std::string();
  return "T" + num(thread) + (name.empty() ? "" : " " + name);
}

int lanes_of(const ThreadFacts& f) {
  int n = int(f.failing.thread_names.size());
  auto grow = [&](const ThreadSchedule& s) {
    n = std::max(n, int(s.thread_names.size()));
    for (const auto& st : s.steps) n = std::max(n, st.thread + 1);
  };
  grow(f.failing);
  if (f.passing) grow(*f.passing);
  return std::clamp(n, 1, max_lanes);
}

std::string step_words(const ThreadSchedule& s, const ThreadStep& st) {
  return thread_label(s, st.thread) + ": " + st.op + " " + st.target + (st.site.empty() ? "" : " at " + st.site);
}

std::string step_box(const ThreadSchedule& s, std::size_t i, int mark, int lane_w, const std::string& id) {
  const ThreadStep& st = s.steps[i];
  const std::int64_t number = s.left_out() + std::int64_t(i) + 1;
  const int y = steps_top + (s.left_out() ? step_row_h : 0) + int(i) * step_row_h;
  const int x = lane_left + st.thread * lane_w + 3;
  std::string fill = "#f6f8fa", stroke = std::string(svg::line_colour), width = "1";
  if (op_kind(st.op) == OpKind::sync) fill = "#fbefff", stroke = std::string(svg::moved_colour);
  if (op_kind(st.op) == OpKind::thread) fill = "#ddf4ff", stroke = "#0969da";
  if (mark) fill = "#fff1e5", stroke = std::string(svg::race_colour), width = "2.5";
  std::string out = "<g" + std::string(mark ? " class=\"conflict\" id=\"" + id + "-c" + num(mark) + "\"" : "") + "><title>" +
                    escape("step " + num(number) + " · " + step_words(s, st) + (mark ? " (conflict " + num(mark) + ")" : "")) +
                    "</title>";
  out += text(2, y + 13, num(number), "font-size=\"9\" fill=\"" + std::string(svg::muted_colour) + "\"");
  out += rect(x, y + 1, lane_w - 6, step_row_h - 2, "rx=\"3\" fill=\"" + fill + "\" stroke=\"" + stroke + "\" stroke-width=\"" + width + "\"");
  // About 5.8 units a character at 10.5 px; the number's disc takes the right end of a conflict box.
  const std::size_t room = std::size_t(std::max(6, (lane_w - 12 - (mark ? 16 : 0)) * 10 / 58));
  out += text(x + 4, y + 13, fit_box(op_label(st.op) + " " + short_target(st.target), room),
              "font-size=\"10.5\"" + std::string(mark ? " font-weight=\"700\"" : ""));
  if (mark) {
    const int cx = x + lane_w - 14;
    out += "<circle cx=\"" + num(cx) + "\" cy=\"" + num(y + step_row_h / 2) + "\" r=\"7\" fill=\"" + std::string(svg::race_colour) + "\"/>";
    out += text(cx, y + step_row_h / 2 + 4, num(mark), "font-size=\"10\" font-weight=\"700\" fill=\"#fff\" text-anchor=\"middle\"");
  }
  return out + "</g>";
}

std::string thread_panel_desc(const ThreadFacts& f, const ThreadSchedule& s, bool failing, const ConflictRows& c) {
  std::string d = std::string(failing ? "The failing schedule" : "A passing schedule") + thread_run_label(s.run) + ": " +
                  num(s.steps_total) + " scheduling points";
  if (s.left_out()) d += ", of which the last " + num(long(s.steps.size())) + " are drawn";
  d += ". Threads:";
  for (std::size_t t = 0; t < s.thread_names.size(); ++t) d += (t ? ", " : " ") + thread_label(s, int(t));
  d += ".";
  if (c.first && c.second) {
    const bool first_before = *c.first < *c.second;
    const auto& a = s.steps[first_before ? *c.first : *c.second];
    const auto& b = s.steps[first_before ? *c.second : *c.first];
    d += " The conflicting operations run in this order: " + step_words(s, a) + ", then " + step_words(s, b) + ".";
  }
  if (failing && !f.deadlock.empty()) d += " It ends in a deadlock.";
  return d + (failing ? " The test fails." : " The test passes.");
}

std::string thread_panel(const ThreadFacts& f, const ThreadSchedule& s, bool failing, int lanes, const std::string& id) {
  const int lane_w = std::clamp((panel_room - lane_left) / lanes, 100, 170);
  const int width = lane_left + lanes * lane_w + 4;
  const int height = steps_top + (s.left_out() ? step_row_h : 0) + int(s.steps.size()) * step_row_h + 8;
  const ConflictRows c = conflict_rows(s, f.first, f.second, failing);
  const std::string title = std::string(failing ? "Failing schedule" : "Passing schedule") + thread_run_label(s.run);
  std::string out = svg::open(id, width, height, title, thread_panel_desc(f, s, failing, c));
  out += text(0, 16, title, "font-size=\"14\" font-weight=\"700\"");
  out += text(0, 32, failing ? (f.deadlock.empty() ? "test fails" : "test fails: deadlock") : "test passes",
              "font-weight=\"600\" fill=\"" + std::string(failing ? svg::fail_colour : svg::pass_colour) + "\"");
  for (int t = 0; t < lanes; ++t) {
    const int x = lane_left + t * lane_w;
    out += "<line x1=\"" + num(x + lane_w / 2) + "\" y1=\"" + num(steps_top - 4) + "\" x2=\"" + num(x + lane_w / 2) + "\" y2=\"" +
           num(height - 4) + "\" stroke=\"" + std::string(svg::line_colour) + "\" stroke-dasharray=\"2 3\"/>";
    out += text(x + 3, 54, cut_utf8(thread_label(s, t), std::size_t((lane_w - 6) / 7)), "font-weight=\"600\"");
  }
  if (s.left_out())
    out += text(lane_left + 4, steps_top + 13, "⋮ " + num(s.left_out()) + " earlier steps left out", "fill=\"" + std::string(svg::muted_colour) + "\"");
  for (std::size_t i = 0; i < s.steps.size(); ++i) {
    if (s.steps[i].thread >= lanes) continue;  // past max_lanes: its row stays empty
    const int mark = c.first == i ? 1 : c.second == i ? 2 : 0;
    out += step_box(s, i, mark, lane_w, id);
  }
  return out + "</svg>";
}

std::string lock_words(const LockHeld& l) { return l.lock + (l.site.empty() ? "" : " (" + l.site + ")"); }

// The blocked threads, one row each: the thread, the locks it holds, the one it waits for and
// which thread holds that one.
std::string deadlock_panel(const ThreadFacts& f, const std::string& id) {
  constexpr int width = 640, row = 50, head = 40;
  const int height = head + int(f.deadlock.size()) * row + 4;
  auto name_of = [&](const DeadlockedThread& d) { return d.thread < 0 ? d.name : thread_label(f.failing, d.thread); };
  auto holder_of = [&](const std::string& lock) -> std::string {
    for (const auto& d : f.deadlock)
      for (const auto& h : d.holds)
        if (h.lock == lock) return name_of(d);
    return {};
  };
  std::string desc = "Deadlock:";
  for (const auto& d : f.deadlock) {
    desc += " " + name_of(d) + " holds ";
    for (std::size_t i = 0; i < d.holds.size(); ++i) desc += (i ? " and " : "") + lock_words(d.holds[i]);
    if (d.holds.empty()) desc += "nothing";
    desc += " and waits for " + lock_words(d.wants);
    if (auto h = holder_of(d.wants.lock); !h.empty()) desc += ", which " + h + " holds";
    desc += ".";
  }
  const std::string title = "Deadlock: " + num(long(f.deadlock.size())) + " threads wait for each other";
  std::string out = svg::open(id, width, height, title, desc);
  out += "<defs><marker id=\"" + id + "-arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
         "orient=\"auto\"><path d=\"M0 0 L10 5 L0 10 z\" fill=\"" + std::string(svg::fail_colour) + "\"/></marker></defs>";
  out += text(0, 16, title, "font-size=\"14\" font-weight=\"700\" fill=\"" + std::string(svg::fail_colour) + "\"");
  for (std::size_t i = 0; i < f.deadlock.size(); ++i) {
    const auto& d = f.deadlock[i];
    const int y = head + int(i) * row;
    out += "<g><title>" + escape(name_of(d)) + "</title>" +
           rect(0, y, 150, row - 10, "rx=\"4\" fill=\"#ffebe9\" stroke=\"" + std::string(svg::fail_colour) + "\" stroke-width=\"2\"") +
           text(8, y + 24, cut_utf8(name_of(d), 20), "font-weight=\"700\"") + "</g>";
    std::string held;
    for (const auto& h : d.holds) held += (held.empty() ? "" : ", ") + short_target(h.lock);
    out += "<g><title>" + escape("holds " + (d.holds.empty() ? std::string("nothing") : lock_words(d.holds.front()))) + "</title>" +
           text(162, y + 16, cut_utf8("holds " + (held.empty() ? std::string("nothing") : held), 36), "font-weight=\"600\"") + "</g>";
    out += "<line x1=\"162\" y1=\"" + num(y + 26) + "\" x2=\"392\" y2=\"" + num(y + 26) + "\" stroke=\"" + std::string(svg::fail_colour) +
           "\" stroke-width=\"2\" stroke-dasharray=\"5 3\" marker-end=\"url(#" + id + "-arrow)\"/>";
    const std::string holder = holder_of(d.wants.lock);
    out += "<g><title>" + escape("waits for " + lock_words(d.wants)) + "</title>" +
           rect(398, y, 240, row - 10, "rx=\"4\" fill=\"#fff\" stroke=\"" + std::string(svg::fail_colour) + "\" stroke-dasharray=\"4 3\"") +
           text(406, y + 16, cut_utf8("wants " + short_target(d.wants.lock), 34), "font-weight=\"600\"") +
           text(406, y + 32, cut_utf8(holder.empty() ? std::string("held elsewhere") : "held by " + holder, 36),
                "font-size=\"11\" fill=\"" + std::string(svg::muted_colour) + "\"") + "</g>";
  }
  return out + "</svg>";
}

std::string thread_caption(const ThreadFacts& f) {
  std::string c = "Threads";
  if (!f.strategy.empty()) c += " (strategy " + escape(f.strategy) + (f.seed.empty() ? "" : ", seed " + escape(f.seed)) + ")";
  c += ": " + std::string(f.passing ? "a passing and the failing schedule of this test" : "the failing schedule of this test") +
       ", one lane per thread, one box per scheduling point, top to bottom in the order the threads passed them; hover a box "
       "for its source line. Purple: locks, monitors, wait and notify; blue: threads starting, joining, ending, sleeping.";
  if (f.first && f.second)
    c += " Orange, numbered: the two operations on <code>" + escape(f.first->target) +
         "</code> that ran in one order in the failing schedule (1, then 2) and in the other order in the passing one.";
  if (!f.deadlock.empty()) c += " The failing schedule ends in a deadlock (below).";
  for (const auto* s : {&f.failing, f.passing ? &*f.passing : nullptr})
    if (s && s->left_out())
      c += " The " + std::string(s == &f.failing ? "failing" : "passing") + " schedule passed " + num(s->steps_total) +
           " scheduling points; the last " + num(long(s->steps.size())) + " are drawn, " + num(s->left_out()) + " earlier ones left out.";
  if (f.virtual_time) c += " <strong>Virtual time</strong>: sleeps and timeouts ran on the test's own clock and returned at once.";
  if (!f.exact) {
    c += " <strong>Not exact</strong>: part of the test ran outside the scheduler's control";
    if (f.inexact_reasons.empty()) c += " (no reason recorded)";
    for (std::size_t i = 0; i < f.inexact_reasons.size(); ++i) c += (i ? "; " : ": ") + escape(f.inexact_reasons[i]);
    c += "; a replay may not make the same schedule.";
  }
  if (f.replayed) c += " Replaying the failing schedule's decisions brought the same failure back.";
  if (f.real_time_run > 0)
    c += f.real_time_outcome == "pass"
             ? " <strong>On real time the same decisions passed</strong> (run " + num(long(f.real_time_run)) +
                   "): the failure came with the virtual clock, beside a thread that kept real time, not from this interleaving."
             : " On real time the same decisions gave <code>" + escape(f.real_time_outcome) + "</code> (run " +
                   num(long(f.real_time_run)) + ").";
  return c;
}

}  // namespace

std::string thread_schedule_picture(const ThreadFacts& f, const std::string& id) {
  const int lanes = lanes_of(f);
  std::string out = "<figure class=\"threads\"><div class=\"pair\">";
  if (f.passing) out += thread_panel(f, *f.passing, false, lanes, id + "-pass");
  out += thread_panel(f, f.failing, true, lanes, id + "-fail");
  out += "</div>";
  if (!f.deadlock.empty()) out += deadlock_panel(f, id + "-deadlock");
  return out + "<figcaption>" + thread_caption(f) + "</figcaption></figure>";
}

}  // namespace flakescan::report::html
