// Candidate reset calls and their Java source form (repair/cleaner_calls.hpp), on class files
// compiled at build time from fixture/pkg/*.java.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "classfile/classpath.hpp"
#include "repair/cleaner_calls.hpp"

using namespace flakescan;
using namespace flakescan::repair;

namespace {

classfile::ClassFile fixture_class(std::string_view name) {
  std::vector<std::filesystem::path> classpath{FLAKESCAN_REPAIR_FIXTURE_DIR};
  auto bytes = classfile::read_class_bytes(classpath, name);
  if (!bytes) FAIL(bytes.error().message);
  auto parsed = classfile::parse_class(*bytes);
  if (!parsed) FAIL(parsed.error().message);
  return *parsed;
}

ClassFiles fixture_classes(std::initializer_list<std::string_view> names) {
  ClassFiles out;
  for (auto n : names) {
    auto c = fixture_class(n);
    out.emplace(c.name, c);
  }
  return out;
}

ClassFiles all_fixture_classes() {
  return fixture_classes({"pkg.Registry", "pkg.Session", "pkg.Counter", "pkg.Settings", "pkg.Settings$Mode", "pkg.Child",
                          "pkg.Base"});
}

const PollutedField registry_names{"pkg.Registry", "NAMES", "Ljava/util/List;", "java.util.ArrayList"};
const PollutedField session_instance{"pkg.Session", "INSTANCE", "Lpkg/Session;", "pkg.Session"};
const PollutedField counter_issued{"pkg.Counter", "issued", "I", ""};
const PollutedField settings_mode{"pkg.Settings", "mode", "Lpkg/Settings$Mode;", "pkg.Settings$Mode"};

std::vector<Call> calls_for(const PollutedField& field, const ClassFiles& classes, const classfile::Literals& literals,
                            std::size_t max_calls = 50) {
  auto resets = reset_methods(field, classes);
  if (!resets) FAIL(resets.error().message);
  return candidate_calls(field, *resets, classes, literals, max_calls);
}

std::vector<std::string> described(const std::vector<Call>& calls) {
  std::vector<std::string> out;
  for (const auto& c : calls) out.push_back(describe(c));
  return out;
}

std::ptrdiff_t index_of(const std::vector<Call>& calls, std::string_view method) {
  auto it = std::find_if(calls.begin(), calls.end(), [&](const Call& c) { return c.method == method; });
  return it == calls.end() ? -1 : it - calls.begin();
}

Arg string_arg(std::string text) { return {Arg::Kind::string, 0, std::move(text), ""}; }
Arg null_arg(std::string type) { return {Arg::Kind::null, 0, "", std::move(type)}; }

}  // namespace

TEST_CASE("reset_methods: the registry's clear and adder", "[repair][cleaner]") {
  auto classes = all_fixture_classes();
  auto resets = reset_methods(registry_names, classes);
  if (!resets) FAIL(resets.error().message);
  std::vector<std::string> names;
  for (const auto& r : *resets) names.push_back(r.class_name + "." + r.method_name);
  INFO(Catch::Detail::stringify(names));
  CHECK(std::find(names.begin(), names.end(), "pkg/Registry.clearAll") != names.end());
  CHECK(std::find(names.begin(), names.end(), "pkg/Registry.register") != names.end());
  CHECK(std::find(names.begin(), names.end(), "pkg/Registry.size") == names.end());  // size() is no mutator
}

TEST_CASE("candidate_calls: the registry's clearAll() comes first", "[repair][cleaner]") {
  auto classes = all_fixture_classes();
  classfile::Literals literals;
  literals.strings = {"alpha"};
  auto calls = calls_for(registry_names, classes, literals);
  INFO(Catch::Detail::stringify(described(calls)));
  REQUIRE_FALSE(calls.empty());
  const Call& first = calls.front();
  CHECK_FALSE(first.on_value);
  CHECK(first.owner == "pkg.Registry");
  CHECK(first.method == "clearAll");
  CHECK(first.descriptor == "()V");
  CHECK(first.args.empty());
  CHECK(first.why == "mutates the field's value");
  CHECK(index_of(calls, "register") > 0);
  CHECK(index_of(calls, "size") == -1);
  auto statement = java_statement(first, std::nullopt, std::nullopt);
  REQUIRE(statement);
  CHECK(*statement == "pkg.Registry.clearAll();");
}

