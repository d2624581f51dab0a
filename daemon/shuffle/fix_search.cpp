#include "shuffle/fix_search.hpp"

#include <filesystem>
#include <set>

#include "core/deciding.hpp"
#include "shuffle/order_fix.hpp"

namespace flakescan::shuffle {

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> roots_of(const core::TechniqueInput& input) {
  std::vector<fs::path> roots;
  for (const auto& r : input.source_roots) roots.emplace_back(r);
  if (roots.empty() && !input.project_dir.empty()) roots.emplace_back(input.project_dir);
  return roots;
}

}  // namespace

FixSearch::FixSearch(const core::TechniqueInput& input, core::RunLog& log, int max_tried)
    : input_(input), log_(log), max_tried_(max_tried), locator_(roots_of(input)) {}

std::optional<UserFrame> FixSearch::user_frame_of(const core::ShuffledSite& site) {
  return user_frame(site, [this](const std::string& class_name) -> std::optional<std::string> {
    // A nested class lives in its outer class's file.
    auto file = locator_.find_file(class_name.substr(0, class_name.find('$')));
    if (!file || file->extension() != ".java") return std::nullopt;
    return file->string();
  });
}

std::string FixSearch::relative(const std::string& path) const {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  if (!input_.project_dir.empty()) {
    auto rel = fs::relative(absolute, input_.project_dir, ec);
    if (!ec && !rel.empty() && !rel.string().starts_with("..")) return rel.generic_string();
  }
  return absolute.string();
}

std::string FixSearch::verify(const std::string& test, const std::string& file_name, const std::vector<std::string>& lines,
                              const std::vector<std::uint64_t>& seeds, const std::string& mode,
                              const std::vector<std::string>& bystanders, std::int64_t& verified_by_run) {
  if (!input_.tools) return "was not compiled: no Java compiler was handed to the technique";
  auto compiled = input_.tools->compile_java(file_name, lines, input_.classpath);
  if (!compiled) return "did not compile: " + compiled.error().message;
  const std::vector<std::string> prepend{(*compiled)->classes().string()};
  std::vector<core::RunSpec> specs;
  auto spec = [&](const std::string& why) {
    core::RunSpec s;
    s.tests = {test};
    s.technique = core::intervention_technique;
    s.purpose = "shuffle: verify a fix of " + test + ": " + why;
    s.classpath_prepend = prepend;
    return s;
  };
  specs.push_back(spec("on the plain JDK"));
  for (auto seed : seeds) {
    auto s = spec("seed " + std::to_string(seed));
    s.seed = seed;
    s.shuffle = core::ShuffleSpec{.seed = seed, .mode = mode};
    specs.push_back(std::move(s));
  }
  log_.plan(int(specs.size()));
  auto done = log_.run_all(specs);
  if (!done) return "its runs could not be made: " + done.error().message;
  for (const auto& run : *done) {
    if (run.report.outcome_at(0) == core::Outcome::pass) continue;
    const std::string where = run.spec.shuffle ? "under seed " + std::to_string(run.spec.shuffle->seed) : std::string("on the plain JDK");
    return "the patched test did not pass " + where + " (run " + std::to_string(run.id) + ", " +
           std::string(core::outcome_name(run.report.outcome_at(0))) + ")";
  }
  verified_by_run = done->size() > 1 ? (*done)[1].id : (*done)[0].id;
  return breaks_others(test, prepend, bystanders);
}

std::string FixSearch::breaks_others(const std::string& test, const std::vector<std::string>& prepend,
                                     const std::vector<std::string>& bystanders) {
  if (bystanders.empty()) return "";
  core::RunSpec with;
  with.tests = bystanders;
  with.technique = core::intervention_technique;
  with.purpose = "shuffle: a fix of " + test + " against the other " + std::to_string(bystanders.size()) + " test(s), patched";
  with.classpath_prepend = prepend;
  auto patched = log_.run(with);
  if (!patched) return "the other tests could not be run with it: " + patched.error().message;
  std::vector<std::string> failed;
  for (const auto& r : patched->report.results)
    if (core::is_failure(r.outcome)) failed.push_back(r.test);
  if (failed.empty()) return "";
  // Some fail with the patch: those that pass in the same JVM and order without it are broken by it.
  core::RunSpec without = with;
  without.classpath_prepend.clear();
  without.purpose = "shuffle: a fix of " + test + " against the other " + std::to_string(bystanders.size()) + " test(s), unpatched";
  auto plain = log_.run(without);
  if (!plain) return "the other tests could not be run without it: " + plain.error().message;
  std::vector<std::string> broken;
  for (const auto& name : failed)
    for (const auto& r : plain->report.results)
      if (r.test == name && r.outcome == core::Outcome::pass) broken.push_back(name);
  if (broken.empty()) return "";
  std::string list;
  for (size_t i = 0; i < broken.size() && i < 5; ++i) list += (i ? ", " : "") + broken[i];
  if (broken.size() > 5) list += " and " + std::to_string(broken.size() - 5) + " more";
  return "it breaks " + std::to_string(broken.size()) + " other test(s): " + list + " fail with it (run " +
         std::to_string(patched->id) + ") and pass without it (run " + std::to_string(plain->id) + ")";
}

FixResult FixSearch::find(const std::string& test, const Located& located, const std::vector<std::uint64_t>& failing_seeds,
                          const std::vector<std::uint64_t>& fresh_seeds, const std::string& mode,
                          const std::vector<std::string>& bystanders) {
  FixResult out;
  if (input_.classpath.empty()) {
    out.why_not = "no classpath to compile a fix against (this backend has none here)";
    return out;
  }
  if (located.sites.empty()) {
    out.why_not = "the site was not located";
    return out;
  }
  std::vector<std::uint64_t> seeds = failing_seeds;
  for (auto s : fresh_seeds)
    if (std::find(seeds.begin(), seeds.end(), s) == seeds.end()) seeds.push_back(s);
  // The located site's frames with a source file, each a place the order may flow through.
  const auto& site = located.sites.front();
  std::set<std::string> offered;
  std::vector<std::string> refused;
  for (const auto& text : site.frames) {
    auto frame = parse_frame(text);
    if (!frame || frame->line <= 0) continue;
    auto file = locator_.find_file(frame->class_name.substr(0, frame->class_name.find('$')));
    if (!file || file->extension() != ".java") continue;
    const std::string path = relative(file->string());
    for (auto& candidate : fix_candidates(locator_.lines_of(*file), frame->line, site.api, path)) {
      if (out.tried >= max_tried_ || log_.cancelled()) break;
      if (!offered.insert(path + "\n" + candidate.diff).second) continue;
      ++out.tried;
      std::int64_t run = 0;
      std::string why = verify(test, file->filename().string(), candidate.lines, seeds, mode, bystanders, run);
      if (why.empty()) {
        out.verified = true;
        out.kind = candidate.kind;
        out.description = candidate.description;
        out.diff = candidate.diff;
        out.path = path;
        out.verified_by_run = run;
        return out;
      }
      refused.push_back(candidate.description + ": " + why);
    }
  }
  if (out.tried == 0) {
    out.why_not = "no known repair applies to the lines the order flows through";
  } else {
    out.why_not = "none of the " + std::to_string(out.tried) + " known repairs tried verified";
    for (const auto& r : refused) out.why_not += "; " + r;
  }
  return out;
}

}  // namespace flakescan::shuffle
