// runner_jvm_args: C1 only for runner JVMs unless the scan chose its own compilation.
#include <catch2/catch.hpp>

#include "backend/local_jvm/local_jvm_executor.hpp"

using flakescan::backend::runner_jvm_args;
using Args = std::vector<std::string>;

TEST_CASE("runner JVMs compile with C1 only, before the scan's own options", "[jvm_args]") {
  CHECK(runner_jvm_args({}) == Args{"-XX:TieredStopAtLevel=1"});
  CHECK(runner_jvm_args({"-Xmx1g", "-Duser.timezone=UTC"}) == Args{"-XX:TieredStopAtLevel=1", "-Xmx1g", "-Duser.timezone=UTC"});
}

TEST_CASE("a scan that names a tiered-compilation option keeps exactly its own options", "[jvm_args]") {
  CHECK(runner_jvm_args({"-XX:TieredStopAtLevel=4"}) == Args{"-XX:TieredStopAtLevel=4"});
  CHECK(runner_jvm_args({"-Xmx1g", "-XX:-TieredCompilation"}) == Args{"-Xmx1g", "-XX:-TieredCompilation"});
}