TEST_CASE("candidate_calls: string arguments from the literals in order, then a typed null", "[repair][cleaner]") {
  auto classes = all_fixture_classes();
  classfile::Literals literals;
  literals.strings = {"alpha", "beta", "gamma"};
  literals.ints = {5};
  auto calls = calls_for(registry_names, classes, literals);
  std::vector<std::vector<Arg>> register_args;
  for (const auto& c : calls)
    if (c.method == "register") register_args.push_back(c.args);
  INFO(Catch::Detail::stringify(described(calls)));
  REQUIRE(register_args.size() == 4);
  CHECK(register_args[0] == std::vector<Arg>{string_arg("alpha")});
  CHECK(register_args[1] == std::vector<Arg>{string_arg("beta")});
  CHECK(register_args[2] == std::vector<Arg>{string_arg("gamma")});
  CHECK(register_args[3] == std::vector<Arg>{null_arg("Ljava/lang/String;")});

  Call null_call{false, "pkg.Registry", "register", "(Ljava/lang/String;)V", register_args[3], ""};
  auto statement = java_statement(null_call, std::nullopt, std::nullopt);
  REQUIRE(statement);
  CHECK(*statement == "pkg.Registry.register((java.lang.String) null);");
}

TEST_CASE("candidate_calls: at most six argument lists per method", "[repair][cleaner]") {
  auto classes = all_fixture_classes();
  classfile::Literals literals;
  literals.strings = {"s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8"};
  auto calls = calls_for(registry_names, classes, literals);
  const auto registers = std::count_if(calls.begin(), calls.end(), [](const Call& c) { return c.method == "register"; });
  CHECK(registers == 6);
  // The first six strings; null would be the seventh option.
  for (const auto& c : calls)
    if (c.method == "register") CHECK(c.args.front().kind == Arg::Kind::string);
}

TEST_CASE("candidate_calls: respects max_calls", "[repair][cleaner]") {
  auto classes = all_fixture_classes();
  classfile::Literals literals;
  literals.strings = {"alpha", "beta", "gamma"};
  const auto all = calls_for(registry_names, classes, literals);
  REQUIRE(all.size() > 2);
  const auto two = calls_for(registry_names, classes, literals, 2);
  REQUIRE(two.size() == 2);
  CHECK(two[0] == all[0]);
  CHECK(two[1] == all[1]);
  CHECK(calls_for(registry_names, classes, literals, 0).empty());
}

TEST_CASE("candidate_calls: the singleton's logout() on the value before login(...)", "[repair][cleaner]") {
  auto classes = all_fixture_classes();
  classfile::Literals literals;
  literals.strings = {"alice"};
  auto calls = calls_for(session_instance, classes, literals);
  INFO(Catch::Detail::stringify(described(calls)));
  const auto logout = index_of(calls, "logout");
  const auto login = index_of(calls, "login");
  REQUIRE(logout >= 0);
  REQUIRE(login >= 0);
  CHECK(logout < login);
  CHECK(logout == 0);
  const Call& c = calls[static_cast<std::size_t>(logout)];
  CHECK(c.on_value);
  CHECK(c.owner == "pkg.Session");
  CHECK(c.args.empty());
  CHECK(calls[static_cast<std::size_t>(login)].on_value);
  CHECK(calls[static_cast<std::size_t>(login)].args == std::vector<Arg>{string_arg("alice")});
  // Private methods and constructors cannot be called from a test.
  CHECK(index_of(calls, "setUser") == -1);
  CHECK(index_of(calls, "<init>") == -1);
  CHECK(index_of(calls, "get") == -1);

  auto receiver = field_expression(session_instance, classes, "other");
  REQUIRE(receiver);
  auto statement = java_statement(c, receiver, std::nullopt);
  REQUIRE(statement);
  CHECK(*statement == "pkg.Session.get().logout();");
  // No receiver, no statement.
  CHECK_FALSE(java_statement(c, std::nullopt, std::nullopt));
}

