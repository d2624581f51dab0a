#pragma once
// Tarpit analysis of one UI trace: abstraction, merge, exploration-space partition,
// excessive local exploration iterated over the remaining parts, ranking, guidance.
//
// Two modes share the pipeline and differ only in Options:
// - vet_compatible: VET's constants and quirks (59 min 10 s cut, padding of short traces,
//   screens keyed by MD5 string, the small-screen similarity quirk, the actions-count score
//   whose best interval is reported whenever it spans t_min, sub-trace-relative action).
// - standard (default): no cut, no padding, exact keys, insertion-only similarity, and a
//   time-based score (distinct screen groups per minute, with inter-screen gaps capped) that
//   must fall below a threshold, so a fast tool exploring normally is not reported.
// The partition detector, merge and ranking are VET's in both modes.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tarpit/abstraction.hpp"
#include "tarpit/similarity.hpp"
#include "tarpit/ui_trace.hpp"

namespace flakescan::tarpit {

enum class Mode { standard, vet_compatible };

std::string_view mode_name(Mode mode);

struct Options {
  Mode mode = Mode::standard;
  // Trace cut: keep screens up to this long after the first capture (0: keep everything).
  std::int64_t keep_ms = 0;
  // Padding: a trace ending before first + pad_to_ms gets copies of its last screen at the
  // average action interval until first + pad_to_ms + pad_slack_ms (0: no padding).
  std::int64_t pad_to_ms = 0;
  std::int64_t pad_slack_ms = 10'000;
  bool merge_equal_keys = false;
  SimilarityOptions similarity;
  // Excessive local exploration.
  std::int64_t t_min_ms = 10 * 60'000;
  bool time_score = true;                // false: VET's distinct groups per action
  double max_groups_per_minute = 0.5;    // time score only: report only at or below this
  std::int64_t gap_cap_ms = 60'000;      // time score only: a longer silence counts as this
  bool action_relative_to_subtrace = false;  // VET: a sub-trace's first screen has no "before"
  // Exploration space partition.
  std::int64_t partition_window_ms = 10 * 60'000;
  bool partition = true;
  // Ranking: regions of both kinds per trace, longest first.
  int top_k = 3;

  static Options standard();
  static Options vet_compatible();
  static Options for_mode(Mode mode);
};

enum class RegionKind { partition, local };
std::string_view region_kind_name(RegionKind kind);

// One sequence entry the detectors saw: a real screen or a padded copy of the last one.
struct Entry {
  std::int64_t time_ms = 0;
  std::uint32_t unique = 0;
  std::int32_t screen = -1;  // index into Trace::screens; -1 for padding
};

struct Region {
  RegionKind kind = RegionKind::local;
  std::int64_t ts_action = 0;  // the screen whose action led into the region
  std::int64_t ts_begin = 0, ts_end = 0;
  std::size_t first = 0, last = 0;  // entry indices, inclusive
  std::size_t distinct_groups = 0, distinct_screens = 0, entries = 0;
  double score = 0;  // local: groups per action or per minute; partition: c2 + c3
  int rank = 0;      // 1.. when among the top k of its trace, else 0
  std::int64_t duration_ms() const { return ts_end - ts_begin; }
};

// "Disable the element acted on at ts_action" and, for local regions, "restart the app when
// the screen first seen at restart_ts shows again".
struct Guidance {
  int rank = 0;
  std::size_t region = 0;       // index into TraceAnalysis::regions
  std::int64_t disable_ts = 0;  // the screen whose action to disable
  bool restart = false;
  std::int64_t restart_ts = 0;  // the screen at which to restart the app
};

struct TraceAnalysis {
  std::string name;
  Mode mode = Mode::standard;
  bool usable = false;
  std::string unusable_reason;
  std::size_t screens_read = 0;     // screens in the trace after the cut
  std::size_t screens_dropped = 0;  // screens the abstraction dropped
  std::size_t padded = 0;
  std::size_t unique_screens = 0, groups = 0, comparisons = 0;
  std::int64_t first_ms = 0, last_ms = 0;
  std::int64_t time_in_regions_ms = 0;  // union of all regions
  std::vector<Entry> entries;
  std::vector<std::uint32_t> group_of_unique;
  std::vector<Region> regions;
  std::vector<Guidance> guidance;
};

TraceAnalysis analyze(const Trace& trace, const Options& options);

}  // namespace flakescan::tarpit
