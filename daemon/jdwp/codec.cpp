#include "jdwp/codec.hpp"

#include <type_traits>

namespace flakescan::jdwp {

using util::Errc;

// ---- layouts that depend on a kind byte ---------------------------------------------------

void ArrayRegion::fields(Writer& w, const ArrayRegion& s) {
  w.put(s.tag);
  w.put(static_cast<std::int32_t>(s.values.size()));
  const bool tagged = is_object_tag(s.tag);
  for (const auto& v : s.values) {
    if (tagged) w.put(v);
    else w.untagged(v);
  }
}

void ArrayRegion::fields(Reader& r, ArrayRegion& s) {
  r.get(s.tag);
  std::int32_t n = 0;
  r.get(n);
  const bool tagged = is_object_tag(s.tag);
  const int item = tagged ? 1 + r.sizes().object : untagged_size(s.tag, r.sizes());
  if (s.tag == Tag::void_) {
    r.fail("array region of void");
    return;
  }
  if (!r.check_count(n, static_cast<std::size_t>(item))) return;
  s.values.clear();
  s.values.reserve(static_cast<std::size_t>(n));
  for (std::int32_t i = 0; i < n && r.ok(); ++i) {
    Value v;
    if (tagged) r.get(v);
    else v = r.untagged(s.tag);
    s.values.push_back(v);
  }
}

template <class A, class M>
static void modifier_payload(A& a, M& m) {
  switch (m.kind) {
    case ModKind::count: case ModKind::conditional: a(m.count); break;
    case ModKind::thread_only: case ModKind::instance_only: a(m.object); break;
    case ModKind::class_only: a(m.type); break;
    case ModKind::class_match: case ModKind::class_exclude: case ModKind::source_name_match: a(m.pattern); break;
    case ModKind::location_only: a(m.location); break;
    case ModKind::exception_only: a(m.type, m.caught, m.uncaught); break;
    case ModKind::field_only: a(m.type, m.field); break;
    case ModKind::step: a(m.object, m.step_size, m.step_depth); break;
  }
}

void Modifier::fields(Writer& w, const Modifier& m) {
  w.u8(static_cast<std::uint8_t>(m.kind));
  modifier_payload(w, m);
}

void Modifier::fields(Reader& r, Modifier& m) {
  const std::uint8_t kind = r.u8();
  if (!r.ok()) return;
  if (kind < 1 || kind > 12) {
    r.fail("unknown modifier kind " + std::to_string(kind));
    return;
  }
  m.kind = static_cast<ModKind>(kind);
  modifier_payload(r, m);
}

void ErSet::Request::fields(Writer& w, const Request& s) {
  w.u8(static_cast<std::uint8_t>(s.kind));
  w.u8(static_cast<std::uint8_t>(s.suspend));
  w.put(s.modifiers);
}

static bool known_event_kind(std::uint8_t k) {
  switch (k) {
    case 1: case 2: case 3: case 4: case 5: case 6: case 7: case 8: case 9: case 10:
    case 20: case 21: case 30: case 40: case 41: case 42: case 43: case 44: case 45: case 46:
    case 90: case 99: case 100:
      return true;
    default:
      return false;
  }
}

static void read_suspend(Reader& r, SuspendPolicy& p) {
  const std::uint8_t b = r.u8();
  if (r.ok() && b > 2) r.fail("unknown suspend policy " + std::to_string(b));
  p = static_cast<SuspendPolicy>(b);
}

void ErSet::Request::fields(Reader& r, Request& s) {
  const std::uint8_t kind = r.u8();
  if (r.ok() && !known_event_kind(kind)) r.fail("unknown event kind " + std::to_string(kind));
  s.kind = static_cast<EventKind>(kind);
  read_suspend(r, s.suspend);
  r.get(s.modifiers);
}

void ErClear::Request::fields(Writer& w, const Request& s) {
  w.u8(static_cast<std::uint8_t>(s.kind));
  w.put(s.request_id);
}

void ErClear::Request::fields(Reader& r, Request& s) {
  const std::uint8_t kind = r.u8();
  if (r.ok() && !known_event_kind(kind)) r.fail("unknown event kind " + std::to_string(kind));
  s.kind = static_cast<EventKind>(kind);
  r.get(s.request_id);
}

// Returns false for kinds whose layout is not known (the caller fails the packet).
template <class A, class E>
static bool event_payload(A& a, E& e) {
  switch (e.kind) {
    case EventKind::vm_start: case EventKind::thread_start: case EventKind::thread_death:
      a(e.thread); return true;
    case EventKind::single_step: case EventKind::breakpoint: case EventKind::method_entry:
    case EventKind::method_exit:
      a(e.thread, e.location); return true;
    case EventKind::method_exit_with_return_value:
      a(e.thread, e.location, e.value); return true;
    case EventKind::monitor_contended_enter: case EventKind::monitor_contended_entered:
      a(e.thread, e.object, e.location); return true;
    case EventKind::monitor_wait:
      a(e.thread, e.object, e.location, e.timeout); return true;
    case EventKind::monitor_waited:
      a(e.thread, e.object, e.location, e.timed_out); return true;
    case EventKind::exception:
      a(e.thread, e.location, e.object, e.catch_location); return true;
    case EventKind::class_prepare:
      a(e.thread, e.type_tag, e.type, e.signature, e.status); return true;
    case EventKind::class_unload:
      a(e.signature); return true;
    case EventKind::field_access:
      a(e.thread, e.location, e.type_tag, e.type, e.field, e.object); return true;
    case EventKind::field_modification:
      a(e.thread, e.location, e.type_tag, e.type, e.field, e.object, e.value); return true;
    case EventKind::vm_death:
      return true;
    default:
      return false;
  }
}

void Event::fields(Writer& w, const Event& e) {
  w.u8(static_cast<std::uint8_t>(e.kind));
  w.put(e.request_id);
  event_payload(w, e);
}

void Event::fields(Reader& r, Event& e) {
  const std::uint8_t kind = r.u8();
  r.get(e.request_id);
  if (!r.ok()) return;
  e.kind = static_cast<EventKind>(kind);
  if (!event_payload(r, e)) r.fail("unknown event kind " + std::to_string(kind));
}

void EventSet::fields(Writer& w, const EventSet& s) {
  w.u8(static_cast<std::uint8_t>(s.suspend));
  w.put(s.events);
}

void EventSet::fields(Reader& r, EventSet& s) {
  read_suspend(r, s.suspend);
  std::int32_t n = 0;
  r.get(n);
  if (!r.check_count(n, 5)) return;  // each event has at least kind + request id
  s.events.clear();
  for (std::int32_t i = 0; i < n && r.ok(); ++i) {
    Event e;
    r.get(e);
    s.events.push_back(std::move(e));
  }
}

// ---- names --------------------------------------------------------------------------------

const char* event_kind_name(EventKind kind) {
  switch (kind) {
    case EventKind::single_step: return "SingleStep";
    case EventKind::breakpoint: return "Breakpoint";
    case EventKind::frame_pop: return "FramePop";
    case EventKind::exception: return "Exception";
    case EventKind::user_defined: return "UserDefined";
    case EventKind::thread_start: return "ThreadStart";
    case EventKind::thread_death: return "ThreadDeath";
    case EventKind::class_prepare: return "ClassPrepare";
    case EventKind::class_unload: return "ClassUnload";
    case EventKind::class_load: return "ClassLoad";
    case EventKind::field_access: return "FieldAccess";
    case EventKind::field_modification: return "FieldModification";
    case EventKind::exception_catch: return "ExceptionCatch";
    case EventKind::method_entry: return "MethodEntry";
    case EventKind::method_exit: return "MethodExit";
    case EventKind::method_exit_with_return_value: return "MethodExitWithReturnValue";
    case EventKind::monitor_contended_enter: return "MonitorContendedEnter";
    case EventKind::monitor_contended_entered: return "MonitorContendedEntered";
    case EventKind::monitor_wait: return "MonitorWait";
    case EventKind::monitor_waited: return "MonitorWaited";
    case EventKind::vm_start: return "VMStart";
    case EventKind::vm_death: return "VMDeath";
    case EventKind::vm_disconnected: return "VMDisconnected";
  }
  return "Unknown";
}

namespace {

struct CommandRow {
  Command command;
  std::string_view name;
};

constexpr CommandRow command_table[] = {
#define JDWP_COMMAND(set, set_id, cmd, cmd_id, type) {Command::set##_##cmd, #set "." #cmd},
#include "jdwp/protocol.def"
#undef JDWP_COMMAND
};

struct ErrorRow {
  std::uint16_t code;
  std::string_view name;
};

constexpr ErrorRow error_table[] = {
#define JDWP_ERROR(name, number) {number, #name},
#include "jdwp/errors.def"
#undef JDWP_ERROR
};

template <class T>
constexpr bool decodable_v = requires(Reader& r, T& t) { r.get(t); } && !std::is_same_v<T, CtSetValues::Request> &&
                             !std::is_same_v<T, OrSetValues::Request>;

template <class T>
util::Result<Bytes> roundtrip(ByteView data, const IdSizes& sizes) {
  if constexpr (!decodable_v<T>) {
    return util::fail(Errc::unsupported, "encode-only layout");
  } else {
    auto decoded = decode<T>(data, sizes);
    if (!decoded) return std::unexpected(decoded.error());
    return encode(*decoded, sizes);
  }
}

}  // namespace

std::optional<Command> find_command(std::uint8_t set, std::uint8_t command) {
  const auto key = static_cast<std::uint16_t>((set << 8) | command);
  for (const auto& row : command_table) {
    if (static_cast<std::uint16_t>(row.command) == key) return row.command;
  }
  return std::nullopt;
}

std::optional<std::string_view> command_name(std::uint8_t set, std::uint8_t command) {
  auto c = find_command(set, command);
  if (!c) return std::nullopt;
  for (const auto& row : command_table) {
    if (row.command == *c) return row.name;
  }
  return std::nullopt;
}

std::string error_name(std::uint16_t code) {
  for (const auto& row : error_table) {
    if (row.code == code) return std::string(row.name);
  }
  return "error " + std::to_string(code);
}

util::Error error_from_jdwp(std::uint16_t code, std::string_view context) {
  Errc e = Errc::internal;
  switch (code) {
    case 10: case 11: case 15: case 20: case 21: case 23: case 24: case 25: case 30: case 31: case 35:
    case 41: case 101: case 503:
      e = Errc::not_found; break;
    case 13: case 14: case 22: case 32: case 33: case 40: case 502:
      e = Errc::conflict; break;
    case 34: case 100: case 102: case 103: case 500: case 504: case 506: case 508: case 512:
      e = Errc::invalid_argument; break;
    case 99: case 511:
      e = Errc::unsupported; break;
    case 112:
      e = Errc::disconnected; break;
    case 110:
      e = Errc::too_large; break;
    default:
      break;
  }
  return util::Error{e, std::string(context) + ": JDWP " + error_name(code)};
}

util::Result<Bytes> reencode(Command command, Direction direction, ByteView data, const IdSizes& sizes) {
  switch (command) {
#define JDWP_COMMAND(set, set_id, cmd, cmd_id, type) \
  case Command::set##_##cmd:                          \
    return direction == Direction::request ? roundtrip<type::Request>(data, sizes) : roundtrip<type::Reply>(data, sizes);
#include "jdwp/protocol.def"
#undef JDWP_COMMAND
  }
  return util::fail(Errc::unsupported, "unknown command");
}

}  // namespace flakescan::jdwp
