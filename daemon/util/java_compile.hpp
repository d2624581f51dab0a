#pragma once
// Compiles one Java source file, given as lines, with javac against a classpath into a folder
// of its own: how the techniques that offer a patch (repair, shuffle) check that it compiles
// before they verify it with runs. The folder goes when the last holder lets go of it.
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "util/error.hpp"

namespace flakescan::util {

class CompiledClasses {
 public:
  explicit CompiledClasses(std::filesystem::path work) : work_(std::move(work)) {}
  ~CompiledClasses();
  CompiledClasses(const CompiledClasses&) = delete;
  CompiledClasses& operator=(const CompiledClasses&) = delete;
  // Put it in front of the test JVM's classpath (RunSpec::classpath_prepend).
  std::filesystem::path classes() const { return work_ / "classes"; }

 private:
  std::filesystem::path work_;
};

// `file_name`: "Report.java" (javac wants a public class in a file of its name). Errors:
// process (javac could not start, or the file did not compile: its first messages).
Result<std::shared_ptr<CompiledClasses>> compile_java_file(const std::string& file_name, const std::vector<std::string>& lines,
                                                           const std::vector<std::string>& classpath,
                                                           std::chrono::seconds timeout = std::chrono::seconds(120));

}  // namespace flakescan::util
