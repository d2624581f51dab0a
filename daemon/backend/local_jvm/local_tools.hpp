#pragma once
// The machine's own tools for the techniques (core/tools.hpp): javac from the JDK on PATH and
// stress-ng for the load.
#include "core/tools.hpp"

namespace flakescan::backend {

class LocalTools final : public core::Tools {
 public:
  util::Result<std::shared_ptr<util::CompiledClasses>> compile_java(const std::string& file_name, const std::vector<std::string>& lines,
                                                                    const std::vector<std::string>& classpath) override;
  // stress-ng --cpu <every CPU> --vm 1 --vm-bytes 25%, in a process group of its own.
  util::Result<std::unique_ptr<core::Load>> start_load(std::chrono::seconds at_most) override;
};

}  // namespace flakescan::backend
