#pragma once
// MD5 (RFC 1321), only to reproduce VET's screen keys: VET orders screens of equal size and
// activity by the hex MD5 of its canonical screen string, and that order decides which screen
// becomes a group root. Not used for anything security-related.
#include <string>
#include <string_view>

namespace flakescan::tarpit {

// Lower-case hex digest, like Python's hashlib.md5(s).hexdigest().
std::string md5_hex(std::string_view data);

}  // namespace flakescan::tarpit
