#pragma once
// The wire-trace text format: what the session writes with its trace option and what the
// codec tests read as fixtures. One line per packet, in the order seen on the socket:
//
//   # any comment
//   idsizes <field> <method> <object> <reference_type> <frame>   (applies to later lines)
//   > handshake                  debugger -> VM handshake
//   < handshake                  VM -> debugger handshake
//   > <hex of the whole packet>  [# note]   debugger -> VM
//   < <hex of the whole packet>  [# note]   VM -> debugger
//
// The note (command name, error name) is for people; parse_trace keeps it in TraceEntry.
#include <string>
#include <string_view>
#include <vector>

#include "jdwp/wire.hpp"

namespace flakescan::jdwp {

struct TraceEntry {
  bool from_vm = false;
  bool handshake = false;
  Bytes bytes;     // the whole packet, header included (empty for a handshake)
  IdSizes sizes;   // the id sizes in force at this line
  int line = 0;    // 1-based line number in the trace text
  std::string note;  // the text after '#', trimmed (tests name their cases with it)
};

util::Result<std::vector<TraceEntry>> parse_trace(std::string_view text);

std::string format_trace_packet(bool from_vm, ByteView packet_bytes, std::string_view note);
std::string format_trace_handshake(bool from_vm);
std::string format_trace_sizes(const IdSizes& sizes);

std::string to_hex(ByteView bytes);
util::Result<Bytes> from_hex(std::string_view hex);

}  // namespace flakescan::jdwp
