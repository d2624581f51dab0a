#include "layouts_fixture.hpp"

#include <unistd.h>

#include <fstream>
#include <sstream>

#include "support/classpath_file.hpp"

namespace fs = std::filesystem;

namespace flakescan::test_support::layouts {

std::vector<std::string> classpath() {
  return classpath_file(fs::path(FLAKESCAN_BINARY_DIR) / "examples" / "jvm-layouts.classpath");
}

fs::path runner_jar() { return fs::path(FLAKESCAN_BINARY_DIR) / "lib" / "flakescan-runner.jar"; }

WorkDir::WorkDir(const std::string& name)
    : path_(fs::temp_directory_path() / ("flakescan-layouts-it-" + std::to_string(::getpid())) / name) {
  fs::remove_all(path_);
  fs::create_directories(path_);
}

WorkDir::~WorkDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
  fs::remove(path_.parent_path(), ec);  // the process's folder, once its last WorkDir is gone
}

backend::LocalJvmConfig config(const fs::path& work_dir) {
  backend::LocalJvmConfig c;
  c.runner_jar = runner_jar();
  c.platform_jars = backend::default_platform_jars("/usr/share/java");
  c.classpath = classpath();
  c.jvm_args = {"-Xshare:auto", "-XX:TieredStopAtLevel=1"};
  c.work_dir = work_dir;
  c.parallelism = 2;
  c.cds_dir = work_dir / "cds";  // as flakescand has it by default: class directories never dump
  fs::create_directories(work_dir);
  return c;
}

}  // namespace flakescan::test_support::layouts
