#include "jvm_order_fixture.hpp"

#include <unistd.h>

namespace fs = std::filesystem;

namespace flakescan::test_support {

std::vector<std::string> jvm_order_tests() {
  return {"example.order.CacheCleanerTest#clearsCache",
          "example.order.CachedPriceTest#listPriceWithoutDiscount",
          "example.order.CachedPriceTest#otherItemsUseListPrice",
          "example.order.CurrencyBrittleTest#formatsInCurrency",
          "example.order.StableArithmeticTest#adds",
          "example.order.StableArithmeticTest#multiplies",
          "example.order.StableArithmeticTest#formats",
          "example.order.DiscountPolluterTest#cachesDiscountedPrice",
          "example.order.DiscountPolluterTest#discountIsPositive",
          "example.order.SettingsLoaderTest#loadsSettings",
          "example.order.LedgerNioTest#recordsOneEntry",
          "example.order.LedgerNioTest#opensOnce",
          "example.order.RegistrationNioTest#registersName",
          "example.order.FirstRunFlakyTest#failsOnFirstRunOnly",
          "example.order.BrokenInitializerTest#usesLimit",
          "example.order.BrokenInitializerTest#usesLimitAgain",
          "example.order.StableTextTest#upperCases",
          "example.order.StableTextTest#trims",
          "example.order.session.GuestGreetingTest#greetsGuest",
          "example.order.SessionAuditTest#recordsWhoIsSignedIn",
          "example.order.SessionAuditTest#startsAsGuest",
          "example.order.session.SessionPolluterTest#admitsGuest",
          "example.order.session.SessionPolluterTest#greetsSignedInUser",
          "example.order.session.SessionPolluterTest#keepsOneUser",
          "example.order.session.SessionPolluterTest#signsInAdmin",
          "example.order.session.SessionPolluterTest#signsOut",
          "example.order.session.SessionPolluterTest#startsSignedOut"};
}

fs::path jvm_order_jar() { return fs::path(FLAKESCAN_BINARY_DIR) / "examples" / "jvm-order.jar"; }
fs::path runner_jar() { return fs::path(FLAKESCAN_BINARY_DIR) / "lib" / "flakescan-runner.jar"; }

StateDir::StateDir(const std::string& name)
    : path_(fs::temp_directory_path() / ("flakescan-order-it-" + std::to_string(::getpid())) / name) {
  fs::remove_all(path_);
  fs::create_directories(path_);
}

StateDir::~StateDir() {
  std::error_code ec;
  fs::remove_all(path_.parent_path(), ec);
}

backend::LocalJvmConfig jvm_order_config(const fs::path& work_dir, const fs::path& state_dir) {
  backend::LocalJvmConfig c;
  c.runner_jar = runner_jar();
  c.platform_jars = backend::default_platform_jars("/usr/share/java");
  c.classpath = {jvm_order_jar().string()};
  c.jvm_args = {"-Dflakescan.example.state=" + state_dir.string(), "-Xshare:auto", "-XX:TieredStopAtLevel=1"};
  c.work_dir = work_dir;
  c.parallelism = 2;
  fs::create_directories(work_dir);
  return c;
}

}  // namespace flakescan::test_support
