#pragma once
// What a technique may start besides test runs (those go through RunLog to a backend): the Java
// compiler, for the patches `repair` and `shuffle` verify with runs, and a CPU and memory load,
// for `noise`. The scan hands one Tools to every technique (TechniqueInput::tools), so that no
// technique starts a process of its own and a test can hand it a fake
// (backend/local_jvm/local_tools.hpp is the real one).
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "util/error.hpp"
#include "util/java_compile.hpp"

namespace flakescan::core {

// A load on the machine; it ends when this is destroyed.
class Load {
 public:
  virtual ~Load() = default;
};

class Tools {
 public:
  virtual ~Tools() = default;
  // One Java source file (`file_name` as javac wants it: "Report.java"), given as lines,
  // compiled against `classpath` into a folder of its own. Errors: process (no compiler, or the
  // file did not compile: its first messages).
  virtual util::Result<std::shared_ptr<util::CompiledClasses>> compile_java(const std::string& file_name,
                                                                            const std::vector<std::string>& lines,
                                                                            const std::vector<std::string>& classpath) = 0;
  // Every CPU and a quarter of the memory busy, for at most `at_most`. Errors: unsupported (no
  // load generator on this machine).
  virtual util::Result<std::unique_ptr<Load>> start_load(std::chrono::seconds at_most) = 0;
};

}  // namespace flakescan::core
