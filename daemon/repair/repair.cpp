#include "repair/repair.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>

#include "classfile/classpath.hpp"
#include "core/deciding.hpp"
#include "order/ddmin.hpp"
#include "order/order_and_nio.hpp"
#include "repair/cleaner_calls.hpp"
#include "repair/java_names.hpp"
#include "repair/source_patch.hpp"
#include "repair/state_capture.hpp"
#include "report/text.hpp"
#include "repair/vm_stops.hpp"
#include "report/source_locator.hpp"

namespace flakescan::repair {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using util::Errc;

namespace {

core::Deadline repair_call_deadline() { return core::deadline_in(30s); }

std::string class_of_test(const std::string& test) { return test.substr(0, test.find('#')); }
std::string method_of_test(const std::string& test) {
  auto hash = test.find('#');
  return hash == std::string::npos ? "" : test.substr(hash + 1);
}
std::string join(const std::vector<std::string>& items, const std::string& sep = ", ") {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : sep) + i;
  return out;
}


// What repair works on: one test, the order it fails in and the one it passes in.
struct Target {
  std::string test;
  std::vector<std::string> failing, passing, polluters;  // polluters: or state-setters (brittle)
  core::Verdict from;  // the earlier verdict (its evidence is repeated in repair's finding)
  bool brittle = false;  // fails alone, passes after state-setters: the state is in the passing order
};

std::optional<Target> target_of(const core::Verdict& v) {
  for (const auto& f : core::findings_of(v)) {
    if (f.verdict != core::VerdictKind::flaky || !f.not_deciding.empty()) continue;
    const auto& e = f.evidence;
    if (e.reproducer.empty() || e.passing_order.empty() || e.reproducer.back() != v.test) continue;
    if (f.category == core::Category::order_dependent && e.role == "victim") {
      std::vector<std::string> polluters(e.reproducer.begin(), e.reproducer.end() - 1);
      return Target{v.test, e.reproducer, e.passing_order, polluters, v};
    }
    if (f.category == core::Category::order_dependent && e.role == "brittle" && e.passing_order.back() == v.test) {
      std::vector<std::string> setters(e.passing_order.begin(), e.passing_order.end() - 1);
      return Target{v.test, e.reproducer, e.passing_order, setters, v, true};
    }
    if (f.category == core::Category::nio)
      return Target{v.test, e.reproducer, e.passing_order, {v.test}, v};
  }
  return std::nullopt;
}

// Class files known to one repair: the project's class directories first, then what the test
// JVM's loaders hand over (jars, the JDK) at a stop.
class ClassCache {
 public:
  explicit ClassCache(const std::vector<std::string>& classpath) {
    for (const auto& c : classpath) dirs_.emplace_back(c);
  }
  // Known after this call if a class directory or the test JVM has it; false when none has.
  bool ensure(const std::string& name, core::Vm& vm, core::ThreadRef thread) {
    if (classes.contains(name)) return true;
    if (missing_.contains(name)) return false;
    classfile::Bytes bytes;
    if (auto b = classfile::read_class_bytes(dirs_, name); b) {
      bytes = std::move(*b);
    } else if (auto fetched = class_bytes(vm, thread, name); fetched && !fetched->empty()) {
      bytes.assign(fetched->begin(), fetched->end());
    }
    auto parsed = bytes.empty() ? util::fail(Errc::not_found, name) : classfile::parse_class(bytes);
    if (!parsed) {
      missing_.insert(name);
      return false;
    }
    classes.emplace(name, std::move(*parsed));
    return true;
  }
  ClassFiles classes;

