// runner_jvm_args: C1 only with small inlining, and transparent huge pages, for runner JVMs
// unless the scan chose its own compilation or pages; transparent_huge_pages_offered reads the kernel's switch.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "backend/local_jvm/local_jvm_executor.hpp"

using flakescan::backend::runner_jvm_args;
using flakescan::backend::transparent_huge_pages_offered;
using Args = std::vector<std::string>;

const Args c1 = {"-XX:TieredStopAtLevel=1", "-XX:C1MaxInlineSize=15", "-XX:C1MaxTrivialSize=3"};

Args plus(Args a, const Args& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST_CASE("runner JVMs compile with C1 only and inline less, before the scan's own options", "[jvm_args]") {
  CHECK(runner_jvm_args({}) == c1);
  CHECK(runner_jvm_args({"-Xmx1g", "-Duser.timezone=UTC"}) == plus(c1, {"-Xmx1g", "-Duser.timezone=UTC"}));
}

TEST_CASE("a scan that names a tiered-compilation option keeps exactly its own options", "[jvm_args]") {
  CHECK(runner_jvm_args({"-XX:TieredStopAtLevel=4"}) == Args{"-XX:TieredStopAtLevel=4"});
  CHECK(runner_jvm_args({"-Xmx1g", "-XX:-TieredCompilation"}) == Args{"-Xmx1g", "-XX:-TieredCompilation"});
}

TEST_CASE("a scan that names an inlining option keeps C1 only and its own inlining", "[jvm_args]") {
  CHECK(runner_jvm_args({"-XX:C1MaxInlineSize=35"}) == Args{"-XX:TieredStopAtLevel=1", "-XX:C1MaxInlineSize=35"});
  CHECK(runner_jvm_args({"-XX:-Inline"}) == Args{"-XX:TieredStopAtLevel=1", "-XX:-Inline"});
}

TEST_CASE("runner JVMs ask for transparent huge pages when the kernel offers them", "[jvm_args]") {
  CHECK(runner_jvm_args({}, true) == plus(c1, {"-XX:+UseTransparentHugePages"}));
  CHECK(runner_jvm_args({"-Xmx1g"}, true) == plus(c1, {"-XX:+UseTransparentHugePages", "-Xmx1g"}));
  CHECK(runner_jvm_args({"-XX:TieredStopAtLevel=4"}, true) == Args{"-XX:+UseTransparentHugePages", "-XX:TieredStopAtLevel=4"});
  // A scan's own page options win, whichever way they go.
  CHECK(runner_jvm_args({"-XX:-UseTransparentHugePages"}, true) == plus(c1, {"-XX:-UseTransparentHugePages"}));
  CHECK(runner_jvm_args({"-XX:+UseLargePages"}, true) == plus(c1, {"-XX:+UseLargePages"}));
}

TEST_CASE("the kernel offers transparent huge pages in mode always or madvise, not never", "[jvm_args]") {
  const auto file = std::filesystem::temp_directory_path() / ("flakescan-thp-" + std::to_string(::getpid()));
  auto with = [&](const std::string& text) {
    std::ofstream(file) << text;
    return transparent_huge_pages_offered(file);
  };
  CHECK(with("always [madvise] never\n"));
  CHECK(with("[always] madvise never\n"));
  CHECK_FALSE(with("always madvise [never]\n"));
  CHECK_FALSE(with(""));
  std::filesystem::remove(file);
  CHECK_FALSE(transparent_huge_pages_offered(file));  // no such file: a kernel without them
}
