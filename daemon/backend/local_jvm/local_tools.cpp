#include "backend/local_jvm/local_tools.hpp"

#include <algorithm>
#include <thread>

#include "util/process.hpp"

namespace flakescan::backend {

namespace {

class StressLoad final : public core::Load {
 public:
  explicit StressLoad(util::Child child) : child_(std::move(child)) {}
  ~StressLoad() override {
    child_.kill_group();
    (void)child_.wait(std::chrono::steady_clock::now() + std::chrono::seconds(5));
  }

 private:
  util::Child child_;
};

}  // namespace

util::Result<std::shared_ptr<util::CompiledClasses>> LocalTools::compile_java(const std::string& file_name,
                                                                               const std::vector<std::string>& lines,
                                                                               const std::vector<std::string>& classpath) {
  return util::compile_java_file(file_name, lines, classpath);
}

util::Result<std::unique_ptr<core::Load>> LocalTools::start_load(std::chrono::seconds at_most) {
  const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  auto stress = util::Child::spawn({.argv = {"stress-ng", "--cpu", std::to_string(cpus), "--vm", "1", "--vm-bytes", "25%", "--timeout",
                                             std::to_string(std::max<long long>(1, at_most.count())) + "s", "--quiet"}});
  if (!stress) return util::fail(util::Errc::unsupported, "no load generator: stress-ng: " + stress.error().message);
  return std::unique_ptr<core::Load>(std::make_unique<StressLoad>(std::move(*stress)));
}

}  // namespace flakescan::backend