TEST_CASE("candidate_calls: the counter's only candidate writes the field", "[repair][cleaner]") {
  auto classes = all_fixture_classes();
  classfile::Literals literals;
  literals.ints = {3};
  auto calls = calls_for(counter_issued, classes, literals);
  INFO(Catch::Detail::stringify(described(calls)));
  REQUIRE(calls.size() == 1);
  CHECK_FALSE(calls[0].on_value);
  CHECK(calls[0].owner == "pkg.Counter");
  CHECK(calls[0].method == "next");
  CHECK(calls[0].descriptor == "()I");
  CHECK(calls[0].why == "writes the field");
  auto statement = java_statement(calls[0], std::nullopt, std::nullopt);
  REQUIRE(statement);
  CHECK(*statement == "pkg.Counter.next();");
}

TEST_CASE("candidate_calls: an enum parameter gets the earlier value, each constant and null", "[repair][cleaner]") {
  auto classes = all_fixture_classes();
  auto calls = calls_for(settings_mode, classes, {});
  INFO(Catch::Detail::stringify(described(calls)));
  std::vector<Call> set_mode;
  for (const auto& c : calls)
    if (c.method == "setMode") set_mode.push_back(c);
  REQUIRE(set_mode.size() == 4);
  CHECK(set_mode[0].args.at(0).kind == Arg::Kind::original);
  CHECK(set_mode[1].args.at(0) == Arg{Arg::Kind::enum_constant, 0, "FAST", "pkg.Settings$Mode"});
  CHECK(set_mode[2].args.at(0) == Arg{Arg::Kind::enum_constant, 0, "SAFE", "pkg.Settings$Mode"});
  CHECK(set_mode[3].args.at(0) == null_arg("Lpkg/Settings$Mode;"));
  CHECK(set_mode[0].why == "writes the field");

  CHECK(java_statement(set_mode[1], std::nullopt, std::nullopt) == "pkg.Settings.setMode(pkg.Settings.Mode.FAST);");
  CHECK(java_statement(set_mode[3], std::nullopt, std::nullopt) == "pkg.Settings.setMode((pkg.Settings.Mode) null);");
  // The earlier value: only with its source form.
  CHECK_FALSE(java_statement(set_mode[0], std::nullopt, std::nullopt));
  CHECK(java_statement(set_mode[0], std::nullopt, std::string("pkg.Settings.Mode.SAFE")) ==
        "pkg.Settings.setMode(pkg.Settings.Mode.SAFE);");
}

TEST_CASE("candidate_calls: no resets and no known value class give nothing", "[repair][cleaner]") {
  auto classes = all_fixture_classes();
  const PollutedField unknown{"pkg.Child", "VALUE", "Ljava/lang/Object;", "java.util.HashMap"};
  CHECK(calls_for(unknown, classes, {}).empty());
}

TEST_CASE("field_expression", "[repair][cleaner]") {
  auto classes = all_fixture_classes();
  SECTION("a public field is read directly") {
    CHECK(field_expression(registry_names, classes, "other") == "pkg.Registry.NAMES");
    CHECK(field_expression(registry_names, classes, "pkg") == "pkg.Registry.NAMES");
  }
  SECTION("a private field through a public static getter") {
    CHECK(field_expression(session_instance, classes, "other") == "pkg.Session.get()");
  }
  SECTION("a package-private field from its own package only") {
    CHECK(field_expression(settings_mode, classes, "pkg") == "pkg.Settings.mode");
    CHECK_FALSE(field_expression(settings_mode, classes, "other"));
  }
  SECTION("neither an accessible field nor an accessible getter") {
    CHECK_FALSE(field_expression(counter_issued, classes, "other"));
  }
  SECTION("a public field of a package-private class, from its package") {
    const PollutedField hidden{"pkg.Hidden", "VALUE", "Ljava/lang/Object;", ""};
    CHECK(field_expression(hidden, fixture_classes({"pkg.Hidden"}), "pkg") == "pkg.Hidden.VALUE");
  }
  SECTION("the owner's class file is not known") {
    CHECK_FALSE(field_expression(registry_names, fixture_classes({"pkg.Session"}), "other"));
  }
}

