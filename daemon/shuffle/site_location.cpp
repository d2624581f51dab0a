#include "shuffle/site_location.hpp"

#include <map>

#include "order/ddmin.hpp"

namespace flakescan::shuffle {

util::Result<Located> locate_sites(const std::string& test, const core::ShuffleSpec& failing,
                                   const std::vector<core::ShuffledSite>& shuffled, core::RunLog& log, int max_runs) {
  Located out;
  out.sites = shuffled;
  if (shuffled.size() <= 1) return out;  // nothing to narrow down: that one site is it
  std::map<std::vector<size_t>, std::int64_t> failing_runs;
  std::optional<util::Error> broken;
  auto probe = [&](const std::vector<size_t>& subset) -> util::Result<bool> {
    if (out.runs >= max_runs) return util::fail(util::Errc::cancelled, "the budget of " + std::to_string(max_runs) + " runs to locate the site was spent");
    if (log.cancelled()) return util::fail(util::Errc::cancelled, "the scan was cancelled");
    core::RunSpec spec;
    spec.tests = {test};
    spec.technique = "shuffle";
    spec.seed = failing.seed;
    spec.shuffle = failing;
    spec.shuffle->sites.clear();
    for (size_t i : subset) spec.shuffle->sites.push_back(shuffled[i].key);
    spec.purpose = "shuffle: locate the site of " + test + ": seed " + std::to_string(failing.seed) + " with " +
                   std::to_string(subset.size()) + " of " + std::to_string(shuffled.size()) + " sites shuffled";
    ++out.runs;
    auto run = log.run(spec);
    if (!run) {
      broken = run.error();
      return std::unexpected(run.error());
    }
    const bool failed = core::is_failure(run->report.outcome_at(0));
    if (failed) failing_runs[subset] = run->id;
    return failed;
  };
  auto minimal = order::ddmin(shuffled.size(), probe);
  if (broken && broken->code != util::Errc::cancelled) return std::unexpected(*broken);
  out.sites.clear();
  for (size_t i : minimal.items) out.sites.push_back(shuffled[i]);
  if (auto it = failing_runs.find(minimal.items); it != failing_runs.end()) out.run = it->second;
  out.complete = minimal.complete;
  if (minimal.stopped) out.stopped = minimal.stopped->message;
  return out;
}

std::optional<Frame> parse_frame(const std::string& text) {
  const auto open = text.find('(');
  if (open == std::string::npos || text.back() != ')') return std::nullopt;
  const std::string qualified = text.substr(0, open);
  const auto dot = qualified.rfind('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == qualified.size()) return std::nullopt;
  Frame f{.class_name = qualified.substr(0, dot), .method = qualified.substr(dot + 1)};
  const std::string where = text.substr(open + 1, text.size() - open - 2);
  const auto colon = where.rfind(':');
  if (colon == std::string::npos) {
    if (where.ends_with(".java") || where.ends_with(".kt")) f.file = where;
    return f;
  }
  f.file = where.substr(0, colon);
  try {
    f.line = std::stoi(where.substr(colon + 1));
  } catch (const std::exception&) {
    f.line = 0;
  }
  return f;
}

std::optional<UserFrame> user_frame(const core::ShuffledSite& site,
                                    const std::function<std::optional<std::string>(const std::string& class_name)>& source_of) {
  for (const auto& text : site.frames) {
    auto frame = parse_frame(text);
    if (!frame || frame->line <= 0) continue;
    if (auto path = source_of(frame->class_name)) return UserFrame{*frame, text, *path};
  }
  return std::nullopt;
}

}  // namespace flakescan::shuffle
