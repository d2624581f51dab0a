#include "tarpit/analysis.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <tuple>
#include <unordered_map>

#include "tarpit/local_search.hpp"
#include "tarpit/partition.hpp"

namespace flakescan::tarpit {

std::string_view mode_name(Mode mode) {
  return mode == Mode::vet_compatible ? "vet-compatible" : "standard";
}

std::string_view region_kind_name(RegionKind kind) {
  return kind == RegionKind::partition ? "partition" : "local";
}

Options Options::standard() { return Options{}; }

Options Options::vet_compatible() {
  Options o;
  o.mode = Mode::vet_compatible;
  o.keep_ms = 3'540'000 + 10'000;  // EXPECTED_TRACE_LENGTH + ALLOWED_BOUNDARY_OUTAGE
  o.pad_to_ms = 3'540'000;
  o.pad_slack_ms = 10'000;
  o.merge_equal_keys = true;
  o.similarity = SimilarityOptions{3, 10, true};
  o.time_score = false;
  o.gap_cap_ms = 0;
  o.action_relative_to_subtrace = true;
  return o;
}

Options Options::for_mode(Mode mode) {
  return mode == Mode::vet_compatible ? vet_compatible() : standard();
}

namespace {

std::size_t count_distinct(const std::vector<std::uint32_t>& ids, std::size_t first, std::size_t last,
                           std::size_t universe) {
  std::vector<char> seen(universe, 0);
  std::size_t d = 0;
  for (auto k = first; k <= last; ++k)
    if (!seen[ids[k]]) { seen[ids[k]] = 1; ++d; }
  return d;
}

void detect_local(const Options& o, const std::vector<std::int64_t>& times,
                  const std::vector<std::uint32_t>& groups, std::size_t group_count,
                  std::vector<Region>& out) {
  const auto n = times.size();
  std::vector<std::int64_t> effective(n, 0);
  for (std::size_t k = 1; k < n; ++k) {
    auto dt = times[k] - times[k - 1];
    if (o.gap_cap_ms > 0) dt = std::min(dt, o.gap_cap_ms);
    effective[k] = effective[k - 1] + dt;
  }
  std::deque<std::pair<std::size_t, std::size_t>> queue{{0, n}};  // [begin, end)
  while (!queue.empty()) {
    auto [a, b] = queue.front();
    queue.pop_front();
    std::span<const std::uint32_t> sub(groups.data() + a, b - a);
    std::optional<IntervalScore> best;
    double score = 0;
    if (o.time_score) {
      best = min_distinct_per_time(sub, std::span<const std::int64_t>(effective.data() + a, b - a),
                                   o.t_min_ms, group_count);
      if (!best) continue;
      score = double(best->distinct) / (double(best->weight) / 60'000.0);
      if (score > o.max_groups_per_minute) continue;
    } else {
      best = min_distinct_per_action(sub, group_count);
      if (!best) continue;
      score = best->ratio();
      if (times[a + best->r] - times[a + best->l] < o.t_min_ms) continue;
    }
    const auto l = a + best->l, r = a + best->r;
    Region region;
    region.kind = RegionKind::local;
    const auto floor = o.action_relative_to_subtrace ? a : 0;
    region.ts_action = l > floor ? times[l - 1] : times[l];
    region.ts_begin = times[l];
    region.ts_end = times[r];
    region.first = l;
    region.last = r;
    region.score = score;
    out.push_back(region);
    if (l > a) queue.emplace_back(a, l);
    if (r + 1 < b) queue.emplace_back(r + 1, b);
  }
}

// VET's choice of the restart screen: the most frequent screen in [begin, end] (first seen
// wins ties), unless it is the padding screen of a region that runs to the trace's end.
std::optional<std::int64_t> restart_screen(const std::vector<Entry>& entries, std::int64_t begin,
                                           std::int64_t end) {
  std::unordered_map<std::uint32_t, std::pair<std::int64_t, std::int64_t>> seen;  // count, first ts
  std::vector<std::uint32_t> order;
  bool last_interval = true;
  std::optional<std::uint32_t> padding;
  for (const auto& e : entries) {
    if (e.time_ms > end) {
      last_interval = false;
      break;
    }
    if (e.screen < 0) padding = e.unique;
    if (e.time_ms < begin) continue;
    auto [it, inserted] = seen.try_emplace(e.unique, 0, e.time_ms);
    if (inserted) order.push_back(e.unique);
    ++it->second.first;
  }
  if (order.empty()) return std::nullopt;
  auto most = order.front();
  for (auto u : order)
    if (seen[u].first > seen[most].first) most = u;
  if (padding && *padding == most && last_interval) return std::nullopt;
  return seen[most].second;
}

// Every capture time of the trace (its timeline, else its screens' times), sorted, once each.
std::vector<std::int64_t> capture_times(const Trace& trace) {
  std::vector<std::int64_t> timeline = trace.timeline;
  if (timeline.empty())
    for (const auto& s : trace.screens) timeline.push_back(s.time_ms);
  std::sort(timeline.begin(), timeline.end());
  timeline.erase(std::unique(timeline.begin(), timeline.end()), timeline.end());
  return timeline;
}

// A trace shorter than pad_to_ms is padded with its last screen at its average capture
// interval, as VET does.
void pad_entries(const Options& o, const std::vector<std::int64_t>& timeline, TraceAnalysis& out) {
  const auto init = timeline.front();
  const auto last_ts = timeline.back();
  const auto expected = init + o.pad_to_ms;
  if (last_ts >= expected) return;
  // Python's round(): half to even, which nearbyint does in the default rounding mode.
  const auto avg = static_cast<std::int64_t>(
      std::nearbyint(double(last_ts - init) / double(timeline.size() - 1)));
  const auto last_unique = out.entries.back().unique;
  if (avg > 0)
    for (auto ts = last_ts + avg; ts < expected + o.pad_slack_ms; ts += avg) {
      out.entries.push_back(Entry{ts, last_unique, -1});
      ++out.padded;
    }
}

// The entries as columns: time, unique screen and its group, per entry.
struct Series {
  std::vector<std::int64_t> times;
  std::vector<std::uint32_t> uniques, groups;
};

Series series_of(const TraceAnalysis& out) {
  const auto n = out.entries.size();
  Series s{std::vector<std::int64_t>(n), std::vector<std::uint32_t>(n), std::vector<std::uint32_t>(n)};
  for (std::size_t k = 0; k < n; ++k) {
    s.times[k] = out.entries[k].time_ms;
    s.uniques[k] = out.entries[k].unique;
    s.groups[k] = out.group_of_unique[s.uniques[k]];
  }
  return s;
}

// The regions: an accepted partition (a suffix of the trace), then the local ones, each with
// its counts.
void find_regions(const Options& o, const Series& s, TraceAnalysis& out) {
  const auto n = s.times.size();
  if (o.partition) {
    auto p = find_partition(s.uniques, s.times, o.partition_window_ms, out.unique_screens);
    if (p && p->accepted) {
      Region region;
      region.kind = RegionKind::partition;
      region.ts_action = region.ts_begin = s.times[p->split];
      region.ts_end = s.times[n - 1];
      region.first = p->split;
      region.last = n - 1;
      region.score = p->score;
      out.regions.push_back(region);
    }
  }
  detect_local(o, s.times, s.groups, out.groups, out.regions);

  for (auto& r : out.regions) {
    r.entries = r.last - r.first + 1;
    r.distinct_groups = count_distinct(s.groups, r.first, r.last, out.groups);
    r.distinct_screens = count_distinct(s.uniques, r.first, r.last, out.unique_screens);
  }
}

// VET's ranking: longest first, then earlier begin, end, action; partition before local. The
// top_k regions get a rank and guidance for the crawler.
void rank_regions(const Options& o, TraceAnalysis& out) {
  std::stable_sort(out.regions.begin(), out.regions.end(), [](const Region& x, const Region& y) {
    return std::make_tuple(x.ts_begin - x.ts_end, x.ts_begin, x.ts_end, x.ts_action, x.kind) <
           std::make_tuple(y.ts_begin - y.ts_end, y.ts_begin, y.ts_end, y.ts_action, y.kind);
  });
  for (std::size_t i = 0; i < out.regions.size() && int(i) < o.top_k; ++i) {
    auto& r = out.regions[i];
    r.rank = int(i) + 1;
    Guidance g;
    g.rank = r.rank;
    g.region = i;
    g.disable_ts = r.ts_action;
    if (r.kind == RegionKind::local) {
      if (auto ts = restart_screen(out.entries, r.ts_begin, r.ts_end)) {
        g.restart = true;
        g.restart_ts = *ts;
      }
    }
    out.guidance.push_back(g);
  }
}

// Time covered by regions, overlaps counted once.
std::int64_t time_in_regions(const std::vector<Region>& regions) {
  std::int64_t total = 0;
  std::vector<std::pair<std::int64_t, std::int64_t>> spans;
  for (const auto& r : regions) spans.emplace_back(r.ts_begin, r.ts_end);
  std::sort(spans.begin(), spans.end());
  std::int64_t cur_b = 0, cur_e = -1;
  bool open = false;
  for (auto [b, e] : spans) {
    if (open && b <= cur_e) {
      cur_e = std::max(cur_e, e);
      continue;
    }
    if (open) total += cur_e - cur_b;
    cur_b = b;
    cur_e = e;
    open = true;
  }
  if (open) total += cur_e - cur_b;
  return total;
}

}  // namespace

TraceAnalysis analyze(const Trace& trace, const Options& o) {
  TraceAnalysis out;
  out.name = trace.name;
  out.mode = o.mode;

  std::vector<std::int64_t> timeline = capture_times(trace);
  if (timeline.empty()) {
    out.unusable_reason = "no screens";
    return out;
  }
  const auto init = timeline.front();
  if (o.keep_ms > 0)
    timeline.erase(std::upper_bound(timeline.begin(), timeline.end(), init + o.keep_ms), timeline.end());
  std::size_t end = trace.screens.size();
  if (o.keep_ms > 0)
    end = std::partition_point(trace.screens.begin(), trace.screens.end(),
                               [&](const Screen& s) { return s.time_ms - init <= o.keep_ms; }) -
          trace.screens.begin();
  out.screens_read = end;
  if (timeline.size() < 2) {
    out.unusable_reason = "fewer than two captures";
    return out;
  }

  auto abstraction = abstract_screens(trace, 0, end, AbstractionOptions{o.merge_equal_keys});
  out.screens_dropped = abstraction.dropped;
  for (std::size_t s = 0; s < end; ++s)
    if (abstraction.screen_unique[s] >= 0)
      out.entries.push_back(Entry{trace.screens[s].time_ms, std::uint32_t(abstraction.screen_unique[s]),
                                  std::int32_t(s)});
  if (out.entries.empty()) {
    out.unusable_reason = "no usable screens";
    return out;
  }
  if (o.pad_to_ms > 0) pad_entries(o, timeline, out);

  auto grouping = merge_screens(abstraction.uniques, trace.pool, o.similarity);
  out.unique_screens = abstraction.uniques.size();
  out.groups = grouping.groups;
  out.comparisons = grouping.comparisons;
  out.group_of_unique = grouping.group_of;
  out.first_ms = out.entries.front().time_ms;
  out.last_ms = out.entries.back().time_ms;
  out.usable = true;

  find_regions(o, series_of(out), out);
  rank_regions(o, out);
  out.time_in_regions_ms = time_in_regions(out.regions);
  return out;
}

}  // namespace flakescan::tarpit
