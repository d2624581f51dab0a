#include <catch2/catch.hpp>

#include "util/error.hpp"

using namespace flakescan::util;

TEST_CASE("errors describe themselves with their code", "[util][error]") {
  Result<int> r = fail(Errc::not_found, "scan 'x' does not exist");
  REQUIRE_FALSE(r);
  CHECK(describe(r.error()) == "not_found: scan 'x' does not exist");
  CHECK(errc_name(Errc::need_more) == "need_more");
}
