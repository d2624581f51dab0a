// The one token check (api/auth.hpp): Bearer for the API, a Basic password for browsers.
#include <catch2/catch.hpp>

#include "api/auth.hpp"

using namespace flakescan::api;

TEST_CASE("base64 decoding per RFC 4648", "[api][auth]") {
  struct Case {
    const char* in;
    bool ok;
    const char* out;
  };
  for (const auto& c : {Case{"", true, ""}, Case{"Zg==", true, "f"}, Case{"Zm8=", true, "fo"}, Case{"Zm9v", true, "foo"},
                        Case{"bWU6czNjcmV0", true, "me:s3cret"}, Case{"Zm9", false, ""}, Case{"Zm9v!A==", false, ""},
                        Case{"Zg==Zg==", false, ""}, Case{"Z===", false, ""}}) {
    INFO(c.in);
    std::string out;
    CHECK(base64_decode(c.in, out) == c.ok);
    if (c.ok) CHECK(out == c.out);
  }
}

TEST_CASE("with no token every request is accepted", "[api][auth]") {
  CHECK(token_accepted("", ""));
  CHECK(token_accepted("Bearer whatever", ""));
}

TEST_CASE("the token as a bearer token or as a Basic password, nothing else", "[api][auth]") {
  const std::string token = "s3cret";
  CHECK(token_accepted("Bearer s3cret", token));
  CHECK(token_accepted("bearer  s3cret", token));               // scheme without regard to case
  CHECK(token_accepted("Basic bWU6czNjcmV0", token));           // me:s3cret
  CHECK(token_accepted("Basic OnMzY3JldA==", token));           // :s3cret (no user name)
  CHECK_FALSE(token_accepted("", token));
  CHECK_FALSE(token_accepted("Bearer s3cre", token));
  CHECK_FALSE(token_accepted("Bearer s3cretX", token));
  CHECK_FALSE(token_accepted("Bearers3cret", token));
  CHECK_FALSE(token_accepted("Token s3cret", token));
  CHECK_FALSE(token_accepted("Basic czNjcmV0", token));          // s3cret without a colon
  CHECK_FALSE(token_accepted("Basic bWU6d3Jvbmc=", token));     // me:wrong
  CHECK_FALSE(token_accepted("Basic !!!!", token));
}