TEST_CASE("java_statement and describe", "[repair][cleaner]") {
  SECTION("a static call names a nested class by its source name") {
    Call c{false, "pkg.Outer$Inner", "reset", "()V", {}, ""};
    CHECK(java_statement(c, std::nullopt, std::nullopt) == "pkg.Outer.Inner.reset();");
    CHECK(describe(c) == "pkg.Outer.Inner.reset()");
  }
  SECTION("primitive literals") {
    Call c{false, "pkg.C", "m", "(IJZZ)V",
           {{Arg::Kind::int_, -3}, {Arg::Kind::long_, 5}, {Arg::Kind::boolean, 1}, {Arg::Kind::boolean, 0}}, ""};
    CHECK(java_statement(c, std::nullopt, std::nullopt) == "pkg.C.m(-3, 5L, true, false);");
    CHECK(describe(c) == "pkg.C.m(-3, 5L, true, false)");
  }
  SECTION("strings are escaped") {
    Call c{false, "pkg.C", "put", "(Ljava/lang/String;)V", {string_arg("a\"b\\c\nd")}, ""};
    CHECK(java_statement(c, std::nullopt, std::nullopt) == R"(pkg.C.put("a\"b\\c\nd");)");
  }
  SECTION("enum constants and typed nulls") {
    Call c{false, "java.util.Locale", "setDefault", "(Ljava/util/Locale$Category;Ljava/util/Locale;)V",
           {{Arg::Kind::enum_constant, 0, "FORMAT", "java.util.Locale$Category"}, null_arg("Ljava/util/Locale;")}, ""};
    CHECK(java_statement(c, std::nullopt, std::nullopt) ==
          "java.util.Locale.setDefault(java.util.Locale.Category.FORMAT, (java.util.Locale) null);");
  }
  SECTION("an original argument needs its source form") {
    Call c{false, "pkg.C", "set", "(Ljava/lang/Object;)V", {{Arg::Kind::original, 0, "", "Ljava/lang/Object;"}}, ""};
    CHECK_FALSE(java_statement(c, std::nullopt, std::nullopt));
    CHECK(java_statement(c, std::nullopt, std::string("saved")) == "pkg.C.set(saved);");
    CHECK(describe(c) == "pkg.C.set(<value before the polluter>)");
  }
  SECTION("a call on the value needs a receiver") {
    Call c{true, "java.util.ArrayList", "clear", "()V", {}, ""};
    CHECK_FALSE(java_statement(c, std::nullopt, std::nullopt));
    CHECK(java_statement(c, std::string("pkg.Registry.NAMES"), std::nullopt) == "pkg.Registry.NAMES.clear();");
    CHECK(describe(c) == "<field value>.clear()");
  }
}

TEST_CASE("source_name", "[repair][cleaner]") {
  CHECK(source_name("pkg.Outer$Inner$Deep") == "pkg.Outer.Inner.Deep");
  CHECK(source_name("pkg.Plain") == "pkg.Plain");
}

TEST_CASE("missing_classes: the first unknown class up each chain", "[repair][cleaner]") {
  auto classes = all_fixture_classes();
  SECTION("everything known") {
    CHECK(missing_classes(session_instance, classes).empty());
    CHECK(missing_classes(counter_issued, classes).empty());  // no value class
  }
  SECTION("the owner is unknown") {
    CHECK(missing_classes(session_instance, {}) == std::vector<std::string>{"pkg/Session"});
  }
  SECTION("the owner's superclass and the value's class") {
    const PollutedField child{"pkg.Child", "VALUE", "Ljava/lang/Object;", "java.util.ArrayList"};
    CHECK(missing_classes(child, fixture_classes({"pkg.Child"})) ==
          std::vector<std::string>{"pkg/Base", "java/util/ArrayList"});
    // Once Base is known, only the value's class is left.
    CHECK(missing_classes(child, fixture_classes({"pkg.Child", "pkg.Base"})) ==
          std::vector<std::string>{"java/util/ArrayList"});
  }
  SECTION("the value's class is the owner: named once") {
    CHECK(missing_classes(session_instance, fixture_classes({"pkg.Registry"})) == std::vector<std::string>{"pkg/Session"});
  }
}

