#include "fuzz_one.hpp"

#include <string_view>

#include "adb_protocol/host_protocol.hpp"

namespace flakescan::adb_protocol::fuzz {

namespace {

bool expected_failure(util::Errc code) { return code == util::Errc::need_more || code == util::Errc::malformed; }

// A payload as each kind of reply: whatever parses must format to text that parses back to it.
bool check_payload(std::string_view payload) {
  if (auto devices = parse_device_list(payload)) {
    // host:devices-l keeps everything; host:devices only serials and states.
    auto again = parse_device_list(format_device_list(*devices, true));
    if (!again || *again != *devices) return false;
    auto short_form = parse_device_list(format_device_list(*devices, false));
    if (!short_form || short_form->size() != devices->size()) return false;
    for (std::size_t i = 0; i < devices->size(); ++i) {
      const auto &a = (*devices)[i], &b = (*short_form)[i];
      if (a.serial != b.serial || a.state != b.state || a.state_text != b.state_text) return false;
    }
  } else if (devices.error().code != util::Errc::malformed) {
    return false;
  }
  if (auto pids = parse_pid_list(payload)) {
    std::string text;
    for (int pid : *pids) {
      if (pid <= 0) return false;
      text += std::to_string(pid) + "\n";
    }
    auto again = parse_pid_list(text);
    if (!again || *again != *pids) return false;
  } else if (pids.error().code != util::Errc::malformed) {
    return false;
  }
  if (auto version = parse_version(payload); version && (*version < 0 || *version > int(max_hex4))) return false;
  return true;
}

}  // namespace

bool fuzz_one(const std::uint8_t* data, std::size_t size) {
  Bytes bytes(reinterpret_cast<const char*>(data), size);
  std::size_t offset = 0;
  if (auto status = decode_status(bytes)) {
    if (status->consumed < 4 || status->consumed > size) return false;
    if (status->okay) {
      if (status->consumed != 4 || !status->message.empty()) return false;
    } else {
      if (status->consumed != 8 + status->message.size()) return false;
      auto encoded = encode_fail(status->message);
      if (!encoded) return false;
      auto again = decode_status(Bytes(encoded->data(), encoded->size()));
      if (!again || again->okay || again->message != status->message || again->consumed != encoded->size()) return false;
    }
    offset = status->consumed;
  } else if (!expected_failure(status.error().code)) {
    return false;
  }
  while (offset < size) {
    auto frame = decode_frame(bytes.subspan(offset));
    if (!frame) {
      if (!expected_failure(frame.error().code)) return false;
      break;
    }
    if (frame->consumed != 4 + frame->payload.size() || frame->consumed > size - offset) return false;
    offset += frame->consumed;
    auto encoded = encode_frame(frame->payload);
    if (!encoded) return false;
    auto again = decode_frame(Bytes(encoded->data(), encoded->size()));
    if (!again || again->payload != frame->payload || again->consumed != encoded->size()) return false;
    if (!check_payload(frame->payload)) return false;
  }
  // The whole input as an unframed payload too (the text parsers see any bytes).
  return check_payload(std::string_view(bytes.data(), bytes.size()));
}

}  // namespace flakescan::adb_protocol::fuzz
