#pragma once
// examples/jvm-order on the local-JVM backend: the executor configuration and the tests
// in the order the example's README lists them.
#include <filesystem>
#include <string>
#include <vector>

#include "backend/local_jvm/local_jvm_executor.hpp"

namespace flakescan::test_support {

inline const std::string victim = "example.order.CachedPriceTest#listPriceWithoutDiscount";
inline const std::string polluter = "example.order.DiscountPolluterTest#cachesDiscountedPrice";
inline const std::string cleaner = "example.order.CacheCleanerTest#clearsCache";
inline const std::string brittle = "example.order.CurrencyBrittleTest#formatsInCurrency";
inline const std::string state_setter = "example.order.SettingsLoaderTest#loadsSettings";
// Hidden by its class: SessionPolluterTest resets the session before each of its tests.
inline const std::string hidden_victim = "example.order.session.GuestGreetingTest#greetsGuest";
inline const std::string hidden_polluter = "example.order.session.SessionPolluterTest#signsInAdmin";
inline const std::string first_run_flaky = "example.order.FirstRunFlakyTest#failsOnFirstRunOnly";
inline const std::vector<std::string> nio_tests{"example.order.LedgerNioTest#recordsOneEntry",
                                                "example.order.LedgerNioTest#opensOnce",
                                                "example.order.RegistrationNioTest#registersName"};
inline const std::vector<std::string> broken_tests{"example.order.BrokenInitializerTest#usesLimit",
                                                   "example.order.BrokenInitializerTest#usesLimitAgain"};

// Every test method of the example, original order: the cleaner before the victim and the
// victim before its polluter (so the original order passes), the brittle before its setter;
// the hidden victim first of its package, its polluter neither first nor last of its class
// (so neither the original nor the reverse order has it last before the victim).
std::vector<std::string> jvm_order_tests();

std::filesystem::path jvm_order_jar();
std::filesystem::path runner_jar();

// A fresh folder for the first-run marker of FirstRunFlakyTest and the runs' files
// (re-armed each time), removed with everything in it when the object goes.
class StateDir {
 public:
  explicit StateDir(const std::string& name);
  ~StateDir();
  StateDir(const StateDir&) = delete;
  StateDir& operator=(const StateDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

backend::LocalJvmConfig jvm_order_config(const std::filesystem::path& work_dir, const std::filesystem::path& state_dir);

}  // namespace flakescan::test_support