 private:
  std::vector<fs::path> dirs_;
  std::set<std::string> missing_;
};

// The cleaner call's arguments, made in the test JVM; nullopt (with `exception` saying why)
// when one of them cannot be made there.
util::Result<std::optional<std::vector<core::Value>>> cleaner_arguments(core::Vm& vm, core::ThreadRef thread, const Call& c,
                                                                        const core::Value& original, std::string& exception) {
  std::vector<core::Value> args;
  for (const auto& a : c.args) {
    switch (a.kind) {
      case Arg::Kind::null: args.push_back(core::Value::null()); break;
      case Arg::Kind::int_: args.push_back(core::Value::of_int(static_cast<std::int32_t>(a.integer))); break;
      case Arg::Kind::long_: args.push_back(core::Value::of_long(a.integer)); break;
      case Arg::Kind::boolean: args.push_back(core::Value::of_bool(a.integer != 0)); break;
      case Arg::Kind::string: {
        auto s = vm.new_string(a.text, repair_call_deadline());
        if (!s) return std::unexpected(s.error());
        args.push_back(*s);
        break;
      }
      case Arg::Kind::enum_constant: {
        auto e = static_value(vm, a.type, a.text);
        if (!e) {
          (void)load_class(vm, thread, a.type);
          e = static_value(vm, a.type, a.text);
        }
        if (!e) return std::unexpected(e.error());
        args.push_back(*e);
        break;
      }
      case Arg::Kind::original: args.push_back(original); break;
      case Arg::Kind::jdk_default: {
        auto d = jdk_default_for(a.type);
        if (!d) return util::fail(Errc::internal, "no JDK default for " + a.type);
        auto got = vm.invoke_static(d->owner, d->method, d->descriptor, {}, thread, repair_call_deadline());
        if (!got) return std::unexpected(got.error());
        if (got->exception) {
          exception = d->owner + "." + d->method + "() threw";
          return std::nullopt;
        }
        args.push_back(got->result);
        break;
      }
    }
  }
  return args;
}

// Calls the cleaner in the test JVM: on the field's value, on the instance its getter gives,
// or statically. What went wrong (no receiver, an exception) goes to `exception`.
util::Result<void> invoke_cleaner(core::Vm& vm, core::ThreadRef thread, const PollutedField& field, const Call& c,
                                  const std::vector<core::Value>& args, std::string& exception) {
  util::Result<core::InvokeResult> r = util::fail(Errc::internal, "not called");
  if (c.on_value) {
    auto receiver = static_value(vm, field.owner, field.name);
    if (!receiver) return std::unexpected(receiver.error());
    if (!receiver->object) {
      exception = "the field was null";
      return {};
    }
    r = vm.invoke_method(receiver->object, c.method, c.descriptor, args, thread, repair_call_deadline());
  } else if (!c.instance_getter.empty()) {
    auto instance = vm.invoke_static(c.owner, c.instance_getter, "()L" + internal_name(c.owner) + ";", {},
                                     thread, repair_call_deadline());
    if (!instance) return std::unexpected(instance.error());
    if (instance->exception || !instance->result.object) {
      exception = c.instance_getter + "() gave no instance";
      return {};
    }
    r = vm.invoke_method(instance->result.object, c.method, c.descriptor, args, thread, repair_call_deadline());
  } else {
    r = vm.invoke_static(c.owner, c.method, c.descriptor, args, thread, repair_call_deadline());
  }
  if (!r) {
    exception = r.error().message;
  } else if (r->exception) {
    auto type = vm.class_of(r->exception, repair_call_deadline());
    exception = "threw " + (type ? *type : std::string("an exception"));
  }
  return {};
}

// A step of a repair: its result, or the sentence that ends the repair (the finding's reason).
template <class T>
using Step = std::expected<T, std::string>;
// A cleaner to try: a reset method of one polluted field, with its arguments.
using CleanerCandidate = std::pair<const PollutedField*, Call>;

class Repairer {
 public:
  Repairer(const core::TechniqueInput& input, core::RunLog& log, const RepairOptions& options)
      : input_(input), log_(log), options_(options), cache_(input.classpath) {}

  core::Verdict repair(const Target& t);

 private:
  util::Result<core::RecordedRun> plain_run(std::vector<std::string> tests, std::string purpose, bool intervened,
                                            std::vector<std::string> prepend = {}) {
    core::RunSpec spec{std::move(tests), intervened ? core::intervention_technique : "repair", std::move(purpose)};
    spec.classpath_prepend = std::move(prepend);
    ++runs_;
    return log_.run(spec);
  }
  util::Result<core::RecordedRun> debugged(std::vector<std::string> tests, std::string purpose, bool intervened,
                                           std::vector<Stop> stops) {
    core::RunSpec spec{std::move(tests), intervened ? core::intervention_technique : "repair", std::move(purpose)};
    ++runs_;
    return log_.run_debugged(spec, stop_before(std::move(stops)));
  }
  static core::Outcome last_outcome(const core::RecordedRun& run) { return run.report.outcome_at(run.spec.tests.size() - 1); }

  util::Result<bool> restores_pass(const Target& t, const std::vector<std::string>& fields, bool survey);
  // Brittle tests: the fields' values before the test in its passing order (primitives as they
  // are, objects serialised), then set in its failing order right before it.
  util::Result<void> read_passing_values(const Target& t, const std::vector<std::string>& fields);
  util::Result<bool> sets_pass(const Target& t, const std::vector<std::string>& fields, bool survey);
  struct PassingValue {
    core::Value value;       // primitives and null
    std::string serialized;  // objects: StateKeeper.serialize's text
  };
  std::map<std::string, PassingValue> passing_values_;
  util::Result<void> survey(core::Vm& vm, core::ThreadRef thread, const Target& t, const std::vector<std::string>& fields);
  std::optional<std::string> value_expression(core::Vm& vm, core::ThreadRef thread, const core::Value& v);
  struct Tried {
    bool passed = false;
    std::int64_t run = 0;
    std::optional<std::string> receiver, original;
    std::string exception;
  };
  util::Result<Tried> try_cleaner(const Target& t, const PollutedField& field, const Call& c);

