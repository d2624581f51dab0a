#include <catch2/catch.hpp>

#include "backend/adb/shell_command.hpp"

using namespace flakescan::backend::adb;
using flakescan::util::Errc;

TEST_CASE("instrument command: flags, quoting, order", "[backend_adb][shell]") {
  InstrumentArgs a;
  a.test_package = "com.example.test";
  a.tests = {"com.example.FooTest#bar", "com.example.P#run[1: a, b]"};
  a.extra = {{"clearPackageData", "true"}, {"listener", "com.example.Listener"}};
  a.debug = true;
  CHECK(*instrument_command(a) ==
        "am instrument -w -r -e debug true -e 'clearPackageData' 'true' -e 'listener' 'com.example.Listener'"
        " -e class 'com.example.FooTest#bar,com.example.P#run[1: a, b]'"
        " 'com.example.test/androidx.test.runner.AndroidJUnitRunner'");
}

TEST_CASE("injection attempts are refused before anything reaches a shell", "[backend_adb][shell]") {
  InstrumentArgs base;
  base.test_package = "com.example.test";
  base.tests = {"com.example.FooTest#bar"};
  REQUIRE(instrument_command(base));

  for (std::string bad_test : {"com.example.FooTest#bar;reboot", "com.example.FooTest#bar' ; rm -rf / '",
                               "com.example.FooTest#$(reboot)", "com.example.FooTest#bar`id`",
                               "com.example.FooTest#bar[x'y]", "com.example.FooTest#bar[a|b]", "a b.C#d",
                               "com.example.FooTest#bar\nreboot", "com.example.FooTest#bar&&id"}) {
    auto a = base;
    a.tests = {bad_test};
    INFO(bad_test);
    CHECK(instrument_command(a).error().code == Errc::invalid_argument);
  }
  for (std::string bad_pkg : {"com.example;reboot", "com", "com..x", "1com.x", "com.example.test'", "com.ex ample", ""}) {
    auto a = base;
    a.test_package = bad_pkg;
    INFO(bad_pkg);
    CHECK(instrument_command(a).error().code == Errc::invalid_argument);
    CHECK(clear_command(bad_pkg).error().code == Errc::invalid_argument);
  }
  for (std::string bad_runner : {"androidx.test.Runner;id", "a/b", "x y", "Runner#m"}) {
    auto a = base;
    a.runner = bad_runner;
    INFO(bad_runner);
    CHECK(instrument_command(a).error().code == Errc::invalid_argument);
  }
  std::vector<std::pair<std::string, std::string>> bad_args = {
      {"size", "large; reboot"}, {"size", "$(id)"}, {"a'b", "x"}, {"x", "a b"}, {"x", "`id`"},
      {"class", "com.example.Other"}, {"debug", "false"}, {"x", "a>b"}, {"x", "a\\b"}, {"", "x"}};
  for (const auto& [k, v] : bad_args) {
    auto a = base;
    a.extra = {{k, v}};
    INFO(k << "=" << v);
    CHECK(instrument_command(a).error().code == Errc::invalid_argument);
  }
}

TEST_CASE("quoting keeps single quotes inside one shell word", "[backend_adb][shell]") {
  CHECK(shell_quote("plain") == "'plain'");
  CHECK(shell_quote("it's") == "'it'\\''s'");
  CHECK(shell_quote("") == "''");
}

TEST_CASE("other device commands validate their operands", "[backend_adb][shell]") {
  CHECK(*clear_command("com.example.app") == "pm clear 'com.example.app'");
  CHECK(*install_command("/data/local/tmp/flakescan-com.example.app.apk") ==
        "pm install -r -t '/data/local/tmp/flakescan-com.example.app.apk'");
  CHECK(install_command("/sdcard/x.apk").error().code == Errc::invalid_argument);
  CHECK(install_command("/data/local/tmp/../x.apk").error().code == Errc::invalid_argument);
  CHECK(remove_file_command("/data/local/tmp/a b").error().code == Errc::invalid_argument);
  CHECK(*pidof_command("com.example.app:remote") == "pidof 'com.example.app:remote'");
  CHECK(pidof_command("com.example.app:re;mote").error().code == Errc::invalid_argument);
  CHECK(*force_stop_command("com.example.test") == "am force-stop 'com.example.test'");
}
