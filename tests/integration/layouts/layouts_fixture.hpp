#pragma once
// examples/jvm-layouts: the project in class directories (Gradle's build/classes/java/test,
// build/resources/test, ...), its test ids, and the local-JVM configuration that runs it.
#include <filesystem>
#include <string>
#include <vector>

#include "backend/local_jvm/local_jvm_executor.hpp"

namespace flakescan::test_support::layouts {

inline const std::string pkg = "example.layouts.";
inline const std::string victim = pkg + "ShippingCostTest#costsPerCountry";  // @ParameterizedTest, case FR
inline const std::string polluter = pkg + "HolidaySurchargeTest#addsSurchargeForFrance";
inline const std::string nested_nio = pkg + "CartTest$Checkout#firstOrderIsNumberOne";
inline const std::string nested_stable = pkg + "CartTest$WithOneItem#totalIsItsPrice";
inline const std::string dynamic = pkg + "ReceiptTest#formatsEveryLine";
inline const std::string repeated = pkg + "ReceiptTest#formatsTotal";
inline const std::string disabled = pkg + "ReceiptTest#appliesTax";
inline const std::string junit4_parameterized = pkg + "DiscountRuleTest#appliesPercentage";
inline const std::string before_class_fails = pkg + "LegacyDatabaseTest#readsRow";
inline const std::string resource = pkg + "CatalogueResourceTest#readsTheCatalogue";
inline const std::string chatty = pkg + "ChattyReportTest#printsTheWholeReport";
inline const std::string leaks_thread = pkg + "BackgroundWorkerTest#startsAWorkerThatNeverStops";
inline const std::string exits = pkg + "ExitingTest#exitsTheJvm";
inline const std::string stable = pkg + "MoneyTest#addsPrices";
inline const std::string exit_message =
    "test did not finish: it called System.exit at example.layouts.ExitingTest.exitsTheJvm(ExitingTest.java:10) "
    "and the JVM exited with status 3";

// build/examples/jvm-layouts.classpath: class and resource directories, then JUnit jars.
std::vector<std::string> classpath();
std::filesystem::path runner_jar();

// A fresh folder for one test's runs, removed with everything in it when the object goes.
class WorkDir {
 public:
  explicit WorkDir(const std::string& name);
  ~WorkDir();
  WorkDir(const WorkDir&) = delete;
  WorkDir& operator=(const WorkDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

backend::LocalJvmConfig config(const std::filesystem::path& work_dir);

}  // namespace flakescan::test_support::layouts