  // The steps of repair(), in turn.
  core::Verdict verdict_of(const Target& t) const;
  std::string find_repair(const Target& t, std::map<std::string, std::string>& details);
  util::Result<core::RecordedRun> capture_in(const Target& t, bool in_failing, const std::vector<std::string>* only,
                                             Capture& into);
  Step<std::vector<std::string>> differing_fields(const Target& t, std::map<std::string, std::string>& details);
  Step<std::vector<std::string>> polluted_fields(const Target& t, const std::vector<std::string>& fields,
                                                 std::map<std::string, std::string>& details);
  Step<std::vector<CleanerCandidate>> cleaner_candidates(const std::vector<std::string>& polluted);
  std::string try_cleaners(const Target& t, const std::vector<std::string>& polluted,
                           std::map<std::string, std::string>& details);
  std::string offer_patch(const Target& t, const PollutedField& field, const std::string& statement,
                          std::map<std::string, std::string>& details);
  // The failing and passing run that passed with the patched class; an error says why not.
  util::Result<std::pair<std::int64_t, std::int64_t>> verify_patch(const Target& t, const fs::path& file_name,
                                                                   const MethodPatch& patch);

  const core::TechniqueInput& input_;
  core::RunLog& log_;
  RepairOptions options_;
  ClassCache cache_;
  int runs_ = 0;
  std::int64_t last_restore_run_ = 0;  // the last run of restores_pass or sets_pass
  std::map<std::string, PollutedField> surveyed_;  // field -> its owner, descriptor, value class
  classfile::Literals literals_;
};

util::Result<void> Repairer::survey(core::Vm& vm, core::ThreadRef thread, const Target& t, const std::vector<std::string>& fields) {
  for (const auto& name : fields) {
    auto [owner, field] = split_field(name);
    PollutedField p{owner, field, "", ""};
    auto value = static_value(vm, owner, field, &p.descriptor);
    if (!value) continue;
    if (value->is_reference() && value->object)
      if (auto cls = vm.class_of(value->object, repair_call_deadline())) p.value_class = *cls;
    for (int round = 0; round < 12; ++round) {
      auto missing = missing_classes(p, cache_.classes);
      bool any = false;
      for (const auto& m : missing) any = cache_.ensure(m, vm, thread) || any;
      if (!any) break;
    }
    if (auto resets = reset_methods(p, cache_.classes))
      for (const auto& e : missing_enum_candidates(*resets, cache_.classes)) cache_.ensure(e, vm, thread);
    surveyed_[name] = p;
  }
  // Literals: the polluters' own methods first (`register("nightly", 4)` names the entry to
  // remove), then the test's, then their classes, the project classes those refer to, and
  // the fields' owners.
  std::vector<std::string> test_methods = t.polluters;
  test_methods.push_back(t.test);
  for (const auto& m : test_methods)
    if (const std::string cls = internal_name(class_of_test(m)); cache_.ensure(cls, vm, thread))
      if (auto lits = classfile::collect_method_literals(cache_.classes.at(cls), method_of_test(m))) classfile::merge(literals_, *lits);
  std::vector<std::string> sources;
  for (const auto& p : t.polluters) sources.push_back(internal_name(class_of_test(p)));
  sources.push_back(internal_name(class_of_test(t.test)));
  const std::size_t tests_end = sources.size();
  for (std::size_t i = 0; i < tests_end; ++i) {
    if (!cache_.ensure(sources[i], vm, thread)) continue;
    for (const auto& k : cache_.classes.at(sources[i]).pool)
      if (k.tag == classfile::ConstantTag::class_)
        if (auto n = cache_.classes.at(sources[i]).utf8(k.first); n && is_project_class(binary_name(std::string(*n))))
          sources.push_back(std::string(*n));
  }
  for (const auto& [name, p] : surveyed_) sources.push_back(internal_name(p.owner));
  for (const auto& s : sources)
    if (cache_.ensure(s, vm, thread))
      if (auto lits = classfile::collect_literals(cache_.classes.at(s))) classfile::merge(literals_, *lits);
  return {};
}

util::Result<bool> Repairer::restores_pass(const Target& t, const std::vector<std::string>& fields, bool with_survey) {
  if (t.brittle) return sets_pass(t, fields, with_survey);
  // Values are kept at the first entry and restored before the last: two stops (NIO: t, t).
  if (t.failing.size() == 1) return util::fail(Errc::invalid_argument, "a failing order of one test has nothing to restore");
  auto kept = std::make_shared<std::map<std::string, core::Value>>();
  std::vector<Stop> stops;
  stops.push_back({0, [fields, kept](core::Vm& vm, core::ThreadRef thread) -> util::Result<void> {
                     kept->clear();
                     for (const auto& f : fields) {
                       auto [owner, name] = split_field(f);
                       (void)load_class(vm, thread, owner);
                       auto value = static_value(vm, owner, name);
                       if (!value) continue;
                       auto copy = keep_copy(vm, thread, *value);
                       if (copy) (*kept)[f] = *copy;
                     }
                     return {};
                   }});
  stops.push_back({t.failing.size() - 1, [this, &t, fields, kept, with_survey](core::Vm& vm, core::ThreadRef thread) -> util::Result<void> {
                     if (with_survey)
                       if (auto r = survey(vm, thread, t, fields); !r) return r;
                     for (const auto& [f, value] : *kept) {
                       auto [owner, name] = split_field(f);
                       (void)vm.set_static_field(owner, name, value, repair_call_deadline());
                     }
                     return {};
                   }});
  auto run = debugged(t.failing, "repair: " + t.test + " in its failing order with " + std::to_string(fields.size()) +
                                     " field(s) restored: " + join(fields),
                      true, std::move(stops));
  if (!run) return std::unexpected(run.error());
  last_restore_run_ = run->id;
  auto o = last_outcome(*run);
  if (!core::is_observation(o)) return util::fail(Errc::process, "the run with restored fields did not reach " + t.test);
  return o == core::Outcome::pass;
}

util::Result<void> Repairer::read_passing_values(const Target& t, const std::vector<std::string>& fields) {
  passing_values_.clear();
  auto run = debugged(t.passing, "repair: read the values of " + std::to_string(fields.size()) + " field(s) before " + t.test +
                                     " in its passing order",
                      false, {{t.passing.size() - 1, [&](core::Vm& vm, core::ThreadRef thread) -> util::Result<void> {
                                 for (const auto& f : fields) {
                                   auto [owner, name] = split_field(f);
                                   auto value = static_value(vm, owner, name);
                                   if (!value) continue;
                                   if (!value->is_reference() || !value->object) {
                                     passing_values_[f] = PassingValue{*value, {}};
                                     continue;
                                   }
                                   auto text = serialize_value(vm, thread, *value);
                                   if (!text) return std::unexpected(text.error());
                                   if (*text) passing_values_[f] = PassingValue{{}, **text};
                                 }
                                 return {};
                               }}});
  if (!run) return std::unexpected(run.error());
  if (last_outcome(*run) != core::Outcome::pass)
    return util::fail(Errc::process, "the passing order failed while its values were read (run " + std::to_string(run->id) + ")");
  return {};
}

util::Result<bool> Repairer::sets_pass(const Target& t, const std::vector<std::string>& fields, bool with_survey) {
  auto stop = [this, &t, fields, with_survey](core::Vm& vm, core::ThreadRef thread) -> util::Result<void> {
    for (const auto& f : fields) {
      auto it = passing_values_.find(f);
      if (it == passing_values_.end()) continue;
      auto [owner, name] = split_field(f);
      (void)load_class(vm, thread, owner);
      core::Value value = it->second.value;
      if (!it->second.serialized.empty()) {
        auto rebuilt = deserialize_value(vm, thread, it->second.serialized);
        if (!rebuilt) continue;
        value = *rebuilt;
      }
      (void)vm.set_static_field(owner, name, value, repair_call_deadline());
    }
    // The survey after the values are set: the value's class is the one the passing order has.
    if (with_survey) return survey(vm, thread, t, fields);
    return {};
  };
  auto run = debugged(t.failing, "repair: " + t.test + " in its failing order with " + std::to_string(fields.size()) +
                                     " field(s) set as in its passing order: " + join(fields),
                      true, {{t.failing.size() - 1, stop}});
  if (!run) return std::unexpected(run.error());
  last_restore_run_ = run->id;
  auto o = last_outcome(*run);
  if (!core::is_observation(o)) return util::fail(Errc::process, "the run with set fields did not reach " + t.test);
  return o == core::Outcome::pass;
}

std::optional<std::string> Repairer::value_expression(core::Vm& vm, core::ThreadRef thread, const core::Value& v) {
  if (!v.is_reference() || !v.object) {
    if (v.kind == core::Value::Kind::null) return "null";
    return std::nullopt;
  }
  if (v.kind == core::Value::Kind::string) {
    auto text = vm.string_value(v.object, repair_call_deadline());
    return text ? std::optional(report::java_string_literal(*text)) : std::nullopt;
  }
  auto cls = vm.class_of(v.object, repair_call_deadline());
  if (!cls || !cache_.ensure(internal_name(*cls), vm, thread)) return std::nullopt;
  // A public constant of its own class equal to it: Locale.ROOT, Locale.US, TimeUnit.SECONDS.
  const auto& file = cache_.classes.at(internal_name(*cls));
  auto statics = vm.static_fields(*cls, repair_call_deadline());
  if (!statics) return std::nullopt;
  const std::string descriptor = "L" + internal_name(*cls) + ";";
  for (const auto& f : *statics) {
    const auto* member = file.find_field(f.name);
    if (!member || f.signature != descriptor || !(member->access_flags & classfile::access::public_) || !f.is_final) continue;
    if (!f.value.object) continue;
    bool same = f.value.object == v.object;
    if (!same) {
      auto eq = vm.invoke_method(v.object, "equals", "(Ljava/lang/Object;)Z", {f.value}, thread, repair_call_deadline());
      same = eq && !eq->exception && eq->result.integer != 0;
    }
    if (same) return source_name(*cls) + "." + f.name;
  }
  return std::nullopt;
}

util::Result<Repairer::Tried> Repairer::try_cleaner(const Target& t, const PollutedField& field, const Call& c) {
  auto tried = std::make_shared<Tried>();
  auto original = std::make_shared<core::Value>();
  const bool needs_original = std::any_of(c.args.begin(), c.args.end(), [](const Arg& a) { return a.kind == Arg::Kind::original; });
  std::vector<Stop> stops;
  if (needs_original)
    stops.push_back({0, [this, field, original, tried](core::Vm& vm, core::ThreadRef thread) -> util::Result<void> {
                       (void)load_class(vm, thread, field.owner);
                       auto value = static_value(vm, field.owner, field.name);
                       if (!value) return std::unexpected(value.error());
                       auto copy = keep_copy(vm, thread, *value);
                       if (!copy) return std::unexpected(copy.error());
                       *original = *copy;
                       tried->original = value_expression(vm, thread, *copy);
                       return {};
                     }});
  stops.push_back({t.failing.size() - 1, [this, &t, field, c, original, tried](core::Vm& vm, core::ThreadRef thread) -> util::Result<void> {
                     tried->receiver = field_expression(field, cache_.classes, package_of(class_of_test(t.test)));
                     // Before the first test of an order (a brittle test alone) nothing may have loaded them yet.
                     (void)load_class(vm, thread, field.owner);
                     if (c.owner != field.owner) (void)load_class(vm, thread, c.owner);
                     auto args = cleaner_arguments(vm, thread, c, *original, tried->exception);
                     if (!args) return std::unexpected(args.error());
                     if (!*args) return {};
                     return invoke_cleaner(vm, thread, field, c, **args, tried->exception);
                   }});
  auto run = debugged(t.failing, "repair: " + t.test + " in its failing order after " + describe(c), true, std::move(stops));
  if (!run) return std::unexpected(run.error());
  tried->run = run->id;
  tried->passed = last_outcome(*run) == core::Outcome::pass;
  return *tried;
}

std::string Repairer::offer_patch(const Target& t, const PollutedField& field, const std::string& statement,
                                  std::map<std::string, std::string>& details) {
  if (input_.classpath.empty()) return "no classpath to compile a patch against (this backend has none here)";
  const std::string cls = class_of_test(t.test);
  std::vector<fs::path> roots;
  for (const auto& r : input_.source_roots) roots.emplace_back(r);
  if (roots.empty() && !input_.project_dir.empty()) roots.emplace_back(input_.project_dir);
  report::SourceLocator locator(roots);
  auto file = locator.find_file(cls);
  if (!file) return "the source of " + cls + " was not found under " + (roots.empty() ? std::string("no source root") : roots.front().string());
  if (file->extension() != ".java") return "the source of " + cls + " is not Java (" + file->string() + ")";
  std::error_code ec;
  fs::path absolute = fs::absolute(*file, ec);
  std::string relative = absolute.string();
  if (!input_.project_dir.empty()) {
    auto rel = fs::relative(absolute, input_.project_dir, ec);
    if (!ec && !rel.empty() && !rel.string().starts_with("..")) relative = rel.generic_string();
  }
  const auto& lines = locator.lines_of(*file);
  const std::string comment = "flakescan repair: " + field.owner + "." + field.name +
                              (t.brittle ? " is set up only by " + join(t.polluters) + "; set it here"
                                         : " is left changed by " + join(t.polluters) + "; reset it first");
  // Where the statement goes, first that verifies: the start of the test method; else an
  // instance initializer, for a test whose class reads the state while its instance is built.
  std::vector<std::pair<std::string, util::Result<MethodPatch>>> placements;
  placements.emplace_back("at the start of the test",
                          insert_at_method_start(lines, method_of_test(t.test), relative, comment, {statement}));
  placements.emplace_back("in an instance initializer of its class (before field initializers and @Before)",
                          insert_at_class_start(lines, cls, relative, comment, {statement}));
  std::string why_not;
  for (const auto& [where, patch] : placements) {
    if (!patch) {
      why_not += (why_not.empty() ? "" : "; ") + where + ": " + patch.error().message;
      continue;
    }
    auto verified = verify_patch(t, file->filename(), *patch);
    if (!verified) {
      why_not += (why_not.empty() ? "" : "; ") + where + ": " + verified.error().message;
      continue;
    }
    details["patch"] = patch->diff;
    details["patch_file"] = relative;
    details["patch_placement"] = where;
    details["verified_by_run"] = std::to_string(verified->first);
    details["verified_passing_run"] = std::to_string(verified->second);
    return "";
  }
  return "no patch offered (" + why_not + ")";
}

util::Result<std::pair<std::int64_t, std::int64_t>> Repairer::verify_patch(const Target& t, const fs::path& file_name,
                                                                           const MethodPatch& patch) {
  // The patched file alone, compiled against the test classpath, in a folder of its own.
  if (!input_.tools) return util::fail(Errc::unsupported, "no Java compiler was handed to the technique");
  auto compiled = input_.tools->compile_java(file_name.string(), patch.lines, input_.classpath);
  if (!compiled) return util::fail(Errc::process, "the patch did not compile: " + compiled.error().message);
  const std::vector<std::string> prepend{(*compiled)->classes().string()};
  auto failing = plain_run(t.failing, "repair: verify the patch of " + t.test + " in its failing order", true, prepend);
  if (!failing) return std::unexpected(failing.error());
  if (last_outcome(*failing) != core::Outcome::pass)
    return util::fail(Errc::process, "the patched test still failed in its failing order (run " + std::to_string(failing->id) + ")");
  auto passing = plain_run(t.passing, "repair: verify the patch of " + t.test + " in its passing order", true, prepend);
  if (!passing) return std::unexpected(passing.error());
  if (last_outcome(*passing) != core::Outcome::pass)
    return util::fail(Errc::process, "the patched test failed in its passing order (run " + std::to_string(passing->id) + ")");
  return std::pair{failing->id, passing->id};
}

core::Verdict Repairer::repair(const Target& t) {
  runs_ = 0;
  surveyed_.clear();
  literals_ = {};
  core::Verdict v = verdict_of(t);
  auto& d = v.evidence.details;
  const auto started = std::chrono::steady_clock::now();
  const std::string sentence = find_repair(t, d);
  d["repair"] = sentence;
  d["repair_seconds"] = std::to_string(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  d["repair_runs"] = std::to_string(runs_);
  v.evidence.reason = "repair: " + sentence;
  return v;
}

// Repair's finding before any run: the earlier order or NIO finding's evidence, its details
// left to repair.
core::Verdict Repairer::verdict_of(const Target& t) const {
  core::Verdict v;
  v.test = t.test;
  v.technique = "repair";
  v.verdict = core::VerdictKind::flaky;
  v.category = t.from.category;
  v.runs = t.from.runs;
  for (const auto& f : core::findings_of(t.from)) {
    if (f.category == core::Category::order_dependent || f.category == core::Category::nio) {
      v.category = f.category;
      v.evidence = f.evidence;
      v.evidence.details.clear();
      break;
    }
  }
  return v;
}

// The steps of a repair; the sentence that says how it ended.
std::string Repairer::find_repair(const Target& t, std::map<std::string, std::string>& details) {
  auto fields = differing_fields(t, details);
  if (!fields) return fields.error();
  auto polluted = polluted_fields(t, *fields, details);
  if (!polluted) return polluted.error();
  return try_cleaners(t, *polluted, details);
}

util::Result<core::RecordedRun> Repairer::capture_in(const Target& t, bool in_failing, const std::vector<std::string>* only,
                                                     Capture& into) {
  CaptureOptions capture_options;
  const auto& order = in_failing ? t.failing : t.passing;
  return debugged(order, std::string("repair: capture the static state before ") + t.test + " in its " +
                             (in_failing ? "failing" : "passing") + " order",
                  false, {{order.size() - 1, [&](core::Vm& vm, core::ThreadRef thread) -> util::Result<void> {
                             auto c = capture_state(vm, thread, capture_options, only);
                             if (!c) return std::unexpected(c.error());
                             into = std::move(*c);
                             return {};
                           }}});
}

// Why a capture run's outcome says there is nothing to repair, if it does.
std::optional<std::string> outcome_contradicts(core::Outcome last, std::int64_t run, bool in_failing) {
  const bool passed = last == core::Outcome::pass;
  if (in_failing && passed) return "the failing order passed in repair's capture run " + std::to_string(run) + ": nothing to repair";
  if (!in_failing && !passed) return "the passing order failed in repair's capture run " + std::to_string(run) + ": nothing to repair";
  return std::nullopt;
}

// 1. The state before the test in both orders. The order that holds the state (the failing
// one for victims and NIO tests, the passing one for brittle tests) is captured whole; the
// other one first initialises the classes that capture saw, so both have every field.
Step<std::vector<std::string>> Repairer::differing_fields(const Target& t, std::map<std::string, std::string>& d) {
  Capture failing_capture, passing_capture;
  const bool state_in_failing = !t.brittle;
  Capture& whole = state_in_failing ? failing_capture : passing_capture;
  Capture& other = state_in_failing ? passing_capture : failing_capture;
  auto first = capture_in(t, state_in_failing, nullptr, whole);
  if (!first)
    return std::unexpected("the " + std::string(state_in_failing ? "failing" : "passing") + " order could not be captured: " + first.error().message);
  if (auto why = outcome_contradicts(last_outcome(*first), first->id, state_in_failing)) return std::unexpected(*why);
  auto second = capture_in(t, !state_in_failing, &whole.classes, other);
  if (!second)
    return std::unexpected("the " + std::string(state_in_failing ? "passing" : "failing") + " order could not be captured: " + second.error().message);
  if (auto why = outcome_contradicts(last_outcome(*second), second->id, !state_in_failing)) return std::unexpected(*why);
  auto diffs = diff_fields(failing_capture.fields, passing_capture.fields);
  std::vector<std::string> fields;
  std::string diff_text;
  for (const auto& x : diffs) {
    if ((state_in_failing ? x.failing : x.passing).empty()) continue;  // absent where the state is: nothing to set
    fields.push_back(x.field);
    if (diff_text.size() < 4000)
      diff_text += x.field + ": failing " + (x.failing.empty() ? "(absent)" : x.failing) + " | passing " +
                   (x.passing.empty() ? "(absent)" : x.passing) + "\n";
  }
  d["fields_compared"] = std::to_string(whole.fields.size());
  d["fields_differing"] = std::to_string(fields.size());
  if (!diff_text.empty()) d["polluted_fields_diff"] = diff_text;
  if (fields.empty())
    return std::unexpected("no static field differs before " + t.test + " between its failing and passing order (" +
                           std::to_string(whole.fields.size()) +
                           " compared): the pollution is outside the static state (files, services, other processes)");
  return fields;
}

// 2. Which fields, restored (victims, NIO: to their value before the first test; brittle
// tests: to their value in the passing order), make it pass.
Step<std::vector<std::string>> Repairer::polluted_fields(const Target& t, const std::vector<std::string>& fields,
                                                         std::map<std::string, std::string>& d) {
  if (t.brittle)
    if (auto r = read_passing_values(t, fields); !r) return std::unexpected("the passing values could not be read: " + r.error().message);
  auto all = restores_pass(t, fields, /*survey=*/true);
  if (!all) return std::unexpected("restoring the differing fields failed: " + all.error().message);
  if (!*all) {
    d["restore_run"] = std::to_string(last_restore_run_);
    return std::unexpected("restoring all " + std::to_string(fields.size()) + " static fields that differ before it, together, " +
                           (t.brittle ? "to their values in the passing order" : "to copies of their values from before the first test") +
                           ", did not make it pass (run " + std::to_string(last_restore_run_) +
                           "): what decides its outcome was not found among the static fields compared");
  }
  auto minimal = order::ddmin(fields.size(), [&](const std::vector<std::size_t>& subset) -> util::Result<bool> {
    std::vector<std::string> chosen;
    for (auto i : subset) chosen.push_back(fields[i]);
    if (chosen.size() == fields.size()) return true;  // known
    return restores_pass(t, chosen, false);
  });
  std::vector<std::string> polluted;
  for (auto i : minimal.items) polluted.push_back(fields[i]);
  d["polluted_field"] = join(polluted);
  if (!minimal.complete)
    return std::unexpected("restoring " + join(polluted) + " makes it pass (not minimised: " +
                           (minimal.stopped ? minimal.stopped->message : std::string("stopped")) + ")");
  return polluted;
}

// The reset methods of each polluted field, taken round robin over the fields, best first in
// each, at most max_cleaner_runs of them.
Step<std::vector<CleanerCandidate>> Repairer::cleaner_candidates(const std::vector<std::string>& polluted) {
  std::vector<std::vector<CleanerCandidate>> per_field;
  for (const auto& name : polluted) {
    auto it = surveyed_.find(name);
    if (it == surveyed_.end()) continue;
    auto resets = reset_methods(it->second, cache_.classes);
    if (!resets) return std::unexpected("reading the reset methods failed: " + resets.error().message);
    auto& list = per_field.emplace_back();
    for (auto& c : candidate_calls(it->second, *resets, cache_.classes, literals_, static_cast<std::size_t>(options_.max_cleaner_runs)))
      list.emplace_back(&it->second, std::move(c));
  }
  if (per_field.empty()) return std::unexpected("the polluted field " + join(polluted) + " could not be read in the test JVM");
  std::vector<CleanerCandidate> calls;  // round robin over the fields, best first in each
  for (std::size_t i = 0; calls.size() < static_cast<std::size_t>(options_.max_cleaner_runs); ++i) {
    bool any = false;
    for (auto& list : per_field) {
      if (i >= list.size() || calls.size() >= static_cast<std::size_t>(options_.max_cleaner_runs)) continue;
      calls.push_back(std::move(list[i]));
      any = true;
    }
    if (!any) break;
  }
  return calls;
}

// 3. A cleaner among the reset methods of the polluted field, or of each of linked fields
// (ones that make the test pass only when restored together), taken in turn.
std::string Repairer::try_cleaners(const Target& t, const std::vector<std::string>& polluted,
                                   std::map<std::string, std::string>& d) {
  std::string what = (t.brittle ? "the field its state-setter sets is " : "the polluted field is ") + polluted.front();
  if (polluted.size() > 1)
    what = std::string(t.brittle ? "the fields its state-setter sets are " : "the polluted fields are ") + join(polluted) +
           " (only restored together do they make it pass)";
  auto calls = cleaner_candidates(polluted);
  if (!calls) return calls.error();
  if (calls->empty()) return what + "; no method on the classpath resets it, so there is no patch";
  std::vector<std::string> tried_calls;
  for (const auto& [field, c] : *calls) {
    const bool uses_original = std::any_of(c.args.begin(), c.args.end(), [](const Arg& a) { return a.kind == Arg::Kind::original; });
    if (t.brittle && uses_original) continue;  // the value before the first test is the failing one
    auto tried = try_cleaner(t, *field, c);
    tried_calls.push_back(describe(c) + (tried && !tried->exception.empty() ? " (" + tried->exception + ")" : ""));
    if (!tried) continue;
    if (!tried->passed) continue;
    auto statement = java_statement(c, tried->receiver, tried->original);
    d["cleaner_call"] = describe(c);
    d["cleaner_run"] = std::to_string(tried->run);
    if (!statement)
      return what + "; calling " + describe(c) +
             " first makes the test pass, but it has no Java source form here (the field or an argument cannot be named)";
    d["cleaner"] = *statement;
    // 4. The patch, compiled and verified.
    auto why_not = offer_patch(t, *field, *statement, d);
    if (!why_not.empty()) return what + "; cleaner " + *statement + " (it made the test pass when called through the debugger); " + why_not;
    return what + "; " + *statement + " " + d["patch_placement"] + " makes it pass in its failing order (patch verified in run " +
           d["verified_by_run"] + ")";
  }
  d["cleaners_tried"] = join(tried_calls, "; ");
  return what + (t.brittle ? "; no method on the classpath that writes it" : "; no reset method on the classpath") +
         " makes the test pass (tried " + std::to_string(tried_calls.size()) + ": " + join(tried_calls, "; ") +
         "), so there is no patch";
}

}  // namespace

util::Result<std::vector<core::Verdict>> repair_tests(const core::TechniqueInput& input, core::RunLog& log,
                                                      const RepairOptions& options) {
  std::vector<core::Verdict> earlier = input.earlier;
  const bool has_order = std::any_of(earlier.begin(), earlier.end(), [](const core::Verdict& v) {
    for (const auto& f : core::findings_of(v))
      if (f.technique == "order" || f.technique == "nio") return true;
    return false;
  });
  std::vector<core::Verdict> found;
  if (!has_order) {  // nothing handed over: find the victims first
    auto od = order::detect_order_dependent(input, log);
    if (!od) return std::unexpected(od.error());
    found = *od;
    earlier.insert(earlier.end(), od->begin(), od->end());
  }
  std::vector<Target> targets;
  std::set<std::string> seen;
  for (const auto& v : earlier)
    if (auto t = target_of(v); t && seen.insert(t->test).second && static_cast<int>(targets.size()) < options.max_targets)
      targets.push_back(*t);
  Repairer repairer(input, log, options);
  for (const auto& t : targets) {
    if (log.cancelled()) return util::fail(Errc::cancelled, "scan cancelled");
    found.push_back(repairer.repair(t));
  }
  return found;
}

core::TechniqueFn repair_technique(RepairOptions options) {
  return [options](const core::TechniqueInput& input, core::RunLog& log) { return repair_tests(input, log, options); };
}

}  // namespace flakescan::repair
