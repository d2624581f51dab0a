#include "util/error.hpp"

namespace flakescan::util {

std::string_view errc_name(Errc code) noexcept {
  switch (code) {
    case Errc::invalid_argument: return "invalid_argument";
    case Errc::not_found: return "not_found";
    case Errc::conflict: return "conflict";
    case Errc::too_large: return "too_large";
    case Errc::need_more: return "need_more";
    case Errc::malformed: return "malformed";
    case Errc::unsupported: return "unsupported";
    case Errc::timeout: return "timeout";
    case Errc::disconnected: return "disconnected";
    case Errc::cancelled: return "cancelled";
    case Errc::io: return "io";
    case Errc::process: return "process";
    case Errc::storage: return "storage";
    case Errc::internal: return "internal";
  }
  return "internal";
}

std::string describe(const Error& error) {
  std::string out(errc_name(error.code));
  out += ": ";
  out += error.message;
  return out;
}

}  // namespace flakescan::util
