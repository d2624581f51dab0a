#include "adb_protocol/host_protocol.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <utility>

namespace flakescan::adb_protocol {

using util::Errc;
using util::fail;

namespace {

constexpr std::array<std::pair<DeviceState, std::string_view>, 11> state_names{{
    {DeviceState::device, "device"},
    {DeviceState::offline, "offline"},
    {DeviceState::unauthorized, "unauthorized"},
    {DeviceState::authorizing, "authorizing"},
    {DeviceState::connecting, "connecting"},
    {DeviceState::bootloader, "bootloader"},
    {DeviceState::recovery, "recovery"},
    {DeviceState::sideload, "sideload"},
    {DeviceState::rescue, "rescue"},
    {DeviceState::host, "host"},
    {DeviceState::no_permissions, "no permissions"},
}};

// CR separates words like a space: trimmed at a line's ends, it must not stick to a word
// inside one ("device\r usb:1" would otherwise be a state that reads back as "device").
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// The lines of a payload, trimmed, blank ones left out.
std::vector<std::string_view> trimmed_lines(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    std::size_t nl = text.find('\n');
    std::string_view line = trim(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

// The first word of `rest` (up to a space); `rest` keeps what follows, trimmed.
std::string_view take_word(std::string_view& rest) {
  std::size_t e = 0;
  while (e < rest.size() && !is_space(rest[e])) ++e;
  std::string_view word = rest.substr(0, e);
  rest = trim(rest.substr(e));
  return word;
}

}  // namespace

std::string hex4(std::size_t n) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out(4, '0');
  for (int i = 3; i >= 0; --i) {
    out[i] = digits[n & 0xF];
    n >>= 4;
  }
  return out;
}

util::Result<std::string> encode_request(std::string_view service) {
  if (service.empty()) return fail(Errc::invalid_argument, "empty adb service request");
  if (service.size() > max_hex4) return fail(Errc::invalid_argument, "adb service request over 65535 bytes");
  return hex4(service.size()) + std::string(service);
}

util::Result<std::size_t> parse_hex4(std::string_view digits) {
  if (digits.size() != 4) return fail(Errc::malformed, "want 4 hex digits");
  std::size_t value = 0;
  for (char c : digits) {
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else return fail(Errc::malformed, "not a hex length: '" + std::string(digits) + "'");
    value = value * 16 + std::size_t(d);
  }
  return value;
}

util::Result<Status> decode_status(Bytes bytes) {
  if (bytes.size() < 4) return fail(Errc::need_more, "status");
  std::string_view word(bytes.data(), 4);
  if (word == "OKAY") return Status{true, {}, 4};
  if (word != "FAIL") return fail(Errc::malformed, "adb server replied neither OKAY nor FAIL");
  auto frame = decode_frame(bytes.subspan(4));
  if (!frame) return std::unexpected(frame.error());
  return Status{false, std::move(frame->payload), 4 + frame->consumed};
}

std::string encode_okay() { return "OKAY"; }

util::Result<std::string> encode_fail(std::string_view message) {
  auto frame = encode_frame(message);
  if (!frame) return frame;
  return "FAIL" + *frame;
}

util::Result<Frame> decode_frame(Bytes bytes) {
  if (bytes.size() < 4) return fail(Errc::need_more, "length");
  auto len = parse_hex4(std::string_view(bytes.data(), 4));
  if (!len) return std::unexpected(len.error());
  if (bytes.size() < 4 + *len) return fail(Errc::need_more, "payload");
  return Frame{std::string(bytes.data() + 4, *len), 4 + *len};
}

util::Result<std::string> encode_frame(std::string_view payload) {
  if (payload.size() > max_hex4) return fail(Errc::too_large, "adb payload over 65535 bytes");
  return hex4(payload.size()) + std::string(payload);
}

util::Result<int> parse_version(std::string_view payload) {
  auto v = parse_hex4(payload);
  if (!v) return fail(Errc::malformed, "host:version payload is not 4 hex digits");
  return int(*v);
}

std::string_view device_state_name(DeviceState state) {
  for (auto [s, n] : state_names) if (s == state) return n;
  return "unknown";
}

DeviceState parse_device_state(std::string_view text) {
  for (auto [s, n] : state_names) if (n == text) return s;
  if (text.starts_with("no permissions")) return DeviceState::no_permissions;
  return DeviceState::unknown;
}

util::Result<std::vector<DeviceEntry>> parse_device_list(std::string_view text) {
  std::vector<DeviceEntry> out;
  for (std::string_view line : trimmed_lines(text)) {
    std::string_view rest = line;
    DeviceEntry entry;
    entry.serial = std::string(take_word(rest));
    if (rest.empty()) return fail(Errc::malformed, "device line without a state: '" + std::string(line) + "'");
    if (rest.starts_with("no permissions")) {
      // "no permissions (user in plugdev group; ...); see [http://...]" then key:value words.
      // Without the bracketed link the text ends at the first key: any of them, since usb: is
      // not always there (a text cut only at " usb:" swallowed "product:..." before it).
      std::size_t end = rest.find(']');
      if (end != std::string_view::npos) {
        ++end;
      } else {
        for (std::string_view key : {" usb:", " product:", " model:", " device:", " transport_id:"})
          end = std::min(end, rest.find(key));
      }
      entry.state_text = std::string(trim(rest.substr(0, end)));
      rest = end == std::string_view::npos ? std::string_view{} : trim(rest.substr(end));
    } else {
      entry.state_text = std::string(take_word(rest));
    }
    entry.state = parse_device_state(entry.state_text);
    while (!rest.empty()) {
      std::string_view word = take_word(rest);
      std::size_t colon = word.find(':');
      if (colon == std::string_view::npos) continue;
      std::string_view key = word.substr(0, colon), value = word.substr(colon + 1);
      if (key == "product") entry.product = value;
      else if (key == "model") entry.model = value;
      else if (key == "device") entry.device = value;
      else if (key == "usb") entry.usb = value;
      else if (key == "transport_id") entry.transport_id = value;
    }
    out.push_back(std::move(entry));
  }
  return out;
}

std::string format_device_list(const std::vector<DeviceEntry>& devices, bool long_format) {
  std::string out;
  for (const auto& d : devices) {
    std::string state = d.state_text.empty() ? std::string(device_state_name(d.state)) : d.state_text;
    if (!long_format) {
      out += d.serial + "\t" + state + "\n";
      continue;
    }
    std::string serial = d.serial;
    if (serial.size() < 22) serial.resize(22, ' ');
    out += serial + " " + state;
    if (!d.usb.empty()) out += " usb:" + d.usb;
    if (!d.product.empty()) out += " product:" + d.product;
    if (!d.model.empty()) out += " model:" + d.model;
    if (!d.device.empty()) out += " device:" + d.device;
    if (!d.transport_id.empty()) out += " transport_id:" + d.transport_id;
    out += "\n";
  }
  return out;
}

util::Result<std::vector<int>> parse_pid_list(std::string_view text) {
  std::vector<int> out;
  for (std::string_view line : trimmed_lines(text)) {
    int pid = 0;
    auto [p, ec] = std::from_chars(line.data(), line.data() + line.size(), pid);
    if (ec != std::errc{} || p != line.data() + line.size() || pid <= 0)
      return fail(Errc::malformed, "not a pid: '" + std::string(line) + "'");
    out.push_back(pid);
  }
  return out;
}

}  // namespace flakescan::adb_protocol
