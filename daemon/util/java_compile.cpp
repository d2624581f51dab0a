#include "util/java_compile.hpp"

#include <atomic>
#include <fstream>
#include <iterator>

#include <unistd.h>

#include "util/process.hpp"

namespace flakescan::util {

namespace fs = std::filesystem;

CompiledClasses::~CompiledClasses() {
  std::error_code ec;
  fs::remove_all(work_, ec);
}

Result<std::shared_ptr<CompiledClasses>> compile_java_file(const std::string& file_name, const std::vector<std::string>& lines,
                                                           const std::vector<std::string>& classpath, std::chrono::seconds timeout) {
  static std::atomic<int> counter{0};
  auto compiled = std::make_shared<CompiledClasses>(fs::temp_directory_path() / ("flakescan-javac-" + std::to_string(::getpid()) +
                                                                                 "-" + std::to_string(counter++)));
  const fs::path work = compiled->classes().parent_path();
  std::error_code ec;
  fs::create_directories(work / "src", ec);
  fs::create_directories(compiled->classes(), ec);
  if (ec) return fail(Errc::io, "cannot create " + work.string() + ": " + ec.message());
  const fs::path src = work / "src" / file_name;
  {
    std::ofstream out(src);
    for (const auto& l : lines) out << l << "\n";
    if (!out) return fail(Errc::io, "cannot write " + src.string());
  }
  std::string cp;
  for (const auto& entry : classpath) cp += (cp.empty() ? "" : ":") + entry;
  auto javac = Child::spawn({.argv = {"javac", "-nowarn", "-g", "-encoding", "UTF-8", "-d", compiled->classes().string(),
                                      "-cp", cp, src.string()},
                             .stdout_path = (work / "javac.log").string()});
  if (!javac) return fail(Errc::process, "javac could not be started: " + javac.error().message);
  auto status = javac->wait(std::chrono::steady_clock::now() + timeout);
  if (!status || !status->success()) {
    std::ifstream in(work / "javac.log");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return fail(Errc::process, text.substr(0, 400));
  }
  return compiled;
}

}  // namespace flakescan::util
