#pragma once
// The one token check of the server. With a token configured every request must carry it:
//   Authorization: Bearer <token>            (the CLI, scripts, CI)
//   Authorization: Basic base64(<any user>:<token>)
// The second form is for browsers on the dashboard: on a 401 they ask for a user name and a
// password (the token) and send them with every request to the daemon, the event stream
// included. Both compare the whole token in constant time.
#include <string>
#include <string_view>

namespace flakescan::api {

bool token_accepted(std::string_view authorization, std::string_view token);

// The WWW-Authenticate challenges of a 401 (one header line each).
inline constexpr std::string_view bearer_challenge = "Bearer realm=\"flakescand\"";
inline constexpr std::string_view basic_challenge = "Basic realm=\"flakescand\", charset=\"UTF-8\"";

// RFC 4648 base64 with padding; false (and `out` unusable) on anything else.
bool base64_decode(std::string_view text, std::string& out);

}  // namespace flakescan::api