TEST_CASE("missing_enum_candidates: nested parameter types of the method's class", "[repair][cleaner]") {
  auto classes = all_fixture_classes();
  auto resets = reset_methods(settings_mode, classes);
  REQUIRE(resets);
  REQUIRE_FALSE(resets->empty());
  CHECK(missing_enum_candidates(*resets, classes).empty());
  ClassFiles without_mode = classes;
  without_mode.erase("pkg/Settings$Mode");
  CHECK(missing_enum_candidates(*resets, without_mode) == std::vector<std::string>{"pkg/Settings$Mode"});
}

TEST_CASE("candidate_calls: an owner's instance reset through its singleton getter", "[repair][cleaner]") {
  // marine-api's shape: SentenceFactory.getInstance().reset() clears the static parser map.
  auto classes = fixture_classes({"pkg.Factory"});
  const PollutedField parsers{"pkg.Factory", "PARSERS", "Ljava/util/Map;", "java.util.HashMap"};
  auto calls = calls_for(parsers, classes, {});
  INFO(Catch::Detail::stringify(described(calls)));
  const auto reset = index_of(calls, "reset");
  REQUIRE(reset == 0);
  const Call& c = calls[0];
  CHECK_FALSE(c.on_value);
  CHECK(c.instance_getter == "getInstance");
  CHECK(describe(c) == "pkg.Factory.getInstance().reset()");
  CHECK(java_statement(c, std::nullopt, std::nullopt) == "pkg.Factory.getInstance().reset();");
  CHECK(instance_getter("pkg.Factory", classes) == "getInstance");
  CHECK_FALSE(instance_getter("pkg.Registry", fixture_classes({"pkg.Registry"})));
}

TEST_CASE("candidate_calls: a JDK class that only fills some map of the field's type is no reset", "[repair][cleaner]") {
  const PollutedField parsers{"pkg.Factory", "PARSERS", "Ljava/util/Map;", "java.util.HashMap"};
  classfile::ResetCandidate jdk{"java/lang/System", "initProperties", "()V", classfile::access::public_ | classfile::access::static_,
                                {{classfile::ResetKind::mutates_field_type, 0, {"java/util/Map", "put", "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"}}}};
  classfile::ResetCandidate own = jdk;
  own.class_name = "pkg/Other";
  auto calls = candidate_calls(parsers, {jdk, own}, {}, {}, 10);
  REQUIRE(calls.size() == 1);
  CHECK(calls[0].owner == "pkg.Other");
}

TEST_CASE("candidate_calls: a reset that takes the entry's name, through a private helper", "[repair][cleaner]") {
  // Issue 29 item 4: the polluter calls register("nightly", 4); shutdown(String) removes the
  // entry through private stop(String). shutdown is tried with the polluter's literal first.
  auto classes = fixture_classes({"pkg.Services", "pkg.NightlyJob"});
  const PollutedField services{"pkg.Services", "SERVICES", "Ljava/util/Map;", "java.util.HashMap"};
  auto literals = classfile::collect_method_literals(classes.at("pkg/NightlyJob"), "schedule");
  if (!literals) FAIL(literals.error().message);
  CHECK(literals->strings == std::vector<std::string>{"nightly", "weekly"});
  CHECK(literals->ints == std::vector<std::int32_t>{4, 7});
  auto resets = reset_methods(services, classes);
  if (!resets) FAIL(resets.error().message);
  auto shutdown = std::find_if(resets->begin(), resets->end(), [](const auto& r) { return r.method_name == "shutdown"; });
  REQUIRE(shutdown != resets->end());
  REQUIRE(shutdown->sites.size() == 1);
  CHECK(shutdown->sites[0].kind == classfile::ResetKind::calls_reset);
  CHECK(shutdown->sites[0].call.name == "stop");
  auto calls = candidate_calls(services, *resets, classes, *literals, 50);
  INFO(Catch::Detail::stringify(described(calls)));
  const auto first_shutdown = index_of(calls, "shutdown");
  REQUIRE(first_shutdown >= 0);
  CHECK(first_shutdown < index_of(calls, "register"));
  CHECK(index_of(calls, "stop") == -1);  // private: no patch could call it
  const Call& c = calls[first_shutdown];
  CHECK(c.args == std::vector<Arg>{string_arg("nightly")});
  CHECK(c.why == "calls pkg.Services.stop, which resets the field");
  CHECK(java_statement(c, std::nullopt, std::nullopt) == "pkg.Services.shutdown(\"nightly\");");
}

