#include "jdwp/wire_log.hpp"

#include <sstream>

namespace flakescan::jdwp {

using util::Errc;

std::string to_hex(ByteView bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (auto b : bytes) {
    out.push_back(digits[b >> 4]);
    out.push_back(digits[b & 15]);
  }
  return out;
}

util::Result<Bytes> from_hex(std::string_view hex) {
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  Bytes out;
  int high = -1;
  for (char c : hex) {
    if (c == ' ' || c == '\t') continue;
    int n = nibble(c);
    if (n < 0) return util::fail(Errc::malformed, std::string("not a hex digit: '") + c + "'");
    if (high < 0) {
      high = n;
    } else {
      out.push_back(static_cast<std::uint8_t>((high << 4) | n));
      high = -1;
    }
  }
  if (high >= 0) return util::fail(Errc::malformed, "odd number of hex digits");
  return out;
}

std::string format_trace_packet(bool from_vm, ByteView packet_bytes, std::string_view note) {
  std::string out = from_vm ? "< " : "> ";
  out += to_hex(packet_bytes);
  if (!note.empty()) {
    out += "  # ";
    out += note;
  }
  out += '\n';
  return out;
}

std::string format_trace_handshake(bool from_vm) { return from_vm ? "< handshake\n" : "> handshake\n"; }

std::string format_trace_sizes(const IdSizes& s) {
  std::ostringstream out;
  out << "idsizes " << s.field << ' ' << s.method << ' ' << s.object << ' ' << s.reference_type << ' ' << s.frame << '\n';
  return out.str();
}

util::Result<std::vector<TraceEntry>> parse_trace(std::string_view text) {
  std::vector<TraceEntry> entries;
  IdSizes sizes;
  int line_no = 0;
  while (!text.empty()) {
    auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++line_no;
    std::string_view note;
    if (auto hash = line.find('#'); hash != std::string_view::npos) {
      note = line.substr(hash + 1);
      line = line.substr(0, hash);
      while (!note.empty() && (note.front() == ' ' || note.front() == '\t')) note.remove_prefix(1);
      while (!note.empty() && (note.back() == ' ' || note.back() == '\r')) note.remove_suffix(1);
    }
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r' || line.back() == '\t')) line.remove_suffix(1);
    if (line.empty()) continue;
    auto where = [&](const std::string& what) { return "trace line " + std::to_string(line_no) + ": " + what; };
    if (line.starts_with("idsizes")) {
      std::istringstream in{std::string(line.substr(7))};
      IdSizes s;
      if (!(in >> s.field >> s.method >> s.object >> s.reference_type >> s.frame)) {
        return util::fail(Errc::malformed, where("bad idsizes line"));
      }
      if (auto ok = validate(s); !ok) return util::fail(Errc::malformed, where(ok.error().message));
      sizes = s;
      continue;
    }
    if (line.size() < 2 || (line[0] != '>' && line[0] != '<') || line[1] != ' ') {
      return util::fail(Errc::malformed, where("expected '> ' or '< '"));
    }
    TraceEntry e;
    e.from_vm = line[0] == '<';
    e.sizes = sizes;
    e.line = line_no;
    e.note = std::string(note);
    auto body = line.substr(2);
    if (body == "handshake") {
      e.handshake = true;
    } else {
      auto bytes = from_hex(body);
      if (!bytes) return util::fail(Errc::malformed, where(bytes.error().message));
      e.bytes = std::move(*bytes);
    }
    entries.push_back(std::move(e));
  }
  return entries;
}

}  // namespace flakescan::jdwp