TEST_CASE("candidate_calls: a TimeZone parameter gets the JVM's default first", "[repair][cleaner]") {
  auto classes = fixture_classes({"pkg.Stamps"});
  const PollutedField format{"pkg.Stamps", "FORMAT", "Ljava/text/SimpleDateFormat;", "java.text.SimpleDateFormat"};
  auto calls = calls_for(format, classes, {});
  INFO(Catch::Detail::stringify(described(calls)));
  const auto use_zone = index_of(calls, "useZone");
  REQUIRE(use_zone >= 0);
  const Call& c = calls[use_zone];
  REQUIRE(c.args.size() == 1);
  CHECK(c.args[0].kind == Arg::Kind::jdk_default);
  CHECK(describe(c) == "pkg.Stamps.useZone(java.util.TimeZone.getDefault())");
  CHECK(java_statement(c, std::nullopt, std::nullopt) == "pkg.Stamps.useZone(java.util.TimeZone.getDefault());");
  CHECK(calls[use_zone + 1].args == std::vector<Arg>{null_arg("Ljava/util/TimeZone;")});
}

TEST_CASE("jdk_default_for: the JDK's defaults by parameter type", "[repair][cleaner]") {
  auto zone = jdk_default_for("Ljava/time/ZoneId;");
  REQUIRE(zone);
  CHECK(zone->owner == "java.time.ZoneId");
  CHECK(zone->method == "systemDefault");
  CHECK(zone->descriptor == "()Ljava/time/ZoneId;");
  CHECK(jdk_default_for("Ljava/util/Locale;"));
  CHECK_FALSE(jdk_default_for("Ljava/lang/String;"));
  CHECK_FALSE(jdk_default_for("I"));
}

TEST_CASE("candidate_calls: a JDK method that only calls a reset is none, unless it is the field owner's", "[repair][cleaner]") {
  // Locale.getDefault(Category) initialises the default lazily (a putstatic), so every JDK
  // getter that calls it would "call a reset": DateFormat.getTimeInstance() is no cleaner.
  const PollutedField format_locale{"java.util.Locale", "defaultFormatLocale", "Ljava/util/Locale;", "java.util.Locale"};
  const auto statics = classfile::access::public_ | classfile::access::static_;
  classfile::ResetSite calls{classfile::ResetKind::calls_reset, 0,
                             {"java/util/Locale", "setDefault", "(Ljava/util/Locale$Category;Ljava/util/Locale;)V"}};
  classfile::ResetCandidate jdk_getter{"java/text/DateFormat", "getTimeInstance", "()Ljava/text/DateFormat;", statics, {calls}};
  classfile::ResetCandidate owners{"java/util/Locale", "setDefault", "(Ljava/util/Locale;)V", statics, {calls}};
  auto calls_found = candidate_calls(format_locale, {jdk_getter, owners}, {}, {}, 10);
  INFO(Catch::Detail::stringify(described(calls_found)));
  CHECK(index_of(calls_found, "getTimeInstance") == -1);
  CHECK(index_of(calls_found, "setDefault") == 0);
}
